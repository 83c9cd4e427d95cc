/**
 * Checking a token a social or OpenID Connect provider gave the reader's browser, and reading who
 * it names. Every outgoing call goes through guardedFetch (no private addresses unless allowed).
 *
 * - OIDC ID token (a JWT): signature against the issuer's keys (jwks_uri from discovery), `iss`,
 *   `aud` one of the configured client ids (and `azp`, when present, one of them too), `exp`
 *   (30 s of clock tolerance), `nonce` when the caller gives one. Asymmetric algorithms only.
 *   Done with jose (createRemoteJWKSet + jwtVerify), already Masthead's JWT library: what is
 *   needed is the relying party's check of a token the browser obtained, not an authorization-
 *   code flow, and openid-client v6 validates ID tokens only inside its own grant calls.
 * - OIDC access token (anything that is not a JWT): accepted only when the issuer offers token
 *   introspection (RFC 7662) and the owner set a client secret, so Masthead can check the token
 *   was issued to one of its client ids (a userinfo call alone would accept any app's token for
 *   the person: token substitution). Then userinfo gives the profile.
 * - Facebook access token: Graph `debug_token` with the app's credentials (valid, and for this
 *   app), then `/me?fields=id,name,email,picture` with appsecret_proof. Facebook gives no
 *   verification flag for the e-mail, so it is treated as unverified (never used to link).
 *
 * Discovery documents are cached an hour per issuer; key sets by jose (10 minutes, refetched at
 * most every 30 s when a token names an unknown key, so rotated keys are picked up).
 */
import "server-only";

import { createHmac } from "node:crypto";

import { createRemoteJWKSet, customFetch, decodeProtectedHeader, errors as joseErrors, jwtVerify } from "jose";

import { AppError } from "../errors";
import { log } from "../log";
import { guardedFetch, type GuardedFetch } from "../webhooks/guarded-fetch";
import type { TLoginProviderKind } from "./social-login.schema";

/** Who the provider says the reader is. */
export type SocialProfile = {
  subject: string;
  email: string | null;
  /** The provider vouches that the reader owns `email`. */
  emailVerified: boolean;
  name: string | null;
  avatarUrl: string | null;
};

type ProviderConfig = {
  name: string;
  kind: TLoginProviderKind;
  issuer: string;
  clientIds: string[];
  clientSecret: string | null;
  /**
   * Google's tokeninfo endpoint (GOOGLE_TOKENINFO_URL for the issuer https://accounts.google.com):
   * how a Google access token is checked, since Google offers no RFC 7662 introspection.
   */
  tokeninfoUrl?: string;
};

/** The token as the client sent it: `kind` "auto" is decided by its shape (a JWT is an ID token). */
export type ProviderToken = { value: string; kind: "auto" | "id" | "access" };

export const GOOGLE_ISSUER = "https://accounts.google.com";
export const GOOGLE_TOKENINFO_URL = "https://oauth2.googleapis.com/tokeninfo";

const ASYMMETRIC_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
];
const DISCOVERY_TTL_MS = 3600_000;
const CLOCK_TOLERANCE_S = 30;

export const BAD_TOKEN_MESSAGE = "The login token is invalid, expired or not for this site.";
const badToken = () => new AppError("UNAUTHORIZED", BAD_TOKEN_MESSAGE);
const unreachable = (provider: string) =>
  new AppError("SERVICE_UNAVAILABLE", `The login provider "${provider}" could not be reached. Try again later.`);

/** Verify `token` with the provider; UNAUTHORIZED when it does not hold. */
export async function verifyProviderToken(
  provider: ProviderConfig,
  args: { token: ProviderToken; nonce?: string; allowPrivate: boolean },
): Promise<SocialProfile> {
  const fetch = guardedFetch({ allowPrivate: args.allowPrivate });
  const token = args.token.value;
  if (provider.kind === "facebook") return verifyFacebookToken(provider, token, fetch);
  const isIdToken = args.token.kind === "id" || (args.token.kind === "auto" && looksLikeJwt(token));
  if (isIdToken) return verifyIdToken(provider, { ...args, token }, fetch);
  if (provider.tokeninfoUrl) return verifyGoogleAccessToken(provider, token, provider.tokeninfoUrl, fetch);
  return verifyAccessToken(provider, token, fetch, args.allowPrivate);
}

function looksLikeJwt(token: string): boolean {
  if (token.split(".").length !== 3) return false;
  try {
    decodeProtectedHeader(token);
    return true;
  } catch {
    return false;
  }
}

