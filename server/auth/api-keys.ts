/**
 * Account API keys. A key is shown once; only its SHA-256 is stored, and lookups go by that digest
 * (a unique index), then compare digests in constant time.
 *
 * Forms: client keys "mh_pk_<32 base62>", server (X-SUBAUTH) keys "mh_sk_<32 base62>".
 *
 * Rotation (the dashboard, owners): a new key of the same kind and name is made and shown once;
 * the old one gets `expiresAt` = now + API_KEY_ROTATION_GRACE_HOURS and keeps working until then,
 * so clients move to the new key without downtime (server/accounts/api-key-admin.ts). A key past its expiry is
 * refused like a revoked one.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

import type { Db } from "../db/client";
import type { ApiKey, ApiKeyKind } from "../generated/prisma/client";

const PREFIX: Record<ApiKeyKind, string> = { CLIENT: "mh_pk_", SERVER: "mh_sk_" };
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** A new random key of the given kind (not stored). */
export function generateApiKey(kind: ApiKeyKind): string {
  const bytes = randomBytes(32);
  let body = "";
  for (const byte of bytes) body += ALPHABET[byte % 62];
  return PREFIX[kind] + body;
}

/** Store a key (generated unless given, e.g. the seed's documented demo keys); returns it in clear once. */
export async function createApiKey(
  db: Db,
  args: { accountId: number; kind: ApiKeyKind; name: string; key?: string },
): Promise<{ id: string; key: string; prefix: string }> {
  const key = args.key ?? generateApiKey(args.kind);
  const prefix = key.slice(0, 10);
  const row = await db.apiKey.create({
    data: { accountId: args.accountId, kind: args.kind, name: args.name, prefix, hash: hashApiKey(key) },
  });
  return { id: row.id, key, prefix };
}

/**
 * The live key row matching `presented` of `kind`, with its account, or null. The digest is looked
 * up by index and compared again in constant time.
 */
export async function findApiKey(db: Db, presented: string, kind: ApiKeyKind, now = new Date()) {
  if (!presented || presented.length > 200) return null;
  const digest = hashApiKey(presented);
  const row = await db.apiKey.findUnique({ where: { hash: digest }, include: { account: true } });
  if (!row || row.kind !== kind || !isApiKeyLive(row, now)) return null;
  const same = timingSafeEqual(Buffer.from(row.hash, "hex"), Buffer.from(digest, "hex"));
  return same ? row : null;
}

/** A key works while it is neither revoked nor past its expiry (the end of a rotation's grace). */
export function isApiKeyLive(key: Pick<ApiKey, "revokedAt" | "expiresAt">, now: Date): boolean {
  return !key.revokedAt && (!key.expiresAt || key.expiresAt.getTime() > now.getTime());
}
