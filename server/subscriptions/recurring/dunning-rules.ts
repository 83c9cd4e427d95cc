/**
 * Dunning's pure rules (docs/subscriptions.md "Dunning"): a plan's retry schedule and grace
 * length, and when the next retry of a failed recurring charge is due. No IO: ./dunning.ts and
 * the lifecycle (./lifecycle.ts) apply them, the unit tests pin them.
 *
 * Vocabulary: an *episode* begins when a recurring period goes unpaid (its charge failed, or
 * nobody charged it by its end) and ends *recovered* (a charge of that period succeeded) or *lost*
 * (the grace period ran out). Retry N is due `retryDays[N-1]` whole days after the episode began,
 * and only before the grace period ends.
 */
import { DEFAULT_GRACE_PERIOD_DAYS, MAX_CHARGE_RETRIES, MAX_GRACE_PERIOD_DAYS } from "../catalogue/catalogue.schema";

const DAY_MS = 86_400_000;

type DunningSettings = {
  /** Days after the failure to retry, increasing; [] never retries. */
  retryDays: number[];
  /** How long the subscription keeps access after its unpaid period's end. */
  graceDays: number;
};

/** No plan (pay per asset, or a plan since deleted): what every subscription had before dunning was a setting. */
export const DEFAULT_DUNNING: DunningSettings = { retryDays: [], graceDays: DEFAULT_GRACE_PERIOD_DAYS };

/**
 * A stored retry schedule (JSON) as whole days: increasing, each once, between 1 and the longest
 * grace period, at most MAX_CHARGE_RETRIES. Whatever else a row holds is dropped, not trusted.
 */
export function chargeRetryDaysOf(stored: unknown): number[] {
  if (!Array.isArray(stored)) return [];
  const days = stored.filter(
    (d): d is number => typeof d === "number" && Number.isInteger(d) && d >= 1 && d <= MAX_GRACE_PERIOD_DAYS,
  );
  return [...new Set(days)].sort((a, b) => a - b).slice(0, MAX_CHARGE_RETRIES);
}

/** A plan's dunning settings (DEFAULT_DUNNING without a plan). */
export function dunningSettingsOf(plan: { chargeRetryDays: unknown; gracePeriodDays: number } | null): DunningSettings {
  if (!plan) return DEFAULT_DUNNING;
  const graceDays = Math.max(0, Math.min(MAX_GRACE_PERIOD_DAYS, Math.trunc(plan.gracePeriodDays)));
  return { retryDays: chargeRetryDaysOf(plan.chargeRetryDays), graceDays };
}

/** When the grace period of a period paid through `paidThrough` ends. */
export function graceEndOf(paidThrough: Date, graceDays: number): Date {
  return new Date(paidThrough.getTime() + graceDays * DAY_MS);
}

/**
 * When retry number `retriesDone + 1` of an episode that began at `startedAt` is due, or null when
 * the schedule has no more retries or the next one would come at or after the grace period's end.
 */
export function nextChargeRetryAt(args: {
  startedAt: Date;
  retryDays: readonly number[];
  retriesDone: number;
  graceEndsAt: Date;
}): Date | null {
  const days = args.retryDays[args.retriesDone];
  if (days === undefined) return null;
  const at = new Date(args.startedAt.getTime() + days * DAY_MS);
  return at.getTime() < args.graceEndsAt.getTime() ? at : null;
}

/** Every retry the schedule still holds for an episode, in order (for the "update your card" mail). */
export function remainingChargeRetries(args: {
  startedAt: Date;
  retryDays: readonly number[];
  retriesDone: number;
  graceEndsAt: Date;
}): Date[] {
  const out: Date[] = [];
  for (let n = args.retriesDone; ; n++) {
    const at = nextChargeRetryAt({ ...args, retriesDone: n });
    if (!at) return out;
    out.push(at);
  }
}
