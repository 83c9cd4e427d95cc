/**
 * Masthead's OAuth 2.0 authorization server, authorization code grant (RFC 6749 §4.1) with PKCE
 * (RFC 7636, S256 only), for the clients an account registered (./clients.ts). Vocabulary:
 *
 * - authorize: a reader's browser arrives with client_id and redirect_uri. An unknown or revoked
 *   client, or a redirect_uri not registered for it character for character, is answered here
 *   and never redirected (RFC 6749 §4.1.2.1); every other problem goes back to the redirect_uri
 *   as `error=`. A reader without a member session is sent to the member login page first. The
 *   publisher's own clients are first-party: there is no consent screen.
 * - code: 32 random bytes, single use, 5 minutes, bound to the client, the redirect_uri, the
 *   member and the PKCE challenge; only its SHA-256 is stored.
 * - exchange: the client authenticates (secret in the body or HTTP Basic), presents the code, the
 *   same redirect_uri and the PKCE verifier; it gets an access token (opaque, or an HS256 JWT for
 *   the auth component's form). The code is consumed by one conditional update, so of two
 *   exchanges at once exactly one wins. A code presented again (also by the loser of a race)
 *   is invalid_grant and revokes every token issued for it (RFC 6749 §4.1.2).
 * - access token: 2 hours, only its SHA-256 stored; read by GET /api/v1/current_user.json.
 *
 * Why not @node-oauth/oauth2-server (docs/engagement.md "OAuth 2.0", "Why hand-written").
 */
import "server-only";

import { createHash, randomUUID, timingSafeEqual } from "node:crypto";

import { SignJWT } from "jose";

import { getEnv } from "../../env.js";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { OAuthClient } from "../generated/prisma/client";
import { log } from "../log";
import { PUBLISHER_JWT_PROVIDER } from "../members/identities";
import type { MemberRecord } from "../members/members";
import { createMemberSession, type MemberSession } from "../members/sessions";
import { isPublicationUrl, type Publisher } from "../publishing/publisher";
import { hashToken, newToken } from "../security/secret-tokens";
import { isClientSecret } from "./clients";
import type { TAuthorizeQuery, TTokenRequest } from "./provider.schema";

export const AUTHORIZATION_CODE_TTL_MS = 5 * 60_000;
const ACCESS_TOKEN_TTL_SECONDS = 2 * 3600;
/** Scopes a client may ask for: one, the reader's public profile ("public" is Doorkeeper's name for it). */
const OAUTH_SCOPES: ReadonlySet<string> = new Set(["profile", "public"]);
/** Where a reader without a session signs in (app/member/login). */
const MEMBER_LOGIN_PATH = "/member/login";

/** A client row as queries return it (the secret's hash only where asked for). */
type ClientRow = Omit<OAuthClient, "secretHash">;

const PKCE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;
const PKCE_VERIFIER = PKCE_CHALLENGE;

// ─── 1. Authorize ────────────────────────────────────────────────────────────────────────────

/** What to do with the browser: go to `location` (a 302, or {redirect_uri} for allow_ajax), or sign in first. */
export type AuthorizeOutcome = { kind: "redirect"; location: string } | { kind: "login" };

/**
 * The authorization endpoint, both forms. `memberId` is the signed-in reader of the publisher
 * (null: none). `autoSso`: a reader who is not signed in goes back with error=login_required
 * instead of to the login page. Throws BAD_REQUEST (never redirected) for an unknown client or a
 * redirect_uri it did not register.
 */
