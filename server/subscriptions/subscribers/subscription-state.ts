/**
 * The spec's subscription flags, derived from the stored status and timestamps (never stored
 * twice), and the one rule for "does this subscription grant access now". Pure: used by the wire
 * shape, the access decision and the dashboard alike.
 */
import type { DurationUnit, SubscriptionStatus } from "../../generated/prisma/enums";

export type SubscriptionTiming = {
  status: SubscriptionStatus;
  startTimestamp: Date;
  endTimestamp: Date | null;
  cancelledAt: Date | null;
  trialEndsAt: Date | null;
  graceEndsAt: Date | null;
  /** Awaiting a gateway's word on the ended period (grace_ends_at is then that instant): not in grace. */
  gatewayWordDueAt?: Date | null;
  recurring: boolean;
  deletedAt?: Date | null;
};

/** The fields a subscription's timing (SubscriptionTiming) is read from: a Prisma select. */
export const TIMING_FIELDS = {
  status: true,
  startTimestamp: true,
  endTimestamp: true,
  cancelledAt: true,
  trialEndsAt: true,
  graceEndsAt: true,
  recurring: true,
} as const;

/** ACTIVE and CANCELLED subscriptions grant access from their start until their end (or grace). */
export const ACCESS_GRANTING_STATUSES = ["ACTIVE", "CANCELLED"] as const satisfies readonly SubscriptionStatus[];

export function grantsAccess(s: SubscriptionTiming, now: Date): boolean {
  if (s.deletedAt) return false;
  if (!(ACCESS_GRANTING_STATUSES as readonly string[]).includes(s.status)) return false;
  if (s.startTimestamp.getTime() > now.getTime()) return false;
  if (s.endTimestamp === null) return true;
  if (now.getTime() < s.endTimestamp.getTime()) return true;
  return pastEndStillReading(s, now);
}

/**
 * Ended, and still reading until grace_ends_at: in its grace period (a renewal failed), or awaiting
 * the word of a gateway that charges periods itself (../recurring/lifecycle-steps.ts "await_gateway").
 */
function pastEndStillReading(s: SubscriptionTiming, now: Date): boolean {
  return (
    s.status === "ACTIVE" &&
    s.endTimestamp !== null &&
    s.graceEndsAt !== null &&
    s.endTimestamp.getTime() <= now.getTime() &&
    now.getTime() < s.graceEndsAt.getTime()
  );
}

/** In its grace period: a renewal failed (not merely awaiting the gateway's word), still reading. */
function inGracePeriod(s: SubscriptionTiming, now: Date): boolean {
  return pastEndStillReading(s, now) && !s.gatewayWordDueAt;
}

export function subscriptionFlags(s: SubscriptionTiming, now: Date) {
  const expired = s.endTimestamp !== null && s.endTimestamp.getTime() <= now.getTime() && !pastEndStillReading(s, now);
  const active = grantsAccess(s, now);
  return {
    active,
    expired,
    cancelled: s.cancelledAt !== null,
    in_grace_period: inGracePeriod(s, now),
    in_trial_period: active && s.trialEndsAt !== null && now.getTime() < s.trialEndsAt.getTime(),
    /** Spec §4.2 rule 3: subscriptions on recurring plans are not renewable. */
    renewable: !s.recurring && s.status !== "FAILED" && s.status !== "PENDING",
    /** Whole days left (0 once ended); null without an end. */
    expires_in_days:
      s.endTimestamp === null ? null : Math.max(0, Math.ceil((s.endTimestamp.getTime() - now.getTime()) / 86_400_000)),
  };
}

/** The Prisma filter of the subscriptions that may grant access at `now` (use with grantsAccess). */
export function accessGrantingWhere(now: Date) {
  return {
    deletedAt: null,
    status: { in: [...ACCESS_GRANTING_STATUSES] },
    startTimestamp: { lte: now },
    OR: [{ endTimestamp: null }, { endTimestamp: { gt: now } }, { graceEndsAt: { gt: now } }],
  };
}

/**
 * `start` moved by a plan duration, in UTC. Months and years keep the day of the month where it
 * exists and clamp to the month's last day otherwise (31 January + 1 month = 28/29 February).
 * Lifetime has no end: null.
 */
export function addDuration(start: Date, length: number, unit: DurationUnit): Date | null {
  const d = new Date(start.getTime());
  switch (unit) {
    case "LIFETIME":
      return null;
    case "DAYS":
      return new Date(d.getTime() + length * 86_400_000);
    case "WEEKS":
      return new Date(d.getTime() + length * 7 * 86_400_000);
    case "MONTHS":
    case "YEARS": {
      const months = unit === "MONTHS" ? length : length * 12;
      const day = d.getUTCDate();
      d.setUTCDate(1);
      d.setUTCMonth(d.getUTCMonth() + months);
      const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
      d.setUTCDate(Math.min(day, last));
      return d;
    }
  }
}

/** What a cumulative end of no end is written as (a subscription with no end grants access for ever). */
export const NO_END = new Date("9999-12-31T23:59:59.999Z");

/**
 * The Subscriber's cumulative end (spec §2.2 cumulative_end_timestamps) over `rows` of one kind:
 * null when none grants access now; otherwise the end of the unbroken run of access that covers
 * now, following subscriptions that start before (or when) the run ends, such as a renewal that
 * starts when the current one ends. A run with no end gives NO_END (9999-12-31T23:59:59.999Z), so
 * "cumulative end > now" stays a correct access test.
 */
export function cumulativeEnd(rows: readonly SubscriptionTiming[], now: Date): Date | null {
  const live = rows.filter((r) => !r.deletedAt && (ACCESS_GRANTING_STATUSES as readonly string[]).includes(r.status));
  const granting = live.filter((r) => grantsAccess(r, now));
  if (!granting.length) return null;
  const endOf = (r: SubscriptionTiming) =>
    r.endTimestamp === null ? NO_END : pastEndStillReading(r, now) && r.graceEndsAt ? r.graceEndsAt : r.endTimestamp;
  let end = Math.max(...granting.map((r) => endOf(r).getTime()));
  const later = live
    .filter((r) => !granting.includes(r))
    .sort((a, b) => a.startTimestamp.getTime() - b.startTimestamp.getTime());
  for (const r of later) {
    if (end === NO_END.getTime()) break;
    if (r.startTimestamp.getTime() <= end) end = Math.max(end, endOf(r).getTime());
  }
  return new Date(end);
}

/** Which cumulative a subscription counts in: campaign ones apart, pay-per-asset in neither. */
export function cumulativeKind(subscriptionType: string): "standard" | "campaign" | null {
  const type = subscriptionType.toUpperCase();
  if (type === "CAMPAIGN") return "campaign";
  if (type === "DYNAMIC_ASSET") return null;
  return "standard";
}
