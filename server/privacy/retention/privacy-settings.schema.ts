/**
 * Settings → Privacy (docs/privacy.md "Consent and retention"): how long an account keeps IP
 * addresses, delivery logs and deleted comments, and what erasure does with an erased reader's
 * comments. Shared by the service, the router and the dashboard's form.
 */
import { z } from "zod";

/** Bounds of every period: a day to ten years. */
export const RETENTION_DAYS_MIN = 1;
export const RETENTION_DAYS_MAX = 3650;

const days = (what: string) =>
  z
    .number({ error: `Give the days ${what} are kept, as a whole number.` })
    .int(`Give the days ${what} are kept, as a whole number.`)
    .min(RETENTION_DAYS_MIN, `Keep ${what} at least ${RETENTION_DAYS_MIN} day.`)
    .max(RETENTION_DAYS_MAX, `Keep ${what} at most ${RETENTION_DAYS_MAX} days (ten years).`);

export const ERASED_READER_COMMENTS = ["keep", "remove"] as const;
export const ZErasedReaderComments = z.enum(ERASED_READER_COMMENTS);
export type TErasedReaderComments = z.infer<typeof ZErasedReaderComments>;

export const ZPrivacySettingsInput = z
  .object({
    ipRetentionDays: days("IP addresses"),
    logRetentionDays: days("delivery logs"),
    deletedCommentRetentionDays: days("deleted comments"),
    erasedReaderComments: ZErasedReaderComments,
  })
  .strict();
export type TPrivacySettingsInput = z.infer<typeof ZPrivacySettingsInput>;
export type TPrivacySettings = TPrivacySettingsInput;

/** The defaults, when an account has saved none. */
export const DEFAULT_PRIVACY_SETTINGS: TPrivacySettings = {
  ipRetentionDays: 30,
  logRetentionDays: 90,
  deletedCommentRetentionDays: 30,
  erasedReaderComments: "keep",
};

/** What the retention job removes, by kind (counts of rows; IP addresses: rows whose address was cleared). */
export const RETENTION_KINDS = [
  "auditIps",
  "sessionIps",
  "webhookEvents",
  "mails",
  "gatewayEvents",
  "jobs",
  "deletedComments",
] as const;
export type TRetentionKind = (typeof RETENTION_KINDS)[number];
export const ZRetentionCounts = z.object(
  Object.fromEntries(RETENTION_KINDS.map((k) => [k, z.number().int().min(0)])) as Record<TRetentionKind, z.ZodNumber>,
);
export type TRetentionCounts = z.infer<typeof ZRetentionCounts>;

export const ZPrivacySettingsView = z.object({
  settings: ZPrivacySettingsInput,
  /** Whether the account saved its own (false: the defaults apply). */
  saved: z.boolean(),
  defaults: ZPrivacySettingsInput,
  lastRun: z
    .object({ startedAt: z.date(), finishedAt: z.date(), complete: z.boolean(), removed: ZRetentionCounts })
    .nullable(),
});
export type TPrivacySettingsView = z.infer<typeof ZPrivacySettingsView>;