// ─── OpenID Connect ──────────────────────────────────────────────────────────────────────────

type Discovery = {
  issuer: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
  introspection_endpoint?: string;
};

const discoveries = new Map<string, { doc: Discovery; expiresAt: number }>();
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

async function getJson(fetch: GuardedFetch, url: string, provider: string, init?: Parameters<GuardedFetch>[1]) {
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { accept: "application/json", ...init?.headers } });
  } catch (error) {
    log.warn("login provider unreachable", { provider, error: error instanceof Error ? error.message : "unknown" });
    throw unreachable(provider);
  }
  const body: unknown = await res.json().catch(() => null);
  return { status: res.status, body: body && typeof body === "object" ? (body as Record<string, unknown>) : null };
}

async function discover(provider: ProviderConfig, fetch: GuardedFetch, allowPrivate: boolean): Promise<Discovery> {
  const key = `${provider.issuer}|${allowPrivate}`;
  const hit = discoveries.get(key);
  if (hit && hit.expiresAt > Date.now()) return hit.doc;
  const { status, body } = await getJson(fetch, `${provider.issuer}/.well-known/openid-configuration`, provider.name);
  // OpenID Connect Discovery §4.3: the document's issuer must be the one asked for.
  if (status !== 200 || !body || body.issuer !== provider.issuer || typeof body.jwks_uri !== "string") {
    log.warn("login provider discovery failed", { provider: provider.name, status });
    throw unreachable(provider.name);
  }
  const doc: Discovery = {
    issuer: body.issuer,
    jwks_uri: body.jwks_uri,
    userinfo_endpoint: typeof body.userinfo_endpoint === "string" ? body.userinfo_endpoint : undefined,
    introspection_endpoint: typeof body.introspection_endpoint === "string" ? body.introspection_endpoint : undefined,
  };
  discoveries.set(key, { doc, expiresAt: Date.now() + DISCOVERY_TTL_MS });
  return doc;
}

function keySet(jwksUri: string, fetch: GuardedFetch, allowPrivate: boolean) {
  const key = `${jwksUri}|${allowPrivate}`;
  let set = keySets.get(key);
  if (!set) {
    set = createRemoteJWKSet(new URL(jwksUri), {
      cacheMaxAge: 10 * 60_000,
      cooldownDuration: 30_000,
      timeoutDuration: 5000,
      [customFetch]: (url, init) => fetch(url, { method: init.method, headers: init.headers }),
    });
    keySets.set(key, set);
  }
  return set;
}

/** Google's ID tokens may say "accounts.google.com" without the scheme (its documentation allows both). */
function acceptedIssuers(issuer: string): string[] {
  return issuer === GOOGLE_ISSUER ? [issuer, "accounts.google.com"] : [issuer];
}

async function verifyIdToken(
  provider: ProviderConfig,
  args: { token: string; nonce?: string; allowPrivate: boolean },
  fetch: GuardedFetch,
): Promise<SocialProfile> {
  const doc = await discover(provider, fetch, args.allowPrivate);
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(args.token, keySet(doc.jwks_uri, fetch, args.allowPrivate), {
      issuer: acceptedIssuers(provider.issuer),
      audience: provider.clientIds,
      algorithms: ASYMMETRIC_ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ["sub", "exp", "iat"],
    }));
  } catch (error) {
    // The key set could not be fetched: the provider's fault, not the token's.
    if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid) {
      throw unreachable(provider.name);
    }
    if (error instanceof AppError) throw error;
    throw badToken();
  }
  if (typeof payload.azp === "string" && !provider.clientIds.includes(payload.azp)) throw badToken();
  if (args.nonce !== undefined && payload.nonce !== args.nonce) throw badToken();
  return profileFromClaims(payload);
}

