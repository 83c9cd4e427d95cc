/**
 * Removing exports:
 * - "privacy.export.cleanup", hourly: each READY export past `expiresAt` loses its archive and
 *   becomes EXPIRED (its link then answers 410, not 404, so the reader learns why); an EXPIRED
 *   row is deleted EXPIRED_ROW_DAYS after its expiry. Archives go before their rows change: a run
 *   killed half-way leaves rows whose archive is gone (they answer 410) and the next run finishes.
 * - `deleteMemberExports`: every export of one member, archives and rows (the erasure's step).
 */
import "server-only";

import type { Db } from "../../db/client";
import { defineSweepJob } from "../../jobs/define";
import { log } from "../../log";
import type { ImageStorage } from "../../storage/image-storage";
import { exportStorage, exportStorageKey } from "./build";

/** How long an expired export's row stays (its link answers 410 meanwhile). */
const EXPIRED_ROW_DAYS = 30;
const BATCH = 200;

/** Remove the archive of each export in `rows` (its recorded key and its fixed one; nothing there is fine). */
async function removeArchives(
  storage: ImageStorage,
  rows: readonly { id: string; accountId: number; storageKey: string | null }[],
): Promise<void> {
  for (const row of rows) {
    const keys = new Set([exportStorageKey(row.accountId, row.id), ...(row.storageKey ? [row.storageKey] : [])]);
    for (const key of keys) await storage.delete(key);
  }
}

/** Expire what is due and drop old expired rows; returns how many of each. */
export async function expireMemberExports(
  db: Db,
  args: { now: Date; storage: ImageStorage },
): Promise<{ expired: number; deleted: number }> {
  const { now } = args;
  let expired = 0;
  for (;;) {
    const due = await db.memberDataExport.findMany({
      where: { status: "READY", expiresAt: { lte: now } },
      select: { id: true, accountId: true, storageKey: true },
      take: BATCH,
    });
    if (due.length === 0) break;
    await removeArchives(args.storage, due);
    const { count } = await db.memberDataExport.updateMany({
      where: { id: { in: due.map((r) => r.id) }, status: "READY" },
      data: { status: "EXPIRED", storageKey: null, bytes: null },
    });
    expired += count;
    if (due.length < BATCH) break;
  }
  const { count: deleted } = await db.memberDataExport.deleteMany({
    where: { status: "EXPIRED", expiresAt: { lt: new Date(now.getTime() - EXPIRED_ROW_DAYS * 86_400_000) } },
  });
  return { expired, deleted };
}

export const cleanupExportsJob = defineSweepJob({
  name: "privacy.export.cleanup",
  everyMs: 3600_000,
  async run(tx, _job, ctx) {
    const { expired, deleted } = await expireMemberExports(tx, { now: ctx.clock(), storage: exportStorage() });
    if (expired || deleted) log.info("data exports cleaned up", { expired, deleted });
  },
});

/**
 * Remove every export of `memberId` in `accountId`: the archives from storage, then the rows
 * (pending ones too: their build job then finds no row and does nothing). Safe to run again.
 * Returns how many rows went.
 */
export async function deleteMemberExports(
  db: Db,
  accountId: number,
  memberId: number,
  storage: ImageStorage = exportStorage(),
): Promise<number> {
  const rows = await db.memberDataExport.findMany({
    where: { accountId, memberId },
    select: { id: true, accountId: true, storageKey: true },
  });
  await removeArchives(storage, rows);
  const { count } = await db.memberDataExport.deleteMany({ where: { accountId, memberId } });
  return count;
}
