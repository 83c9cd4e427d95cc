/**
 * The spec's three ways of calling the public API (§5), as plain functions over the database:
 *
 * 1. Server API: header `X-SUBAUTH: <server key>` (an account's SERVER key).
 * 2. Client API: query `key` (an account's CLIENT key) and, where a user is needed, a user JWT in
 *    query `masthead_jwt` (aliases: `accesstype_jwt`, which existing clients send, and `svc_jwt`).
 * 3. Publisher JWT (engagement, third-party login): the account id comes from the path; a JWT the
 *    publisher signed with the account's shared key arrives as `jwt` (query or body). Claims `id`
 *    and `name` are mandatory; `email` and `avatar-url` optional.
 *
 * JWTs: HS256 only (alg "none" and every other algorithm are refused), signed with the account's
 * jwtSecret; `exp` and `nbf` are enforced when present, with 30 s of clock tolerance. Tokens
 * without `exp` are accepted, as the original service did; publishers should set one.
 * Keys are compared by their SHA-256 digest in constant time (server/auth/api-keys.ts).
 */
import { errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import { z } from "zod";

import { ProcessCache } from "../cache/process-cache";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { parseWholeNumber, PG_INT_MAX } from "../params.schema";
import { assertSafeInput } from "../validation";
import { webUrlOrNull } from "../web-url";
import { findApiKey, hashApiKey } from "./api-keys";

export type ApiAccount = { id: number; slug: string; name: string };
export type ApiUser = {
  id: string;
  name: string | null;
  email: string | null;
  avatarUrl: string | null;
  provider: string | null;
};

export const USER_JWT_PARAMS = ["masthead_jwt", "accesstype_jwt", "svc_jwt"] as const;

const LAST_USED_EVERY_MS = 60_000;
const lastUsedWrites = new Map<string, number>();

/** Note that a key was used, at most once a minute per key (not a write per request). */
async function touchKey(db: Db, keyId: string, now: Date) {
  const previous = lastUsedWrites.get(keyId) ?? 0;
  if (now.getTime() - previous < LAST_USED_EVERY_MS) return;
  lastUsedWrites.set(keyId, now.getTime());
  await db.apiKey.update({ where: { id: keyId }, data: { lastUsedAt: now } });
}

/**
 * Keys found, by their SHA-256 digest, and accounts' JWT secrets, kept in the process for the
 * routes asked on every page view (the paywall's access check: `cached: true`); other routes look
 * their key up each time. Only keys that were found are kept (a new key is looked up at once); a
 * key's expiry is checked on every use, and a write to a key (a rotation, a revocation, by the
 * dashboard or by hand) drops the topic on every instance (the database announces it; the TTL is
 * a backstop). A JWT secret never changes once made.
 */
const KEY_CACHE_TTL_MS = 10_000;
const accountsById = new ProcessCache<number, ApiAccount>("publisher", { ttlMs: 60_000, maxEntries: 10_000 });
type CachedKey = { keyId: string; kind: "SERVER" | "CLIENT"; expiresAt: number | null; account: ApiAccount };
const keysByDigest = new ProcessCache<string, CachedKey>("api-keys", { ttlMs: KEY_CACHE_TTL_MS, maxEntries: 10_000 });
const jwtSecrets = new ProcessCache<number, string>("api-keys", { ttlMs: KEY_CACHE_TTL_MS, maxEntries: 10_000 });

async function accountByKey(
  db: Db,
  key: string | null | undefined,
  kind: "SERVER" | "CLIENT",
  now: Date,
  cached = false,
): Promise<ApiAccount> {
  const what = kind === "SERVER" ? "X-SUBAUTH header" : "key parameter";
  if (!key) throw new AppError("UNAUTHORIZED", `The ${what} is missing.`);
  const digest = !cached || key.length > 200 ? null : hashApiKey(key);
  const hit = digest ? keysByDigest.get(digest, now.getTime()) : undefined;
  if (hit && hit.kind === kind && (hit.expiresAt === null || hit.expiresAt > now.getTime())) {
    await touchKey(db, hit.keyId, now);
    return hit.account;
  }
  const row = await findApiKey(db, key, kind, now);
  if (!row) throw new AppError("UNAUTHORIZED", `The ${what} is not a valid key.`);
  await touchKey(db, row.id, now);
  const account = { id: row.account.id, slug: row.account.slug, name: row.account.name };
  keysByDigest.set(
    row.hash,
    { keyId: row.id, kind, expiresAt: row.expiresAt?.getTime() ?? null, account },
    now.getTime(),
  );
  return account;
}

/** Scheme 1: X-SUBAUTH (`cached`: the key may come from the process cache, see above). */
export function authenticateServerKey(
  db: Db,
  headerValue: string | null,
  now = new Date(),
  options: { cached?: boolean } = {},
): Promise<ApiAccount> {
  return accountByKey(db, headerValue?.trim(), "SERVER", now, options.cached);
}

/** Scheme 2: `key`, plus the user JWT when `user` is "required" (401 without) or "optional" (null without). */
export async function authenticateClient(
  db: Db,
  query: URLSearchParams,
  options: { user: "required" | "optional" | "none"; now?: Date; cached?: boolean },
): Promise<{ account: ApiAccount; user: ApiUser | null }> {
  const now = options.now ?? new Date();
  const account = await accountByKey(db, query.get("key"), "CLIENT", now, options.cached);
  if (options.user === "none") return { account, user: null };
  const token = USER_JWT_PARAMS.map((name) => query.get(name)).find(Boolean);
  if (!token) {
    if (options.user === "required") throw new AppError("UNAUTHORIZED", "A user token (masthead_jwt) is required.");
    return { account, user: null };
  }
  return { account, user: await verifyPublisherJwt(db, account.id, token, now) };
}

/** Scheme 3: the account from the path, the publisher-signed JWT from the request (absent: no user). */
export async function authenticatePublisherJwt(
  db: Db,
  accountIdParam: string,
  token: string | null | undefined,
  options: { user: "required" | "optional"; now?: Date },
): Promise<{ account: ApiAccount; user: ApiUser | null }> {
  // The one number rule for path parameters (docs/api-conventions.md): "0x1", "1e0", "+1" or "01"
  // are no id (400); an id no account has is 404.
  const accountId = parseWholeNumber(accountIdParam);
  if (accountId === null || accountId < 1 || accountId > PG_INT_MAX) {
    throw new AppError("BAD_REQUEST", "The account id is not valid.", {
      details: [
        { field: "params.account_id", issue: "must be a whole number from 1 to 2147483647, in decimal digits" },
      ],
    });
  }
  // Asked on every engagement read: the account comes from a process cache (dropped with the
  // "publisher" topic, which the settings change that renames an account invalidates).
  let account = accountsById.get(accountId);
  if (!account) {
    const found = await db.account.findUnique({
      where: { id: accountId },
      select: { id: true, slug: true, name: true },
    });
    if (!found) throw new AppError("NOT_FOUND", "Unknown account.");
    account = found;
    accountsById.set(accountId, found);
  }
  if (!token) {
    if (options.user === "required") throw new AppError("UNAUTHORIZED", "Sign in first: a jwt is required.");
    return { account, user: null };
  }
  return {
    account,
    user: await verifyPublisherJwt(db, account.id, token, options.now ?? new Date(), { requireName: true }),
  };
}

const ZClaims = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  name: z.string().min(1).optional(),
  email: z.string().optional(),
  "avatar-url": z.string().optional(),
  provider: z.string().optional(),
});

