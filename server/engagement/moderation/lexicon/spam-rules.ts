/**
 * Spam of a comment from rules (docs/moderation.md, "The scorer"). Points per signal; the comment
 * is spam at 1 point or more, and its spam score is 100 × points / (points + 1) (50 at 1 point).
 *
 * The text is read as the toxicity rules read it (look-alike letters, letters spelt out), and
 * links disguised as "w w w . shop . com", "site[.]com", "bit [dot] ly" or "hxxp://" are put
 * back together. A link, a phone number or an e-mail address is no spam by itself: readers cite
 * sources and councils' helplines. What makes spam is an offer beside them: earnings, discounts
 * and codes, loans, crypto, the usual scam products, a contact channel ("WhatsApp", "DM me"),
 * "link in bio". No domain is listed as good or bad: real spam uses real domains.
 */
import { readWords } from "../rules/banned-words";
import type { ScorerInput } from "../scorer/scorer";
import {
  ANY_LINK,
  CONTACT,
  CTA_LINK,
  EMAIL,
  LINK_IN_BIO,
  MARKUP_LINK,
  MONEY_RE,
  OFFERS,
  OFFERS_GLOBAL,
  PITCH_EMOJI,
  SELF_PROMOTION,
  SPAM_PHRASE_RES,
  type OfferKind,
} from "./spam-patterns";
import { capitals, foldText, joinSpeltOut } from "./text-normalise";

/** Points of the spam signals; a comment is spam at 1 point or more. */
const SPAM_POINTS = {
  /** Each distinct known spam phrase ("click here", "buy now"). */
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
  /** A new reader (../scorer/scorer.ts) posting a link. */
  newReaderLink: 0.3,
  /** The same character 8 times or more in a row ("!!!!!!!!", "soooooooo"). */
  repeatedCharacters: 0.4,
  /** The same word 4 or 5 times in a row, or one word making more than half of 10 words or more. */
  repeatedWords: 0.5,
  /** The same word 6 times or more in a row. */
  floodedWords: 1,
  /** 15 letters or more, at least 80 % of them capitals. */
  allCaps: 0.4,
  /** A link written in HTML or BBCode ("<a href=", "[url="): never typed by a reader in earnest. */
  markupLink: 1,
  /** A link disguised so that filters miss it ("site[.]com", "w w w . x . com", "hxxp://"). */
  disguisedLink: 0.8,
  /** Earnings and returns promised ("I earn $500 a day", "passive income", "100x guaranteed"). */
  earnings: 0.6,
  /** Discounts, codes, sales, deadlines ("40% off", "promo code", "this week only"). */
  promotion: 0.4,
  /** Each further distinct kind of promotion. */
  morePromotion: 0.2,
  /** Loans, credit, mortgages, insurance quotes. */
  loan: 0.4,
  /** Crypto and trading words ("airdrop", "presale", "staking", "$TICKER"). */
  crypto: 0.3,
  /** Each further distinct crypto word. */
  moreCrypto: 0.2,
  /** Products and scams that are spam wherever they appear (pills, replicas, casinos, spells…). */
  product: 0.5,
  /** "Link in bio", "visit my profile", "details on my page", "see link below". */
  linkInBio: 1,
  /** A contact channel offered ("WhatsApp", "Telegram", "DM me", "call now"). */
  contact: 0.5,
  /** A phone number. */
  phone: 0.5,
  /** A phone number beside any other sign of spam. */
  phoneWithOffer: 0.5,
  /** An e-mail address. */
  email: 0.3,
  /** An e-mail address beside any other sign of spam. */
  emailWithOffer: 0.4,
  /** A link beside an offer (earnings, promotion, loan, product). */
  linkWithOffer: 0.6,
  /** A way to answer an offer (contact channel, phone, e-mail, "link in bio") beside one. */
  reachWithOffer: 0.3,
  /** A call to action pointing at a link ("here 👉", "click below", ">>>"). */
  ctaLink: 0.5,
  /** A text that is mostly one character repeated (20 or more). */
  flood: 1,
  /** Three or more distinct offer phrases. */
  manyOffers: 0.3,
  /** A sum of money ("$9", "£250", "0.1 ETH"), beside another sign. */
  money: 0.15,
  /** The reader's own channel, podcast or shop ("my channel", "our store"). */
  selfPromotion: 0.4,
  /** The reader's own channel, podcast or site, with a link. */
  selfPromotionLink: 0.3,
  /** A word of four letters or more said three times or more with a link (keyword stuffing). */
  stuffing: 0.5,
  /** Emoji of sales pitches (🔥💰🚀💎🎁…), beside another sign. */
  pitchEmoji: 0.15,
} as const;