async function verifyAccessToken(
  provider: ProviderConfig,
  token: string,
  fetch: GuardedFetch,
  allowPrivate: boolean,
): Promise<SocialProfile> {
  const doc = await discover(provider, fetch, allowPrivate);
  if (!doc.introspection_endpoint || !doc.userinfo_endpoint || !provider.clientSecret) {
    throw new AppError("UNAUTHORIZED", `The provider "${provider.name}" takes ID tokens only: send the ID token.`);
  }
  const clientId = provider.clientIds[0]!;
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(provider.clientSecret)}`).toString(
    "base64",
  );
  const introspection = await getJson(fetch, doc.introspection_endpoint, provider.name, {
    method: "POST",
    headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
  });
  const info = introspection.body;
  if (introspection.status !== 200 || !info) throw unreachable(provider.name);
  const audiences: unknown[] = [info.client_id, ...(Array.isArray(info.aud) ? (info.aud as unknown[]) : [info.aud])];
  if (info.active !== true || !audiences.some((a) => typeof a === "string" && provider.clientIds.includes(a))) {
    throw badToken();
  }
  const userinfo = await getJson(fetch, doc.userinfo_endpoint, provider.name, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (userinfo.status === 401 || userinfo.status === 403) throw badToken();
  if (userinfo.status !== 200 || !userinfo.body) throw unreachable(provider.name);
  if (typeof info.sub === "string" && userinfo.body.sub !== info.sub) throw badToken();
  return profileFromClaims(userinfo.body);
}

/**
 * A Google access token (what bridgekeeper's withGoogleLogin sends): tokeninfo says for which
 * client it was issued (`aud`/`azp`, one of ours), for whom (`sub`) and until when (`exp`).
 */
async function verifyGoogleAccessToken(
  provider: ProviderConfig,
  token: string,
  tokeninfoUrl: string,
  fetch: GuardedFetch,
): Promise<SocialProfile> {
  const info = await getJson(fetch, `${tokeninfoUrl}?${new URLSearchParams({ access_token: token })}`, provider.name);
  if (info.status >= 500) throw unreachable(provider.name);
  const body = info.body;
  if (info.status !== 200 || !body) throw badToken();
  const clients = [body.aud, body.azp].filter((v): v is string => typeof v === "string");
  const exp = Number(body.exp);
  if (!clients.some((c) => provider.clientIds.includes(c)) || !(exp * 1000 > Date.now())) throw badToken();
  return profileFromClaims(body);
}

function profileFromClaims(claims: Record<string, unknown>): SocialProfile {
  const subject = claims.sub;
  if (typeof subject !== "string" || !subject || subject.length > 255) throw badToken();
  const email = typeof claims.email === "string" && claims.email.includes("@") ? claims.email : null;
  // Some providers send the flag as the string "true".
  const verified = claims.email_verified === true || claims.email_verified === "true";
  return {
    subject,
    email,
    emailVerified: Boolean(email) && verified,
    name: typeof claims.name === "string" ? claims.name : null,
    avatarUrl: typeof claims.picture === "string" && /^https?:\/\//.test(claims.picture) ? claims.picture : null,
  };
}

// ─── Facebook ────────────────────────────────────────────────────────────────────────────────

async function verifyFacebookToken(
  provider: ProviderConfig,
  token: string,
  fetch: GuardedFetch,
): Promise<SocialProfile> {
  const appId = provider.clientIds[0]!;
  const secret = provider.clientSecret;
  if (!secret) throw new AppError("UNPROCESSABLE", `The provider "${provider.name}" has no app secret configured.`);
  const debug = await getJson(
    fetch,
    `${provider.issuer}/debug_token?${new URLSearchParams({ input_token: token, access_token: `${appId}|${secret}` })}`,
    provider.name,
  );
  const data = debug.body?.data as Record<string, unknown> | undefined;
  if (debug.status >= 500 || (debug.status === 200 && !data)) throw unreachable(provider.name);
  const idOf = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : "");
  const userId = idOf(data?.user_id);
  if (!data || data.is_valid !== true || idOf(data.app_id) !== appId || !userId) throw badToken();
  const proof = createHmac("sha256", secret).update(token).digest("hex");
  const me = await getJson(
    fetch,
    `${provider.issuer}/me?${new URLSearchParams({ fields: "id,name,email,picture", access_token: token, appsecret_proof: proof })}`,
    provider.name,
  );
  if (me.status >= 500) throw unreachable(provider.name);
  if (me.status !== 200 || !me.body || idOf(me.body.id) !== userId) throw badToken();
  const picture = (me.body.picture as { data?: { url?: unknown } } | undefined)?.data?.url;
  return {
    subject: userId,
    email: typeof me.body.email === "string" && me.body.email.includes("@") ? me.body.email : null,
    emailVerified: false,
    name: typeof me.body.name === "string" ? me.body.name : null,
    avatarUrl: typeof picture === "string" && /^https?:\/\//.test(picture) ? picture : null,
  };
}

/** Forget cached discovery documents and key sets (tests that restart a provider). */
export function forgetProviderCaches(): void {
  discoveries.clear();
  keySets.clear();
}
