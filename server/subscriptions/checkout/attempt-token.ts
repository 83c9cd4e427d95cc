/**
 * The attempt token of a checkout (interface-spec §4.2 rule 1): what a preview hands the client
 * and the create must send back. It is "<attempt uuid>.<HMAC-SHA256 of the id, base64url>": the
 * id names the subscription_attempts row holding the frozen terms, its expiry and its single use;
 * the signature proves Masthead issued it, so a guessed or altered id is refused before any
 * database read. The HMAC key is derived (HKDF-SHA-256) from AUTH_SECRET; outside production a
 * fixed development secret stands in when it is unset. Verification is constant-time.
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

import { getEnv, type Env } from "../../../env.js";

/** A preview's terms hold this long (the row's `expiresAt`). */
export const ATTEMPT_TTL_MS = 30 * 60 * 1000;

const DEVELOPMENT_SECRET = "masthead-development-attempt-token-secret-not-for-production";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** 32 bytes of HMAC-SHA256 as base64url without padding. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/** The HMAC key, from the configuration (AUTH_SECRET; required in production). */
export function attemptTokenKey(env: Pick<Env, "AUTH_SECRET" | "NODE_ENV"> = getEnv()): Buffer {
  const base = env.AUTH_SECRET;
  if (!base && env.NODE_ENV === "production") throw new Error("AUTH_SECRET is required");
  return Buffer.from(hkdfSync("sha256", base ?? DEVELOPMENT_SECRET, "masthead-attempt-token", "attempt-token-v1", 32));
}

function sign(attemptId: string, key: Buffer): Buffer {
  return createHmac("sha256", key).update(`attempt:v1:${attemptId}`).digest();
}

/** The token for an attempt id (a lower-case uuid). */
export function signAttemptToken(attemptId: string, key: Buffer = attemptTokenKey()): string {
  const id = attemptId.toLowerCase();
  if (!UUID.test(id)) throw new Error("signAttemptToken: the attempt id must be a uuid");
  return `${id}.${sign(id, key).toString("base64url")}`;
}

/**
 * The attempt id a token names when its signature is Masthead's, otherwise null (malformed,
 * forged, or signed with another key). Expiry and use are the row's: checkout checks them.
 */
export function verifyAttemptToken(token: string, key: Buffer = attemptTokenKey()): string | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const dot = token.indexOf(".");
  if (dot < 0) return null;
  const id = token.slice(0, dot);
  const signature = token.slice(dot + 1);
  if (!UUID.test(id) || !SIGNATURE.test(signature)) return null;
  const expected = sign(id, key);
  const given = Buffer.from(signature, "base64url");
  // One spelling per signature: the last character's unused bits must be zero (no malleability).
  if (given.toString("base64url") !== signature) return null;
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return id;
}
