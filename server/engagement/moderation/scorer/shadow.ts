/**
 * Shadow mode (docs/engagement.md "Shadow mode"): while an account tries a shadow configuration
 * (scoring-settings.ts), every new comment is also decided by it, without effect (../writing.ts
 * moderateWriting), and what it would have done is recorded beside what the live configuration
 * did (`comment_shadow_scores`: held or not, toxicity, spam, for both). The Scoring page compares
 * both with the moderators' decisions over the last 30 days (agreement.ts says how comments are
 * judged), so the owner can promote the shadow or discard it.
 */
import "server-only";

import type { StaffActor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { log } from "../../../log";
import { requireModerator } from "../moderator";
import { ADAPTIVE, adaptiveIsActive } from "./adaptive";
import { adaptiveTotals } from "./adaptive-store";
import { agreementOf, UNREVIEWED_AFTER_MS, type HoldCounts } from "./agreement";
import { getScoringSettings } from "./scoring-settings";
import type { TScoringConfig, TScoringOverview } from "./scoring-settings.schema";

/** What a configuration decided for a comment. */
type ScoredDecision = { held: boolean; toxicity: number; isSpam: boolean; reasons: string[] };

/** The shadow's decision of a new comment, beside the live one, with the configuration that made it. */
export type ShadowRecord = { live: ScoredDecision; shadow: ScoredDecision; config: TScoringConfig };

/** The figures look this far back. */
const FIGURES_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Record what the shadow would have done with a comment just created. A failure is logged, never
 * the reader's: the comment is written, and only the figures miss it.
 */
export async function recordShadowScore(
  db: Db,
  args: { accountId: number; commentId: number; createdAt: Date; record: ShadowRecord },
): Promise<void> {
  const { live, shadow, config } = args.record;
  try {
    await db.commentShadowScore.create({
      data: {
        commentId: args.commentId,
        accountId: args.accountId,
        liveHeld: live.held,
        liveToxicity: live.toxicity,
        liveSpam: live.isSpam,
        shadowHeld: shadow.held,
        shadowToxicity: shadow.toxicity,
        shadowSpam: shadow.isSpam,
        shadowReasons: shadow.reasons.slice(0, 50),
        shadowAdaptive: config.adaptive,
        shadowExternal: config.externalScorer,
        shadowThreshold: config.toxicityThreshold,
        createdAt: args.createdAt,
      },
    });
  } catch (error) {
    log.warn("shadow scoring: the shadow's decision could not be recorded", {
      accountId: args.accountId,
      commentId: args.commentId,
      error,
    });
  }
}

type FigureRow = {
  compared: number;
  rejected: number;
  approved: number;
  unreviewed: number;
  disagreements: number;
  live_held_rejected: number;
  live_held_approved: number;
  live_passed_rejected: number;
  live_passed_approved: number;
  shadow_held_rejected: number;
  shadow_held_approved: number;
  shadow_passed_rejected: number;
  shadow_passed_approved: number;
};

/**
 * The shadow's figures since `from` for the configuration `config`: its records and the live ones
 * beside them, each comment judged as agreement.ts says (in SQL, one statement).
 */
async function shadowFigures(
  db: Db,
  args: { accountId: number; from: Date; config: TScoringConfig; now: Date },
): Promise<NonNullable<TScoringOverview["figures"]>> {
  const unreviewedBefore = new Date(args.now.getTime() - UNREVIEWED_AFTER_MS);
  const [row] = await db.$queryRaw<FigureRow[]>`
    WITH judged AS (
      SELECT s.live_held, s.shadow_held,
        CASE
          WHEN c.moderation_state IN ('rejected', 'spam') THEN 'rejected'
          WHEN c.moderation_state = 'approved' THEN 'approved'
          WHEN c.is_published AND NOT c.is_spam AND c.deleted_at IS NULL AND c.created_at < ${unreviewedBefore}
            AND NOT EXISTS (SELECT 1 FROM comment_reports r WHERE r.comment_id = c.id) THEN 'unreviewed'
        END AS outcome
      FROM comment_shadow_scores s JOIN comments c ON c.id = s.comment_id
      WHERE s.account_id = ${args.accountId} AND s.created_at >= ${args.from}
        AND s.shadow_adaptive = ${args.config.adaptive} AND s.shadow_external = ${args.config.externalScorer}
        AND s.shadow_threshold = ${args.config.toxicityThreshold}
    )
    SELECT count(*)::int AS compared,
      (count(*) FILTER (WHERE outcome = 'rejected'))::int AS rejected,
      (count(*) FILTER (WHERE outcome IN ('approved', 'unreviewed')))::int AS approved,
      (count(*) FILTER (WHERE outcome = 'unreviewed'))::int AS unreviewed,
      (count(*) FILTER (WHERE live_held <> shadow_held))::int AS disagreements,
      (count(*) FILTER (WHERE live_held AND outcome = 'rejected'))::int AS live_held_rejected,
      (count(*) FILTER (WHERE live_held AND outcome IN ('approved', 'unreviewed')))::int AS live_held_approved,
      (count(*) FILTER (WHERE NOT live_held AND outcome = 'rejected'))::int AS live_passed_rejected,
      (count(*) FILTER (WHERE NOT live_held AND outcome IN ('approved', 'unreviewed')))::int AS live_passed_approved,
      (count(*) FILTER (WHERE shadow_held AND outcome = 'rejected'))::int AS shadow_held_rejected,
      (count(*) FILTER (WHERE shadow_held AND outcome IN ('approved', 'unreviewed')))::int AS shadow_held_approved,
      (count(*) FILTER (WHERE NOT shadow_held AND outcome = 'rejected'))::int AS shadow_passed_rejected,
      (count(*) FILTER (WHERE NOT shadow_held AND outcome IN ('approved', 'unreviewed')))::int AS shadow_passed_approved
    FROM judged`;
  const n = (v: number | undefined) => Number(v ?? 0);
  const counts = (prefix: "live" | "shadow"): HoldCounts => ({
    heldRejected: n(row?.[`${prefix}_held_rejected`]),
    heldApproved: n(row?.[`${prefix}_held_approved`]),
    passedRejected: n(row?.[`${prefix}_passed_rejected`]),
    passedApproved: n(row?.[`${prefix}_passed_approved`]),
  });
  const compared = n(row?.compared);
  const judged = n(row?.rejected) + n(row?.approved);
  return {
    from: args.from,
    days: FIGURES_DAYS,
    compared,
    judged,
    rejected: n(row?.rejected),
    approved: n(row?.approved),
    approvedUnreviewed: n(row?.unreviewed),
    undecided: compared - judged,
    disagreements: n(row?.disagreements),
    live: agreementOf(counts("live")),
    shadow: agreementOf(counts("shadow")),
  };
}

/** The Scoring page: the settings, the adaptive layer's counts, the shadow's figures (owners and moderators). */
export async function scoringOverview(db: Db, args: { actor: StaffActor; now: Date }): Promise<TScoringOverview> {
  requireModerator(args.actor);
  const accountId = args.actor.accountId;
  const [settings, totals] = await Promise.all([
    getScoringSettings(db, { actor: args.actor }),
    adaptiveTotals(db, accountId),
  ]);
  const shadow = settings.shadow;
  const windowStart = new Date(args.now.getTime() - FIGURES_DAYS * DAY_MS);
  const figures = shadow
    ? await shadowFigures(db, {
        accountId,
        from: shadow.since > windowStart ? shadow.since : windowStart,
        config: shadow,
        now: args.now,
      })
    : null;
  return {
    settings,
    adaptive: {
      decisions: totals,
      active: adaptiveIsActive(totals),
      minDecisions: ADAPTIVE.minDecisions,
      minPerOutcome: ADAPTIVE.minPerOutcome,
    },
    figures,
  };
}
