/**
 * The OAuth 2.0 provider end to end through its route handlers, driven by a real OAuth client
 * library (oauth4webapi): authorize → code → token → current_user.json, both forms, with the
 * errors a client or an attacker can cause. Requests reach the handlers through a fetch that
 * dispatches by path, with the Host the URL names (the publisher is found by host).
 */
import { jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { GET as bkAuthorizeGet } from "@/app/api/auth/v1/oauth/authorize/route";
import { GET as autoSsoGet } from "@/app/api/auth/v1/oauth/auto-sso/authorize/route";
import { GET as bkTokenGet, POST as bkTokenPost } from "@/app/api/auth/v1/oauth/token/route";
import { GET as widgetCurrentUser } from "@/app/api/v1/accounts/[account_id]/current_user/route";
import { GET as currentUserGet } from "@/app/api/v1/current_user.json/route";
import { GET as authorizeGet } from "@/app/oauth/authorize/route";
import { POST as tokenPost } from "@/app/oauth/token/route";
import { staffActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import { LocalRunner } from "@/server/jobs/local-runner";
import { signUpMember } from "@/server/members/members";
import {
  createOAuthClient,
  revokeOAuthClient,
  rotateOAuthClientSecret,
  updateOAuthClient,
} from "@/server/oauth/clients";
import { AUTHORIZATION_CODE_TTL_MS } from "@/server/oauth/provider";
import { resolvePublisher } from "@/server/publishing/publisher";
import { testJobDeps } from "@/server/testing/jobs";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";
import { fakeClock } from "@/server/testing/webhook-receiver";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const ROUTES: Record<string, Partial<Record<string, Handler>>> = {
  "/oauth/authorize": { GET: authorizeGet },
  "/oauth/token": { POST: tokenPost },
  "/api/v1/current_user.json": { GET: currentUserGet },
  "/api/auth/v1/oauth/authorize": { GET: bkAuthorizeGet },
  "/api/auth/v1/oauth/auto-sso/authorize": { GET: autoSsoGet },
  "/api/auth/v1/oauth/token": { GET: bkTokenGet, POST: bkTokenPost },
};

/** fetch for the handlers: the route by path and method, Host from the URL. */
async function serve(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const req = new Request(input, init);
  const url = new URL(req.url);
  const handler = ROUTES[url.pathname]?.[req.method];
  if (!handler) throw new Error(`no route for ${req.method} ${url.pathname}`);
  const headers = new Headers(req.headers);
  headers.set("host", url.host);
  const body = req.method === "GET" ? undefined : await req.text();
  return handler(new Request(url, { method: req.method, headers, body }), { params: Promise.resolve({}) });
}

const REDIRECT = "https://app.example.com/callback";
const SITE = "https://a.example.com";

async function setup() {
  const db = await getDb();
  const accountA = await createTestPublisher(db, { domain: "a.example.com", siteUrl: SITE });
  const accountB = await createTestPublisher(db, { domain: "b.example.com", siteUrl: "https://b.example.com" });
  const owner = await createTestStaff(db, { account: accountA.id, roles: ["OWNER"] });
  const ownerB = await createTestStaff(db, { account: accountB.id, roles: ["OWNER"] });
  const actor = staffActor({ ...owner.user, accountId: accountA.id });
  const { client, clientSecret } = await createOAuthClient(db, {
    actor,
    input: { name: "Reader app", redirectUris: [REDIRECT, "http://localhost:3000/cb"] },
    now: new Date(),
  });
  const other = await createOAuthClient(db, {
    actor: staffActor({ ...ownerB.user, accountId: accountB.id }),
    input: { name: "B's app", redirectUris: [REDIRECT] },
    now: new Date(),
  });
  const publisher = await resolvePublisher(db, { host: "a.example.com" });
  const { member, session } = await signUpMember(db, {
    publisher,
    input: { name: "Ada Reader", email: `ada.${Date.now()}@example.com`, password: "correct horse battery" },
    now: new Date(),
  });
  return { db, actor, client, clientSecret, other, publisher, member, cookie: `qt-auth=${session!.token}` };
}

type Setup = Awaited<ReturnType<typeof setup>>;

const as: oauth.AuthorizationServer = {
  issuer: SITE,
  authorization_endpoint: `${SITE}/oauth/authorize`,
  token_endpoint: `${SITE}/oauth/token`,
};
const lib = {
  [oauth.customFetch]: (url: string, options: { method: string; headers: Record<string, string>; body?: unknown }) =>
    serve(url, options as RequestInit),
  [oauth.allowInsecureRequests]: true,
};

/** GET the authorize URL as the reader's browser (with their cookie); the Location it answers. */
async function browse(
  url: string,
  cookie?: string,
): Promise<{ status: number; location: string | null; res: Response }> {
  const res = await serve(url, { headers: cookie ? { cookie } : {} });
  return { status: res.status, location: res.headers.get("location"), res };
}

function authorizeUrl(s: Setup, params: Record<string, string> = {}, path = "/oauth/authorize") {
  const url = new URL(path, SITE);
  url.searchParams.set("client_id", s.client.clientId);
  url.searchParams.set("redirect_uri", REDIRECT);
  url.searchParams.set("response_type", "code");
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

/** authorize (signed in) → the code, checked by oauth4webapi. */
async function getCode(s: Setup, params: Record<string, string> = {}, path?: string) {
  const state = oauth.generateRandomState();
  const { status, location } = await browse(authorizeUrl(s, { state, ...params }, path), s.cookie);
  expect(status).toBe(302);
  const callback = oauth.validateAuthResponse(as, { client_id: s.client.clientId }, new URL(location!), state);
  return callback;
}

function tokenForm(fields: Record<string, string>, headers: Record<string, string> = {}, path = "/oauth/token") {
  return serve(`${SITE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

beforeEach(() => {
  vi.useRealTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("OAuth 2.0 provider with a real client library (oauth4webapi)", () => {
  it("authorize → code → token → current_user.json: the reader's member, the author of their comments", async () => {
    const s = await setup();
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const callback = await getCode(s, { code_challenge: challenge, code_challenge_method: "S256", scope: "profile" });

    for (const auth of ["post", "basic"] as const) {
      const code =
        auth === "post" ? callback : await getCode(s, { code_challenge: challenge, code_challenge_method: "S256" });
      const client = { client_id: s.client.clientId };
      const clientAuth =
        auth === "post" ? oauth.ClientSecretPost(s.clientSecret) : oauth.ClientSecretBasic(s.clientSecret);
      const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, code, REDIRECT, verifier, lib);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
      expect(tokens.token_type).toBe("bearer");
      expect(tokens.expires_in).toBe(7200);
      expect(tokens.created_at).toBeCloseTo(Date.now() / 1000, -1);

      const me = await oauth.protectedResourceRequest(
        tokens.access_token,
        "GET",
        new URL(`${SITE}/api/v1/current_user.json`),
        undefined,
        undefined,
        lib,
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
    const s = await setup();
    const code = (await getCode(s)).get("code")!;
    const json = (body: unknown) =>
      serve(`${SITE}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const base = {
      grant_type: "authorization_code",
      client_id: s.client.clientId,
      client_secret: s.clientSecret,
      code,
      redirect_uri: REDIRECT,
    };

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
    const s = await setup();
    const code = (await getCode(s)).get("code")!;
    const fields = {
      grant_type: "authorization_code",
      client_id: s.client.clientId,
      client_secret: s.clientSecret,
      code,
      redirect_uri: REDIRECT,
    };
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
    const s = await setup();
    const code = (await getCode(s)).get("code")!;
    const fields = {
      grant_type: "authorization_code",
      client_id: s.client.clientId,
      client_secret: s.clientSecret,
      code,
      redirect_uri: REDIRECT,
    };
    const results = await Promise.all([tokenForm(fields), tokenForm(fields), tokenForm(fields)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400, 400]);
    expect(await s.db.oAuthAccessToken.count()).toBe(1);
    // The losers presented a used code: the token issued for it is revoked (RFC 6749 §4.1.2).
    expect((await s.db.oAuthAccessToken.findFirstOrThrow()).revokedAt).not.toBeNull();
  });

  it("an expired code is invalid_grant (fake clock)", async () => {
    const s = await setup();
    const code = (await getCode(s)).get("code")!;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + AUTHORIZATION_CODE_TTL_MS + 1000);
    const res = await tokenForm({
      grant_type: "authorization_code",
      client_id: s.client.clientId,
      client_secret: s.clientSecret,
      code,
      redirect_uri: REDIRECT,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_grant", error_description: "The code has expired." });
  });

  it("PKCE: a wrong or missing verifier is invalid_grant; plain is refused at authorize", async () => {
    const s = await setup();
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const code = (await getCode(s, { code_challenge: challenge, code_challenge_method: "S256" })).get("code")!;
    const fields = {
      grant_type: "authorization_code",
      client_id: s.client.clientId,
      client_secret: s.clientSecret,
      code,
      redirect_uri: REDIRECT,
    };
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

  it("never redirects to an unregistered redirect_uri nor for an unknown, revoked or other account's client", async () => {
    const s = await setup();
    const bad: Record<string, string>[] = [
      { redirect_uri: "https://evil.example.com/callback" },
      { redirect_uri: `${REDIRECT}/` },
      { redirect_uri: `${REDIRECT}?x=1` },
      { client_id: "mh_oc_unknown" },
      { client_id: s.other.client.clientId },
    ];
    for (const params of bad) {
      const { status, location, res } = await browse(authorizeUrl(s, params), s.cookie);
      expect([status, location], JSON.stringify(params)).toEqual([400, null]);
      expect(await res.json()).toMatchObject({ error: { code: "BAD_REQUEST" } });
    }
    const noClient = new URL(authorizeUrl(s));
    noClient.searchParams.delete("client_id");
    expect((await browse(noClient.href, s.cookie)).status).toBe(400);

    // Revoking the client: authorize refuses it, its secret stops working, and its tokens die.
    const code = (await getCode(s)).get("code")!;
    const fields = {
      grant_type: "authorization_code",
      client_id: s.client.clientId,
      client_secret: s.clientSecret,
      code,
      redirect_uri: REDIRECT,
    };
    const { access_token } = (await (await tokenForm(fields)).json()) as { access_token: string };
    const code2 = (await getCode(s)).get("code")!;
    await revokeOAuthClient(s.db, { actor: s.actor, id: s.client.id, now: new Date() });
    expect((await browse(authorizeUrl(s), s.cookie)).status).toBe(400);
    expect((await tokenForm({ ...fields, code: code2 })).status).toBe(401);
    expect(
      (await serve(`${SITE}/api/v1/current_user.json`, { headers: { authorization: `Bearer ${access_token}` } }))
        .status,
    ).toBe(401);
  });

  it("rotating the secret ends the old one; editing redirect URIs applies at once", async () => {
    const s = await setup();
    const { clientSecret } = await rotateOAuthClientSecret(s.db, { actor: s.actor, id: s.client.id, now: new Date() });
    const code = (await getCode(s)).get("code")!;
    const fields = { grant_type: "authorization_code", client_id: s.client.clientId, code, redirect_uri: REDIRECT };
    expect((await tokenForm({ ...fields, client_secret: s.clientSecret })).status).toBe(401);
    expect((await tokenForm({ ...fields, client_secret: clientSecret })).status).toBe(200);
    await updateOAuthClient(s.db, {
      actor: s.actor,
      input: { id: s.client.id, redirectUris: ["https://app.example.com/new"] },
    });
    expect((await browse(authorizeUrl(s), s.cookie)).status).toBe(400);
    const actions = (
      await s.db.auditLog.findMany({
        where: { targetType: "oauth_client", accountId: s.publisher.accountId },
        orderBy: { createdAt: "asc" },
      })
    ).map((e) => e.action);
    expect(actions).toEqual(["oauth_client.create", "oauth_client.rotate_secret", "oauth_client.update"]);
  });

  it("without a member session: the login page with a return-to; auto-sso goes back with login_required", async () => {
    const s = await setup();
    const url = authorizeUrl(s, { state: "xyz" });
    const { status, location } = await browse(url);
    expect(status).toBe(302);
    expect(location).toBe(`/member/login?return_to=${encodeURIComponent(new URL(url).pathname + new URL(url).search)}`);
    // Another publisher's reader session is no session here.
    const { status: s2, location: l2 } = await browse(url, "qt-auth=not-a-session");
    expect([s2, l2?.startsWith("/member/login?")]).toEqual([302, true]);

    const auto = await browse(authorizeUrl(s, { state: "xyz" }, "/api/auth/v1/oauth/auto-sso/authorize"));
    const back = new URL(auto.location!);
    expect([back.origin + back.pathname, back.searchParams.get("error"), back.searchParams.get("state")]).toEqual([
      REDIRECT,
      "login_required",
      "xyz",
    ]);
    const signedIn = await getCode(s, {}, "/api/auth/v1/oauth/auto-sso/authorize");
    expect(signedIn.get("code")).toBeTruthy();
  });

  it("the auth component: allow_ajax, callback_uri, the JWT exchange and the internal exchange", async () => {
    const s = await setup();
    const ajax = await browse(
      authorizeUrl(s, { allow_ajax: "true", callback_uri: `${SITE}/story/1` }, "/api/auth/v1/oauth/authorize"),
      s.cookie,
    );
    expect(ajax.status).toBe(200);
    const { redirect_uri } = (await ajax.res.json()) as { redirect_uri: string };
    const landed = new URL(redirect_uri);
    expect(landed.searchParams.get("callback_uri")).toBe(`${SITE}/story/1`);
    const signedOut = await browse(authorizeUrl(s, { allow_ajax: "true" }, "/api/auth/v1/oauth/authorize"));
    expect(((await signedOut.res.json()) as { redirect_uri: string }).redirect_uri).toMatch(
      /^\/member\/login\?return_to=/,
    );
    // callback_uri off the publication's hosts (or not http) goes back as an error.
    for (const callback of ["https://evil.example.com/", "javascript://a.example.com/%0aalert(1)"]) {
      const off = await browse(authorizeUrl(s, { callback_uri: callback }, "/api/auth/v1/oauth/authorize"), s.cookie);
      expect(new URL(off.location!).searchParams.get("error")).toBe("invalid_request");
    }

    // External exchange: a JWT the publisher verifies with the shared key.
    const res = await tokenForm(
      {
        grant_type: "authorization_code",
        client_id: s.client.clientId,
        client_secret: s.clientSecret,
        code: landed.searchParams.get("code")!,
        redirect_uri: REDIRECT,
      },
      {},
      "/api/auth/v1/oauth/token",
    );
    expect(res.status).toBe(200);
    const token = (await res.json()) as { access_token: string; token_type: string };
    const { payload, protectedHeader } = await jwtVerify(
      token.access_token,
      new TextEncoder().encode("publisher-shared-secret-for-tests-0001"),
      {
        audience: s.client.clientId,
      },
    );
    expect(protectedHeader).toMatchObject({ alg: "HS256", typ: "at+jwt" });
    expect(payload).toMatchObject({ sub: String(s.member.id), name: "Ada Reader", client_id: s.client.clientId });
    // The same token is a login JWT for the comment API, naming this same member (one reader, one record).
    expect(payload.id).toBe(`masthead:${s.member.id}`);
    const widget = await widgetCurrentUser(
      new Request(`${SITE}/api/v1/accounts/${s.publisher.accountId}/current_user?jwt=${token.access_token}`, {
        headers: { host: "a.example.com" },
      }),
      { params: Promise.resolve({ account_id: String(s.publisher.accountId) }) },
    );
    expect(await widget.json()).toMatchObject({
      signed_in: true,
      current_user: { id: s.member.id, name: "Ada Reader" },
    });
    expect(await s.db.member.count({ where: { accountId: s.publisher.accountId } })).toBe(1);
    const me = await serve(`${SITE}/api/v1/current_user.json`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(((await me.json()) as { current_user: { id: number } }).current_user.id).toBe(s.member.id);

    // Internal exchange: the code becomes a session cookie on this host, then callback_uri.
    const code = (await getCode(s, {}, "/api/auth/v1/oauth/authorize")).get("code")!;
    const bad = await serve(
      `${SITE}/api/auth/v1/oauth/token?code=${code}&callback_uri=${encodeURIComponent("https://evil.example.com/")}`,
    );
    expect(bad.status).toBe(400);
    const internal = await serve(
      `${SITE}/api/auth/v1/oauth/token?code=${code}&callback_uri=${encodeURIComponent(`${SITE}/story/1`)}`,
    );
    expect(internal.status).toBe(302);
    expect(internal.headers.get("location")).toBe(`${SITE}/story/1`);
    const cookie = internal.headers.getSetCookie().find((c) => c.startsWith("qt-auth="))!;
    expect(cookie).toMatch(/HttpOnly/);
    const again = await serve(
      `${SITE}/api/auth/v1/oauth/token?code=${code}&callback_uri=${encodeURIComponent(`${SITE}/story/1`)}`,
    );
    expect(again.status).toBe(400);
    // The new session is the same reader.
    const withNewSession = await getCode({ ...s, cookie: cookie.split(";")[0]! });
    expect(withNewSession.get("code")).toBeTruthy();
  });

  it("the JWT carries no id when masthead:<member id> already names another member", async () => {
    const s = await setup();
    const other = await signUpMember(s.db, {
      publisher: s.publisher,
      input: { name: "Someone else", email: `else.${Date.now()}@example.com`, password: "correct horse battery" },
      now: new Date(),
    });
    await s.db.memberIdentity.create({
      data: {
        accountId: s.publisher.accountId,
        provider: "publisher",
        externalId: `masthead:${s.member.id}`,
        memberId: other.member.id,
      },
    });
    const code = (await getCode(s)).get("code")!;
    const res = await tokenForm(
      {
        grant_type: "authorization_code",
        client_id: s.client.clientId,
        client_secret: s.clientSecret,
        code,
        redirect_uri: REDIRECT,
      },
      {},
      "/api/auth/v1/oauth/token",
    );
    const { access_token } = (await res.json()) as { access_token: string };
    const { payload } = await jwtVerify(
      access_token,
      new TextEncoder().encode("publisher-shared-secret-for-tests-0001"),
    );
    expect(payload).toMatchObject({ sub: String(s.member.id) });
    expect(payload.id).toBeUndefined();
  });

  it("the hourly purge deletes expired tokens, and codes once their tokens have expired", async () => {
    const s = await setup();
    const code = (await getCode(s)).get("code")!;
    await tokenForm({
      grant_type: "authorization_code",
      client_id: s.client.clientId,
      client_secret: s.clientSecret,
      code,
      redirect_uri: REDIRECT,
    });
    await getCode(s); // a code never exchanged
    // The hourly job, as the local runner schedules and runs it.
    const clock = fakeClock(new Date(Date.now() + 3600_000));
    const runner = new LocalRunner({ getDb, deps: testJobDeps({ clock }), pollIntervalMs: 60_000 });
    await runner.tick();
    expect([await s.db.oAuthAccessToken.count(), await s.db.oAuthAuthorizationCode.count()]).toEqual([1, 2]);
    clock.advance(3 * 3600_000);
    await runner.tick();
    expect([await s.db.oAuthAccessToken.count(), await s.db.oAuthAuthorizationCode.count()]).toEqual([0, 0]);
  });

  it("current_user.json: 401 without or with a bad token; both ways at once is 400", async () => {
    const s = await setup();
    expect((await serve(`${SITE}/api/v1/current_user.json`)).status).toBe(401);
    expect((await serve(`${SITE}/api/v1/current_user.json?access_token=nope`)).status).toBe(401);
    const both = await serve(`${SITE}/api/v1/current_user.json?access_token=a`, {
      headers: { authorization: "Bearer b" },
    });
    expect(both.status).toBe(400);
    // An expired token (fake clock).
    const code = (await getCode(s)).get("code")!;
    const { access_token } = (await (
      await tokenForm({
        grant_type: "authorization_code",
        client_id: s.client.clientId,
        client_secret: s.clientSecret,
        code,
        redirect_uri: REDIRECT,
      })
    ).json()) as { access_token: string };
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 7200_000 + 1000);
    expect((await serve(`${SITE}/api/v1/current_user.json?access_token=${access_token}`)).status).toBe(401);
  });
});
