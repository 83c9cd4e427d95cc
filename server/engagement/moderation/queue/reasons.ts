/**
 * Moderation reasons as a moderator reads them (docs/engagement.md "Reasons and highlights"):
 * each reason code in plain words, and the words of a comment that triggered moderation.
 * Pure: queue.ts gives every queue item both.
 *
 * The scorer answers reason codes, never the words it matched (../scorer/scorer.ts: `reasons` are "never
 * the words matched"). The highlights are therefore found again here from the lists moderation
 * uses: the account's banned words (matched as ../rules/banned-words.ts matches them), the scorer's word
 * lists (../lexicon/word-lists.ts WORD_KIND), its spam phrases (SPAM_PHRASES) and links (URL_IN_TEXT and link
 * ops). What the scorer finds by pattern alone (a threat with no listed word, a phone number, an
 * offer) is explained by its reason but not highlighted.
 */
import { ownValue } from "@/server/own-keys";

import type { TCommentOp } from "../../comments.schema";
import { REPORTS_TO_HOLD } from "../../reports.schema";
import { detectLanguage } from "../language/detect";
import { COMMENT_LANGUAGES, LANGUAGE_NAMES } from "../language/languages.schema";
import { SHIPPED_WORDS } from "../language/shipped-words";
import { URL_IN_TEXT } from "../lexicon/lexicon-scorer";
import { SPAM_PHRASES } from "../lexicon/spam-patterns";
import { WORD_KIND, type WordKind } from "../lexicon/word-lists";
import { listedWordSpans, normaliseForBannedWords, type BannedWord } from "../rules/banned-words";

// ─── wording ─────────────────────────────────────────────────────────────────────────────────

const WORDING: Record<string, string> = {
  "toxicity.insult": "Insult: words that insult a person",
  "toxicity.aimed": "Aimed at someone: the abuse is addressed to a reader or a person",
  "toxicity.threat": "Threat or incitement to violence",
  "toxicity.self_harm": "Urges someone to harm or kill themselves",
  "toxicity.identity_attack": "Attack on a group of people (religion, origin, sexuality, disability…)",
  "toxicity.slur": "Slur against a group of people",
  "toxicity.profanity": "Swearing or sexual language",
  "toxicity.shouting": "Shouting: written mostly in capitals, beside other abuse",
  "toxicity.reported": "Quoted or reported speech: the abuse is someone else's words, so it counts less",
  "toxicity.model": "The trained model finds it abusive, beyond what the word lists and patterns found",
  "spam.phrase": "Spam phrase (“click here”, “buy now”…)",
  "spam.phrase_with_link": "Spam phrase beside a link",
  "spam.many_links": "Many links",
  "spam.link_only": "Links with hardly a word of the reader's own",
  "spam.shortener": "Link through a URL shortener, which hides where it leads",
  "spam.new_reader_link": "Link from a new reader",
  "spam.repeated_characters": "The same character repeated many times",
  "spam.repeated_words": "The same word repeated many times",
  "spam.all_caps": "Written all in capitals",
  "spam.markup_link": "Link written as HTML or BBCode",
  "spam.disguised_link": "Link disguised to get past filters (“site[.]com”)",
  "spam.earnings": "Promises earnings or returns",
  "spam.promotion": "Sales promotion (discounts, codes, deadlines)",
  "spam.loan": "Loans, credit or insurance offered",
  "spam.crypto": "Crypto or trading pitch",
  "spam.product": "Product that is spam wherever it appears (pills, replicas, casinos…)",
  "spam.link_in_bio": "“Link in bio” or “visit my profile”",
  "spam.contact": "Offers a contact channel (WhatsApp, Telegram, “DM me”…)",
  "spam.phone_number": "Phone number",
  "spam.email": "E-mail address",
  "spam.link_with_offer": "Link beside an offer",
  "spam.reach_with_offer": "A way to answer an offer, beside the offer",
  "spam.many_offers": "Several different offers",
  "spam.money": "Sums of money beside other signs of spam",
  "spam.self_promotion": "Promotes the reader's own channel, shop or site",
  "spam.stuffing": "The same keyword repeated beside a link",
  "spam.pitch_emoji": "Sales-pitch emoji (🔥💰🚀…) beside other signs of spam",
  "spam.cta_link": "A link with a call to click it (“click here”, “details below 👇”)",
  "spam.model": "The trained model finds it reads like spam, beyond the spam rules' signs",
  "held.pre_moderation": "Held: every comment waits for a moderator (pre-moderation)",
  "held.spam": "Held: the scorer says spam",
  "held.banned_word": "Held: a banned word",
  "flagged.suspect_word": "Flagged: a suspect word (published; waiting for a moderator's look)",
  "held.new_reader_link": "Held: a link from a new reader",
  "held.reports": `Held: reported by ${REPORTS_TO_HOLD} readers`,
  // The rules before publishing (../rules/rules.ts RULE_REASONS).
  "held.page_pre_moderation": "Held: this page's comments wait for a moderator",
  "held.surge": "Held: the page is in surge (comments outran the moderators, or nobody was on shift)",
  "held.awaiting_approvals": "Held: a reader whose comments wait until enough are approved",
  "held.untrusted_reader": "Held: a reader without trust (too many comments rejected lately)",
  "held.untrusted_link": "Held: a link from a reader without trust",
  "held.repeated_post": "Held as spam: the same text posted on another page",
  "held.disposable_email": "Held: the reader's e-mail is at a disposable address",
  "scorer.fallback": "The account's own scorer failed, so the built-in scorer scored this comment",
  // Languages (language/): what the built-in scorer cannot read, and the shipped word lists.
  "unscored.language":
    "Not scored for toxicity: the built-in scorer does not read this comment's language (what it found still counts)",
  "held.unscored_language": "Held: this publication holds comments in languages the built-in scorer does not read",
  "language.word_list": "A word of the shipped list of bad words of the comment's language",
  "held.language_word_list": "Held: a word of the shipped list of bad words of the comment's language",
  ...Object.fromEntries(
    COMMENT_LANGUAGES.map((l) => [`language.${l}`, `Written in ${LANGUAGE_NAMES.get(l)} (as detected)`]),
  ),
  // The adaptive layer (../scorer/adaptive.ts): what this publication's moderators decided before.
  "adaptive.raised": "Toxicity raised: moderators here rejected comments with these words before",
  "adaptive.lowered": "Toxicity lowered: moderators here approved comments with these words before",
  "adaptive.spam_raised": "Spam score raised: moderators here marked comments with these words as spam before",
  "adaptive.spam_lowered": "Spam score lowered: moderators here approved comments with these words before",
};