const JWT_CLOCK_TOLERANCE_S = 30;

/**
 * Tokens verified already, with their claims: a reader sends the same token on every page view
 * (the paywall's access check, comment reads and writes), and verifying its signature again costs
 * more than the rest of an access check. Only a token that passed jwtVerify is kept, with the
 * account's secret it passed under (another secret: verified afresh). A kept token is answered
 * until its `exp` (with the same tolerance); its `nbf` had passed when it was verified. Bounded:
 * the oldest is dropped first; long tokens are not kept.
 */
class VerifiedTokens {
  private readonly entries = new Map<string, { secret: string; payload: Readonly<JWTPayload> }>();

  constructor(private readonly options: { maxEntries: number; maxTokenLength: number }) {}

  recall(accountId: number, token: string, secret: string, now: Date): Readonly<JWTPayload> | undefined {
    const key = `${accountId} ${token}`;
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    const { exp } = hit.payload;
    if (hit.secret === secret && (exp === undefined || exp > now.getTime() / 1000 - JWT_CLOCK_TOLERANCE_S)) {
      return hit.payload;
    }
    this.entries.delete(key);
    return undefined;
  }

  keep(accountId: number, token: string, secret: string, payload: JWTPayload): Readonly<JWTPayload> {
    const kept = Object.freeze(payload);
    if (token.length > this.options.maxTokenLength) return kept;
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(`${accountId} ${token}`, { secret, payload: kept });
    return kept;
  }
}
const verifiedTokens = new VerifiedTokens({ maxEntries: 20_000, maxTokenLength: 4096 });

