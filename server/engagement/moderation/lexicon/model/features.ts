/**
 * The trained model's reading of a comment (docs/moderation.md, "The trained model"): a sparse
 * vector of hashed features, the same at training (scripts/moderation/train-scorer.ts) and at
 * scoring (./trained-model.ts).
 *
 * - The text as the rules read it (text-normalise.ts: look-alike letters, leetspeak, masks,
 *   letters spelt out, stretched letters undone), with links and e-mail addresses replaced by a
 *   placeholder (the corpus's spam links use the reserved `.example` domain: the model must not
 *   learn a domain) and digits by 0 (nor a fictional phone range).
 * - Only the reader's own words: words inside quotation marks (when something stands outside
 *   them) or in reported speech (toxicity-reading.ts) are left out, as the rules count them a
 *   quarter; a run of them leaves a gap marker.
 * - Word unigrams and bigrams (within a sentence), and character n-grams of 3 to 5 of the words
 *   joined by spaces, hashed (FNV-1a) into 2^HASH_BITS buckets, each present once; the words and
 *   the characters are each scaled to unit length.
 * - The rules' own signals, each in a slot of its own after the buckets: the rules' toxicity and
 *   categories, their reason codes, the spam points and reasons.
 */
import { TOXIC_CATEGORIES } from "../../scorer/scorer";
import { ANY_LINK, EMAIL, URL_IN_TEXT } from "../spam-patterns";
import { undisguiseLinks, type SpamAnalysis } from "../spam-rules";
import { foldText, joinSpeltOut, normalise } from "../text-normalise";
import { reportedTokens } from "../toxicity-reading";
import type { ToxicityAnalysis } from "../toxicity-weights";

/** Buckets of the hashed text features. */
export const HASH_BITS = 16;
export const BUCKETS = 1 << HASH_BITS;

/** The rules' reason codes the model sees, each a feature of its own (the order is the slots'). */
export const RULE_REASONS = [
  "toxicity.insult",
  "toxicity.threat",
  "toxicity.identity_attack",
  "toxicity.slur",
  "toxicity.profanity",
  "toxicity.self_harm",
  "toxicity.aimed",
  "toxicity.shouting",
  "toxicity.reported",
  "spam.phrase",
  "spam.phrase_with_link",
  "spam.many_links",
  "spam.link_only",
  "spam.shortener",
  "spam.new_reader_link",
  "spam.repeated_characters",
  "spam.repeated_words",
  "spam.all_caps",
  "spam.markup_link",
  "spam.disguised_link",
  "spam.earnings",
  "spam.promotion",
  "spam.loan",
  "spam.crypto",
  "spam.product",
  "spam.link_in_bio",
  "spam.contact",
  "spam.phone_number",
  "spam.email",
  "spam.link_with_offer",
  "spam.reach_with_offer",
  "spam.many_offers",
  "spam.money",
  "spam.self_promotion",
  "spam.stuffing",
  "spam.pitch_emoji",
  "spam.cta_link",
] as const;

/** The slots after the buckets: rules' toxicity, its categories, spam points, reasons, a few shapes. */
const DENSE_NAMES = [
  "rules.toxicity",
  "rules.held",
  ...TOXIC_CATEGORIES.map((c) => `rules.category.${c}`),
  "rules.spam_points",
  "rules.is_spam",
  ...RULE_REASONS.map((r) => `reason.${r}`),
  "shape.links",
  "shape.masked_share",
  "shape.short",
] as const;
const DENSE_FEATURES = DENSE_NAMES.length;
/** The length of a weight vector: the buckets, then the rules' slots. */
export const FEATURES = BUCKETS + DENSE_FEATURES;

export type FeatureOptions = {
  /** Text features (hashed words, bigrams, character n-grams). */
  text: boolean;
  /** The rules' signals as features. */
  rules: boolean;
};
/**
 * What each shipped model reads (chosen by cross-validation, docs/decisions/0019-trained-scorer.md):
 * the toxic model the text alone (given the rules' signals it learnt to copy them), the spam
 * model the text and the rules' signals.
 */
export const MODEL_FEATURES: Record<"toxic" | "spam", FeatureOptions> = {
  toxic: { text: true, rules: false },
  spam: { text: true, rules: true },
};

/** A sparse vector: bucket or slot indexes, ascending and distinct, and their values. */
export type SparseVector = { index: Int32Array; value: Float32Array };

const LINK = "zzlink";
const EMAIL_WORD = "zzemail";
const GAP = "|";