/** The codes with a wording of their own (the reason filter offers them). */
export const KNOWN_REASON_CODES: readonly string[] = [...Object.keys(WORDING), "held.toxicity"].sort();

/**
 * One reason code in plain words. `held.toxicity` names the comment's toxicity and the account's
 * threshold as it is now (it may have changed since the comment was held). Unknown codes (another
 * scorer's) are shown as they are.
 */
export function explainReason(code: string, context: { toxicity: number; threshold: number }): string {
  if (code === "held.toxicity") {
    const held = context.toxicity >= context.threshold;
    return `Held: toxicity ${formatScore(context.toxicity)} ${held ? "≥" : "<"} threshold ${context.threshold}${held ? "" : " (the threshold was lower when it was held)"}`;
  }
  return ownValue(WORDING, code) ?? `Other reason: ${code}`;
}

/** A reason's wording for the reason filter, where no comment gives the figures. */
export function reasonFilterWording(code: string): string {
  return code === "held.toxicity"
    ? "Held: toxicity at or above the threshold"
    : explainReason(code, { toxicity: 0, threshold: 0 });
}

const formatScore = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** Every reason of a comment in plain words, each once, in the order given. */
export function explainReasons(
  codes: readonly string[],
  context: { toxicity: number; threshold: number },
): { code: string; text: string }[] {
  return [...new Set(codes)].map((code) => ({ code, text: explainReason(code, context) }));
}

// ─── highlights ──────────────────────────────────────────────────────────────────────────────

type HighlightKind = "banned" | "toxic" | "spam" | "link";
export type Highlight = { start: number; end: number; kind: HighlightKind; label: string };

const BANNED_LABEL: Record<BannedWord["action"], string> = {
  reject: "Banned word (refuses)",
  hold: "Banned word (holds)",
  flag: "Suspect word (flags)",
};

/** Kinds of listed words that count wherever they appear; the others only when aimed at someone. */
const ALWAYS_TOXIC: ReadonlySet<WordKind> = new Set([
  "slur",
  "vulgar_noun",
  "strong",
  "intensifier",
  "mild",
  "sexual",
  "insult_noun",
  "adjective",
]);
const WHEN_INSULT: ReadonlySet<WordKind> = new Set(["aimed_noun", "you_noun", "you_adjective"]);

const KIND_LABEL: Partial<Record<WordKind, string>> = {
  slur: "Slur",
  vulgar_noun: "Vulgar insult",
  strong: "Swearing",
  intensifier: "Swearing",
  mild: "Mild swearing",
  sexual: "Sexual language",
  insult_noun: "Insult",
  adjective: "Insulting word",
  aimed_noun: "Insult when said of a person",
  you_noun: "Insult when said to a reader",
  you_adjective: "Insult when said to a reader",
};