/** "site[.]com", "bit [dot] ly", "hxxp://", "www . site . com" put back as links; whether any was. */
export function undisguiseLinks(text: string): { text: string; disguised: boolean } {
  let disguised = false;
  const out = text
    .replace(/\s?[[({]\s?(?:\.|dot)\s?[\])}]\s?/gi, () => {
      disguised = true;
      return ".";
    })
    .replace(/\bhxxps?(?=:\/\/|\s?:\s?\/\s?\/)/gi, (m) => {
      disguised = true;
      return m.replace(/xx/i, "tt");
    })
    .replace(/\b(https?)\s?:\s?\/\s?\/\s?/gi, "$1://")
    .replace(/(?<=[a-z0-9-]{2}) \. (?=[a-z0-9-]{2,}\b)/gi, () => {
      disguised = true;
      return ".";
    })
    .replace(/(?<=\.[a-z]{2,24}) \/ (?=\S)/gi, "/");
  return { text: out, disguised };
}

/**
 * Phone numbers: "+" and 7 to 15 digits, a national number starting with 0 and 9 to 13 digits, or
 * the North American 3-3-4; digit groups separated by one to three spaces, dots or dashes.
 */
const PHONE = [
  /\+\s?\d{1,3}(?:[\s.-]{0,3}\(?\d{1,6}\)?){1,5}/g,
  /(?<![\w.,$€£])\(?0\d{1,5}\)?(?:[\s.-]{1,3}\d{1,6}){0,4}(?!\d|[.,]\d|\s?%)/g,
  /(?<![\w.,$€£])\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}(?!\d|[.,]\d|\s?%)/g,
];

function hasPhoneNumber(text: string): boolean {
  return PHONE.some((re) =>
    [...text.matchAll(re)].some((m) => {
      const digits = m[0].replace(/\D/g, "").length;
      return m[0].trim().startsWith("+") ? digits >= 7 && digits <= 15 : digits >= 9 && digits <= 13;
    }),
  );
}

/**
 * The same character 8 times or more in a row, but not Arabic laughter ("ههههههههه", as "hahaha")
 * nor tatweel, the stroke that stretches an Arabic word ("جميـــــــــل"), which no reader writes as spam.
 */
const REPEATED_CHARACTER = /([^\s\u0647\u0640])\1{7,}/u;

/** Zeros of the decimal digits of other scripts, each followed by its 1 to 9. */
const DIGIT_ZEROS = [0x0660, 0x06f0, 0x07c0, 0x0966, 0x09e6, 0x0a66, 0x0ae6, 0x0b66, 0x0be6, 0x0c66, 0x0ce6, 0x0d66];
const NATIVE_DIGIT = new RegExp(
  `[${DIGIT_ZEROS.map((z) => `\\u{${z.toString(16)}}-\\u{${(z + 9).toString(16)}}`).join("")}]`,
  "gu",
);

/** Digits of other scripts written as 0–9 ("٠٥٥٥" → "0555"). */
function asciiDigits(text: string): string {
  return text.replace(NATIVE_DIGIT, (c) => {
    const code = c.codePointAt(0)!;
    const zero = DIGIT_ZEROS.find((z) => code >= z && code <= z + 9)!;
    return String(code - zero);
  });
}

/** The reader's words (links and e-mail addresses left out), in each script, lower case. */
function ownWordsOf(text: string): string[] {
  const plain = undisguiseLinks(text).text.replace(ANY_LINK, " ").replace(EMAIL, " ");
  return readWords(plain).map((w) => w.word);
}

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

