/**
 * The adaptive layer's counts in the database (adaptive.ts; docs/engagement.md "The adaptive
 * layer"):
 * - `comment_decision_terms`: one row per decided comment, its outcome and the terms it counts
 *   with, written here with each moderator's decision (../queue/queue.ts moderateComment, ../queue/undo.ts); its
 *   outcome follows the comment's moderation_state by a trigger on comments, whoever changes it;
 * - `comment_term_stats`: the counts per account and term, kept from those rows by a trigger
 *   (migrations 20261126010000_adaptive_scoring, 20261126010100): a changed decision moves its counts, undecided
 *   takes them away, so re-deciding never counts twice. The term "" counts the decisions.
 * Reading is one indexed statement: the rows of the terms of the comment being scored.
 */
import "server-only";

import type { Db } from "../../../db/client";
import type { Comment } from "../../../generated/prisma/client";
import type { TCommentOp } from "../../comments.schema";
import { contentOf } from "../moderation";
import type { AdaptiveStats, OutcomeCounts } from "./adaptive";
import { termsOf } from "./adaptive-terms";

const TOTALS = "";

/** The account's counts of `terms` and its totals, in one statement (primary key lookups). */
export async function loadAdaptiveStats(db: Db, accountId: number, terms: readonly string[]): Promise<AdaptiveStats> {
  const rows = await db.$queryRaw<({ term: string } & OutcomeCounts)[]>`
    SELECT term, approved, rejected, spam FROM comment_term_stats
    WHERE account_id = ${accountId} AND term = ANY(${[TOTALS, ...terms]}::text[])`;
  const stats: AdaptiveStats = { totals: { approved: 0, rejected: 0, spam: 0 }, terms: new Map() };
  for (const row of rows) {
    // Never below zero, whatever was written by hand.
    const counts = {
      approved: Math.max(0, Number(row.approved)),
      rejected: Math.max(0, Number(row.rejected)),
      spam: Math.max(0, Number(row.spam)),
    };
    if (row.term === TOTALS) stats.totals = counts;
    else stats.terms.set(row.term, counts);
  }
  return stats;
}

/** The account's decisions counted so far (the Scoring page). */
export async function adaptiveTotals(db: Db, accountId: number): Promise<OutcomeCounts> {
  return (await loadAdaptiveStats(db, accountId, [])).totals;
}

/** The terms a comment's body counts with: its text as moderation reads it (../moderation.ts contentOf). */
function termsOfBody(body: unknown): string[] {
  const ops = (body as { ops?: TCommentOp[] } | null)?.ops ?? [];
  return termsOf(contentOf(ops).text);
}

/**
 * After a moderator's decision (in its transaction, once the comment is written): the comment's
 * row holds its current terms for its decided outcome. Nothing for an undecided comment (the
 * trigger on comments already took its counts away).
 */
export async function countDecisionTerms(
  tx: Db,
  comment: Pick<Comment, "id" | "accountId" | "moderationState" | "body">,
): Promise<void> {
  if (comment.moderationState === "UNDECIDED") return;
  const terms = termsOfBody(comment.body);
  await tx.commentDecisionTerms.upsert({
    where: { commentId: comment.id },
    create: { commentId: comment.id, accountId: comment.accountId, outcome: comment.moderationState, terms },
    update: { outcome: comment.moderationState, terms },
  });
}
