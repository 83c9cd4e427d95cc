/**
 * The OAuth 2.0 provider's code and token, driven by a real OAuth client library (oauth4webapi)
 * through the route handlers (server/testing/oauth-client.ts): authorize → code → token →
 * current_user.json with either form of client authentication; RFC 6749 errors for bad token
 * requests; a reused, raced or expired code; PKCE; current_user.json without or with a bad or
 * expired token; the hourly purge of expired tokens and codes.
 */
import * as oauth from "oauth4webapi";
import { describe, expect, it, vi } from "vitest";

import { JOBS } from "@/server/background/job-list";
import { getDb } from "@/server/db";
import { LocalRunner } from "@/server/jobs/local-runner";
import { AUTHORIZATION_CODE_TTL_MS } from "@/server/oauth/provider";
import { testJobDeps } from "@/server/testing/jobs";
import {
  authorizeUrl,
  authServer,
  browse,
  codeExchange,
  getCode,
  oauthSetup,
  REDIRECT,
  serve,
  SITE,
  throughHandlers,
  tokenForm,
  withRealTimers,
} from "@/server/testing/oauth-client";
import { fakeClock } from "@/server/testing/webhook-receiver";

withRealTimers();

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("OAuth 2.0 provider with a real client library (oauth4webapi)", () => {
  it("authorize → code → token → current_user.json: the reader's member, the author of their comments", async () => {
    const s = await oauthSetup();
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const callback = await getCode(s, { code_challenge: challenge, code_challenge_method: "S256", scope: "profile" });

    for (const auth of ["post", "basic"] as const) {
      const code =
        auth === "post" ? callback : await getCode(s, { code_challenge: challenge, code_challenge_method: "S256" });
      const client = { client_id: s.client.clientId };
      const clientAuth =
        auth === "post" ? oauth.ClientSecretPost(s.clientSecret) : oauth.ClientSecretBasic(s.clientSecret);
      const response = await oauth.authorizationCodeGrantRequest(
        authServer,
        client,
        clientAuth,
        code,
        REDIRECT,
        verifier,
        throughHandlers,
      );
      expect(response.headers.get("cache-control")).toBe("no-store");
      const tokens = await oauth.processAuthorizationCodeResponse(authServer, client, response);
      expect(tokens.token_type).toBe("bearer");
      expect(tokens.expires_in).toBe(7200);
      expect(tokens.created_at).toBeCloseTo(Date.now() / 1000, -1);

      const me = await oauth.protectedResourceRequest(
        tokens.access_token,
        "GET",
        new URL(`${SITE}/api/v1/current_user.json`),
        undefined,
        undefined,
        throughHandlers,
      );
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({
        current_user: { id: s.member.id, name: "Ada Reader", avatar: null, bio: "", slug: `reader-${s.member.id}` },
      });
      // The query parameter form of spec §4.1.
      const byQuery = await serve(`${SITE}/api/v1/current_user.json?access_token=${tokens.access_token}`);
      expect(((await byQuery.json()) as { current_user: { id: number } }).current_user.id).toBe(s.member.id);
    }

    // One reader, one record: both tokens speak for the member the session belongs to; no secret is stored.
    const rows = await s.db.oAuthAccessToken.findMany();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.memberId === s.member.id && !JSON.stringify(r).includes("mh_ocs_"))).toBe(true);
  });

  it("takes JSON bodies and answers RFC 6749 errors for bad requests", async () => {
    const s = await oauthSetup();
    const code = (await getCode(s)).get("code")!;
    const json = (body: unknown) =>
      serve(`${SITE}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const base = codeExchange(s, code);

    const cases: [unknown, number, string][] = [
      [{ ...base, grant_type: undefined }, 400, "invalid_request"],
      [{ ...base, grant_type: "password" }, 400, "unsupported_grant_type"],
      [{ ...base, client_secret: "mh_ocs_wrong" }, 401, "invalid_client"],
      [{ ...base, client_id: "mh_oc_nobody" }, 401, "invalid_client"],
      [{ ...base, client_id: s.other.client.clientId, client_secret: s.other.clientSecret }, 400, "invalid_grant"],
      [{ ...base, code: "not-a-code" }, 400, "invalid_grant"],
      [{ ...base, code: undefined }, 400, "invalid_request"],
      [{ ...base, redirect_uri: "http://localhost:3000/cb" }, 400, "invalid_grant"],
      [{ ...base, code_verifier: oauth.generateRandomCodeVerifier() }, 400, "invalid_grant"],
      [{ ...base, code: ["a", "b"] }, 400, "invalid_request"],
      [[1, 2], 400, "invalid_request"],
    ];
    for (const [body, status, error] of cases) {
      const res = await json(body);
      expect([res.status, ((await res.json()) as { error: string }).error], JSON.stringify(body)).toEqual([
        status,
        error,
      ]);
    }
    const broken = await serve(`${SITE}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: "invalid_request" });
    const xml = await serve(`${SITE}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "text/xml" },
      body: "<a/>",
    });
    expect(xml.status).toBe(415);
    expect(await xml.json()).toMatchObject({ error: "invalid_request" });
    // Both ways of authenticating at once is refused; a wrong Basic secret is 401 with a challenge.
    const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
    const both = await tokenForm(base, { authorization: basic(s.client.clientId, s.clientSecret) });
    expect(((await both.json()) as { error: string }).error).toBe("invalid_request");
    const { client_secret: _secret, ...noSecret } = base;
    const wrongBasic = await tokenForm(noSecret, { authorization: basic(s.client.clientId, "wrong") });
    expect(wrongBasic.status).toBe(401);
    expect(wrongBasic.headers.get("www-authenticate")).toMatch(/^Basic/);

    // None of that consumed the code: the right request still works, as JSON.
    const ok = await json(base);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ token_type: "bearer", expires_in: 7200 });
  });

  it("a reused code is invalid_grant and revokes the token issued for it", async () => {
    const s = await oauthSetup();
    const code = (await getCode(s)).get("code")!;
    const fields = codeExchange(s, code);
    const first = await tokenForm(fields);
    const { access_token } = (await first.json()) as { access_token: string };
    expect((await serve(`${SITE}/api/v1/current_user.json?access_token=${access_token}`)).status).toBe(200);

    const again = await tokenForm(fields);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_grant" });
    const after = await serve(`${SITE}/api/v1/current_user.json?access_token=${access_token}`);
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("two parallel exchanges of one code issue exactly one token", async () => {
    const s = await oauthSetup();
    const code = (await getCode(s)).get("code")!;
    const fields = codeExchange(s, code);
    const results = await Promise.all([tokenForm(fields), tokenForm(fields), tokenForm(fields)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400, 400]);
    expect(await s.db.oAuthAccessToken.count()).toBe(1);
    // The losers presented a used code: the token issued for it is revoked (RFC 6749 §4.1.2).
    expect((await s.db.oAuthAccessToken.findFirstOrThrow()).revokedAt).not.toBeNull();
  });

  it("an expired code is invalid_grant (fake clock)", async () => {
    const s = await oauthSetup();
    const code = (await getCode(s)).get("code")!;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + AUTHORIZATION_CODE_TTL_MS + 1000);
    const res = await tokenForm(codeExchange(s, code));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_grant", error_description: "The code has expired." });
  });

  it("PKCE: a wrong or missing verifier is invalid_grant; plain is refused at authorize", async () => {
    const s = await oauthSetup();
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const code = (await getCode(s, { code_challenge: challenge, code_challenge_method: "S256" })).get("code")!;
    const fields = codeExchange(s, code);
    for (const extra of [
      {} as Record<string, string>,
      { code_verifier: oauth.generateRandomCodeVerifier() },
      { code_verifier: "short" },
    ]) {
      const res = await tokenForm({ ...fields, ...extra });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid_grant" });
    }
    expect((await tokenForm({ ...fields, code_verifier: verifier })).status).toBe(200);

    for (const [params, error] of [
      [{ code_challenge: challenge, code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge: challenge }, "invalid_request"],
      [{ code_challenge: "too-short", code_challenge_method: "S256" }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ scope: "admin" }, "invalid_scope"],
    ] as const) {
      const { status, location } = await browse(authorizeUrl(s, { state: "st", ...params }), s.cookie);
      expect(status).toBe(302);
      const back = new URL(location!);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect([back.searchParams.get("error"), back.searchParams.get("state"), back.searchParams.get("code")]).toEqual([
        error,
        "st",
        null,
      ]);
    }
  });

  it("the hourly purge deletes expired tokens, and codes once their tokens have expired", async () => {
    const s = await oauthSetup();
    const code = (await getCode(s)).get("code")!;
    await tokenForm(codeExchange(s, code));
    await getCode(s); // a code never exchanged
    // The hourly job, as the local runner schedules and runs it.
    const clock = fakeClock(new Date(Date.now() + 3600_000));
    const runner = new LocalRunner({ getDb, jobs: JOBS, deps: testJobDeps({ clock }), pollIntervalMs: 60_000 });
    await runner.tick();
    expect([await s.db.oAuthAccessToken.count(), await s.db.oAuthAuthorizationCode.count()]).toEqual([1, 2]);
    clock.advance(3 * 3600_000);
    await runner.tick();
    expect([await s.db.oAuthAccessToken.count(), await s.db.oAuthAuthorizationCode.count()]).toEqual([0, 0]);
  });

  it("current_user.json: 401 without or with a bad token; both ways at once is 400", async () => {
    const s = await oauthSetup();
    expect((await serve(`${SITE}/api/v1/current_user.json`)).status).toBe(401);
    expect((await serve(`${SITE}/api/v1/current_user.json?access_token=nope`)).status).toBe(401);
    const both = await serve(`${SITE}/api/v1/current_user.json?access_token=a`, {
      headers: { authorization: "Bearer b" },
    });
    expect(both.status).toBe(400);
    // An expired token (fake clock).
    const code = (await getCode(s)).get("code")!;
    const { access_token } = (await (await tokenForm(codeExchange(s, code))).json()) as { access_token: string };
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 7200_000 + 1000);
    expect((await serve(`${SITE}/api/v1/current_user.json?access_token=${access_token}`)).status).toBe(401);
  });
});
