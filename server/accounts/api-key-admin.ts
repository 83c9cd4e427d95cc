/**
 * The account's API keys in the dashboard (owners): listed by prefix, never the key; created with
 * a name (the key shown once), rotated with a grace period (server/auth/api-keys.ts explains rotation), and
 * revoked (stops at once). Audited: "api_key.create", "api_key.rotate", "api_key.revoke".
 */
import "server-only";

import { recordAudit } from "../audit/audit-log";
import type { StaffActor } from "../auth/actor";
import { generateApiKey, hashApiKey, isApiKeyLive as isLive } from "../auth/api-keys";
import { hasAnyRole } from "../auth/roles";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { ApiKey } from "../generated/prisma/client";
import { parseInput } from "../validation";
import {
  API_KEY_ROTATION_GRACE_HOURS,
  ZCreateApiKeyInput,
  ZRevokeApiKeyInput,
  ZRotateApiKeyInput,
  type TApiKeyView,
  type TCreateApiKeyInput,
  type TCreatedApiKey,
  type TRevokeApiKeyInput,
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

/** A new named key of a kind (owners only), returned in clear this once; only its digest is stored. */
export async function createNamedApiKey(
  db: Db,
  args: TCreateApiKeyInput & { actor: StaffActor; now?: Date; ip?: string | null },
): Promise<TCreatedApiKey> {
  const { actor } = args;
  assertOwner(actor);
  const { kind, name } = parseInput(ZCreateApiKeyInput, { kind: args.kind, name: args.name });
  const now = args.now ?? new Date();
  return withTransaction(db, async (tx) => {
    const key = generateApiKey(kind);
    const created = await tx.apiKey.create({
      data: { accountId: actor.accountId, kind, name, prefix: key.slice(0, 10), hash: hashApiKey(key), createdAt: now },
    });
    await recordAudit(tx, {
      actor,
      action: "api_key.create",
      targetType: "api_key",
      targetId: created.id,
      metadata: { kind, name, prefix: created.prefix },
      ip: args.ip,
      now,
    });
    return { key, created: toView(created, now) };
  });
}

/**
 * Revoke a key (owners only): it stops working at once, a key in its rotation grace too. The
 * account's last working key of a kind is refused (UNPROCESSABLE): the widgets (client key) and
 * server integrations (server key) would stop with it; create its replacement first. A key that
 * is already revoked or expired is UNPROCESSABLE; another account's is NOT_FOUND.
 */
export async function revokeApiKey(
  db: Db,
  args: TRevokeApiKeyInput & { actor: StaffActor; now?: Date; ip?: string | null },
): Promise<TApiKeyView> {
  const { actor } = args;
  assertOwner(actor);
  const { keyId } = parseInput(ZRevokeApiKeyInput, { keyId: args.keyId });
  const now = args.now ?? new Date();
  return withTransaction(db, async (tx) => {
    const key = await tx.apiKey.findFirst({ where: { id: keyId, accountId: actor.accountId } });
    if (!key) throw new AppError("NOT_FOUND", "No such API key in this account.");
    // The account's keys are locked, so two keys revoked at once cannot both count on the other.
    await tx.$queryRaw`SELECT id FROM api_keys WHERE account_id = ${actor.accountId} FOR UPDATE`;
    if (!isLive(key, now)) {
      throw new AppError("UNPROCESSABLE", "This key no longer works: it is already revoked or expired.", {
        details: [{ field: "keyId", issue: "is already revoked or expired" }],
      });
    }
    const others = await tx.apiKey.findMany({
      where: { accountId: actor.accountId, kind: key.kind, id: { not: key.id }, revokedAt: null },
      select: { revokedAt: true, expiresAt: true },
    });
    // Only a key that keeps working counts: one in its rotation grace stops soon anyway.
    if (!others.some((other) => isLive(other, now) && !other.expiresAt)) {
      const what = key.kind === "CLIENT" ? "client" : "server";
      throw new AppError(
        "UNPROCESSABLE",
        `This is the account's last working ${what} key: create another ${what} key first, then revoke this one.`,
        { details: [{ field: "keyId", issue: `is the last working ${what} key` }] },
      );
    }
    // Conditional, so a key revoked twice at once is revoked (and audited) once.
    const { count } = await tx.apiKey.updateMany({ where: { id: key.id, revokedAt: null }, data: { revokedAt: now } });
    if (count === 0) throw new AppError("CONFLICT", "This key is being revoked by someone else. Reload the page.");
    await recordAudit(tx, {
      actor,
      action: "api_key.revoke",
      targetType: "api_key",
      targetId: key.id,
      metadata: { kind: key.kind, name: key.name, prefix: key.prefix },
      ip: args.ip,
      now,
    });
    return toView({ ...key, revokedAt: now }, now);
  });
}
