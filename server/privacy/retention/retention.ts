/**
 * The retention job (docs/privacy.md "Consent and retention"): each account's periods
 * (./privacy-settings.ts) applied to what it holds, in batches.
 *
 * - IP addresses (the IP period): cleared from audit entries and dashboard sessions older than it;
 *   the entries and sessions themselves stay (the audit log is kept whole).
 * - Delivery logs (the log period, never longer than WEBHOOK_RETENTION_DAYS): webhook events with
 *   their deliveries and attempts (none pending), sent or failed mails of the outbox, payment
 *   gateways' events once handled, and the account's ended jobs.
 * - Deleted comments (the deleted-comment period): removed for good once deleted that long ago,
 *   unless replies still hang under them (their thread keeps the "deleted" placeholder; it goes on
 *   a later run, once its replies are gone).
 * - Expired rate-limit counters (their keys hold IP addresses), for every account at once.
 *
 * Never removed: audit entries, invoices and payments, subscriptions, comments not deleted,
 * consent records, pending work (pending deliveries, mails and jobs).
 *
 * Each batch is chosen, then deleted (or cleared) with its conditions checked again, so a batch is
 * idempotent and two runs at once never remove a row twice nor anything younger: a row the other
 * run took is simply not found. Killed mid-way, what committed stays and the next run goes on.
 */
import "server-only";

import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { defineSweepJob } from "../../jobs/define";
import { addCounts, cutoffOf, logPeriod, zeroCounts } from "./periods";
import { privacySettingsOf } from "./privacy-settings";
import {
  ZRetentionCounts,
  type TPrivacySettings,
  type TRetentionCounts,
  type TRetentionKind,
} from "./privacy-settings.schema";

const RETENTION_EVERY_MS = 3600_000;
/** Rows per kind and batch. */
const RETENTION_BATCH = 500;

type Cutoffs = { ip: Date; log: Date; comments: Date };
type Step = (tx: Db, accountId: number, cut: Cutoffs, take: number) => Promise<number>;

const ids = <T extends { id: unknown }>(rows: T[]) => rows.map((r) => r.id as T["id"]);

/** One batch per kind: what it clears or deletes, chosen then checked again. */
const STEPS: Record<TRetentionKind, Step> = {
  async auditIps(tx, accountId, cut, take) {
    const where = { accountId, createdAt: { lt: cut.ip }, ip: { not: null } };
    const rows = await tx.auditLog.findMany({ where, select: { id: true }, take, orderBy: { createdAt: "asc" } });
    if (!rows.length) return 0;
    return (await tx.auditLog.updateMany({ where: { ...where, id: { in: ids(rows) } }, data: { ip: null } })).count;
  },
  async sessionIps(tx, accountId, cut, take) {
    const where = { user: { accountId }, createdAt: { lt: cut.ip }, ip: { not: null } };
    const rows = await tx.adminSession.findMany({ where, select: { id: true }, take });
    if (!rows.length) return 0;
    return (await tx.adminSession.updateMany({ where: { ...where, id: { in: ids(rows) } }, data: { ip: null } })).count;
  },
  async webhookEvents(tx, accountId, cut, take) {
    const where = { accountId, createdAt: { lt: cut.log }, deliveries: { none: { status: "PENDING" as const } } };
    const rows = await tx.webhookEvent.findMany({ where, select: { id: true }, take });
    if (!rows.length) return 0;
    return (await tx.webhookEvent.deleteMany({ where: { ...where, id: { in: ids(rows) } } })).count;
  },
  async mails(tx, accountId, cut, take) {
    const where = { accountId, createdAt: { lt: cut.log }, status: { not: "PENDING" as const } };
    const rows = await tx.outgoingEmail.findMany({ where, select: { id: true }, take });
    if (!rows.length) return 0;
    return (await tx.outgoingEmail.deleteMany({ where: { ...where, id: { in: ids(rows) } } })).count;
  },
  async gatewayEvents(tx, accountId, cut, take) {
    // "received" is not handled yet: its job still needs it.
    const where = { accountId, createdAt: { lt: cut.log }, status: { not: "received" } };
    const rows = await tx.gatewayEvent.findMany({ where, select: { id: true }, take });
    if (!rows.length) return 0;
    return (await tx.gatewayEvent.deleteMany({ where: { ...where, id: { in: ids(rows) } } })).count;
  },
  async jobs(tx, accountId, cut, take) {
    const where = { accountId, status: { not: "PENDING" as const }, completedAt: { lt: cut.log } };
    const rows = await tx.job.findMany({ where, select: { id: true }, take });
    if (!rows.length) return 0;
    return (await tx.job.deleteMany({ where: { ...where, id: { in: ids(rows) } } })).count;
  },
  async deletedComments(tx, accountId, cut, take) {
    const where = { accountId, deletedAt: { lt: cut.comments }, replies: { none: {} } };
    const rows = await tx.comment.findMany({ where, select: { id: true }, take, orderBy: { id: "desc" } });
    if (!rows.length) return 0;
    return (await tx.comment.deleteMany({ where: { ...where, id: { in: ids(rows) } } })).count;
  },
};

