/**
 * Surges (docs/engagement.md "Shifts and surges"): when a page's comments arrive faster than the
 * moderators clear them, or nobody is on shift, new comments on the page are held or slowed until
 * the queue is cleared (or a shift starts). The rules are surge-rules.ts; the settings
 * surge-settings.ts. This module:
 *
 * - watches (`watchAccount`, run by the recurring job "moderation.surge_watch" every minute and
 *   at once when the settings are saved): reads each page's queue in one statement, starts, calms
 *   and ends surges, and runs the queue-age alert, in one transaction per account;
 * - keeps each surge apart from the page's own rules (page_surges, never pages.comment_mode): a
 *   comment create applies the stricter of both (`surgeRulesOf`), from memory (cache topic
 *   "moderation-surges", announced by page_surges' trigger at commit: decision 0004);
 * - lists them for moderators.
 * The queue-age alert the watch also runs is queue-alert.ts.
 *
 * Safe with several instances and retried jobs: an open surge and an open alert episode are each
 * unique (partial unique indexes), so two watches at once insert one (ON CONFLICT DO NOTHING) and
 * only the one that inserted records the switch (audit entry as the system, webhook event) or
 * sends the e-mail; an end is recorded by the one whose UPDATE ended it.
 */
import "server-only";

import { z } from "zod";

import { recordAudit } from "../../../audit/audit-log";
import { systemActor, type StaffActor } from "../../../auth/actor";
import { ProcessCache } from "../../../cache/process-cache";
import type { Db, TransactionClient } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { defineJob } from "../../../jobs/define";
import { parseInput } from "../../../validation";
import { emitWebhookEvent } from "../../../webhooks/deliveries";
import { requireModerator } from "../moderator";
import type { PageRules } from "../rules/rules";
import { watchAlert, WATCHER } from "./queue-alert";
import { isOnShift, offShiftStep, queueSurgeStep, strictestRules, type SurgeStep } from "./surge-rules";
import { surgeSettingsOf } from "./surge-settings-row";
import {
  ZListSurgesInput,
  type TListSurgesInput,
  type TSurgeReason,
  type TSurgeRow,
  type TSurgeSettings,
} from "./surge-settings.schema";

const MINUTE_MS = 60_000;
const SURGE_WATCH_EVERY_MS = MINUTE_MS;

const REASON_FROM_DB = { QUEUE: "queue", OFF_SHIFT: "off_shift" } as const;
const ACTION_FROM_DB = { PRE_MODERATION: "pre_moderation", SLOW_MODE: "slow_mode" } as const;

// ─── What a comment create reads ────────────────────────────────────────────────────────────

/** An open surge as the create path and the widget need it. */
type OpenSurge = {
  /** Null: every page of the account (off shift). */
  pageId: number | null;
  reason: TSurgeReason;
  action: "pre_moderation" | "slow_mode";
  slowModeSeconds: number;
  startedAt: Date;
};

/**
 * Each account's open surges, kept in memory by every instance and dropped in all of them when
 * page_surges changes (its trigger announces "moderation-surges" at commit). A comment create
 * reads them with no statement of its own; while this process hears nothing, they are read each time.
 */
const keptSurges = new ProcessCache<number, OpenSurge[]>("moderation-surges", {
  ttlMs: 10 * MINUTE_MS,
  maxEntries: 10_000,
});

async function readOpenSurges(db: Db, accountId: number): Promise<OpenSurge[]> {
  const rows = await db.pageSurge.findMany({
    where: { accountId, endedAt: null },
    orderBy: { id: "asc" },
    take: 1000,
  });
  return rows.map((row) => ({
    pageId: row.pageId,
    reason: REASON_FROM_DB[row.reason],
    action: ACTION_FROM_DB[row.action],
    slowModeSeconds: row.slowModeSeconds,
    startedAt: row.startedAt,
  }));
}

/** The account's open surges (from memory). */
export async function openSurgesOf(db: Db, accountId: number): Promise<OpenSurge[]> {
  const since = keptSurges.epoch;
  const kept = keptSurges.get(accountId);
  if (kept) return kept;
  const surges = await readOpenSurges(db, accountId);
  keptSurges.set(accountId, surges, Date.now(), since);
  return surges;
}

