/**
 * Member metadata over HTTP (GET/POST /api/member/metadata): 401 without a session; the posted
 * object stored whole (replacing the previous one) and shown by /members/me; non-objects, bodies
 * over 16 KB, unpaired surrogates and nesting too deep to store refused with 4xx, never 500.
 * Route handlers are called directly.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { GET as metadataGet, POST as metadataPost } from "@/app/api/member/metadata/route";
import { GET as me } from "@/app/api/v1/members/me/route";
import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { get, json, post, postRaw, signupMember } from "@/server/testing/member-calls";
import { createTestPublisher } from "@/server/testing/publishing-factories";

beforeEach(() => forgetPublisherCache());

describe("GET/POST /api/member/metadata", () => {
  it("answers 401 with an error message when not logged in", async () => {
    await createTestPublisher(await getDb());
    for (const res of [
      await get(metadataGet, "/api/member/metadata"),
      await post(metadataPost, "/api/member/metadata", { a: 1 }, { "X-QT-AUTH": "bogus" }),
    ]) {
      expect(res.status).toBe(401);
      const body = await json(res);
      expect(body.error.code).toBe("UNAUTHORIZED");
      expect(body.error.message.length).toBeGreaterThan(10);
    }
  });

  it("stores the posted object (replacing the previous one), unwraps {metadata}, and returns it", async () => {
    await createTestPublisher(await getDb());
    const { token, email } = await signupMember();
    const auth = { "X-QT-AUTH": token! };
    expect(await (await get(metadataGet, "/api/member/metadata", auth)).json()).toEqual({});

    const first = await post(metadataPost, "/api/member/metadata", { theme: "dark", topics: ["politics"] }, auth);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ theme: "dark", topics: ["politics"] });
    // Replaced, not merged; the quintype-ruby wrapper is unwrapped.
    const second = await post(metadataPost, "/api/member/metadata", { metadata: { newsletter: true } }, auth);
    expect(await second.json()).toEqual({ newsletter: true });
    expect(await (await get(metadataGet, "/api/member/metadata", { cookie: `qt-auth=${token}` })).json()).toEqual({
      newsletter: true,
    });
    // And /members/me shows it.
    expect((await json(await get(me, "/api/v1/members/me", auth))).member).toMatchObject({
      email,
      metadata: { newsletter: true },
    });
  });

  it("refuses a non-object body with 400 and one over 16 KB with 413 or 400", async () => {
    await createTestPublisher(await getDb());
    const { token } = await signupMember();
    const auth = { "X-QT-AUTH": token! };
    for (const body of [[1, 2], "text", 42, null])
      expect((await post(metadataPost, "/api/member/metadata", body, auth)).status).toBe(400);
    const big = await post(metadataPost, "/api/member/metadata", { blob: "x".repeat(17 * 1024) }, auth);
    expect(big.status).toBe(413);
    const justOver = await post(
      metadataPost,
      "/api/member/metadata",
      { metadata: { blob: "x".repeat(16 * 1024) } },
      auth,
    );
    expect(justOver.status).toBe(400);
    expect(await (await get(metadataGet, "/api/member/metadata", auth)).json()).toEqual({});
  });

  it("refuses metadata holding an unpaired UTF-16 surrogate (which jsonb cannot store) with 400, not 500", async () => {
    await createTestPublisher(await getDb());
    const { token } = await signupMember();
    for (const body of ['{"a":"x\\ud800"}', '{"a\\udc00":"x"}', '{"a":["\\udc00\\ud800"]}']) {
      const res = await postRaw(metadataPost, "/api/member/metadata", body, { "X-QT-AUTH": token! });
      expect(res.status, body).toBe(400);
    }
    const paired = await post(metadataPost, "/api/member/metadata", { emoji: "\u{1F600}" }, { "X-QT-AUTH": token! });
    expect(paired.status).toBe(200);
    expect(await paired.json()).toEqual({ emoji: "\u{1F600}" });
  });

  it("refuses metadata nested too deep to store with 400, not 500", async () => {
    await createTestPublisher(await getDb());
    const { token } = await signupMember();
    const body = `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const res = await postRaw(metadataPost, "/api/member/metadata", body, { "X-QT-AUTH": token! });
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe("BAD_REQUEST");
    expect(await (await get(metadataGet, "/api/member/metadata", { "X-QT-AUTH": token! })).json()).toEqual({});
  });
});
