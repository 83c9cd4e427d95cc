/**
 * What scores a comment (docs/engagement.md, "Moderation"). Masthead ships one scorer, the
 * lexicon scorer (../lexicon/lexicon-scorer.ts), which needs no outside service. An operator who wants an
 * external model implements `CommentScorer` and registers it once at start-up
 * (`setCommentScorer`, in instrumentation.ts): every create and edit then asks it, and falls back
 * to the lexicon scorer when it throws, answers something invalid or takes longer than
 * SCORER_TIMEOUT_MS.
 *
 * The scorer only scores. The account's policy (pre-moderation, the toxicity threshold, banned
 * words, links from new readers) is applied by ../moderation.ts whatever the scorer, so a plugged-in
 * model never has to know the account's settings.
 */
import { z } from "zod";

export type ScorerReader = {
  /** docs/engagement.md: first comment less than NEW_READER.days old, or fewer than NEW_READER.publishedComments published. */
  isNew: boolean;
  /** The reader's published comments in the account (not counting this one). */
  publishedComments: number;
  /** When the reader first commented in the account, null for a first comment. */
  firstCommentAt: Date | null;
};

/** A comment as a scorer sees it: plain data drawn from its ops. */
export type ScorerInput = {
  /** The text: text inserts and the text of links, in order (mentions and images are not text). */
  text: string;
  /** Every link: link ops' URLs and http(s)/www/bare-domain URLs written in the text, each once. */
  links: string[];
  mentions: { id: string; name: string }[];
  /** Image URLs. */
  images: string[];
  reader: ScorerReader;
};

/** The categories of toxicity a scorer may score (docs/moderation.md). */
export const TOXIC_CATEGORIES = ["insult", "threat", "identity_attack", "obscenity", "self_harm_incitement"] as const;
export type ToxicCategory = (typeof TOXIC_CATEGORIES)[number];

export type CommentScore = {
  /** 0 to 100 (spec: comment.toxicity, a percentage). */
  toxicity: number;
  isSpam: boolean;
  /** Short codes for moderators ("toxicity.insult", "spam.many_links"…), never the words matched. */
  reasons: string[];
  /** 0 to 100, how much like spam (optional: isSpam is what holds a comment). */
  spam?: number;
  /** Each category's own score, 0 to 100 (optional; toxicity is what holds a comment). */
  categories?: Partial<Record<ToxicCategory, number>>;
};

export interface CommentScorer {
  /** A name for logs ("lexicon", "my-model"). */
  readonly name: string;
  score(input: ScorerInput): CommentScore | Promise<CommentScore>;
}

/** What a scorer must answer; anything else is treated as a failure (the lexicon scorer answers instead). */
const ZPercentage = z.number().min(0).max(100);
export const ZCommentScore = z.object({
  toxicity: ZPercentage,
  isSpam: z.boolean(),
  reasons: z.array(z.string().max(100)).max(50),
  spam: ZPercentage.optional(),
  categories: z.object(Object.fromEntries(TOXIC_CATEGORIES.map((c) => [c, ZPercentage.optional()]))).optional(),
});
