/**
 * The default comment scorer: word lists and heuristics, no outside service. How the numbers come
 * out is documented in docs/engagement.md ("How a comment is scored"); keep the two in step.
 *
 * Toxicity. Signals are found in the text, each with a weight w between 0 and 1, and combined as
 * a noisy OR: toxicity = 100 × (1 − Π(1 − w)), one decimal. Each distinct signal counts once
 * (a word said three times is one signal).
 * - Profanity and slurs: the `obscenity` package's English dataset and recommended transformers
 *   (leetspeak, look-alike characters, stretched letters; its whitelist keeps "Scunthorpe",
 *   "assassin", "grapes" clean). Each word is put in a category of TOXIC_WEIGHTS.
 * - Insults, threats and dismissals: our own obscenity dataset (INSULTS below), same transformers.
 * - Aimed at someone: a dismissal ("shut up", "screw you") always; an insult or any profanity but the clinical words with a second-person word
 *   in the three words before it in the same clause ("you are an idiot", "ur a b1tch"); an insult,
 *   a slur or strong profanity followed by "you" or "off" ("fuck you", "screw off"); an insult
 *   noun or a slur after "is a", "such a", "what a"… ("the author is a moron"). One extra signal,
 *   TOXIC_WEIGHTS.aimed, however many matches are aimed.
 * - Shouting: a text mostly in capitals, only when another signal is present.
 *
 * Spam. Points per heuristic (SPAM_POINTS); spam when they add up to 1 or more.
 */
import {
  DataSet,
  englishDataset,
  englishRecommendedTransformers,
  pattern,
  RegExpMatcher,
  type EnglishProfaneWord,
} from "obscenity";

import type { CommentScore, CommentScorer, ScorerInput } from "./scorer";

/** Weights of the toxicity signals (0 to 1). */
export const TOXIC_WEIGHTS = {
  /** Threats and incitement to self-harm. */
  threat: 0.9,
  /** Slurs against a group (race, sexuality, disability). */
  slur: 0.85,
  /** Strong profanity. */
  strong: 0.45,
  /** Explicit sexual terms. */
  sexual: 0.35,
  /** Insults ("idiot", "moron") and dismissals ("shut up", "go to hell"). */
  insult: 0.35,
  /** Mild profanity ("shit", "piss", "arse"). */
  mild: 0.25,
  /** Insulting adjectives ("stupid", "pathetic"): also said of ideas, so weaker. */
  adjective: 0.2,
  /** Anatomical or clinical words a news comment may use in earnest ("rape", "sex", "penis"). */
  clinical: 0.1,
  /** An insult, slur or strong profanity aimed at someone. */
  aimed: 0.65,
  /** Capitals, with another signal. */
  shouting: 0.2,
} as const;

type Category = Exclude<keyof typeof TOXIC_WEIGHTS, "aimed" | "shouting">;

const ENGLISH_CATEGORY: Record<EnglishProfaneWord, Category> = {
  abeed: "slur",
  abo: "slur",
  africoon: "slur",
  arabush: "slur",
  boonga: "slur",
  chingchong: "slur",
  chink: "slur",
  kike: "slur",
  negro: "slur",
  nigger: "slur",
  tranny: "slur",
  fag: "slur",
  dyke: "slur",
  spastic: "slur",
  retard: "slur",
  fuck: "strong",
  cunt: "strong",
  twat: "strong",
  bitch: "strong",
  bastard: "strong",
  whore: "strong",
  slut: "strong",
  prick: "strong",
  dick: "strong",
  cock: "strong",
  pussy: "strong",
  wank: "strong",
  jizz: "strong",
  cuck: "strong",
  blowjob: "sexual",
  handjob: "sexual",
  dildo: "sexual",
  porn: "sexual",
  gangbang: "sexual",
  fisting: "sexual",
  felch: "sexual",
  fellatio: "sexual",
  deepthroat: "sexual",
  doggystyle: "sexual",
  "double penetration": "sexual",
  "finger bang": "sexual",
  hentai: "sexual",
  lubejob: "sexual",
  buttplug: "sexual",
  bestiality: "sexual",
  "jerk off": "sexual",
  ejaculate: "sexual",
  masturbate: "sexual",
  orgy: "sexual",
  cum: "sexual",
  scat: "sexual",
  ass: "mild",
  arse: "mild",
  bollocks: "mild",
  piss: "mild",
  shit: "mild",
  turd: "mild",
  anal: "clinical",
  anus: "clinical",
  boob: "clinical",
  tit: "clinical",
  penis: "clinical",
  vagina: "clinical",
  sex: "clinical",
  semen: "clinical",
  orgasm: "clinical",
  rape: "clinical",
  incest: "clinical",
  hooker: "clinical",
};

