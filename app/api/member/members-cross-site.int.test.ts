/**
 * A member session's cookies are set only on a request this site (or an origin the publisher
 * allows by name) made: sign-in and sign-up from another site (an Origin that is not this host's,
 * `Origin: null`, or `Sec-Fetch-Site: cross-site`) answer with the token in X-QT-AUTH but set no
 * cookie, so no page elsewhere can sign a reader's browser in (login CSRF). Same-origin requests
 * and back ends (no browser headers) get the cookies as before.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { POST as bkLogin } from "@/app/api/auth/v1/login/route";
import { POST as bkSignup } from "@/app/api/auth/v1/signup/route";
import { POST as login } from "@/app/api/member/login/route";
import { POST as signup } from "@/app/api/member/route";
import { resetEnvCache } from "@/env.js";
import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { post, setCookies, signupMember, uniqueEmail } from "@/server/testing/member-calls";
import { createTestPublisher } from "@/server/testing/publishing-factories";

beforeEach(() => forgetPublisherCache());

const CROSS_SITE: Record<string, Record<string, string>> = {
  "another site's Origin": { origin: "https://evil.example.net", "sec-fetch-site": "cross-site" },
  "an Origin alone": { origin: "https://evil.example.net" },
  "Sec-Fetch-Site alone": { "sec-fetch-site": "cross-site" },
  "an opaque Origin": { origin: "null" },
  "this host on another port": { origin: "http://localhost:4444", "sec-fetch-site": "same-site" },
};

describe("cookie sessions and cross-site requests", () => {
  for (const [name, headers] of Object.entries(CROSS_SITE)) {
    it(`sign-in with ${name}: the token, no cookies`, async () => {
      await createTestPublisher(await getDb());
      const { email, password } = await signupMember();
      for (const [handler, path] of [
        [login, "/api/member/login"],
        [bkLogin, "/api/auth/v1/login"],
      ] as const) {
        const res = await post(handler, path, { email, password }, headers);
        expect(res.status, path).toBe(200);
        expect(res.headers.get("X-QT-AUTH"), path).toBeTruthy();
        expect(setCookies(res), path).toEqual([]);
      }
    });
  }

  it("sign-up from another site: the member and token, no cookies", async () => {
    await createTestPublisher(await getDb());
    for (const [handler, path] of [
      [signup, "/api/member"],
      [bkSignup, "/api/auth/v1/signup"],
    ] as const) {
      const body = { name: "Ada Reader", email: uniqueEmail(), password: "correct horse battery" };
      const res = await post(handler, path, body, CROSS_SITE["another site's Origin"]);
      expect(res.status, path).toBe(201);
      expect(res.headers.get("X-QT-AUTH"), path).toBeTruthy();
      expect(setCookies(res), path).toEqual([]);
    }
  });

  it("this site's own pages, a back end without browser headers: the cookies", async () => {
    await createTestPublisher(await getDb());
    const { email, password } = await signupMember();
    const cases: Record<string, string>[] = [
      { origin: "http://localhost", "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "none" },
      {},
    ];
    for (const headers of cases) {
      const res = await post(login, "/api/member/login", { email, password }, headers);
      expect(res.status).toBe(200);
      const token = res.headers.get("X-QT-AUTH");
      expect(
        setCookies(res).map((c) => c.split(";")[0]),
        JSON.stringify(headers),
      ).toEqual([`qt-auth=${token}`, `session-cookie=${token}`]);
    }
  });

  describe("with origins the publisher allows by name", () => {
    afterEach(() => {
      delete process.env.CORS_ALLOWED_ORIGINS;
      resetEnvCache();
    });

    it("an allowed origin gets the cookies; any other does not, nor does '*' allow one", async () => {
      await createTestPublisher(await getDb());
      const { email, password } = await signupMember();
      process.env.CORS_ALLOWED_ORIGINS = "https://www.gazette.test";
      resetEnvCache();
      const allowed = await post(
        login,
        "/api/member/login",
        { email, password },
        {
          origin: "https://www.gazette.test",
          "sec-fetch-site": "cross-site",
        },
      );
      expect(setCookies(allowed)).toHaveLength(2);
      const other = await post(
        login,
        "/api/member/login",
        { email, password },
        {
          origin: "https://evil.example.net",
        },
      );
      expect(setCookies(other)).toEqual([]);
      process.env.CORS_ALLOWED_ORIGINS = "*";
      resetEnvCache();
      const any = await post(login, "/api/member/login", { email, password }, { origin: "https://www.gazette.test" });
      expect(setCookies(any)).toEqual([]);
    });
  });
});
