/**
 * Handing a built export over. Two doors, each for one person:
 * - the reader, through the mailed link: signed in as the export's member AND holding the link's
 *   token (compared by its SHA-256, in constant time). An unknown export, another account's, or a
 *   wrong token is NOT_FOUND (nothing said about whether it exists); the right link opened by
 *   another reader is FORBIDDEN; an expired one is GONE.
 * - the staff user who asked for it (a subject access request), from the dashboard: any other
 *   staff user is FORBIDDEN; each download is audited (`privacy.export.download`).
 */
import "server-only";

import { timingSafeEqual } from "node:crypto";

import { recordAudit } from "../../audit/audit-log";
import { systemActor, type StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import type { ImageStorage } from "../../storage/image-storage";
import { hashExportToken } from "./build";

type ExportFile = { body: ReadableStream<Uint8Array>; size: number; fileName: string };

const EXPIRED_MESSAGE =
  "This download link has expired and the archive has been deleted. Ask for your data again on the “Your data” page.";

type Row = {
  id: string;
  accountId: number;
  memberId: number;
  status: "PENDING" | "READY" | "EXPIRED";
  staffUserId: string | null;
  tokenHash: string | null;
  storageKey: string | null;
  expiresAt: Date | null;
  createdAt: Date;
};

function tokenMatches(token: string, hash: string | null): boolean {
  if (!hash) return false;
  const given = Buffer.from(hashExportToken(token), "hex");
  const kept = Buffer.from(hash, "hex");
  return given.length === kept.length && timingSafeEqual(given, kept);
}

/** The archive of a READY, unexpired export, or GONE. */
async function archiveOf(storage: ImageStorage, row: Row, now: Date): Promise<ExportFile> {
  if (row.status === "PENDING") throw new AppError("CONFLICT", "This export is still being prepared.");
  if (row.status === "EXPIRED" || !row.storageKey || (row.expiresAt && row.expiresAt <= now))
    throw new AppError("GONE", EXPIRED_MESSAGE);
  const object = await storage.get(row.storageKey);
  if (!object) throw new AppError("GONE", EXPIRED_MESSAGE);
  const day = row.createdAt.toISOString().slice(0, 10);
  return { body: object.body, size: object.size, fileName: `your-data-${day}.zip` };
}

/** The reader's download through the mailed link (see the module comment for who gets what). */
export async function openMemberExport(
  db: Db,
  args: { accountId: number; memberId: number; exportId: string; token: string; now: Date; storage: ImageStorage },
): Promise<ExportFile> {
  const row = await db.memberDataExport.findFirst({ where: { id: args.exportId, accountId: args.accountId } });
  if (!row || !tokenMatches(args.token, row.tokenHash))
    throw new AppError("NOT_FOUND", "There is no such download. Check that you opened the whole link from the e-mail.");
  if (row.memberId !== args.memberId)
    throw new AppError(
      "FORBIDDEN",
      "This download belongs to another reader. Sign in with the account it was sent to.",
    );
  const file = await archiveOf(args.storage, row, args.now);
  await db.memberDataExport.update({ where: { id: row.id }, data: { downloadedAt: args.now } });
  await recordAudit(db, {
    actor: systemActor(args.accountId, "reader"),
    action: "privacy.export.download",
    targetType: "member",
    targetId: row.memberId,
    metadata: { exportId: row.id },
    now: args.now,
  });
  return file;
}

/** The staff user's download of the export they asked for; audited. */
export async function openStaffExport(
  db: Db,
  args: { actor: StaffActor; exportId: string; now: Date; storage: ImageStorage; ip?: string | null },
): Promise<ExportFile> {
  const { actor } = args;
  const row = await db.memberDataExport.findFirst({ where: { id: args.exportId, accountId: actor.accountId } });
  if (!row) throw new AppError("NOT_FOUND", "There is no such export in this account.");
  if (row.requestedBy !== "staff" || row.staffUserId !== actor.id)
    throw new AppError("FORBIDDEN", "Only the staff user who asked for this export may download it.");
  const file = await archiveOf(args.storage, row, args.now);
  await recordAudit(db, {
    actor,
    action: "privacy.export.download",
    targetType: "member",
    targetId: row.memberId,
    metadata: { exportId: row.id },
    ip: args.ip ?? null,
    now: args.now,
  });
  return file;
}

/** The archive as an HTTP download (private: never cached by a proxy). */
export function exportFileResponse(file: ExportFile): Response {
  return new Response(file.body, {
    status: 200,
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(file.size),
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