/** Kinds of insult pattern: nouns can be aimed by "is a…", adjectives only by "you". */
type InsultKind = "threat" | "insult-noun" | "adjective" | "dismissal";
type InsultMeta = { word: string; kind: InsultKind };

/**
 * Our own phrases, as obscenity patterns (`|` a word boundary, `[s]` optional). Letters are
 * written as the collapse transformer leaves them: a doubled b, e, o, l, s or g stays, any other
 * doubled letter becomes one ("kill" and "pillock" stay, "off" is written "of").
 */
const INSULTS: [InsultKind, string, ReturnType<typeof pattern>][] = [
  ["threat", "kill yourself", pattern`|kill yourself|`],
  ["threat", "kill urself", pattern`|kill urself|`],
  ["threat", "kys", pattern`|kys|`],
  ["threat", "go die", pattern`|go die|`],
  ["threat", "hope you die", pattern`|hope you die|`],
  ["threat", "kill you", pattern`|kill you|`],
  ["threat", "deserve to die", pattern`|deserve to die|`],
  ["threat", "should be shot", pattern`|should be shot|`],
  ["threat", "should be hanged", pattern`|should be hanged|`],
  ["threat", "know where you live", pattern`|know where you live|`],
  ["threat", "drop dead", pattern`|drop dead|`],
  ["insult-noun", "idiot", pattern`|idiot[s]|`],
  ["insult-noun", "moron", pattern`|moron[s]|`],
  ["insult-noun", "imbecile", pattern`|imbecile[s]|`],
  ["insult-noun", "cretin", pattern`|cretin[s]|`],
  ["insult-noun", "loser", pattern`|loser[s]|`],
  ["insult-noun", "scum", pattern`|scum|`],
  ["insult-noun", "scumbag", pattern`|scumbag[s]|`],
  ["insult-noun", "clown", pattern`|clown[s]|`],
  ["insult-noun", "dumbass", pattern`|dumbass|`],
  ["insult-noun", "jackass", pattern`|jackass|`],
  ["insult-noun", "halfwit", pattern`|halfwit[s]|`],
  ["insult-noun", "dimwit", pattern`|dimwit[s]|`],
  ["insult-noun", "numpty", pattern`|numpty|`],
  ["insult-noun", "pillock", pattern`|pillock[s]|`],
  ["insult-noun", "lowlife", pattern`|lowlife|`],
  ["insult-noun", "degenerate", pattern`|degenerate[s]|`],
  ["insult-noun", "parasite", pattern`|parasite[s]|`],
  ["insult-noun", "libtard", pattern`|libtard[s]|`],
  ["insult-noun", "piece of shit", pattern`|piece of shit|`],
  ["insult-noun", "piece of crap", pattern`|piece of crap|`],
  ["insult-noun", "piece of garbage", pattern`|piece of garbage|`],
  ["insult-noun", "piece of trash", pattern`|piece of trash|`],
  ["insult-noun", "waste of oxygen", pattern`|waste of oxygen|`],
  ["insult-noun", "waste of space", pattern`|waste of space|`],
  ["adjective", "stupid", pattern`|stupid|`],
  ["adjective", "dumb", pattern`|dumb|`],
  ["adjective", "pathetic", pattern`|pathetic|`],
  ["adjective", "worthless", pattern`|worthless|`],
  ["adjective", "brainless", pattern`|brainless|`],
  ["adjective", "braindead", pattern`|braindead|`],
  ["adjective", "ignorant", pattern`|ignorant|`],
  ["adjective", "useless", pattern`|useless|`],
  ["adjective", "disgusting", pattern`|disgusting|`],
  ["dismissal", "shut up", pattern`|shut up|`],
  ["dismissal", "go to hell", pattern`|go to hell|`],
  ["dismissal", "screw you", pattern`|screw you|`],
  ["dismissal", "get lost", pattern`|get lost|`],
  ["dismissal", "piss off", pattern`|piss of|`],
];

