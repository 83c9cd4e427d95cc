/**
 * Audit log: who did what in the dashboard, per account. Append-only: entries are recorded and
 * listed, never updated or deleted here.
 *
 * Listing is keyset-paginated, newest first, on (createdAt, id): a cursor names the last entry
 * of a page, so entries recorded while someone pages through do not shift or repeat what they see.
 */
import "server-only";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { nextDay, zonedDayStart } from "../time-zone";
import {
  ZAuditLogFilter,
  ZListAuditLogInput,
  type TAuditActionList,
  type TAuditActorList,
  type TAuditLogEntry,
  type TAuditLogFilter,
  type TAuditLogPage,
  type TListAuditLogInput,
} from "./audit-log.schema";

/**
 * Who acted, as the log records it: a staff member (their user id) or the system (by name). Every
 * `Actor` of server/auth/actor.ts is one; the log sits below server/auth and names only what it
 * keeps.
 */
type AuditActor =
  { kind: "staff"; id: string; accountId: number } | { kind: "system"; name: string; accountId: number };

export type RecordAuditInput = {
  /** Who acted: the entry is the actor's account's; the system has no user. */
  actor: AuditActor;
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
      actorId: actor.kind === "staff" ? actor.id : null,
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

/** The rows `filter` keeps, as a where clause (days on the account's clocks). */
async function filterWhere(
  db: Db,
  accountId: number,
  filter: TAuditLogFilter & { actorId?: string },
): Promise<Prisma.AuditLogWhereInput> {
  const actor = filter.actor === "system" ? null : (filter.actor ?? filter.actorId);
  let createdAt: Prisma.DateTimeFilter | undefined;
  if (filter.from || filter.to) {
    const account = await db.account.findUnique({ where: { id: accountId }, select: { timeZone: true } });
    const zone = account?.timeZone ?? "UTC";
    createdAt = {
      ...(filter.from ? { gte: zonedDayStart(filter.from, zone) } : {}),
      ...(filter.to ? { lt: zonedDayStart(nextDay(filter.to), zone) } : {}),
    };
  }
  return {
    accountId,
    ...(actor !== undefined ? { actorId: actor } : {}),
    ...(filter.action ? { action: filter.action } : {}),
    ...(createdAt ? { createdAt } : {}),
  };
}

const ENTRY_SELECT = {
  id: true,
  action: true,
  targetType: true,
  targetId: true,
  metadata: true,
  ip: true,
  createdAt: true,
  actor: { select: { id: true, name: true, email: true } },
} satisfies Prisma.AuditLogSelect;

/**
 * One page of an account's entries, newest first, as `filter` keeps them (`actorId`: only this
 * user's, for a user's own activity). Entries of other accounts are never visible.
 */
export async function listAuditLog(
  db: Db,
  args: { accountId: number; actorId?: string } & TListAuditLogInput,
): Promise<TAuditLogPage> {
  const { cursor, limit, ...filter } = ZListAuditLogInput.parse(args);
  const after = cursor ? decodeCursor(cursor) : undefined;
  const where = await filterWhere(db, args.accountId, { ...filter, actorId: args.actorId });
  const rows = await db.auditLog.findMany({
    where: {
      ...where,
      ...(after
        ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    // One more than asked: its presence says whether there is a next page.
    take: limit + 1,
    select: ENTRY_SELECT,
  });
  const items: TAuditLogEntry[] = rows.slice(0, limit).map((row) => ({
    ...row,
    metadata: isJsonObject(row.metadata) ? row.metadata : {},
  }));
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/** Every entry `filter` keeps, newest first, read page by page (the CSV export). */
export async function* allAuditEntries(
  db: Db,
  args: { accountId: number; filter: TAuditLogFilter },
): AsyncGenerator<TAuditLogEntry> {
  const filter = ZAuditLogFilter.parse(args.filter);
  let cursor: string | undefined;
  do {
    const page = await listAuditLog(db, { accountId: args.accountId, ...filter, cursor, limit: 100 });
    yield* page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** The staff members the log holds entries of, by name (for the filter). */
export async function listAuditActors(db: Db, args: { accountId: number }): Promise<TAuditActorList> {
  const groups = await db.auditLog.groupBy({
    by: ["actorId"],
    where: { accountId: args.accountId, actorId: { not: null } },
  });
  const ids = groups.flatMap((g) => (g.actorId ? [g.actorId] : []));
  if (ids.length === 0) return [];
  return db.adminUser.findMany({
    where: { id: { in: ids }, accountId: args.accountId },
    select: { id: true, name: true, email: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
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