/** The surges that apply to a page (its own, and the account's off-shift one); a page not yet made has only the latter. */
export function surgesOn(surges: readonly OpenSurge[], pageId: number | null): OpenSurge[] {
  return surges.filter((s) => s.pageId === null || (pageId !== null && s.pageId === pageId));
}

/** The rules a new comment on the page meets: the page's own and its surges', the stricter of each. */
export function effectiveRules(page: PageRules, surges: readonly OpenSurge[]): PageRules {
  return strictestRules(page, surges);
}

// ─── The watch ──────────────────────────────────────────────────────────────────────────────

type PageReading = {
  page_id: number;
  pending: number;
  arrivals: number;
  decisions: number;
};

/**
 * Each page's queue over the window, for the pages with at least `pendingMin` pending comments and
 * the pages given (those with an open surge), in one statement. The pending part reads the partial
 * index comments_pending_idx; arrivals and decisions only the candidate pages' recent comments.
 * In page order, so two watches at once take the surges' row locks in one order (no deadlock).
 */
async function readQueues(
  db: Db,
  args: { accountId: number; since: Date; pendingMin: number; openPages: number[] },
): Promise<PageReading[]> {
  return db.$queryRaw<PageReading[]>`
    WITH pending AS (
      SELECT page_id, count(*)::int AS pending FROM comments
      WHERE account_id = ${args.accountId} AND NOT is_published AND moderation_state = 'undecided'
        AND deleted_at IS NULL
      GROUP BY page_id
    ), candidates AS (
      SELECT page_id FROM pending WHERE pending >= ${args.pendingMin}
      UNION SELECT unnest(${args.openPages}::int[])
    )
    SELECT c.page_id,
           coalesce((SELECT p.pending FROM pending p WHERE p.page_id = c.page_id), 0) AS pending,
           (SELECT count(*)::int FROM comments a
             WHERE a.page_id = c.page_id AND a.created_at >= ${args.since}::timestamptz) AS arrivals,
           (SELECT count(*)::int FROM comments d
             WHERE d.page_id = c.page_id AND d.decided_at >= ${args.since}::timestamptz) AS decisions
    FROM candidates c
    ORDER BY c.page_id`;
}

type OpenRow = { id: number; page_id: number | null; reason: "queue" | "off_shift"; calm_since: Date | null };

/** What one watch of an account did (tests and the job's log). */
type WatchResult = { started: number; ended: number; alertsSent: number };

async function recordSwitch(
  tx: TransactionClient,
  args: {
    accountId: number;
    surgeId: number;
    started: boolean;
    pageId: number | null;
    reason: TSurgeReason;
    action: string;
    slowModeSeconds: number;
    pending: number | null;
    now: Date;
  },
): Promise<void> {
  const page = args.pageId
    ? await tx.page.findUnique({ where: { id: args.pageId }, select: { url: true, headline: true } })
    : null;
  const what = {
    surge_id: args.surgeId,
    page_id: args.pageId,
    page_url: page?.url ?? null,
    headline: page?.headline ?? null,
    reason: args.reason,
    action: args.action,
    slow_mode_seconds: args.slowModeSeconds,
    ...(args.pending === null ? {} : { pending: args.pending }),
  };
  await recordAudit(tx, {
    actor: systemActor(args.accountId, WATCHER),
    action: args.started ? "page_surge.start" : "page_surge.end",
    targetType: args.pageId ? "page" : "account",
    targetId: args.pageId ?? args.accountId,
    metadata: what,
    now: args.now,
  });
  await emitWebhookEvent(tx, {
    accountId: args.accountId,
    kind: "ENGAGEMENT",
    name: args.started ? "page.surge_started" : "page.surge_ended",
    data: { surge: { ...what, at: args.now.toISOString() } },
    occurredAt: args.now,
  });
}