const insultDataset = new DataSet<InsultMeta>();
for (const [kind, word, parsed] of INSULTS) {
  insultDataset.addPhrase((phrase) => phrase.setMetadata({ word, kind }).addPattern(parsed));
}

// Built once per process (the dataset is compiled to regular expressions).
const profanityMatcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
const insultMatcher = new RegExpMatcher({ ...insultDataset.build(), ...englishRecommendedTransformers });

const SECOND_PERSON = new Set([
  "you",
  "u",
  "ya",
  "ye",
  "your",
  "ur",
  "youre",
  "you're",
  "yourself",
  "yourselves",
  "thou",
]);
/** Words that, right after an insult or strong profanity, aim it ("fuck you", "piss off"). */
const AFTER_AIMED = new Set(["you", "u", "ya", "yourself", "yourselves", "off"]);
/** Words that, right before an insult noun or a slur (one word may come between), aim it ("is a moron"). */
const AIMING_LEAD =
  /(?:^|\s)(?:is an?|are|was an?|such an?|what an?|bunch of|total|complete|absolute|utter|you)\s+(?:[\p{L}']+\s+)?$/u;

const CLAUSE_BREAK = /[.!?;:,\n()]/;

function clauseAround(text: string, start: number, end: number): { before: string; after: string } {
  let from = start;
  while (from > 0 && !CLAUSE_BREAK.test(text[from - 1]!)) from -= 1;
  let to = end + 1;
  while (to < text.length && !CLAUSE_BREAK.test(text[to]!)) to += 1;
  const clean = (s: string) => s.toLowerCase().replace(/[’`]/g, "'").replace(/0/g, "o");
  return { before: clean(text.slice(from, start)), after: clean(text.slice(end + 1, to)) };
}

const wordsOf = (s: string) => s.split(/[^a-z0-9']+/).filter(Boolean);

/**
 * Whether the match at [start, end] (inclusive) is aimed at someone: a second-person word in the
 * three words before it, in the same clause; with `after`, an AFTER_AIMED word right after it;
 * with `noun`, an AIMING_LEAD right before it.
 */
function isAimed(text: string, start: number, end: number, how: { after: boolean; noun: boolean }): boolean {
  const { before, after } = clauseAround(text, start, end);
  if (
    wordsOf(before)
      .slice(-3)
      .some((w) => SECOND_PERSON.has(w))
  )
    return true;
  const next = wordsOf(after)[0];
  if (how.after && next !== undefined && AFTER_AIMED.has(next)) return true;
  return how.noun && AIMING_LEAD.test(` ${before.replace(/\s+/g, " ")}`);
}

const noisyOr = (weights: number[]) => 100 * (1 - weights.reduce((p, w) => p * (1 - w), 1));

/** Letters, and the share of them in capitals. */
function capitals(text: string): { letters: number; upperShare: number } {
  const letters = text.match(/\p{L}/gu) ?? [];
  const upper = letters.filter((l) => l !== l.toLowerCase() && l === l.toUpperCase()).length;
  return { letters: letters.length, upperShare: letters.length ? upper / letters.length : 0 };
}

/** Toxicity 0–100 and its reasons. */
export function scoreToxicity(text: string): { toxicity: number; reasons: string[] } {
  const signals = new Map<string, number>();
  const reasons = new Set<string>();
  let aimed = false;

  for (const match of profanityMatcher.getAllMatches(text)) {
    const word = englishDataset.getPayloadWithPhraseMetadata(match).phraseMetadata?.originalWord;
    if (!word) continue;
    const category = ENGLISH_CATEGORY[word];
    signals.set(`profanity:${word}`, TOXIC_WEIGHTS[category]);
    reasons.add(category === "slur" ? "toxicity.slur" : "toxicity.profanity");
    const aimable = category === "slur" || category === "strong" || category === "mild";
    const how = { after: category !== "mild", noun: category === "slur" };
    if (aimable && isAimed(text, match.startIndex, match.endIndex, how)) aimed = true;
  }
  for (const match of insultMatcher.getAllMatches(text)) {
    const meta = insultDataset.getPayloadWithPhraseMetadata(match).phraseMetadata;
    if (!meta) continue;
    const weight =
      meta.kind === "threat"
        ? TOXIC_WEIGHTS.threat
        : meta.kind === "adjective"
          ? TOXIC_WEIGHTS.adjective
          : TOXIC_WEIGHTS.insult;
    signals.set(`insult:${meta.word}`, weight);
    reasons.add(meta.kind === "threat" ? "toxicity.threat" : "toxicity.insult");
    // A dismissal ("shut up", "screw you") is said to someone.
    const how = { after: true, noun: meta.kind === "insult-noun" };
    if (meta.kind === "dismissal" || (meta.kind !== "threat" && isAimed(text, match.startIndex, match.endIndex, how))) {
      aimed = true;
    }
  }
  const weights = [...signals.values()];
  if (weights.length === 0) return { toxicity: 0, reasons: [] };
  if (aimed) {
    weights.push(TOXIC_WEIGHTS.aimed);
    reasons.add("toxicity.aimed");
  }
  const caps = capitals(text);
  if (caps.letters >= 8 && caps.upperShare >= 0.8) {
    weights.push(TOXIC_WEIGHTS.shouting);
    reasons.add("toxicity.shouting");
  }
  return { toxicity: Math.round(noisyOr(weights) * 10) / 10, reasons: [...reasons] };
}

// ─── spam ────────────────────────────────────────────────────────────────────────────────────

/** Points of the spam heuristics; a comment is spam at 1 point or more. */
export const SPAM_POINTS = {
  /** Each distinct known spam phrase. */
  phrase: 0.6,
  /** A known spam phrase and a link in the same comment. */
  phraseWithLink: 0.4,
  /** 3 or 4 links. */
  manyLinks: 0.6,
  /** 5 links or more. */
  tooManyLinks: 1,
  /** Links and at most two words of the reader's own. */
  linkOnly: 0.5,
  /** A link through a URL shortener (bit.ly, tinyurl.com…), which hides where it leads. */
  shortener: 0.4,
  /** A new reader (scorer.ts) posting a link. */
  newReaderLink: 0.3,
  /** The same character 8 times or more in a row ("!!!!!!!!", "soooooooo"). */
  repeatedCharacters: 0.4,
  /** The same word 4 or 5 times in a row, or one word making more than half of 10 words or more. */
  repeatedWords: 0.5,
  /** The same word 6 times or more in a row. */
  floodedWords: 1,
  /** 15 letters or more, at least 80 % of them capitals. */
  allCaps: 0.4,
} as const;

/** Phrases of promotion and scams, compared in lower case at word edges. */
export const SPAM_PHRASES = [
  "buy now",
  "click here",
  "click the link",
  "click my link",
  "free money",
  "make money",
  "earn money",
  "make $",
  "earn $",
  "work from home",
  "working from home and",
  "cash app",
  "investment opportunity",
  "guaranteed returns",
  "financial freedom",
  "crypto signals",
  "double your",
  "viagra",
  "cialis",
  "online casino",
  "payday loan",
  "promo code",
  "discount code",
  "limited offer",
  "limited time offer",
  "act now",
  "100% free",
  "check out my",
  "visit my",
  "subscribe to my",
  "follow me on",
  "my channel",
  "dm me",
  "whatsapp",
  "contact me on",
  "message me on",
  "onlyfans",
  "hot singles",
  "lose weight fast",
  "weight loss pills",
  "seo services",
  "backlinks",
];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const SPAM_PHRASE_RES = SPAM_PHRASES.map((phrase) => {
  const lead = /^[a-z0-9]/.test(phrase) ? "(?<![a-z0-9])" : "";
  const tail = /[a-z0-9]$/.test(phrase) ? "(?![a-z0-9])" : "";
  return new RegExp(`${lead}${escapeRegExp(phrase).replace(/ /g, "\\s+")}${tail}`);
});

/** http(s) and www. URLs, and bare domains of common spam TLDs, written in the text. */
export const URL_IN_TEXT =
  /\bhttps?:\/\/[^\s<>"]+|\bwww\.[^\s<>"]+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|info|biz|xyz|top|shop|online|site|club|io|ru|cn|co|me|ly|link|click|store|app)\b(?:\/[^\s<>"]*)?/gi;

const SHORTENER =
  /^(?:https?:\/\/)?(?:www\.)?(?:bit\.ly|tinyurl\.com|t\.co|goo\.gl|ow\.ly|is\.gd|buff\.ly|cutt\.ly|rb\.gy|shorturl\.at|tiny\.cc|rebrand\.ly)(?:[/?#]|$)/i;

function longestRun<T>(items: T[]): number {
  let best = 0;
  let run = 0;
  items.forEach((item, i) => {
    run = i > 0 && items[i - 1] === item ? run + 1 : 1;
    best = Math.max(best, run);
  });
  return best;
}

/** Spam points, the verdict and the reasons. */
export function scoreSpam(input: Pick<ScorerInput, "text" | "links" | "reader">): {
  points: number;
  isSpam: boolean;
  reasons: string[];
} {
  const { text, links, reader } = input;
  const reasons: string[] = [];
  let points = 0;
  const add = (p: number, reason: string) => {
    points += p;
    reasons.push(reason);
  };
  const lower = text.normalize("NFKC").toLowerCase();

  const phrases = SPAM_PHRASE_RES.filter((re) => re.test(lower)).length;
  if (phrases > 0) {
    add(SPAM_POINTS.phrase * phrases, "spam.phrase");
    if (links.length > 0) add(SPAM_POINTS.phraseWithLink, "spam.phrase_with_link");
  }
  if (links.length >= 5) add(SPAM_POINTS.tooManyLinks, "spam.many_links");
  else if (links.length >= 3) add(SPAM_POINTS.manyLinks, "spam.many_links");

  const ownWords = (lower.replace(URL_IN_TEXT, " ").match(/\p{L}{2,}/gu) ?? []).length;
  if (links.length > 0 && ownWords <= 2) add(SPAM_POINTS.linkOnly, "spam.link_only");
  if (links.some((link) => SHORTENER.test(link))) add(SPAM_POINTS.shortener, "spam.shortener");
  if (links.length > 0 && reader.isNew) add(SPAM_POINTS.newReaderLink, "spam.new_reader_link");

  if (/(\S)\1{7,}/u.test(text)) add(SPAM_POINTS.repeatedCharacters, "spam.repeated_characters");

  const words = lower.replace(URL_IN_TEXT, " ").match(/[\p{L}\p{N}']+/gu) ?? [];
  const run = longestRun(words);
  const counts = new Map<string, number>();
  for (const w of words) if (w.length >= 3) counts.set(w, (counts.get(w) ?? 0) + 1);
  const dominant = words.length >= 10 && [...counts.values()].some((n) => n > words.length / 2);
  if (run >= 6) add(SPAM_POINTS.floodedWords, "spam.repeated_words");
  else if (run >= 4 || dominant) add(SPAM_POINTS.repeatedWords, "spam.repeated_words");

  const caps = capitals(text);
  if (caps.letters >= 15 && caps.upperShare >= 0.8) add(SPAM_POINTS.allCaps, "spam.all_caps");

  points = Math.round(points * 100) / 100;
  return { points, isSpam: points >= 1, reasons };
}

/** The lexicon scorer: toxicity and spam from the text alone, synchronously. */
export const lexiconScorer: CommentScorer = {
  name: "lexicon",
  score(input: ScorerInput): CommentScore {
    const toxicity = scoreToxicity(input.text);
    const spam = scoreSpam(input);
    return { toxicity: toxicity.toxicity, isSpam: spam.isSpam, reasons: [...toxicity.reasons, ...spam.reasons] };
  },
};