/** The text of a comment as moderation reads it (text inserts in order) and where its link ops are. */
function textOfOps(ops: readonly TCommentOp[]): { text: string; links: [number, number][] } {
  let text = "";
  const links: [number, number][] = [];
  for (const op of ops) {
    if (typeof op.insert !== "string") continue;
    const start = text.length;
    text += op.insert;
    if ("attributes" in op && op.attributes && "link" in op.attributes && !("mention" in op.attributes)) {
      links.push([start, text.length]);
    }
  }
  return { text, links };
}

/** Words with their offsets: letters, digits and the signs leetspeak uses for letters. */
function wordsOf(text: string): { start: number; end: number; word: string }[] {
  return [...text.matchAll(/[\p{L}\p{N}@$]+(?:['’]\p{L}+)?/gu)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    word: m[0],
  }));
}

const folded = (word: string) => normaliseForBannedWords(word).trim();

function kindOf(word: string): WordKind | undefined {
  const lower = word.toLowerCase().replace(/’/g, "'");
  return WORD_KIND.get(lower) ?? WORD_KIND.get(folded(word));
}

/**
 * The spans of `ops`' text that triggered moderation, in order, never overlapping (a banned word
 * wins over a listed word, a listed word over a spam phrase, a phrase over a link). Toxic words
 * are highlighted when a toxicity reason is among `reasons`; spam phrases and links when a spam
 * or link reason is.
 */
export function findHighlights(args: {
  ops: readonly TCommentOp[];
  reasons: readonly string[];
  bannedWords: readonly BannedWord[];
}): Highlight[] {
  const { text, links } = textOfOps(args.ops);
  if (!text) return [];
  const reasons = new Set(args.reasons);
  const has = (prefix: string) => args.reasons.some((r) => r.startsWith(prefix));
  const found: Highlight[] = [];
  const words = wordsOf(text);

  // 1. Banned words and phrases, read as ../rules/banned-words.ts reads them (any script).
  for (const span of listedWordSpans(text, args.bannedWords)) {
    found.push({ start: span.start, end: span.end, kind: "banned", label: BANNED_LABEL[span.listed.action] });
  }

  // 1b. Words of the shipped list of the comment's language, when one was found.
  if (reasons.has("language.word_list")) {
    const list = SHIPPED_WORDS.get(detectLanguage(text).language ?? "en") ?? [];
    const words = list.map((word) => ({ word }));
    for (const span of listedWordSpans(text, words)) {
      found.push({ start: span.start, end: span.end, kind: "banned", label: "Word of the language's shipped list" });
    }
  }

  // 2. Words of the scorer's lists, when the scorer found toxicity.
  if (has("toxicity.")) {
    const insult = reasons.has("toxicity.insult");
    for (const w of words) {
      const kind = kindOf(w.word);
      if (!kind) continue;
      if (ALWAYS_TOXIC.has(kind) || (insult && WHEN_INSULT.has(kind))) {
        found.push({ start: w.start, end: w.end, kind: "toxic", label: KIND_LABEL[kind] ?? "Abusive word" });
      }
    }
  }

  // 3. Spam phrases (lower case, at word edges), when the scorer found spam.
  const spam = has("spam.") || reasons.has("held.spam");
  const lower = text.toLowerCase();
  if (spam && lower.length === text.length) {
    for (const phrase of SPAM_PHRASES) {
      for (let at = lower.indexOf(phrase); at !== -1; at = lower.indexOf(phrase, at + phrase.length)) {
        const before = lower[at - 1];
        const after = lower[at + phrase.length];
        const edge = (c: string | undefined) => c === undefined || !/[\p{L}\p{N}]/u.test(c);
        if (edge(before) && edge(after)) {
          found.push({ start: at, end: at + phrase.length, kind: "spam", label: "Spam phrase" });
        }
      }
    }
  }

  // 4. Links, when a spam or link reason is given.
  if (spam || reasons.has("held.new_reader_link") || reasons.has("held.untrusted_link")) {
    for (const [start, end] of links) found.push({ start, end, kind: "link", label: "Link" });
    for (const m of text.matchAll(new RegExp(URL_IN_TEXT.source, URL_IN_TEXT.flags))) {
      found.push({ start: m.index, end: m.index + m[0].length, kind: "link", label: "Link" });
    }
  }

  return withoutOverlaps(found);
}

const PRIORITY: Record<HighlightKind, number> = { banned: 0, toxic: 1, spam: 2, link: 3 };

/** Keeps the stronger of two overlapping spans (then the longer, then the first), sorted by start. */
export function withoutOverlaps(spans: readonly Highlight[]): Highlight[] {
  const ranked = [...spans]
    .filter((s) => s.end > s.start)
    .sort((a, b) => PRIORITY[a.kind] - PRIORITY[b.kind] || b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: Highlight[] = [];
  for (const span of ranked) {
    if (kept.every((k) => span.end <= k.start || span.start >= k.end)) kept.push(span);
  }
  return kept.sort((a, b) => a.start - b.start);
}