async function startSurge(
  tx: TransactionClient,
  args: {
    accountId: number;
    pageId: number | null;
    reason: TSurgeReason;
    settings: TSurgeSettings;
    pending: number;
    now: Date;
  },
): Promise<boolean> {
  const action = args.settings.surgeAction === "slow_mode" ? "slow_mode" : "pre_moderation";
  const slow = action === "slow_mode" ? args.settings.surgeSlowModeSeconds : 0;
  // One open surge per account and page: a second watch at once inserts nothing, and records nothing.
  const [row] = await tx.$queryRaw<{ id: number }[]>`
    INSERT INTO page_surges (account_id, page_id, reason, action, slow_mode_seconds, pending_at_start, started_at)
    VALUES (${args.accountId}, ${args.pageId}::int, ${args.reason}::page_surge_reason,
            ${action}::page_surge_action, ${slow}, ${args.pending}, ${args.now}::timestamptz)
    ON CONFLICT (account_id, (coalesce(page_id, 0))) WHERE ended_at IS NULL DO NOTHING
    RETURNING id`;
  if (!row) return false;
  await recordSwitch(tx, {
    accountId: args.accountId,
    surgeId: row.id,
    started: true,
    pageId: args.pageId,
    reason: args.reason,
    action,
    slowModeSeconds: slow,
    pending: args.reason === "queue" ? args.pending : null,
    now: args.now,
  });
  return true;
}

async function endSurge(
  tx: TransactionClient,
  args: { accountId: number; open: OpenRow; pending: number | null; now: Date },
): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ id: number; action: string; slow_mode_seconds: number }[]>`
    UPDATE page_surges SET ended_at = ${args.now}::timestamptz
    WHERE id = ${args.open.id} AND ended_at IS NULL
    RETURNING id, action::text AS action, slow_mode_seconds`;
  if (!row) return false;
  await recordSwitch(tx, {
    accountId: args.accountId,
    surgeId: row.id,
    started: false,
    pageId: args.open.page_id,
    reason: args.open.reason,
    action: row.action,
    slowModeSeconds: row.slow_mode_seconds,
    pending: args.pending,
    now: args.now,
  });
  return true;
}

async function applyStep(
  tx: TransactionClient,
  step: SurgeStep,
  args: {
    accountId: number;
    pageId: number | null;
    reason: TSurgeReason;
    open: OpenRow | null;
    settings: TSurgeSettings;
    pending: number;
    now: Date;
  },
  result: WatchResult,
): Promise<void> {
  const { open, now } = args;
  switch (step.kind) {
    case "start":
      if (await startSurge(tx, args)) result.started++;
      return;
    case "end":
      if (open && (await endSurge(tx, { ...args, open, pending: args.reason === "queue" ? args.pending : null })))
        result.ended++;
      return;
    case "calm":
      if (open)
        await tx.$executeRaw`UPDATE page_surges SET calm_since = ${now}::timestamptz WHERE id = ${open.id} AND ended_at IS NULL AND calm_since IS NULL`;
      return;
    case "unsettle":
      if (open)
        await tx.$executeRaw`UPDATE page_surges SET calm_since = NULL WHERE id = ${open.id} AND ended_at IS NULL`;
      return;
    case "none":
      return;
  }
}

/**
 * Watch one account: its off-shift surge, each page's queue surge and the queue-age alert, in one
 * transaction (the caller's, or its own).
 */
export async function watchAccount(
  db: Db,
  args: { accountId: number; now: Date; appUrl: string },
): Promise<WatchResult> {
  const { accountId, now } = args;
  return withTransaction(db, async (tx) => {
    const result: WatchResult = { started: 0, ended: 0, alertsSent: 0 };
    const settings = surgeSettingsOf(await tx.moderationSurgeSettings.findUnique({ where: { accountId } }));
    const open = await tx.$queryRaw<OpenRow[]>`
      SELECT id, page_id, reason::text AS reason, calm_since FROM page_surges
      WHERE account_id = ${accountId} AND ended_at IS NULL`;
    const base = { accountId, settings, now };
    if (settings.surgeAction === "off") {
      // Surges turned off: every open one ends now.
      for (const surge of open)
        await applyStep(
          tx,
          { kind: "end" },
          { ...base, pageId: surge.page_id, reason: surge.reason, open: surge, pending: 0 },
          result,
        );
    } else {
      const offShift = open.find((s) => s.page_id === null) ?? null;
      const onShift = isOnShift({ shifts: settings.shifts, timeZone: settings.timeZone, now });
      await applyStep(
        tx,
        offShiftStep({ open: offShift !== null, onShift }),
        { ...base, pageId: null, reason: "off_shift", open: offShift, pending: 0 },
        result,
      );
      const openByPage = new Map(open.flatMap((s) => (s.page_id === null ? [] : [[s.page_id, s] as const])));
      const readings = await readQueues(tx, {
        accountId,
        since: new Date(now.getTime() - settings.surgeWindowMinutes * MINUTE_MS),
        pendingMin: settings.surgePendingMin,
        openPages: [...openByPage.keys()],
      });
      for (const reading of readings) {
        const surge = openByPage.get(reading.page_id) ?? null;
        const step = queueSurgeStep({
          open: surge ? { calmSince: surge.calm_since ? new Date(surge.calm_since) : null } : null,
          reading: { pending: reading.pending, arrivals: reading.arrivals, decisions: reading.decisions },
          settings,
          now,
        });
        await applyStep(
          tx,
          step,
          { ...base, pageId: reading.page_id, reason: "queue", open: surge, pending: reading.pending },
          result,
        );
      }
    }
    result.alertsSent += await watchAlert(tx, { ...base, appUrl: args.appUrl });
    return result;
  });
}

