/**
 * A comment's score under the account's scoring configuration (scoring-settings.ts), and under
 * its shadow configuration when one is being tried (docs/engagement.md "Scoring"):
 *
 * 1. The base scorer: the external scorer over HTTP (http-scorer.ts) when the configuration turns
 *    it on and the operator configured one, else the scorer registered at start-up (the lexicon
 *    scorer unless another was). Either falls back to the lexicon scorer (registry.ts scoreWith).
 * 2. The adaptive layer (adaptive.ts), when the configuration turns it on: the comment's terms'
 *    counts are read in one indexed statement (adaptive-store.ts), beside the scoring.
 *
 * 3. Languages (docs/moderation.md "Languages"): a comment in a language the built-in scorer does
 *    not read goes to the external scorer when the account chooses "external" for such comments
 *    (and the operator configured one). Answered by the built-in scorer all the same (no external
 *    scorer, or it failed), it is "unscored": ../moderation.ts applies the account's choice.
 *
 * Live and shadow share what they can: one base score when both use the same scorer, one read
 * of the counts. Everything runs at once, so a shadow adds to a comment's wait only the external
 * scorer's time when the shadow alone uses it (MODERATION_SCORER_TIMEOUT_MS at most).
 */
import "server-only";

import type { Db } from "../../../db/client";
import { log } from "../../../log";
import { lexiconScorer } from "../lexicon/lexicon-scorer";
import type { TModerationSettings } from "../settings.schema";
import { adaptiveAdjustment, applyAdaptive, type AdaptiveStats } from "./adaptive";
import { loadAdaptiveStats } from "./adaptive-store";
import { termsOf } from "./adaptive-terms";
import { externalScorer } from "./http-scorer";
import { registeredScorer, scoreWith } from "./registry";
import type { CommentScore, ScorerInput } from "./scorer";
import type { ScoringState } from "./scoring-settings";

type Layers = { adaptive: boolean; externalScorer: boolean };

type AccountScores = {
  live: CommentScore;
  /** The shadow configuration's score; null when none is tried (or not asked for). */
  shadow: CommentScore | null;
  /** The comment is in a language the built-in scorer does not read, and only it scored it (live, shadow). */
  unscored: { live: boolean; shadow: boolean };
};

/** A comment's language as scoring needs it. */
type LanguageRoute = {
  /** The built-in scorer does not read the comment's language. */
  unreadable: boolean;
  /** The account's choice for such comments (../settings.schema.ts unscoredLanguages). */
  policy: TModerationSettings["unscoredLanguages"];
};

/** Whether the built-in (lexicon) scorer gave this score: registered as the scorer, or answering for another that failed. */
const byBuiltIn = (score: CommentScore, asked: "external" | "registered") =>
  score.reasons.includes("scorer.fallback") || (asked === "registered" && registeredScorer() === lexiconScorer);

/** The live score and, with `withShadow`, the shadow configuration's. */
export async function scoreForAccount(
  db: Db,
  args: { accountId: number; input: ScorerInput; scoring: ScoringState; withShadow: boolean; language?: LanguageRoute },
): Promise<AccountScores> {
  const { input, scoring } = args;
  const shadow = args.withShadow ? scoring.shadow : null;
  const external = externalScorer();
  const unreadable = args.language?.unreadable ?? false;
  const externalForLanguage = unreadable && args.language?.policy === "external";
  const usesExternal = (layers: Layers) => (layers.externalScorer || externalForLanguage) && external !== null;
  const base = (useExternal: boolean) =>
    useExternal && external
      ? scoreWith(external.scorer, input, { timeoutMs: external.timeoutMs })
      : scoreWith(registeredScorer(), input);
  const liveExternal = usesExternal(scoring);
  const shadowExternal = shadow ? usesExternal(shadow) : liveExternal;
  const needsStats = scoring.adaptive || (shadow?.adaptive ?? false);
  const terms = needsStats ? termsOf(input.text) : [];
  const [liveBase, shadowBase, stats] = await Promise.all([
    base(liveExternal),
    shadow && shadowExternal !== liveExternal ? base(shadowExternal) : null,
    needsStats ? readStats(db, args.accountId, terms) : null,
  ]);
  const layered = (score: CommentScore, adaptive: boolean) =>
    adaptive && stats ? applyAdaptive(score, adaptiveAdjustment(stats, terms)) : score;
  const unscored = (score: CommentScore, useExternal: boolean) =>
    unreadable && byBuiltIn(score, useExternal ? "external" : "registered");
  return {
    live: layered(liveBase, scoring.adaptive),
    shadow: shadow ? layered(shadowBase ?? liveBase, shadow.adaptive) : null,
    unscored: {
      live: unscored(liveBase, liveExternal),
      shadow: shadow ? unscored(shadowBase ?? liveBase, shadowExternal) : false,
    },
  };
}

/** The counts, or none when they cannot be read: the layer then changes nothing, commenting goes on. */
async function readStats(db: Db, accountId: number, terms: string[]): Promise<AdaptiveStats | null> {
  try {
    return await loadAdaptiveStats(db, accountId, terms);
  } catch (error) {
    log.warn("adaptive scoring: the counts could not be read; scored without the layer", { accountId, error });
    return null;
  }
}