export async function authorize(
  db: Db,
  args: { publisher: Publisher; query: TAuthorizeQuery; memberId: number | null; autoSso: boolean; now: Date },
): Promise<AuthorizeOutcome> {
  const { query, publisher } = args;
  const { client, redirectUri } = await findAuthorizeClient(db, publisher.accountId, query);
  const back = (params: Record<string, string | undefined>): AuthorizeOutcome => ({
    kind: "redirect",
    location: withParams(redirectUri, { ...params, state: query.state }),
  });
  const fail = (error: string, description: string) => back({ error, error_description: description });

  if (!query.response_type) return fail("invalid_request", "response_type is required (code).");
  if (query.response_type !== "code") {
    return fail("unsupported_response_type", "Only the authorization code flow is supported: response_type=code.");
  }
  if (query.code_challenge_method !== undefined && query.code_challenge === undefined) {
    return fail("invalid_request", "code_challenge_method was sent without code_challenge.");
  }
  if (query.code_challenge !== undefined) {
    if (query.code_challenge_method !== "S256") {
      return fail("invalid_request", "code_challenge_method must be S256 (plain is not supported).");
    }
    if (!PKCE_CHALLENGE.test(query.code_challenge)) {
      return fail("invalid_request", "code_challenge must be BASE64URL(SHA-256(code_verifier)).");
    }
  }
  const scope = normaliseScope(query.scope);
  if (scope === false) return fail("invalid_scope", `Unknown scope; supported: ${[...OAUTH_SCOPES].join(", ")}.`);
  if (query.callback_uri !== undefined && !isPublicationPage(publisher, query.callback_uri)) {
    return fail("invalid_request", "callback_uri must be a page on the publication's hosts.");
  }
  if (args.memberId === null) {
    return args.autoSso ? fail("login_required", "The reader is not signed in.") : { kind: "login" };
  }

  const code = newToken();
  await db.oAuthAuthorizationCode.create({
    data: {
      codeHash: hashToken(code),
      clientId: client.id,
      memberId: args.memberId,
      redirectUri,
      codeChallenge: query.code_challenge ?? null,
      scope,
      expiresAt: new Date(args.now.getTime() + AUTHORIZATION_CODE_TTL_MS),
      createdAt: args.now,
    },
  });
  return back({ code, callback_uri: query.callback_uri });
}

/** The client and its registered redirect_uri the query names; BAD_REQUEST (not redirected) otherwise. */
async function findAuthorizeClient(
  db: Db,
  accountId: number,
  query: TAuthorizeQuery,
): Promise<{ client: ClientRow; redirectUri: string }> {
  const client = query.client_id
    ? await db.oAuthClient.findFirst({ where: { clientId: query.client_id, accountId, revokedAt: null } })
    : null;
  if (!client) {
    throw new AppError("BAD_REQUEST", "Unknown OAuth client: check client_id (and that the client is not revoked).", {
      details: [
        { field: "query.client_id", issue: query.client_id ? "is not a client of this publication" : "is required" },
      ],
    });
  }
  if (!query.redirect_uri || !client.redirectUris.includes(query.redirect_uri)) {
    throw new AppError("BAD_REQUEST", "redirect_uri is not one this client registered (it must match exactly).", {
      details: [{ field: "query.redirect_uri", issue: query.redirect_uri ? "is not registered" : "is required" }],
    });
  }
  return { client, redirectUri: query.redirect_uri };
}

/** The scope to store: null when none was asked, false when one is unknown. */
function normaliseScope(scope: string | undefined): string | null | false {
  const parts = (scope ?? "").split(" ").filter(Boolean);
  if (!parts.length) return null;
  return parts.every((part) => OAUTH_SCOPES.has(part)) ? [...new Set(parts)].join(" ") : false;
}

/** An http(s) URL on one of the publication's hosts (hostOf alone would take javascript://host/…). */
function isPublicationPage(publisher: Pick<Publisher, "publicationHosts">, value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && isPublicationUrl(publisher, url.href);
  } catch {
    return false;
  }
}

