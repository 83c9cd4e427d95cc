/**
 * Driving the OAuth 2.0 provider in integration tests with a real client library (oauth4webapi):
 * a fetch that reaches the route handlers by path and method, with the Host the URL names (the
 * publisher is found by host); two publishers with an OAuth client each and a signed-in reader on
 * the first; the authorize URL, the code it answers (checked by oauth4webapi) and a form POST to
 * the token endpoint.
 */
import * as oauth from "oauth4webapi";
import { afterEach, beforeEach, expect, vi } from "vitest";

import { GET as bkAuthorizeGet } from "@/app/api/auth/v1/oauth/authorize/route";
import { GET as autoSsoGet } from "@/app/api/auth/v1/oauth/auto-sso/authorize/route";
import { GET as bkTokenGet, POST as bkTokenPost } from "@/app/api/auth/v1/oauth/token/route";
import { GET as currentUserGet } from "@/app/api/v1/current_user.json/route";
import { GET as authorizeGet } from "@/app/oauth/authorize/route";
import { POST as tokenPost } from "@/app/oauth/token/route";

import { staffActor } from "../auth/actor";
import { getDb } from "../db";
import { signUpMember } from "../members/members";
import { createOAuthClient } from "../oauth/clients";
import { resolvePublisher } from "../publishing/publisher";
import { createTestPublisher } from "./publishing-factories";
import { createTestStaff } from "./staff";

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
export async function serve(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const req = new Request(input, init);
  const url = new URL(req.url);
  const handler = ROUTES[url.pathname]?.[req.method];
  if (!handler) throw new Error(`no route for ${req.method} ${url.pathname}`);
  const headers = new Headers(req.headers);
  headers.set("host", url.host);
  const body = req.method === "GET" ? undefined : await req.text();
  return handler(new Request(url, { method: req.method, headers, body }), { params: Promise.resolve({}) });
}

export const REDIRECT = "https://app.example.com/callback";
export const SITE = "https://a.example.com";

/**
 * Publisher A (a.example.com) with an OAuth client redirecting to REDIRECT and a reader signed in
 * (`cookie`); publisher B with a client of its own (`other`).
 */
export async function oauthSetup() {
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

type OAuthSetup = Awaited<ReturnType<typeof oauthSetup>>;

/** Publisher A as oauth4webapi's authorization server. */
export const authServer: oauth.AuthorizationServer = {
  issuer: SITE,
  authorization_endpoint: `${SITE}/oauth/authorize`,
  token_endpoint: `${SITE}/oauth/token`,
};
/** oauth4webapi's options for requests that reach the handlers (through `serve`). */
export const throughHandlers = {
  [oauth.customFetch]: (url: string, options: { method: string; headers: Record<string, string>; body?: unknown }) =>
    serve(url, options as RequestInit),
  [oauth.allowInsecureRequests]: true,
};

/** GET the authorize URL as the reader's browser (with their cookie); the Location it answers. */
export async function browse(
  url: string,
  cookie?: string,
): Promise<{ status: number; location: string | null; res: Response }> {
  const res = await serve(url, { headers: cookie ? { cookie } : {} });
  return { status: res.status, location: res.headers.get("location"), res };
}

export function authorizeUrl(s: OAuthSetup, params: Record<string, string> = {}, path = "/oauth/authorize") {
  const url = new URL(path, SITE);
  url.searchParams.set("client_id", s.client.clientId);
  url.searchParams.set("redirect_uri", REDIRECT);
  url.searchParams.set("response_type", "code");
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

/** authorize (signed in) → the code, checked by oauth4webapi. */
export async function getCode(s: OAuthSetup, params: Record<string, string> = {}, path?: string) {
  const state = oauth.generateRandomState();
  const { status, location } = await browse(authorizeUrl(s, { state, ...params }, path), s.cookie);
  expect(status).toBe(302);
  const callback = oauth.validateAuthResponse(authServer, { client_id: s.client.clientId }, new URL(location!), state);
  return callback;
}

/** The token request's fields exchanging `code` with the setup's client id and secret (client_secret_post). */
export function codeExchange(s: OAuthSetup, code: string): Record<string, string> {
  return {
    grant_type: "authorization_code",
    client_id: s.client.clientId,
    client_secret: s.clientSecret,
    code,
    redirect_uri: REDIRECT,
  };
}

export function tokenForm(fields: Record<string, string>, headers: Record<string, string> = {}, path = "/oauth/token") {
  return serve(`${SITE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The file's tests run on real timers, whatever a test before them left. Called at the top of a test file. */
export function withRealTimers(): void {
  beforeEach(() => {
    vi.useRealTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
