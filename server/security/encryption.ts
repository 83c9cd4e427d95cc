/**
 * Secrets Masthead must read back (payment-gateway credentials) are stored encrypted:
 * AES-256-GCM, a random 96-bit nonce per value, the key derived (HKDF-SHA-256) from
 * ENCRYPTION_SECRET or else AUTH_SECRET. Stored as "v1.<nonce>.<ciphertext+tag>" (base64url), so
 * a later key version can be told apart. A tampered value or a wrong key fails to decrypt
 * (GCM authenticates), never yielding garbage.
 */
import "server-only";

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

import { getEnv } from "../../env.js";

/** Used only outside production when neither ENCRYPTION_SECRET nor AUTH_SECRET is set. */
const DEVELOPMENT_SECRET = "masthead-development-encryption-secret-not-for-production";

function keyFrom(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "masthead-encryption", purpose, 32));
}

function configuredSecret(): string {
  const env = getEnv();
  const secret = env.ENCRYPTION_SECRET ?? env.AUTH_SECRET;
  if (!secret && env.NODE_ENV === "production") throw new Error("ENCRYPTION_SECRET or AUTH_SECRET is required");
  return secret ?? DEVELOPMENT_SECRET;
}

/** Encrypt `plain` for `purpose` (a label binding the value to its use, e.g. "payment-gateway"). */
export function encryptSecret(plain: string, purpose: string, secret = configuredSecret()): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFrom(secret, purpose), nonce);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `v1.${nonce.toString("base64url")}.${body.toString("base64url")}`;
}

/** Decrypt what encryptSecret made; throws when it was tampered with or the key changed. */
export function decryptSecret(stored: string, purpose: string, secret = configuredSecret()): string {
  const [version, nonce, body] = stored.split(".");
  if (version !== "v1" || !nonce || !body) throw new Error("decryptSecret: not an encrypted value");
  const data = Buffer.from(body, "base64url");
  if (data.length < 16) throw new Error("decryptSecret: not an encrypted value");
  const decipher = createDecipheriv("aes-256-gcm", keyFrom(secret, purpose), Buffer.from(nonce, "base64url"));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString("utf8");
}

/** The last four characters, for recognising a secret without showing it ("…a1b2"). */
export function secretHint(secret: string): string {
  return secret.length <= 8 ? "" : secret.slice(-4);
}
