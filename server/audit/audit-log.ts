/**
 * Audit log: who did what in the dashboard, per account. Append-only: entries are recorded and
 * listed, never updated or deleted here.
 *
 * Listing is keyset-paginated, newest first, on (createdAt, id): a cursor names the last entry
 * of a page, so entries recorded while someone pages through do not shift or repeat what they see.
 */
import "server-only";

import { actorUserId, type Actor } from "../auth/actor";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import {
  ZListAuditLogInput,
  type TAuditActionList,
  type TAuditLogEntry,
  type TAuditLogPage,
  type TListAuditLogInput,
} from "./audit-log.schema";

export type RecordAuditInput = {
  /** Who acted (server/auth/actor.ts): the entry is the actor's account's; the system has no user. */
  actor: Actor;
  /** Dotted verb, e.g. "admin.sign_in". */
  action: string;
  targetType?: string;
  targetId?: string | number;
  /** Small, and never secrets. */
  metadata?: Prisma.InputJsonObject;
  ip?: string | null;
  now?: Date;
};

/** Append one entry. */
export async function recordAudit(db: Db, input: RecordAuditInput): Promise<{ id: string }> {
  const { actor } = input;
  return db.auditLog.create({
    data: {
      accountId: actor.accountId,
      actorId: actorUserId(actor),
      action: input.action,
      targetType: input.targetType ?? null,
      targetId: input.targetId === undefined ? null : String(input.targetId),
      metadata: actor.kind === "system" ? { ...input.metadata, system: actor.name } : (input.metadata ?? {}),
      ip: input.ip ?? null,
      ...(input.now ? { createdAt: input.now } : {}),
    },
    select: { id: true },
  });
}

/** One page of an account's entries, newest first. Entries of other accounts are never visible. */
export async function listAuditLog(
  db: Db,
  args: { accountId: number; /** Only this user's entries. */ actorId?: string } & TListAuditLogInput,
): Promise<TAuditLogPage> {
  const { cursor, limit, action } = ZListAuditLogInput.parse(args);
  const after = cursor ? decodeCursor(cursor) : undefined;
  const rows = await db.auditLog.findMany({
    where: {
      accountId: args.accountId,
      ...(args.actorId ? { actorId: args.actorId } : {}),
      ...(action ? { action } : {}),
      ...(after
        ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    // One more than asked: its presence says whether there is a next page.
    take: limit + 1,
    select: {
      id: true,
      action: true,
      targetType: true,
      targetId: true,
      metadata: true,
      ip: true,
      createdAt: true,
      actor: { select: { id: true, name: true, email: true } },
    },
  });
  const items: TAuditLogEntry[] = rows.slice(0, limit).map((row) => ({
    ...row,
    metadata: isJsonObject(row.metadata) ? row.metadata : {},
  }));
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** The actions an account's log holds, with how often each occurs (for the filter). */
export async function listAuditActions(db: Db, args: { accountId: number }): Promise<TAuditActionList> {
  const groups = await db.auditLog.groupBy({
    by: ["action"],
    where: { accountId: args.accountId },
    _count: { _all: true },
    orderBy: { action: "asc" },
  });
  return groups.map((g) => ({ action: g.action, count: g._count._all }));
}

// ─── Cursors ─────────────────────────────────────────────────────────────────────────────────
// "<createdAt ms>.<uuid>" in base64url: opaque to clients, checked when it comes back.

function encodeCursor(entry: { createdAt: Date; id: string }): string {
  return Buffer.from(`${entry.createdAt.getTime()}.${entry.id}`, "utf8").toString("base64url");
}

const CURSOR_FORM = /^(\d{1,15})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const match = CURSOR_FORM.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) {
    throw new AppError("BAD_REQUEST", "The cursor is not one this listing returned.", {
      details: [{ field: "cursor", issue: "is invalid" }],
    });
  }
  return { createdAt: new Date(Number(match[1])), id: match[2]! };
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
