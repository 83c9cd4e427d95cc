/**
 * The adaptive layer: the base scorer's answer adjusted to what this publication's moderators
 * decide (docs/engagement.md, "The adaptive layer"). Pure: adaptive-store.ts reads the counts.
 *
 * Every moderator's decision (approve, reject, spam; changed later or undone: the counts follow
 * the comment's latest decision, never counted twice) counts the decided comment's terms
 * (adaptive-terms.ts) for its outcome. A new comment's terms are then weighed naive-Bayes style:
 * for each term the comment holds, the log of how much likelier it is in comments moderators
 * rejected than in comments they approved (toxicity), or marked spam than approved (spam), each
 * probability smoothed by a prior (ALPHA: a term never seen in one outcome is not infinitely
 * telling). Terms seen in fewer than MIN_TERM_DECISIONS decisions are left out (noise). The
 * evidence is the sum over the terms divided by √(their number) (a long comment's many weak
 * terms, and a word with the bigrams it makes, do not add up to certainty), and the adjustment
 * is MAX_ADJUSTMENT × tanh(evidence / SCALE): at most ±25 points, added to the base score and
 * kept within 0 to 100.
 *
 * It acts only once the account has MIN_DECISIONS decisions and at least MIN_PER_OUTCOME of each
 * outcome it compares (rejected and approved for toxicity, spam and approved for spam): before
 * that, it changes nothing. An adjustment of a point or more gives a reason code:
 * `adaptive.raised` / `adaptive.lowered` (toxicity), `adaptive.spam_raised` /
 * `adaptive.spam_lowered` (spam; is_spam follows the adjusted spam score, spam at 50 or more).
 */
import type { CommentScore } from "./scorer";

export const ADAPTIVE = {
  /** Most points the layer adds to or takes from toxicity or spam. */
  maxAdjustment: 25,
  /** Evidence (summed log-odds / √terms) that gives about three quarters of the maximum. */
  scale: 1,
  /** The prior added to each count (Laplace smoothing). */
  alpha: 1,
  /** Decisions the account needs before the layer acts at all. */
  minDecisions: 20,
  /** …with at least this many of each outcome compared. */
  minPerOutcome: 5,
  /** A term counts once seen in this many decided comments. */
  minTermDecisions: 2,
} as const;

/** The spam score at which a comment is spam (the lexicon scorer's: docs/moderation.md). */
const SPAM_AT = 50;

/** Decided comments containing a term (or, for the totals, decided comments), by outcome. */
export type OutcomeCounts = { approved: number; rejected: number; spam: number };

export type AdaptiveStats = {
  /** Every decision the account counts. */
  totals: OutcomeCounts;
  /** The counts of the comment's terms that have any (others: never in a decided comment). */
  terms: Map<string, OutcomeCounts>;
};

type AdaptiveAdjustment = { toxicity: number; spam: number };

const NONE: AdaptiveAdjustment = { toxicity: 0, spam: 0 };

/** Smoothed log-odds of a term between two outcomes (term in `a` vs term in `b`). */
function logOdds(inA: number, totalA: number, inB: number, totalB: number): number {
  const { alpha } = ADAPTIVE;
  const pA = (inA + alpha) / (totalA + 2 * alpha);
  const pB = (inB + alpha) / (totalB + 2 * alpha);
  return Math.log(pA / pB);
}

function adjustment(evidence: number[]): number {
  if (evidence.length === 0) return 0;
  const sum = evidence.reduce((a, b) => a + b, 0) / Math.sqrt(evidence.length);
  return Math.round(ADAPTIVE.maxAdjustment * Math.tanh(sum / ADAPTIVE.scale) * 10) / 10;
}

/** How many points the layer moves toxicity and spam for a comment of these terms. */
export function adaptiveAdjustment(stats: AdaptiveStats, terms: readonly string[]): AdaptiveAdjustment {
  const { totals } = stats;
  if (totals.approved + totals.rejected + totals.spam < ADAPTIVE.minDecisions) return NONE;
  const toxicityActs = totals.rejected >= ADAPTIVE.minPerOutcome && totals.approved >= ADAPTIVE.minPerOutcome;
  const spamActs = totals.spam >= ADAPTIVE.minPerOutcome && totals.approved >= ADAPTIVE.minPerOutcome;
  if (!toxicityActs && !spamActs) return NONE;
  const toxic: number[] = [];
  const spam: number[] = [];
  for (const term of new Set(terms)) {
    const c = stats.terms.get(term);
    if (!c || c.approved + c.rejected + c.spam < ADAPTIVE.minTermDecisions) continue;
    if (toxicityActs) toxic.push(logOdds(c.rejected, totals.rejected, c.approved, totals.approved));
    if (spamActs) spam.push(logOdds(c.spam, totals.spam, c.approved, totals.approved));
  }
  return { toxicity: adjustment(toxic), spam: adjustment(spam) };
}

const clamp = (n: number) => Math.round(Math.min(100, Math.max(0, n)) * 10) / 10;

/**
 * The base score with the adjustment: toxicity and spam moved (0 to 100), is_spam from the
 * adjusted spam score, and the reason codes of what moved by a point or more. A base score
 * without a spam score (a plugged-in scorer may leave it out) is read as 100 when it says spam,
 * 0 otherwise.
 */
export function applyAdaptive(score: CommentScore, adj: AdaptiveAdjustment): CommentScore {
  const reasons = [...score.reasons];
  let { toxicity, isSpam, spam } = score;
  if (Math.abs(adj.toxicity) >= 1) {
    const moved = clamp(toxicity + adj.toxicity);
    if (moved !== toxicity) reasons.push(moved > toxicity ? "adaptive.raised" : "adaptive.lowered");
    toxicity = moved;
  }
  if (Math.abs(adj.spam) >= 1) {
    const base = spam ?? (isSpam ? 100 : 0);
    const moved = clamp(base + adj.spam);
    if (moved !== base) reasons.push(moved > base ? "adaptive.spam_raised" : "adaptive.spam_lowered");
    spam = moved;
    isSpam = moved >= SPAM_AT;
  }
  return { ...score, toxicity, isSpam, reasons, ...(spam !== undefined ? { spam } : {}) };
}

/** Whether the layer acts yet for an account with these totals (the Scoring page says so). */
export function adaptiveIsActive(totals: OutcomeCounts): boolean {
  return (
    totals.approved + totals.rejected + totals.spam >= ADAPTIVE.minDecisions &&
    totals.approved >= ADAPTIVE.minPerOutcome &&
    (totals.rejected >= ADAPTIVE.minPerOutcome || totals.spam >= ADAPTIVE.minPerOutcome)
  );
}