/** The accounts the watch looks at: surges or the alert on, or a surge or an episode still open. */
async function watchedAccounts(db: Db): Promise<number[]> {
  const rows = await db.$queryRaw<{ account_id: number }[]>`
    SELECT account_id FROM moderation_surge_settings WHERE surge_action IS NOT NULL OR alert_after_minutes IS NOT NULL
    UNION SELECT account_id FROM page_surges WHERE ended_at IS NULL
    UNION SELECT account_id FROM moderation_alert_episodes WHERE ended_at IS NULL
    ORDER BY account_id`;
  return rows.map((r) => r.account_id);
}

/**
 * "moderation.surge_watch": every minute, every watched account (no payload); with an account, that
 * account at once (queued when its settings are saved). Transactional: what it starts, ends and
 * sends commits with the job's completion, so a retried run does it once.
 */
export const surgeWatchJob = defineJob<{ accountId?: number }>({
  name: "moderation.surge_watch",
  kind: "transactional",
  payload: z.object({ accountId: z.number().int().positive().optional() }).strict(),
  everyMs: SURGE_WATCH_EVERY_MS,
  leaseMs: 5 * MINUTE_MS,
  concurrency: 1,
  async run(tx, job, ctx) {
    const now = ctx.clock();
    const accounts = job.payload.accountId ? [job.payload.accountId] : await watchedAccounts(tx);
    for (const accountId of accounts) await watchAccount(tx, { accountId, now, appUrl: ctx.appUrl });
  },
});

// ─── Moderators' view ───────────────────────────────────────────────────────────────────────

/** The account's open surges (and, with includeEnded, the recent ended ones), newest first, and whether a shift is on. */
export async function listSurges(
  db: Db,
  args: { actor: StaffActor; input?: TListSurgesInput; now: Date },
): Promise<{ surges: TSurgeRow[]; onShift: boolean; timeZone: string }> {
  requireModerator(args.actor);
  const input = parseInput(ZListSurgesInput, args.input ?? {});
  const [rows, settingsRow] = await Promise.all([
    db.pageSurge.findMany({
      where: { accountId: args.actor.accountId, ...(input.includeEnded ? {} : { endedAt: null }) },
      include: { page: { select: { url: true, headline: true } } },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      take: input.limit,
    }),
    db.moderationSurgeSettings.findUnique({ where: { accountId: args.actor.accountId } }),
  ]);
  const settings = surgeSettingsOf(settingsRow);
  return {
    surges: rows.map((row) => ({
      id: row.id,
      pageId: row.pageId,
      url: row.page?.url ?? null,
      headline: row.page?.headline ?? null,
      reason: REASON_FROM_DB[row.reason],
      action: ACTION_FROM_DB[row.action],
      slowModeSeconds: row.slowModeSeconds,
      pendingAtStart: row.pendingAtStart,
      startedAt: row.startedAt,
      endedAt: row.endedAt,
    })),
    onShift: isOnShift({ shifts: settings.shifts, timeZone: settings.timeZone, now: args.now }),
    timeZone: settings.timeZone,
  };
}
