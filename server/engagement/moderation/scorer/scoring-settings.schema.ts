/**
 * How an account's comments are scored, as the dashboard's Scoring page reads and changes it
 * (docs/engagement.md "Scoring: adaptive layer, shadow mode, external scorer"). zod only, so a
 * form can import it. The service is scoring-settings.ts; the figures are shadow.ts's.
 */
import { z } from "zod";

/** A scoring configuration: the layers over the base scorer and the threshold it holds at. */
const ZScoringConfig = z.object({
  /** The adaptive layer (adaptive.ts) adjusts toxicity and spam. */
  adaptive: z.boolean(),
  /** The external scorer (MODERATION_SCORER_URL) scores instead of the built-in one. */
  externalScorer: z.boolean(),
  /** Comments scoring at least this (1 to 100) wait for a moderator. */
  toxicityThreshold: z.number().int("must be a whole number").min(1).max(100),
});
export type TScoringConfig = z.output<typeof ZScoringConfig>;

/** The live layers (the live threshold is the moderation settings' toxicityThreshold). */
export const ZUpdateLiveScoringInput = ZScoringConfig.omit({ toxicityThreshold: true }).partial().strict();
export type TUpdateLiveScoringInput = z.output<typeof ZUpdateLiveScoringInput>;

/** A shadow configuration to try. */
export const ZSetShadowInput = ZScoringConfig.strict();
export type TSetShadowInput = z.output<typeof ZSetShadowInput>;

const ZScoringSettingsView = z.object({
  live: ZScoringConfig,
  /** The configuration being tried in shadow, and since when; null: none. */
  shadow: ZScoringConfig.extend({ since: z.date() }).nullable(),
  /** The external scorer's host when the operator configured one (MODERATION_SCORER_URL), else null. */
  externalScorerHost: z.string().nullable(),
  updatedAt: z.date().nullable(),
});
export type TScoringSettingsView = z.output<typeof ZScoringSettingsView>;

export const ZUpdateScoringResult = z.object({
  /** Names of what changed (none: nothing was written). */
  changed: z.array(z.string()),
  settings: ZScoringSettingsView,
});
export type TUpdateScoringResult = z.output<typeof ZUpdateScoringResult>;

/** How one configuration's holds agreed with the moderators (shadow.ts agreementOf). */
const ZAgreement = z.object({
  /** Comments it would hold. */
  held: z.number().int(),
  /** Of those, rejected or marked spam by moderators. */
  heldRejected: z.number().int(),
  /** Of those, approved (or counted so: published, never reviewed, older than a day, not reported). */
  heldApproved: z.number().int(),
  /** Comments it would publish that moderators rejected or marked spam. */
  missed: z.number().int(),
  /** Share of its holds that moderators rejected (null: it held nothing judged). */
  precision: z.number().nullable(),
  /** Share of the moderators' rejections it would hold (null: they rejected nothing). */
  recall: z.number().nullable(),
});
export type TAgreement = z.output<typeof ZAgreement>;

export const ZScoringOverview = z.object({
  settings: ZScoringSettingsView,
  adaptive: z.object({
    /** The decisions the layer has counted, by outcome. */
    decisions: z.object({ approved: z.number().int(), rejected: z.number().int(), spam: z.number().int() }),
    /** Whether it has enough to act (adaptive.ts ADAPTIVE). */
    active: z.boolean(),
    minDecisions: z.number().int(),
    minPerOutcome: z.number().int(),
  }),
  /** The shadow's figures: null while no shadow configuration is set. */
  figures: z
    .object({
      /** The comments compared: created in the window (the last `days` days, and since the shadow was set). */
      from: z.date(),
      days: z.number().int(),
      /** Comments the shadow decided in the window. */
      compared: z.number().int(),
      /** Of those, judged: moderators decided them, or counted as approved. */
      judged: z.number().int(),
      rejected: z.number().int(),
      approved: z.number().int(),
      /** Of the approved, those nobody reviewed (published, older than a day, never reported). */
      approvedUnreviewed: z.number().int(),
      /** Left out: undecided, held or newer than a day, reported, or deleted without a decision. */
      undecided: z.number().int(),
      /** Comments the shadow and the live configuration decided differently (held or not). */
      disagreements: z.number().int(),
      live: ZAgreement,
      shadow: ZAgreement,
    })
    .nullable(),
});
export type TScoringOverview = z.output<typeof ZScoringOverview>;
