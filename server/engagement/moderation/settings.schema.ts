/**
 * An account's comment moderation settings, as the dashboard reads and changes them (owners and
 * moderators; docs/engagement.md, "Moderation"). zod only, so a form can import it. The service is
 * server/engagement/moderation/settings.ts.
 */
import { z } from "zod";

import { normaliseForBannedWords } from "./rules/banned-words";

const MODERATION_MODES = ["post_moderation", "pre_moderation"] as const;
const BANNED_WORD_ACTIONS = ["reject", "hold", "flag"] as const;
/**
 * What happens to a comment in a language the built-in scorer does not score (docs/moderation.md
 * "Languages"): held for a moderator, scored by the external scorer, or published unscored.
 */
const UNSCORED_LANGUAGE_POLICIES = ["pre_moderate", "external", "publish"] as const;
/** What a word of the shipped list of a comment's language does (language/shipped-words.ts). */
const LANGUAGE_WORD_LIST_ACTIONS = ["flag", "hold", "off"] as const;
export const BANNED_WORDS_MAX = 500;

/** What an account has until someone changes it. */
export const MODERATION_DEFAULTS = {
  mode: "post_moderation",
  toxicityThreshold: 70,
  bannedWords: [],
  holdLinksFromNewReaders: true,
  guestCommentsAllowed: false,
  confidentialCommentsAllowed: true,
  preModerateUntilApproved: 0,
  trustRejectionRate: 0,
  trustWindowDays: 30,
  trustMinDecisions: 5,
  repeatedPostWindowMinutes: 0,
  holdDisposableEmails: false,
  editWindowMinutes: 0,
  unscoredLanguages: "publish",
  languageWordLists: "flag",
} as const satisfies TModerationSettings;

const ZBannedWord = z.object({
  word: z
    .string()
    .trim()
    .min(1, "is required")
    .max(100, "must be at most 100 characters")
    .refine((word) => normaliseForBannedWords(word) !== "", "must contain a letter or a digit"),
  action: z.enum(BANNED_WORD_ACTIONS),
});

export type TBannedWord = z.output<typeof ZBannedWord>;

/** Banned words: each word once (compared as they are matched, so "Sp4m" and "spam" are one). */
export const ZBannedWords = z
  .array(ZBannedWord)
  .max(BANNED_WORDS_MAX, `at most ${BANNED_WORDS_MAX} words`)
  .superRefine((words, ctx) => {
    const seen = new Set<string>();
    words.forEach((w, index) => {
      const key = normaliseForBannedWords(w.word);
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: [index, "word"], message: "is listed twice" });
      seen.add(key);
    });
  });

export const ZModerationSettings = z.object({
  mode: z.enum(MODERATION_MODES),
  /** Comments scoring at least this (0 to 100) wait for a moderator. */
  toxicityThreshold: z.number().int("must be a whole number").min(1).max(100),
  bannedWords: ZBannedWords,
  /** Links wait when the reader has no trust: new, still pre-moderated, or untrusted (rules/rules.ts). */
  holdLinksFromNewReaders: z.boolean(),
  guestCommentsAllowed: z.boolean(),
  confidentialCommentsAllowed: z.boolean(),
  /** A reader's comments wait until this many of theirs are published (0: off). */
  preModerateUntilApproved: z.number().int("must be a whole number").min(0).max(100),
  /** Percent of a reader's decided comments rejected in the window at which they lose trust (0: off). */
  trustRejectionRate: z.number().int("must be a whole number").min(0).max(100),
  trustWindowDays: z.number().int("must be a whole number").min(1).max(365),
  trustMinDecisions: z.number().int("must be a whole number").min(1).max(1000),
  /** The same text by the same reader on another page within this many minutes is spam (0: off). */
  repeatedPostWindowMinutes: z.number().int("must be a whole number").min(0).max(10_080),
  holdDisposableEmails: z.boolean(),
  /** A reader may edit their comment for this many minutes after posting it (0: no limit; at most a week). */
  editWindowMinutes: z.number().int("must be a whole number").min(0).max(10_080),
  /** Comments in a language the built-in scorer does not read: "pre_moderate", "external" or "publish". */
  unscoredLanguages: z.enum(UNSCORED_LANGUAGE_POLICIES),
  /** A word of the shipped list of the comment's language: "flag" (Reported tab), "hold" or "off". */
  languageWordLists: z.enum(LANGUAGE_WORD_LIST_ACTIONS),
});
export type TModerationSettings = z.output<typeof ZModerationSettings>;

/** An update: any of the fields; the others keep their values. */
export const ZUpdateModerationSettingsInput = ZModerationSettings.partial().strict();
export type TUpdateModerationSettingsInput = z.output<typeof ZUpdateModerationSettingsInput>;

export const ZModerationSettingsView = ZModerationSettings.extend({ updatedAt: z.date().nullable() });
export type TModerationSettingsView = z.output<typeof ZModerationSettingsView>;

export const ZUpdateModerationSettingsResult = z.object({
  /** Names of the fields that changed (none: nothing was written). */
  changed: z.array(z.string()),
  settings: ZModerationSettingsView,
});

/**
 * The words of a pasted list: one word or phrase per line (commas and semicolons also separate),
 * trimmed, empty entries dropped, each once as the lists compare them (the first spelling kept).
 */
export function wordsOfPastedList(text: string): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const raw of text.split(/[\n\r,;]+/)) {
    const word = raw.trim().replace(/\s+/g, " ");
    if (!word) continue;
    const key = normaliseForBannedWords(word) || word;
    if (seen.has(key)) continue;
    seen.add(key);
    words.push(word);
  }
  return words;
}

/** The words of one action, as a pasted list shows them (one per line). */
export function pastedListOf(words: readonly TBannedWord[], action: TBannedWord["action"]): string {
  return words
    .filter((w) => w.action === action)
    .map((w) => w.word)
    .join("\n");
}

/** The first word found in two of the pasted lists (as the lists compare words), with both lists' names. */
export function wordInTwoLists(
  lists: readonly { name: string; text: string }[],
): { word: string; lists: [string, string] } | null {
  const seen = new Map<string, string>();
  for (const list of lists) {
    for (const word of wordsOfPastedList(list.text)) {
      const key = normaliseForBannedWords(word) || word;
      const first = seen.get(key);
      if (first !== undefined && first !== list.name) return { word, lists: [first, list.name] };
      seen.set(key, list.name);
    }
  }
  return null;
}
