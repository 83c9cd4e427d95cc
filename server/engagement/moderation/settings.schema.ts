/**
 * An account's comment moderation settings, as the dashboard reads and changes them (owners and
 * moderators; docs/engagement.md, "Moderation"). zod only, so a form can import it. The service is
 * server/engagement/moderation/settings.ts.
 */
import { z } from "zod";

import { normaliseForBannedWords } from "./banned-words";

export const MODERATION_MODES = ["post_moderation", "pre_moderation"] as const;
export const BANNED_WORD_ACTIONS = ["reject", "hold"] as const;
export const BANNED_WORDS_MAX = 500;

/** What an account has until someone changes it. */
export const MODERATION_DEFAULTS = {
  mode: "post_moderation",
  toxicityThreshold: 70,
  bannedWords: [],
  holdLinksFromNewReaders: true,
  guestCommentsAllowed: false,
  confidentialCommentsAllowed: true,
} as const satisfies TModerationSettings;

export const ZBannedWord = z.object({
  word: z
    .string()
    .trim()
    .min(1, "is required")
    .max(100, "must be at most 100 characters")
    .refine((word) => normaliseForBannedWords(word) !== "", "must contain a letter or a digit"),
  action: z.enum(BANNED_WORD_ACTIONS),
});

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
  holdLinksFromNewReaders: z.boolean(),
  guestCommentsAllowed: z.boolean(),
  confidentialCommentsAllowed: z.boolean(),
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
