/**
 * The default comment scorer: rules and word lists, no outside service, synchronous and fast
 * (well under a millisecond a comment). How the numbers come out is documented in
 * docs/moderation.md ("The scorer"); keep the two in step.
 *
 * - Toxicity (toxicity-rules.ts): 0 to 100 and a score per category (insult, threat, identity
 *   attack, obscenity, self-harm incitement), from word lists and patterns over the normalised
 *   text (text-normalise.ts: look-alike letters, leetspeak, masks, letters spelt out, stretched
 *   letters), with reported speech and quotations dampened.
 * - Spam (spam-rules.ts): points per signal, spam at 1 point or more, and a spam score 0 to 100
 *   (50 at 1 point).
 * - A trained model (model/: logistic regression over hashed words and character n-grams of the
 *   reader's own words, and for spam the rules' signals; shipped as model/weights.json) grades
 *   what the rules miss: each score is
 *   the higher of the rules' and the model's (model/blend.ts), so the rules keep every score they
 *   give and the model only raises one; `toxicity.model` / `spam.model` say when it did.
 *
 * How well it does is measured by scripts/moderation/evaluate-scorer.ts on the labelled corpus
 * (corpus/README.md), and how fast by scripts/moderation/bench-scorer.ts.
 */
import type { CommentScore, CommentScorer, ScorerInput } from "../scorer/scorer";
import { blendSpam, blendToxicity } from "./model/blend";
import { modelHoldAt, modelProbabilities } from "./model/trained-model";
import { analyseSpam } from "./spam-rules";
import { analyseToxicity } from "./toxicity-rules";

export { URL_IN_TEXT } from "./spam-patterns";

/** The rules' toxicity 0–100 and its reasons (without the trained model). */
export function scoreToxicity(text: string): { toxicity: number; reasons: string[] } {
  const { toxicity, reasons } = analyseToxicity(text);
  return { toxicity, reasons };
}

/** The rules' spam points, verdict and reasons (without the trained model). */
export function scoreSpam(input: Pick<ScorerInput, "text" | "links" | "reader">): {
  points: number;
  isSpam: boolean;
  reasons: string[];
} {
  const { points, isSpam, reasons } = analyseSpam(input);
  return { points, isSpam, reasons };
}

/**
 * The lexicon scorer: toxicity, its categories and spam from the text alone, synchronously; the
 * rules' scores raised by the trained model where it is surer. The categories are the rules'.
 */
export const lexiconScorer: CommentScorer = {
  name: "lexicon",
  score(input: ScorerInput): CommentScore {
    const toxicity = analyseToxicity(input.text);
    const spam = analyseSpam(input);
    const p = modelProbabilities(input.text, { toxicity, spam });
    const holdAt = modelHoldAt();
    const blendedToxicity = blendToxicity(toxicity.toxicity, p.toxic, holdAt.toxic);
    const blendedSpam = blendSpam(spam.spam, spam.isSpam, p.spam, holdAt.spam);
    return {
      toxicity: blendedToxicity.toxicity,
      isSpam: blendedSpam.isSpam,
      reasons: [
        ...toxicity.reasons,
        ...(blendedToxicity.raised ? ["toxicity.model"] : []),
        ...spam.reasons,
        ...(blendedSpam.raised ? ["spam.model"] : []),
      ],
      spam: blendedSpam.spam,
      categories: toxicity.categories,
    };
  },
};