/** `base` with `params` added to its query (undefined ones left out), its own query kept. */
export function withParams(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/** The login page's path for a reader who must sign in before `returnTo` (a path on this host). */
export function memberLoginPath(returnTo: string): string {
  return `${MEMBER_LOGIN_PATH}?return_to=${encodeURIComponent(returnTo)}`;
}

// ─── 2. Token exchange ──────────────────────────────────────────────────────────────────────

/** RFC 6749 §5.2 error codes. */
type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope";

/** A token endpoint error, answered as {error, error_description} (RFC 6749 §5.2), not AppError's shape. */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = error === "invalid_client" ? 401 : 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

/** The access token response (spec §2.1). */
type TAccessTokenResponse = {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  created_at: number;
};

/** Client credentials from an Authorization: Basic header (RFC 6749 §2.3.1: each form-urlencoded). */
export type BasicCredentials = { clientId: string; clientSecret: string } | null;

/**
 * Exchange an authorization code (POST /oauth/token and, with format "jwt", the auth component's
 * external exchange). Throws OAuthError.
 */
export async function exchangeAuthorizationCode(
  db: Db,
  args: { body: TTokenRequest; basic: BasicCredentials | "malformed"; now: Date; format: "opaque" | "jwt" },
): Promise<TAccessTokenResponse> {
  const { body, now } = args;
  const field = (name: keyof TTokenRequest): string | undefined => {
    const value = body[name];
    if (value === undefined || value === null || value === "") return undefined;
    if (typeof value !== "string" || value.length > 2_048) {
      throw new OAuthError("invalid_request", `${name} must be a string of at most 2048 characters.`);
    }
    return value;
  };
  const grantType = field("grant_type");
  if (!grantType) throw new OAuthError("invalid_request", "grant_type is required (authorization_code).");
  if (grantType !== "authorization_code") {
    throw new OAuthError("unsupported_grant_type", "Only grant_type=authorization_code is supported.");
  }
  const client = await authenticateClient(db, {
    basic: args.basic,
    clientId: field("client_id"),
    clientSecret: field("client_secret"),
  });
  const code = field("code");
  if (!code) throw new OAuthError("invalid_request", "code is required.");
  const redirectUri = field("redirect_uri");
  const verifier = field("code_verifier");

  const row = await db.oAuthAuthorizationCode.findUnique({
    where: { codeHash: hashToken(code) },
    include: { member: { omit: { passwordHash: true } } },
  });
  if (!row || row.clientId !== client.id) {
    throw new OAuthError("invalid_grant", "The code is unknown or was issued to another client.");
  }
  if (row.usedAt) {
    await revokeTokensOfCode(db, row.id, now);
    throw new OAuthError("invalid_grant", "The code was already used; the tokens issued for it are revoked.");
  }
  if (row.expiresAt <= now) throw new OAuthError("invalid_grant", "The code has expired.");
  if (redirectUri !== row.redirectUri) {
    throw new OAuthError("invalid_grant", "redirect_uri differs from the one the code was issued for.");
  }
  assertPkce(row.codeChallenge, verifier);

  const issued = await withTransaction(db, async (tx) => {
    // The one exchange that consumes the code: a parallel one waits for this row and then updates nothing.
    const { count } = await tx.oAuthAuthorizationCode.updateMany({
      where: { id: row.id, usedAt: null },
      data: { usedAt: now },
    });
    if (count === 0) return null;
    const id = randomUUID();
    const accessToken =
      args.format === "jwt"
        ? await signAccessJwt(tx, {
            id,
            client,
            member: row.member,
            identity: await linkJwtIdentity(tx, { accountId: client.accountId, member: row.member, now }),
            now,
          })
        : newToken();
    await tx.oAuthAccessToken.create({
      data: {
        id,
        tokenHash: hashToken(accessToken),
        clientId: client.id,
        memberId: row.memberId,
        authorizationCodeId: row.id,
        scope: row.scope,
        expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000),
        createdAt: now,
      },
    });
    return accessToken;
  });
  if (issued === null) {
    await revokeTokensOfCode(db, row.id, now);
    throw new OAuthError("invalid_grant", "The code was already used; the tokens issued for it are revoked.");
  }
  return {
    access_token: issued,
    token_type: "bearer",
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    created_at: Math.floor(now.getTime() / 1000),
  };
}

async function revokeTokensOfCode(db: Db, codeId: string, now: Date): Promise<void> {
  await db.oAuthAccessToken.updateMany({
    where: { authorizationCodeId: codeId, revokedAt: null },
    data: { revokedAt: now },
  });
}

/** client_secret_basic or client_secret_post, not both (RFC 6749 §2.3); invalid_client (401) otherwise. */
async function authenticateClient(
  db: Db,
  args: { basic: BasicCredentials | "malformed"; clientId?: string; clientSecret?: string },
): Promise<ClientRow> {
  const { basic } = args;
  const challenge = { "WWW-Authenticate": 'Basic realm="oauth"' };
  if (basic === "malformed")
    throw new OAuthError("invalid_client", "The Basic credentials are malformed.", 401, challenge);
  if (basic && args.clientSecret) {
    throw new OAuthError("invalid_request", "Send the client's credentials one way: HTTP Basic or the body, not both.");
  }
  if (basic && args.clientId && args.clientId !== basic.clientId) {
    throw new OAuthError("invalid_request", "client_id in the body differs from the Basic credentials.");
  }
  const clientId = basic?.clientId ?? args.clientId;
  const secret = basic?.clientSecret ?? args.clientSecret;
  const headers = basic ? challenge : {};
  if (!clientId || !secret) {
    throw new OAuthError("invalid_client", "Authenticate the client: client_id and client_secret.", 401, headers);
  }
  const client = await db.oAuthClient.findUnique({ where: { clientId }, omit: { secretHash: false } });
  // The secret is checked (constant time) even for an unknown client, against a hash nobody has.
  const ok = isClientSecret(client ?? { secretHash: hashToken(randomUUID()) }, secret);
  if (!client || !ok || client.revokedAt) {
    throw new OAuthError("invalid_client", "Client authentication failed.", 401, headers);
  }
  return client;
}