export type SpamAnalysis = {
  points: number;
  /** 0 to 100: 100 × points / (points + 1), one decimal. */
  spam: number;
  isSpam: boolean;
  reasons: string[];
};

const normaliseLink = (link: string) =>
  link
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/^www\./, "")
    .replace(/[/.,;:!?)]+$/, "");

/** Spam points, score, verdict and reasons. */
export function analyseSpam(input: Pick<ScorerInput, "text" | "links" | "reader">): SpamAnalysis {
  const { text, reader } = input;
  const reasons: string[] = [];
  let points = 0;
  const add = (p: number, reason: string) => {
    points += p;
    if (!reasons.includes(reason)) reasons.push(reason);
  };

  // Digits of other scripts (Arabic-Indic, Devanagari, Tamil…) read as 0–9, for phone numbers and sums.
  const digits = asciiDigits(text);
  const undisguised = undisguiseLinks(joinSpeltOut(foldText(digits, { keepCase: true })).text);
  const cased = undisguised.text;
  const lower = cased.toLowerCase();
  const textLinks = cased.match(ANY_LINK) ?? [];
  const links = [...new Map([...input.links, ...textLinks].map((link) => [normaliseLink(link), link])).values()];
  const withoutLinks = cased.replace(ANY_LINK, " ").replace(EMAIL, " ").toLowerCase();

  // The heuristics of plain text: phrases, many links, link-only, shorteners, floods, capitals.
  const phrases = SPAM_PHRASE_RES.filter((re) => re.test(lower)).length;
  if (phrases > 0) {
    add(SPAM_POINTS.phrase * phrases, "spam.phrase");
    if (links.length > 0) add(SPAM_POINTS.phraseWithLink, "spam.phrase_with_link");
  }
  if (links.length >= 5) add(SPAM_POINTS.tooManyLinks, "spam.many_links");
  else if (links.length >= 3) add(SPAM_POINTS.manyLinks, "spam.many_links");
  // The reader's own words, cut at each script's word boundaries with its vowel signs kept
  // (../rules/banned-words.ts readWords): folding Devanagari or Tamil drops the signs and makes "का", "की",
  // "के" and "को" one letter each.
  // Single characters are not words here: letters spelt out ("f r e e") are one word to the rules.
  const wordList = ownWordsOf(digits).filter((w) => [...w].length >= 2);
  const ownWords = wordList.length;
  if (links.length > 0 && ownWords <= 2) add(SPAM_POINTS.linkOnly, "spam.link_only");
  if (links.some((link) => SHORTENER.test(link))) add(SPAM_POINTS.shortener, "spam.shortener");
  if (links.length > 0 && reader.isNew) add(SPAM_POINTS.newReaderLink, "spam.new_reader_link");
  const repeated = REPEATED_CHARACTER.exec(text);
  if (repeated) {
    const flood = repeated[0].length >= 20 && repeated[0].length > text.replace(/\s/g, "").length / 2;
    add(flood ? SPAM_POINTS.flood : SPAM_POINTS.repeatedCharacters, "spam.repeated_characters");
  }
  const run = longestRun(wordList);
  const counts = new Map<string, number>();
  for (const w of wordList) if (w.length >= 3) counts.set(w, (counts.get(w) ?? 0) + 1);
  const dominant = wordList.length >= 10 && [...counts.values()].some((c) => c > wordList.length / 2);
  if (run >= 6) add(SPAM_POINTS.floodedWords, "spam.repeated_words");
  else if (run >= 4 || dominant) add(SPAM_POINTS.repeatedWords, "spam.repeated_words");
  const caps = capitals(text);
  if (caps.letters >= 15 && caps.upperShare >= 0.8) add(SPAM_POINTS.allCaps, "spam.all_caps");

  // Links that no reader writes in earnest.
  if (MARKUP_LINK.test(text)) add(SPAM_POINTS.markupLink, "spam.markup_link");
  if (undisguised.disguised) add(SPAM_POINTS.disguisedLink, "spam.disguised_link");

  // Offers, and what makes them reachable.
  const offers = new Set<OfferKind>();
  for (const [kind, res] of Object.entries(OFFERS) as [OfferKind, readonly RegExp[]][]) {
    const hits = res.reduce((n, re) => n + (re.test(withoutLinks) ? 1 : 0), 0);
    if (hits === 0) continue;
    offers.add(kind);
    if (kind === "earnings") add(SPAM_POINTS.earnings, "spam.earnings");
    if (kind === "promotion") add(SPAM_POINTS.promotion, "spam.promotion");
    if (kind === "loan") add(SPAM_POINTS.loan, "spam.loan");
    if (kind === "crypto") add(SPAM_POINTS.crypto, "spam.crypto");
    if (kind === "product") add(SPAM_POINTS.product, "spam.product");
  }
  const matched = (kind: OfferKind) =>
    new Set(OFFERS_GLOBAL[kind].flatMap((re) => [...withoutLinks.matchAll(re)].map((m) => m[0].replace(/\s+/g, " "))));
  if (offers.has("promotion") && matched("promotion").size >= 2) add(SPAM_POINTS.morePromotion, "spam.promotion");
  if (offers.has("crypto") && matched("crypto").size >= 2) add(SPAM_POINTS.moreCrypto, "spam.crypto");
  const offerPhrases = (["earnings", "promotion", "loan", "product"] as const).reduce(
    (n, kind) => n + matched(kind).size,
    0,
  );
  if (offerPhrases >= 3) add(SPAM_POINTS.manyOffers, "spam.many_offers");
  // "$PEPE", "$MOONX": a ticker written as crypto spam writes it.
  if (/(?<![\w$])\$[A-Z]{3,}\b/.test(cased) && !offers.has("crypto")) {
    offers.add("crypto");
    add(SPAM_POINTS.crypto, "spam.crypto");
  }

  if (LINK_IN_BIO.test(lower)) add(SPAM_POINTS.linkInBio, "spam.link_in_bio");
  if (CONTACT.test(cased.replace(EMAIL, " ")) || CONTACT.test(withoutLinks)) add(SPAM_POINTS.contact, "spam.contact");
  if (SELF_PROMOTION.test(withoutLinks)) {
    add(SPAM_POINTS.selfPromotion, "spam.self_promotion");
    if (links.length > 0) add(SPAM_POINTS.selfPromotionLink, "spam.self_promotion");
  }

  const otherSigns = points > 0;
  const phone = hasPhoneNumber(cased.replace(ANY_LINK, " "));
  if (phone) {
    add(SPAM_POINTS.phone, "spam.phone_number");
    if (otherSigns) add(SPAM_POINTS.phoneWithOffer, "spam.phone_number");
  }
  if ((cased.match(EMAIL) ?? []).length > 0) {
    add(SPAM_POINTS.email, "spam.email");
    if (otherSigns) add(SPAM_POINTS.emailWithOffer, "spam.email");
  }
  // Crypto words are a topic (readers discuss Bitcoin); earnings, promotions, loans and products are offers.
  const offered = [...offers].some((kind) => kind !== "crypto");
  if (links.length > 0 && offered) add(SPAM_POINTS.linkWithOffer, "spam.link_with_offer");
  const reachable = reasons.some((r) => /^spam\.(?:contact|phone_number|email|link_in_bio)$/.test(r));
  if (reachable && offered) add(SPAM_POINTS.reachWithOffer, "spam.reach_with_offer");
  // (A known phrase beside a link is counted above, as phrase_with_link.)
  if (links.length > 0 && phrases === 0 && CTA_LINK.test(lower)) add(SPAM_POINTS.ctaLink, "spam.cta_link");
  if (links.length > 0) {
    const stuffed = [...counts.entries()].some(([w, c]) => w.length >= 4 && c >= 3 && c > wordList.length / 8);
    if (stuffed) add(SPAM_POINTS.stuffing, "spam.stuffing");
  }
  if (points > 0 && MONEY_RE.test(withoutLinks)) add(SPAM_POINTS.money, "spam.money");
  if (points > 0 && PITCH_EMOJI.test(text)) add(SPAM_POINTS.pitchEmoji, "spam.pitch_emoji");

  points = Math.round(points * 100) / 100;
  return { points, spam: Math.round((1000 * points) / (points + 1)) / 10, isSpam: points >= 1, reasons };
}
