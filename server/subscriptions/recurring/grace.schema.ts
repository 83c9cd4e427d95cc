/**
 * The one rule for what a reader is told about a subscription in its grace period (a recurring
 * charge failed; docs/subscriptions.md "Dunning"): it is not ended, the reader keeps reading until
 * `grace_ends_at`, and the card can be updated. The self-service card, the paywall's banner and the
 * "update your card" e-mail all say it with these words (each in its own time format and zone).
 * Pure: the browser's banner imports it too.
 */

/** The fields of a subscription (its wire, or the SDK's) the rule reads. */
type GraceFacts = {
  in_grace_period?: boolean | null;
  grace_ends_at?: string | null;
  active?: boolean | null;
};

/** In grace (a failed charge, still reading): `until`, when access ends (ISO; null: not known); null: not in grace. */
export function graceAccessEnd(s: GraceFacts): { until: string | null } | null {
  if (s.in_grace_period !== true || s.active === false) return null;
  return { until: typeof s.grace_ends_at === "string" && s.grace_ends_at !== "" ? s.grace_ends_at : null };
}

/** "You can keep reading until <time>." (`time` formats the ISO instant in the caller's one format). */
export function keepReadingWords(until: string | null, time: (iso: string) => string): string {
  return until === null ? "You can keep reading for now." : `You can keep reading until ${time(until)}.`;
}