/**
 * The claims of a token the publisher signed with the account's shared key (HS256 only, `exp` and
 * `nbf` enforced when present, 30 s of tolerance); UNAUTHORIZED naming `what` otherwise.
 */
export async function verifyAccountSignedToken(
  db: Db,
  accountId: number,
  token: string,
  now = new Date(),
  what = "user token",
): Promise<unknown> {
  let secret = jwtSecrets.get(accountId, now.getTime());
  if (secret === undefined) {
    const account = await db.account.findUnique({ where: { id: accountId }, select: { jwtSecret: true } });
    if (!account) throw new AppError("UNAUTHORIZED", "Unknown account.");
    secret = account.jwtSecret;
    jwtSecrets.set(accountId, secret, now.getTime());
  }
  const remembered = verifiedTokens.recall(accountId, token, secret, now);
  if (remembered) return remembered;
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ["HS256"],
      clockTolerance: JWT_CLOCK_TOLERANCE_S,
      currentDate: now,
    });
    return verifiedTokens.keep(accountId, token, secret, payload);
  } catch (error) {
    const reason =
      error instanceof joseErrors.JWTExpired
        ? "has expired"
        : error instanceof joseErrors.JWTClaimValidationFailed
          ? "is not valid yet"
          : "is not valid";
    throw new AppError("UNAUTHORIZED", `The ${what} ${reason}.`);
  }
}

/** Verify a publisher-signed HS256 JWT with the account's shared key and return its user. */
export async function verifyPublisherJwt(
  db: Db,
  accountId: number,
  token: string,
  now = new Date(),
  options: { requireName?: boolean } = {},
): Promise<ApiUser> {
  const payload = await verifyAccountSignedToken(db, accountId, token, now);
  // A remembered token's payload is the same frozen object each time: its user is read once.
  let user = usersOfPayloads.get(payload as object);
  if (!user) {
    const claims = ZClaims.safeParse(payload);
    if (!claims.success) throw new AppError("UNAUTHORIZED", "The user token lacks the id claim.");
    const c = claims.data;
    // The claims are stored and sent on (a reader's id, name and e-mail): text PostgreSQL cannot
    // keep is the publisher's mistake, refused as any input's would be (400 naming the claim).
    assertSafeInput(c, "jwt");
    user = Object.freeze({
      id: c.id,
      name: c.name ?? null,
      email: c.email ?? null,
      // Only an http(s) URL: a reader's browser is handed it as an image source.
      avatarUrl: webUrlOrNull(c["avatar-url"]),
      provider: c.provider ?? null,
    });
    usersOfPayloads.set(payload as object, user);
  }
  if (options.requireName && !user.name) throw new AppError("UNAUTHORIZED", "The user token lacks the name claim.");
  return user;
}

/** The user of each verified payload (VerifiedTokens keeps the payloads; dropped with them). */
const usersOfPayloads = new WeakMap<object, Readonly<ApiUser>>();
