/**
 * An account's banned and suspect words (docs/engagement.md, "Moderation settings"): each word or
 * phrase is "reject" (the comment is refused, 400), "hold" (it waits for a moderator) or "flag" (a
 * suspect word: the comment is published, and waits in the moderators' Reported tab until one
 * decides). The dashboard edits each action's words as a pasted list, one per line.
 *
 * A word matches as a whole word or phrase, after the same normalisation of the text and of the
 * word: Unicode compatibility form (NFKC), accents removed, lower case, the usual leetspeak digits
 * and signs read as letters (0→o, 1→i, 3→e, 4→a, 5→s, 7→t, @→a, $→s), every run of one letter
 * reduced to one letter ("baaad" → "bad"), and anything that is not a letter or a digit read as a
 * space. So "Sp4mmy Brand" matches "spammy brand", and "cunt" does not match "Scunthorpe".
 */
type BannedWordAction = "reject" | "hold" | "flag";
export type BannedWord = { word: string; action: BannedWordAction };

const LEET = new Map(Object.entries({ "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", $: "s" }));

/** The form text and words are compared in; words that normalise to nothing cannot match. */
export function normaliseForBannedWords(text: string): string {
  const folded = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[013457@$]/g, (c) => LEET.get(c) ?? c)
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .replace(/(\p{L})\1+/gu, "$1")
    .trim();
  return folded ? ` ${folded} ` : "";
}

const STRICTNESS: Record<BannedWordAction, number> = { flag: 1, hold: 2, reject: 3 };

/** The strictest action among the listed words the text contains: "reject", "hold", "flag" or null. */
export function bannedWordAction(text: string, words: readonly BannedWord[]): BannedWordAction | null {
  if (words.length === 0) return null;
  const haystack = normaliseForBannedWords(text);
  let found: BannedWordAction | null = null;
  for (const { word, action } of words) {
    const needle = normaliseForBannedWords(word);
    if (!needle || !haystack.includes(needle)) continue;
    if (action === "reject") return "reject";
    if (found === null || STRICTNESS[action] > STRICTNESS[found]) found = action;
  }
  return found;
}