/** A code bound to a challenge needs its verifier; a code without one takes none (RFC 9700 §2.1.1). */
function assertPkce(challenge: string | null, verifier: string | undefined): void {
  if (challenge === null) {
    if (verifier !== undefined)
      throw new OAuthError("invalid_grant", "code_verifier sent for a code issued without PKCE.");
    return;
  }
  if (verifier === undefined) throw new OAuthError("invalid_grant", "code_verifier is required for this code.");
  if (!PKCE_VERIFIER.test(verifier)) {
    throw new OAuthError("invalid_grant", "code_verifier must be 43 to 128 unreserved characters.");
  }
  const computed = Buffer.from(createHash("sha256").update(verifier, "ascii").digest("base64url"));
  const expected = Buffer.from(challenge);
  if (computed.length !== expected.length || !timingSafeEqual(computed, expected)) {
    throw new OAuthError("invalid_grant", "code_verifier does not match the code_challenge.");
  }
}

/** The publisher-JWT id that names a member itself (reserved: publishers' own ids must not start with it). */
const memberJwtId = (memberId: number) => `masthead:${memberId}`;

/**
 * Link the member to the publisher-JWT id `masthead:<member id>` (a member_identities row of
 * provider "publisher", created once; an existing row is kept), so the JWT access token below,
 * passed as `jwt` to the comment API, is this same member (docs/engagement.md "One reader, three
 * ways in"). Null when that id already names another member (a publisher signed it itself): the
 * token then carries no `id` and works only as an access token.
 */
async function linkJwtIdentity(
  db: Db,
  args: { accountId: number; member: MemberRecord; now: Date },
): Promise<string | null> {
  const externalId = memberJwtId(args.member.id);
  const key = { accountId: args.accountId, provider: PUBLISHER_JWT_PROVIDER, externalId };
  await db.memberIdentity.createMany({
    data: [{ ...key, memberId: args.member.id, email: args.member.communicationEmail, createdAt: args.now }],
    skipDuplicates: true,
  });
  const identity = await db.memberIdentity.findUniqueOrThrow({ where: { accountId_provider_externalId: key } });
  if (identity.memberId === args.member.id) return externalId;
  log.warn("oauth.jwt_identity_taken", { accountId: args.accountId, memberId: args.member.id });
  return null;
}

/**
 * The auth component's access token: an HS256 JWT signed with the account's shared key (the one
 * the publisher already signs third-party login JWTs with), so the publisher's back end verifies
 * it offline. `sub` is the member id; `id` (`masthead:<member id>`), `name`, `avatar-url` and
 * `email` are the claims of a publisher-signed login JWT, so the comment API takes it as `jwt`
 * and finds this member through the identity linked above.
 */
async function signAccessJwt(
  db: Db,
  args: { id: string; client: ClientRow; member: MemberRecord; identity: string | null; now: Date },
): Promise<string> {
  const account = await db.account.findUniqueOrThrow({
    where: { id: args.client.accountId },
    select: { jwtSecret: true },
  });
  const iat = Math.floor(args.now.getTime() / 1000);
  const { member } = args;
  return new SignJWT({
    client_id: args.client.clientId,
    ...(args.identity ? { id: args.identity } : {}),
    name: member.name,
    ...(member.avatarUrl ? { "avatar-url": member.avatarUrl } : {}),
    ...(member.communicationEmail ? { email: member.communicationEmail } : {}),
    slug: member.username,
  })
    .setProtectedHeader({ alg: "HS256", typ: "at+jwt" })
    .setIssuer(getEnv().APP_URL)
    .setSubject(String(args.member.id))
    .setAudience(args.client.clientId)
    .setJti(args.id)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(new TextEncoder().encode(account.jwtSecret));
}

