/**
 * The account's API keys in the dashboard (owners): listed by prefix, never the key; rotated with
 * a grace period (api-keys.ts explains rotation). Audited: "api_key.rotate".
 */
import "server-only";

import { recordAudit } from "../audit/audit-log";
import type { StaffActor } from "../auth/actor";
import { hasAnyRole } from "../auth/roles";
import { invalidateCaches } from "../cache/process-cache";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { ApiKey } from "../generated/prisma/client";
import { generateApiKey, hashApiKey, isApiKeyLive as isLive } from "./api-keys";
import {
  API_KEY_ROTATION_GRACE_HOURS,
  ZRotateApiKeyInput,
  type TApiKeyView,
  type TRotateApiKeyInput,
  type TRotatedApiKey,
} from "./api-keys.schema";

function toView(key: ApiKey, now: Date): TApiKeyView {
  return {
    id: key.id,
    kind: key.kind,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    expiresAt: key.expiresAt,
    revokedAt: key.revokedAt,
    live: isLive(key, now),
  };
}

function assertOwner(actor: StaffActor): void {
  if (!hasAnyRole(actor.roles, ["OWNER"])) throw new AppError("FORBIDDEN", "Only an owner can manage API keys.");
}

/** The account's keys (owners only): live ones first, newest first; never a key or its digest. */
export async function listApiKeys(db: Db, args: { actor: StaffActor; now?: Date }): Promise<TApiKeyView[]> {
  assertOwner(args.actor);
  const now = args.now ?? new Date();
  const rows = await db.apiKey.findMany({
    where: { accountId: args.actor.accountId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
  const views = rows.map((row) => toView(row, now));
  return [...views.filter((k) => k.live), ...views.filter((k) => !k.live)];
}

/**
 * Rotate a live key (owners only): a new key of its kind and name, returned in clear this once,
 * and the old one kept working for API_KEY_ROTATION_GRACE_HOURS. A key that no longer works, or
 * one already rotated (it has an expiry), is UNPROCESSABLE; another account's is NOT_FOUND.
 */
export async function rotateApiKey(
  db: Db,
  args: TRotateApiKeyInput & { actor: StaffActor; now?: Date; ip?: string | null },
): Promise<TRotatedApiKey> {
  const { keyId } = ZRotateApiKeyInput.parse(args);
  const { actor } = args;
  assertOwner(actor);
  const now = args.now ?? new Date();
  return withTransaction(db, async (tx) => {
    const old = await tx.apiKey.findFirst({ where: { id: keyId, accountId: actor.accountId } });
    if (!old) throw new AppError("NOT_FOUND", "No such API key in this account.");
    if (!isLive(old, now) || old.expiresAt) {
      throw new AppError("UNPROCESSABLE", "This key was already rotated or revoked: rotate the key that replaced it.", {
        details: [{ field: "keyId", issue: "is already rotated or revoked" }],
      });
    }
    const expiresAt = new Date(now.getTime() + API_KEY_ROTATION_GRACE_HOURS * 3600_000);
    // Conditional, so two owners rotating the same key at once make one new key, not two.
    const { count } = await tx.apiKey.updateMany({
      where: { id: old.id, expiresAt: null, revokedAt: null },
      data: { expiresAt },
    });
    if (count === 0) throw new AppError("CONFLICT", "This key is being rotated by someone else. Reload the page.");
    // Instances keep found keys in memory (server/auth/api-auth.ts): they learn the new expiry.
    await invalidateCaches(tx, "api-keys");
    const key = generateApiKey(old.kind);
    const created = await tx.apiKey.create({
      data: {
        accountId: actor.accountId,
        kind: old.kind,
        name: old.name,
        prefix: key.slice(0, 10),
        hash: hashApiKey(key),
        createdAt: now,
      },
    });
    await recordAudit(tx, {
      actor,
      action: "api_key.rotate",
      targetType: "api_key",
      targetId: old.id,
      metadata: {
        kind: old.kind,
        oldPrefix: old.prefix,
        newKeyId: created.id,
        newPrefix: created.prefix,
        oldKeyExpiresAt: expiresAt.toISOString(),
      },
      ip: args.ip,
      now,
    });
    return { key, created: toView(created, now), previous: toView({ ...old, expiresAt }, now) };
  });
}
