/**
 * The terms the adaptive layer counts (adaptive.ts): a comment's words and pairs of neighbouring
 * words, as the lexicon scorer reads them (../lexicon/text-normalise.ts: folded, disguises undone,
 * contractions expanded), so "f*cking" and "fucking", "You're" and "you are" are one term.
 *
 * - unigrams: every word but a few function words ("the", "a", "of"…), which say nothing about a
 *   comment and would only dilute the evidence;
 * - bigrams: two words next to each other in one sentence with no punctuation between them
 *   ("you idiot", "link below"), function words included (they carry "you" at someone).
 *
 * Each term once, in the order first met, at most MAX_TERMS (a 10,000-character comment has a few
 * thousand): the same function counts a decided comment and reads a new one, so both see the same
 * terms. Pure.
 */
import { normalise } from "../lexicon/text-normalise";

/** At most this many distinct terms per comment (the first met). */
export const MAX_TERMS = 300;
/** Longer words are not terms (a URL's path, a run of letters): too rare to learn from. */
const MAX_WORD_LENGTH = 40;

/** Words too common to count on their own (they still make bigrams). */
const STOP_WORDS: ReadonlySet<string> = new Set(
  `a an the and or but of to in on at by for from with as is are was were be been it its this that
  these those i me my we our he him his she her they them their there here so if then than do does
  did has have had not no yes`.split(/\s+/),
);

/** The distinct unigrams and bigrams of `text`, first met first, at most MAX_TERMS. */
export function termsOf(text: string): string[] {
  const terms = new Set<string>();
  const add = (term: string) => {
    if (terms.size < MAX_TERMS) terms.add(term);
  };
  let previous: { word: string; sentence: number } | null = null;
  for (const token of normalise(text).tokens) {
    if (terms.size >= MAX_TERMS) break;
    if (token.punct) {
      previous = null;
      continue;
    }
    // A contraction is two words in one token ("you are").
    for (const word of token.text.split(" ")) {
      if (!word || word.length > MAX_WORD_LENGTH || !/[\p{L}\p{N}]/u.test(word)) {
        previous = null;
        continue;
      }
      if (!STOP_WORDS.has(word)) add(word);
      if (previous && previous.sentence === token.sentence) add(`${previous.word} ${word}`);
      previous = { word, sentence: token.sentence };
    }
  }
  return [...terms];
}