/** FNV-1a, 32 bits, of `prefix` then `text`. */
function fnv(prefix: number, text: string): number {
  let h = (0x811c9dc5 ^ prefix) >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const WORD = 1;
const BIGRAM = 2;
const CHARS = 3;

/** The reader's own words, in order, a GAP where quoted or reported ones were, and the share left out. */
export function ownWords(text: string): { words: string[]; sentences: number[]; maskedShare: number; links: number } {
  const undisguised = undisguiseLinks(joinSpeltOut(foldText(text, { keepCase: true })).text).text;
  let links = 0;
  const view = undisguised
    .replace(EMAIL, ` ${EMAIL_WORD} `)
    .replace(ANY_LINK, () => {
      links += 1;
      return ` ${LINK} `;
    })
    .replace(URL_IN_TEXT, ` ${LINK} `);
  const n = normalise(view);
  const { tokens } = n;
  const reported = reportedTokens(tokens);
  const anyOutside = tokens.some((t) => !t.punct && !t.quoted);
  const words: string[] = [];
  const sentences: number[] = [];
  let total = 0;
  let masked = 0;
  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i]!;
    if (t.punct) continue;
    total += 1;
    if ((anyOutside && t.quoted) || reported[i]) {
      masked += 1;
      if (words[words.length - 1] !== GAP) {
        words.push(GAP);
        sentences.push(t.sentence);
      }
      continue;
    }
    words.push(t.text.replace(/\d/g, "0"));
    sentences.push(t.sentence);
  }
  return { words, sentences, maskedShare: total ? masked / total : 0, links };
}

// Buckets already taken by this comment: a stamp per bucket, so that nothing is cleared between comments.
const wordSeen = new Uint32Array(BUCKETS);
const charSeen = new Uint32Array(BUCKETS);
let stamp = 0;

/**
 * The distinct buckets of a comment's words and bigrams, and of its character n-grams; each group
 * is worth 1 / √(its size) per bucket (`wordValue`, `charValue`).
 */
export function textBuckets(own: { words: string[]; sentences: number[] }): {
  words: number[];
  chars: number[];
  wordValue: number;
  charValue: number;
} {
  stamp = stamp >= 0xfffffffe ? 1 : stamp + 1;
  if (stamp === 1) {
    wordSeen.fill(0);
    charSeen.fill(0);
  }
  const words: number[] = [];
  const chars: number[] = [];
  const mask = BUCKETS - 1;
  const addWord = (b: number) => {
    if (wordSeen[b] !== stamp) {
      wordSeen[b] = stamp;
      words.push(b);
    }
  };
  const { words: ws, sentences } = own;
  for (let i = 0; i < ws.length; i += 1) {
    const w = ws[i]!;
    if (w === GAP) continue;
    addWord(fnv(WORD, w) & mask);
    const next = ws[i + 1];
    if (next !== undefined && next !== GAP && sentences[i + 1] === sentences[i])
      addWord(fnv(BIGRAM, `${w} ${next}`) & mask);
  }
  const joined = ` ${ws.join(" ")} `;
  for (let i = 0; i + 3 <= joined.length; i += 1) {
    let h = (0x811c9dc5 ^ CHARS) >>> 0;
    for (let k = 0; k < 5 && i + k < joined.length; k += 1) {
      h ^= joined.charCodeAt(i + k);
      h = Math.imul(h, 0x01000193);
      if (k >= 2) {
        const b = (h >>> 0) & mask;
        if (charSeen[b] !== stamp) {
          charSeen[b] = stamp;
          chars.push(b);
        }
      }
    }
  }
  return {
    words,
    chars,
    wordValue: words.length ? 1 / Math.sqrt(words.length) : 0,
    charValue: chars.length ? 1 / Math.sqrt(chars.length) : 0,
  };
}

/** The feature vector of a comment (given the rules' analyses of it when `options.rules`). */
export function featuresOf(
  text: string,
  rules: { toxicity: ToxicityAnalysis; spam: SpamAnalysis } | undefined,
  options: FeatureOptions,
): SparseVector {
  const own = ownWords(text);
  const values = new Map<number, number>();
  if (options.text) {
    const buckets = textBuckets(own);
    for (const b of buckets.words) values.set(b, buckets.wordValue);
    for (const b of buckets.chars) values.set(b, (values.get(b) ?? 0) + buckets.charValue);
  }

  if (options.rules) {
    if (!rules) throw new Error("featuresOf: the rules' analyses are needed for their features");
    ruleFeatures(rules, own).forEach((v, k) => {
      if (v !== 0) values.set(BUCKETS + k, v);
    });
  }
  const index = Int32Array.from([...values.keys()].sort((a, b) => a - b));
  const value = Float32Array.from(index, (i) => values.get(i)!);
  return { index, value };
}

/** The rules' signals, slot by slot (DENSE_NAMES): what the weights at BUCKETS + k multiply. */
export function ruleFeatures(
  rules: { toxicity: ToxicityAnalysis; spam: SpamAnalysis },
  own: { words: string[]; maskedShare: number; links: number },
): number[] {
  const dense: number[] = [];
  const { toxicity, spam } = rules;
  dense.push(toxicity.toxicity / 100, toxicity.toxicity >= 70 ? 1 : 0);
  for (const c of TOXIC_CATEGORIES) dense.push((toxicity.categories[c] ?? 0) / 100);
  dense.push(Math.min(spam.points, 3) / 3, spam.isSpam ? 1 : 0);
  const reasons = new Set([...toxicity.reasons, ...spam.reasons]);
  for (const r of RULE_REASONS) dense.push(reasons.has(r) ? 1 : 0);
  dense.push(Math.min(own.links, 3) / 3, own.maskedShare, own.words.length <= 3 ? 1 : 0);
  return dense;
}