// ─── 3. The auth component's internal exchange ──────────────────────────────────────────────

/**
 * GET /api/auth/v1/oauth/token?code=&callback_uri=: the code (of a client of this publication)
 * is consumed and becomes a member session for the publisher's host; the browser then goes to
 * callback_uri, which must be on the publication's hosts. A code bound to a PKCE challenge needs
 * its code_verifier here too. Throws BAD_REQUEST (a browser navigation: the project's error shape).
 */
export async function exchangeCodeForSession(
  db: Db,
  args: { publisher: Publisher; code: string; callbackUri: string; codeVerifier?: string; now: Date },
): Promise<{ session: MemberSession; location: string }> {
  const { publisher, now } = args;
  if (!isPublicationPage(publisher, args.callbackUri)) {
    throw new AppError("BAD_REQUEST", "callback_uri must be a page on the publication's hosts.", {
      details: [{ field: "query.callback_uri", issue: "is not on one of the publication's hosts" }],
    });
  }
  const invalid = (issue: string) =>
    new AppError("BAD_REQUEST", "The code is invalid, expired or already used. Sign in again.", {
      details: [{ field: "query.code", issue }],
    });
  const row = await db.oAuthAuthorizationCode.findUnique({
    where: { codeHash: hashToken(args.code) },
    include: { client: true },
  });
  if (!row || row.client.accountId !== publisher.accountId || row.client.revokedAt) throw invalid("is unknown");
  if (row.expiresAt <= now) throw invalid("has expired");
  try {
    assertPkce(row.codeChallenge, args.codeVerifier);
  } catch (error) {
    if (error instanceof OAuthError) throw invalid(error.description);
    throw error;
  }
  const session = await withTransaction(db, async (tx) => {
    const { count } = await tx.oAuthAuthorizationCode.updateMany({
      where: { id: row.id, usedAt: null },
      data: { usedAt: now },
    });
    if (count === 0) return null;
    return createMemberSession(tx, { memberId: row.memberId, now, days: getEnv().MEMBER_SESSION_DAYS });
  });
  if (!session) {
    await revokeTokensOfCode(db, row.id, now);
    throw invalid("was already used");
  }
  return { session, location: new URL(args.callbackUri).href };
}

// ─── 4. Access tokens ──────────────────────────────────────────────────────────────────────

const BAD_TOKEN = { "WWW-Authenticate": 'Bearer realm="masthead", error="invalid_token"' };

/** The member an access token speaks for; UNAUTHORIZED (with WWW-Authenticate) when unknown, expired or revoked. */
export async function authenticateAccessToken(
  db: Db,
  args: { token: string | null; now: Date },
): Promise<{ member: MemberRecord; clientId: string; accountId: number }> {
  if (!args.token) {
    throw new AppError("UNAUTHORIZED", "Send an access token: access_token=… or Authorization: Bearer ….", {
      headers: { "WWW-Authenticate": 'Bearer realm="masthead"' },
    });
  }
  const row = await db.oAuthAccessToken.findUnique({
    where: { tokenHash: hashToken(args.token) },
    include: { client: true, member: { omit: { passwordHash: true } } },
  });
  if (!row || row.revokedAt || row.expiresAt <= args.now || row.client.revokedAt) {
    throw new AppError("UNAUTHORIZED", "The access token is invalid, expired or revoked.", { headers: BAD_TOKEN });
  }
  return { member: row.member, clientId: row.client.clientId, accountId: row.client.accountId };
}

// ─── 5. Purge ───────────────────────────────────────────────────────────────────────────────

/**
 * Delete expired access tokens, and codes once every token they could have given has expired
 * too (a code is kept that long so that presenting it again still revokes its tokens). Run by
 * the hourly "maintenance.purge" job.
 */
export async function purgeExpiredOAuthGrants(db: Db, args: { now: Date }): Promise<void> {
  await db.oAuthAccessToken.deleteMany({ where: { expiresAt: { lt: args.now } } });
  const codeCutoff = new Date(args.now.getTime() - ACCESS_TOKEN_TTL_SECONDS * 1000);
  await db.oAuthAuthorizationCode.deleteMany({ where: { expiresAt: { lt: codeCutoff } } });
}