function cutoffsOf(settings: TPrivacySettings, now: Date, deploymentLogDays: number): Cutoffs {
  return {
    ip: cutoffOf(now, settings.ipRetentionDays),
    log: cutoffOf(now, logPeriod(settings.logRetentionDays, deploymentLogDays)),
    comments: cutoffOf(now, settings.deletedCommentRetentionDays),
  };
}

/**
 * Apply one account's periods at `now`: batches of `batchSize` per kind, each in its own
 * transaction (or in the caller's, when `db` is one), at most `maxBatches` per kind. `more`: a kind
 * stopped at that limit with rows left.
 */
export async function applyRetention(
  db: Db,
  args: { accountId: number; now: Date; deploymentLogDays: number; batchSize?: number; maxBatches?: number },
): Promise<{ removed: TRetentionCounts; more: boolean }> {
  const batchSize = args.batchSize ?? RETENTION_BATCH;
  const maxBatches = args.maxBatches ?? Number.POSITIVE_INFINITY;
  const cut = cutoffsOf(await privacySettingsOf(db, args.accountId), args.now, args.deploymentLogDays);
  const removed = zeroCounts();
  let more = false;
  for (const [kind, step] of Object.entries(STEPS) as [TRetentionKind, Step][]) {
    for (let batch = 0; ; batch++) {
      if (batch >= maxBatches) {
        more = true;
        break;
      }
      const n = await withTransaction(db, (tx) => step(tx, args.accountId, cut, batchSize));
      removed[kind] += n;
      if (n < batchSize) break;
    }
  }
  return { removed, more };
}

/**
 * Write the account's last run: a run that follows one stopped at its limit adds to its counts
 * (the same sweep); otherwise it replaces them. The row is locked, so runs at once add up right.
 */
async function recordRetentionRun(
  db: Db,
  args: { accountId: number; startedAt: Date; finishedAt: Date; removed: TRetentionCounts; complete: boolean },
): Promise<void> {
  await withTransaction(db, async (tx) => {
    await tx.$executeRaw`INSERT INTO retention_runs (account_id, started_at, finished_at, removed, complete)
      VALUES (${args.accountId}, ${args.startedAt}, ${args.startedAt}, '{}'::jsonb, true) ON CONFLICT (account_id) DO NOTHING`;
    const [held] = await tx.$queryRaw<{ removed: unknown; complete: boolean; started_at: Date }[]>`
      SELECT removed, complete, started_at FROM retention_runs WHERE account_id = ${args.accountId} FOR UPDATE`;
    const previous = ZRetentionCounts.partial().safeParse(held?.removed);
    const goesOn = held && !held.complete;
    const removed = goesOn ? addCounts(args.removed, previous.success ? previous.data : {}) : args.removed;
    await tx.retentionRun.update({
      where: { accountId: args.accountId },
      data: {
        startedAt: goesOn ? held.started_at : args.startedAt,
        finishedAt: args.finishedAt,
        removed,
        complete: args.complete,
      },
    });
  });
}

/** Expired rate-limit counters (every account's): one batch. */
async function purgeExpiredRateLimits(db: Db, now: Date, take: number): Promise<number> {
  const rows = await db.rateLimitBucket.findMany({ where: { resetAt: { lt: now } }, select: { key: true }, take });
  if (!rows.length) return 0;
  const keys = rows.map((r) => r.key);
  return (await db.rateLimitBucket.deleteMany({ where: { key: { in: keys }, resetAt: { lt: now } } })).count;
}

/**
 * One pass over every account (the job's run, in its transaction): at most one batch per kind and
 * account. `more`: something was left for the next pass.
 */
export async function retentionPass(
  db: Db,
  args: { now: Date; deploymentLogDays: number; batchSize?: number },
): Promise<{ more: boolean; removed: Map<number, TRetentionCounts> }> {
  const batchSize = args.batchSize ?? RETENTION_BATCH;
  const accounts = await db.account.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  const removedByAccount = new Map<number, TRetentionCounts>();
  let more = false;
  for (const { id } of accounts) {
    const result = await applyRetention(db, { ...args, accountId: id, batchSize, maxBatches: 1 });
    more ||= result.more;
    removedByAccount.set(id, result.removed);
    await recordRetentionRun(db, {
      accountId: id,
      startedAt: args.now,
      finishedAt: args.now,
      removed: result.removed,
      complete: !result.more,
    });
  }
  more ||= (await purgeExpiredRateLimits(db, args.now, batchSize)) === batchSize;
  return { more, removed: removedByAccount };
}

/**
 * "privacy.retention", hourly: one pass (./retention.ts header); when a pass leaves rows at its
 * batch limit, the next pass runs at once. Each pass is one transaction: killed, it leaves nothing
 * half-done and the next pass starts over where the last commit stood.
 */
export const retentionJob = defineSweepJob({
  name: "privacy.retention",
  everyMs: RETENTION_EVERY_MS,
  leaseMs: 300_000,
  async run(tx, _job, ctx) {
    const now = ctx.clock();
    const { more } = await retentionPass(tx, { now, deploymentLogDays: ctx.webhookRetentionDays });
    return more ? { status: "retry", at: new Date(now.getTime() + 1000) } : { status: "done" };
  },
});
