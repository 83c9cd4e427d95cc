/**
 * The retention periods' arithmetic, pure (docs/privacy.md "Consent and retention"): a period of
 * N days keeps what is younger than N × 24 hours at the moment the job runs; what is exactly that
 * old or older goes. UTC throughout (instants, not calendar days: no time zone, no daylight saving).
 */
import {
  DEFAULT_PRIVACY_SETTINGS,
  ERASED_READER_COMMENTS,
  RETENTION_KINDS,
  type TErasedReaderComments,
  type TPrivacySettings,
  type TRetentionCounts,
} from "./privacy-settings.schema";

const DAY_MS = 86_400_000;

/** The instant before which rows of a `days`-day period are past it. */
export function cutoffOf(now: Date, days: number): Date {
  if (!Number.isInteger(days) || days < 1)
    throw new RangeError(`a retention period is a whole number of days ≥ 1, not ${days}`);
  return new Date(now.getTime() - days * DAY_MS);
}

/** Whether a row stamped `at` is past a `days`-day period at `now` (kept while strictly younger). */
export function isPastPeriod(at: Date, now: Date, days: number): boolean {
  return at.getTime() <= cutoffOf(now, days).getTime();
}

/** Delivery logs' period: the account's, but never longer than the deployment's own purge (WEBHOOK_RETENTION_DAYS). */
export function logPeriod(accountDays: number, deploymentDays: number): number {
  return Math.max(1, Math.min(accountDays, deploymentDays));
}

/** A stored row as settings (no row: the defaults; an unknown word: "keep", the safer one). */
export function settingsFrom(
  row: {
    ipRetentionDays: number;
    logRetentionDays: number;
    deletedCommentRetentionDays: number;
    erasedReaderComments: string;
  } | null,
): TPrivacySettings {
  if (!row) return { ...DEFAULT_PRIVACY_SETTINGS };
  const rule = (ERASED_READER_COMMENTS as readonly string[]).includes(row.erasedReaderComments)
    ? (row.erasedReaderComments as TErasedReaderComments)
    : "keep";
  return {
    ipRetentionDays: row.ipRetentionDays,
    logRetentionDays: row.logRetentionDays,
    deletedCommentRetentionDays: row.deletedCommentRetentionDays,
    erasedReaderComments: rule,
  };
}

export function zeroCounts(): TRetentionCounts {
  return Object.fromEntries(RETENTION_KINDS.map((k) => [k, 0])) as TRetentionCounts;
}

/** Two runs' counts added up (a run that went on after its batch limit). */
export function addCounts(a: TRetentionCounts, b: Partial<TRetentionCounts>): TRetentionCounts {
  const sum = zeroCounts();
  for (const kind of RETENTION_KINDS) sum[kind] = a[kind] + (b[kind] ?? 0);
  return sum;
}
