/**
 * Asking for a data export (docs/privacy.md "Data export (subject access)"):
 * - the reader, signed in, from /member/privacy: one pending request at a time (a second one
 *   while the first is pending answers the first), mailed as a link once built;
 * - staff (OWNER or REVENUE) for one of the account's readers, a subject access request: audited
 *   (`privacy.export`), downloadable from the dashboard by that staff user only, and mailed to the
 *   reader too when they say so.
 * Either way the row and its "privacy.export.build" job commit together (./build.ts builds it).
 *
 * Vocabulary: an export is PENDING (asked, not built), READY (in storage until `expiresAt`), or
 * EXPIRED (its archive removed by the cleanup; the row answers 410 for a while, then goes).
 */
import "server-only";

import { isLocale, type Locale } from "@/i18n/locales";

import { recordAudit } from "../../audit/audit-log";
import { systemActor, type StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { accountLocales, memberLocale } from "../../i18n/locale-settings";
import { enqueueJob } from "../../jobs/queue";
import { buildExportJob, readerAddress } from "./build";
import type { TMemberExportView, TStaffExportView } from "./exports.schema";

type ExportRow = {
  id: string;
  requestedBy: string;
  status: "PENDING" | "READY" | "EXPIRED";
  createdAt: Date;
  readyAt: Date | null;
  expiresAt: Date | null;
};

const VIEW_FIELDS = {
  id: true,
  requestedBy: true,
  status: true,
  createdAt: true,
  readyAt: true,
  expiresAt: true,
} as const;

function memberView(row: ExportRow, now: Date): TMemberExportView {
  const expired = row.status === "EXPIRED" || (row.expiresAt !== null && row.expiresAt <= now);
  return {
    id: row.id,
    status: expired ? "expired" : row.status === "READY" ? "ready" : "pending",
    requested_at: row.createdAt.toISOString(),
    ready_at: row.readyAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}

/** The locale the archive and its mail are in: the page's, when the account offers it; else the member's. */
async function exportLocale(db: Db, accountId: number, memberId: number, asked: string | undefined): Promise<Locale> {
  if (asked && isLocale(asked) && (await accountLocales(db, accountId)).offered.includes(asked)) return asked;
  return memberLocale(db, accountId, memberId);
}

/** Hold the member's row until the transaction ends: requests for one member take turns. */
async function lockMember(db: Db, accountId: number, memberId: number): Promise<void> {
  const rows = await db.$queryRaw<{ id: number }[]>`
    SELECT id FROM members WHERE id = ${memberId} AND account_id = ${accountId} FOR UPDATE`;
  if (rows.length === 0) throw new AppError("NOT_FOUND", "There is no such reader in this account.");
}

/**
 * The signed-in reader asks for their data. Returns the pending request (`created: false`) when
 * there is one, else a new one with its build job.
 */
export async function requestMemberExport(
  db: Db,
  args: { accountId: number; memberId: number; locale?: string; now: Date },
): Promise<{ export: TMemberExportView; created: boolean }> {
  const { accountId, memberId, now } = args;
  return withTransaction(db, async (tx) => {
    await lockMember(tx, accountId, memberId);
    const member = await tx.member.findUniqueOrThrow({
      where: { id: memberId },
      select: { email: true, communicationEmail: true },
    });
    if (!readerAddress(member))
      throw new AppError("UNPROCESSABLE", "Add an e-mail address to your account first: the link is sent by e-mail.");
    const pending = await tx.memberDataExport.findUnique({ where: { pendingMemberId: memberId }, select: VIEW_FIELDS });
    if (pending) return { export: memberView(pending, now), created: false };
    const row = await tx.memberDataExport.create({
      data: {
        accountId,
        memberId,
        requestedBy: "reader",
        mailReader: true,
        pendingMemberId: memberId,
        locale: await exportLocale(tx, accountId, memberId, args.locale),
        createdAt: now,
      },
      select: VIEW_FIELDS,
    });
    await enqueueJob(tx, buildExportJob, { exportId: row.id }, { key: `privacy.export:${row.id}`, accountId, now });
    await recordAudit(tx, {
      actor: systemActor(accountId, "reader"),
      action: "privacy.export",
      targetType: "member",
      targetId: memberId,
      metadata: { exportId: row.id, requestedBy: "reader" },
      now,
    });
    return { export: memberView(row, now), created: true };
  });
}

/** The reader's latest own request (null: none), for /member/privacy. */
export async function latestMemberExport(
  db: Db,
  args: { accountId: number; memberId: number; now: Date },
): Promise<TMemberExportView | null> {
  const row = await db.memberDataExport.findFirst({
    where: { accountId: args.accountId, memberId: args.memberId, requestedBy: "reader" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: VIEW_FIELDS,
  });
  return row ? memberView(row, args.now) : null;
}

/** Staff ask for a reader's data (a subject access request): audited, built in the background. */
export async function requestStaffExport(
  db: Db,
  args: { actor: StaffActor; memberId: number; mailReader: boolean; now: Date; ip?: string | null },
): Promise<TStaffExportView> {
  const { actor, memberId, now } = args;
  const accountId = actor.accountId;
  return withTransaction(db, async (tx) => {
    await lockMember(tx, accountId, memberId);
    const row = await tx.memberDataExport.create({
      data: {
        accountId,
        memberId,
        requestedBy: "staff",
        staffUserId: actor.id,
        mailReader: args.mailReader,
        locale: await memberLocale(tx, accountId, memberId),
        createdAt: now,
      },
      select: { ...VIEW_FIELDS, staffUserId: true },
    });
    await enqueueJob(tx, buildExportJob, { exportId: row.id }, { key: `privacy.export:${row.id}`, accountId, now });
    await recordAudit(tx, {
      actor,
      action: "privacy.export",
      targetType: "member",
      targetId: memberId,
      metadata: { exportId: row.id, mailReader: args.mailReader },
      ip: args.ip ?? null,
      now,
    });
    return staffView(row, actor, now);
  });
}

function staffView(row: ExportRow & { staffUserId: string | null }, actor: StaffActor, now: Date): TStaffExportView {
  const view = memberView(row, now);
  return {
    ...view,
    requested_by: row.requestedBy === "staff" ? "staff" : "reader",
    downloadable: view.status === "ready" && row.staffUserId === actor.id,
  };
}

/** A reader's exports, newest first, for the dashboard (NOT_FOUND for another account's reader). */
export async function listStaffExports(
  db: Db,
  args: { actor: StaffActor; memberId: number; now: Date },
): Promise<TStaffExportView[]> {
  const { actor, memberId } = args;
  const member = await db.member.findFirst({
    where: { id: memberId, accountId: actor.accountId },
    select: { id: true },
  });
  if (!member) throw new AppError("NOT_FOUND", "There is no such reader in this account.");
  const rows = await db.memberDataExport.findMany({
    where: { accountId: actor.accountId, memberId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 20,
    select: { ...VIEW_FIELDS, staffUserId: true },
  });
  return rows.map((row) => staffView(row, actor, args.now));
}
