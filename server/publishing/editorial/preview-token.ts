/**
 * Private preview links of a story (./preview.ts): the token is
 * "<story uuid>.<expiry, epoch ms>.<HMAC-SHA256 of both, base64url>". Whoever holds it may read
 * the story's current draft until the expiry; nothing else. Stateless: a link cannot be revoked
 * before it expires (24 hours), which is why it is short-lived; rotating AUTH_SECRET ends them all.
 * The key is derived (HKDF-SHA-256) from AUTH_SECRET, a fixed development secret standing in
 * outside production when it is unset (as server/subscriptions/checkout/attempt-token.ts). Verification is
 * constant-time.
 */
import { createHmac, hkdfSync } from "node:crypto";

import { getEnv, type Env } from "../../../env.js";
import { base64urlMacMatches } from "../../security/signed-token";

const DEVELOPMENT_SECRET = "masthead-development-preview-token-secret-not-for-production";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EXPIRY = /^[1-9][0-9]{0,14}$/;
/** 32 bytes of HMAC-SHA256 as base64url without padding. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/** The HMAC key, from the configuration (AUTH_SECRET; required in production). */
export function previewTokenKey(env: Pick<Env, "AUTH_SECRET" | "NODE_ENV"> = getEnv()): Buffer {
  const base = env.AUTH_SECRET;
  if (!base && env.NODE_ENV === "production") throw new Error("AUTH_SECRET is required");
  return Buffer.from(hkdfSync("sha256", base ?? DEVELOPMENT_SECRET, "masthead-preview-token", "preview-token-v1", 32));
}

function sign(storyId: string, expiresAt: number, key: Buffer): Buffer {
  return createHmac("sha256", key).update(`preview:v1:${storyId}:${expiresAt}`).digest();
}

/** The token for a story id (a uuid) that works until `expiresAt`. */
export function signPreviewToken(storyId: string, expiresAt: Date, key: Buffer = previewTokenKey()): string {
  const id = storyId.toLowerCase();
  if (!UUID.test(id)) throw new Error("signPreviewToken: the story id must be a uuid");
  const ms = expiresAt.getTime();
  if (!Number.isSafeInteger(ms) || ms <= 0) throw new Error("signPreviewToken: invalid expiry");
  return `${id}.${ms}.${sign(id, ms, key).toString("base64url")}`;
}

type PreviewTokenCheck =
  | { ok: true; storyId: string; expiresAt: Date }
  /** "invalid": malformed, forged or signed with another key; "expired": genuine, but too old. */
  | { ok: false; reason: "invalid" | "expired" };

/** What a token proves at `now`. The signature is checked before the expiry is believed. */
export function verifyPreviewToken(token: string, now: Date, key: Buffer = previewTokenKey()): PreviewTokenCheck {
  const invalid = { ok: false, reason: "invalid" } as const;
  if (typeof token !== "string" || token.length > 200) return invalid;
  const [id, expiry, signature, ...rest] = token.split(".");
  if (rest.length || !id || !expiry || !signature) return invalid;
  if (!UUID.test(id) || !EXPIRY.test(expiry) || !SIGNATURE.test(signature)) return invalid;
  const ms = Number(expiry);
  if (!base64urlMacMatches(signature, sign(id, ms, key))) return invalid;
  if (now.getTime() >= ms) return { ok: false, reason: "expired" };
  return { ok: true, storyId: id, expiresAt: new Date(ms) };
}
