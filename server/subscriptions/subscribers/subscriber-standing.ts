/**
 * Where a reader stands as a subscriber, in one word for revenue staff's list (pure; derived from
 * the subscriptions' stored status and timestamps by subscription-state.ts, never stored):
 *
 * - `active`: a subscription grants access now and renews or runs to its end;
 * - `grace`: access continues in a grace period after a charge failed at the end;
 * - `trial`: the only access is a trial;
 * - `paused`: a subscription is paused (../recurring/pauses.ts), stored cancelled or expired until it resumes;
 * - `cancelling`: cancelled, with access until the period ends;
 * - `lapsed`: subscribed before, no access now;
 * - `none`: never subscribed (a member who only comments or reads), or only failed checkouts.
 *
 * When several subscriptions say different things, the first of that order wins.
 */
import { SUBSCRIBER_STANDINGS, type TSubscriberStanding } from "./subscribers.schema";
import { subscriptionFlags, TIMING_FIELDS, type SubscriptionTiming } from "./subscription-state";

/** The statuses of a subscription a reader took (a failed or unconfirmed checkout is none). */
export const SUBSCRIBED_STATUSES = ["ACTIVE", "CANCELLED", "EXPIRED"] as const;

/** The subscription fields a standing is read from (a Prisma select). */
const STANDING_FIELDS = { id: true, ...TIMING_FIELDS, gatewayWordDueAt: true } as const;

/** A member's subscriptions (not deleted) as their standing is read from them (a Prisma relation select). */
export const STANDING_SUBSCRIPTIONS = { where: { deletedAt: null }, select: STANDING_FIELDS } as const;

/** `paused`: which of the subscriptions (by id) are paused now (pausedUntilOf in ../recurring/pauses.ts). */
export function subscriberStanding(
  subscriptions: readonly (SubscriptionTiming & { id?: number })[],
  now: Date,
  paused: { has(id: number): boolean } = new Set<number>(),
): TSubscriberStanding {
  const taken = subscriptions.filter((s) => (SUBSCRIBED_STATUSES as readonly string[]).includes(s.status));
  const standings = new Set<TSubscriberStanding>(
    taken.map((s) => {
      if (s.id !== undefined && paused.has(s.id)) return "paused";
      const flags = subscriptionFlags(s, now);
      if (!flags.active) return "lapsed";
      if (flags.in_grace_period) return "grace";
      if (flags.in_trial_period) return "trial";
      return s.status === "CANCELLED" || flags.cancelled ? "cancelling" : "active";
    }),
  );
  return SUBSCRIBER_STANDINGS.find((standing) => standings.has(standing)) ?? "none";
}
