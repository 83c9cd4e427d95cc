/**
 * The subscriptions of a subscriber after checkout (spec §3 Subscription, §4.2, §4.3, §8
 * extend_to; docs/subscriptions.md "Subscriptions of a subscriber"): list, metadata, cancel,
 * extend, and the plans a subscription may switch to. The server API, the client API and the
 * dashboard call these; none of it speaks HTTP.
 *
 * - Scope: every call names the account, and the reader (`memberId`) for the APIs; a subscription
 *   of another reader or account is NOT_FOUND, never FORBIDDEN (its existence does not leak).
 * - Writes run in one transaction that first locks the subscription row (SELECT … FOR UPDATE), so
 *   a concurrent cancel and extend cannot interleave: the second one sees the first one's result.
 * - Cancel is "cancel at period end": status cancelled, cancelled_at now, access until the end
 *   (subscription-state.ts). Cancelling twice changes nothing. A pending subscription (its payment
 *   never confirmed) cancelled ends at once: it never grants access.
 * - Cancel and extend write an audit row `subscription.cancel` / `subscription.extend` naming who
 *   acted (a staff user, or the system actor "server_api" / "client_api"), which is the timeline
 *   the dashboard shows; cancel also emits the `subscription.cancelled` webhook event.
 */
import "server-only";

import { nullPrototypeRecord, ownValue } from "@/server/own-keys";

import { recordAudit } from "../../audit/audit-log";
import { systemActor, type Actor } from "../../auth/actor";
import { dayInZone, formatInstant, zonedDayEnd } from "../../dates.schema";
import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Prisma, Subscription } from "../../generated/prisma/client";
import { billedElsewhere, hearingFrom } from "../payments/billing-source";
import { GATEWAY_TX_TIMEOUT_MS, tellGateway } from "../recurring/gateway-sync";
import { scheduleSubscriptionLifecycle } from "../recurring/lifecycle";
import type { TExtendTo, TSubscriptionMetadata } from "./subscription-actions.schema";
import { accessGrantingWhere, grantsAccess } from "./subscription-state";
import {
  emitSubscriptionEvent,
  loadSubscriptionsWire,
  loadSubscriptionWire,
  notFoundSubscription,
  type TSubscriptionWire,
} from "./subscription-view";

/** Who acts on a subscription: a reader of the client API, the publisher's back end, or staff. */
type SubscriptionCaller =
  | { via: "client_api"; memberId: number }
  | { via: "server_api"; memberId: number }
  | { via: "dashboard"; actor: Actor };

function actorOf(accountId: number, caller: SubscriptionCaller): Actor {
  return caller.via === "dashboard" ? caller.actor : systemActor(accountId, caller.via);
}

/** Another reader's subscription is not found; staff see every subscription of their account. */
function memberScope(caller: SubscriptionCaller): number | null {
  return caller.via === "dashboard" ? null : caller.memberId;
}

// ─── Lists ───────────────────────────────────────────────────────────────────────────────────

/**
 * A subscriber's subscriptions in the wire shape, newest first. `activeOnly`: only those granting
 * access now (the `active` flag: started, not ended or in grace, not pending or failed).
 * Soft-deleted subscriptions are never listed.
 */
export async function listSubscriberSubscriptions(
  db: Db,
  args: { accountId: number; memberId: number; activeOnly: boolean; now: Date },
): Promise<TSubscriptionWire[]> {
  const where: Prisma.SubscriptionWhereInput = args.activeOnly
    ? { memberId: args.memberId, ...accessGrantingWhere(args.now) }
    : { memberId: args.memberId, deletedAt: null };
  const list = await loadSubscriptionsWire(db, { accountId: args.accountId, where, now: args.now });
  return args.activeOnly ? list.filter((s) => s.active) : list;
}

/** The subscriptions a reader gave as gifts (gifter = the reader), newest first. */
export async function listGiftedSubscriptions(
  db: Db,
  args: { accountId: number; gifterMemberId: number; now: Date },
): Promise<TSubscriptionWire[]> {
  return loadSubscriptionsWire(db, {
    accountId: args.accountId,
    where: { gifterMemberId: args.gifterMemberId, deletedAt: null },
    now: args.now,
  });
}

/** One subscription of the reader (or, for staff, of the account) in the wire shape; 404 otherwise. */
export async function getSubscription(
  db: Db,
  args: { accountId: number; caller: SubscriptionCaller; id: number; now: Date },
): Promise<TSubscriptionWire> {
  const memberId = memberScope(args.caller);
  const [wire] = await loadSubscriptionsWire(db, {
    accountId: args.accountId,
    where: { id: args.id, deletedAt: null, ...(memberId === null ? {} : { memberId }) },
    now: args.now,
  });
  if (!wire) throw notFoundSubscription();
  return wire;
}

// ─── The row lock ────────────────────────────────────────────────────────────────────────────

/**
 * Lock one subscription of the account (and of the reader, unless staff) for the rest of the
 * transaction, and read it. Not found (or another's, or deleted): 404.
 */
async function lockSubscription(tx: TransactionClient, accountId: number, caller: SubscriptionCaller, id: number) {
  const memberId = memberScope(caller);
  const locked = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM subscriptions
    WHERE id = ${id} AND account_id = ${accountId} AND deleted_at IS NULL
    FOR UPDATE`;
  if (!locked.length) throw notFoundSubscription();
  const row = await tx.subscription.findUniqueOrThrow({ where: { id } });
  if (memberId !== null && row.memberId !== memberId) throw notFoundSubscription();
  return row;
}

// ─── Metadata ────────────────────────────────────────────────────────────────────────────────

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Merge: each key sent replaces that key, keys not sent are kept, a key sent as null is removed.
 * The result keeps the limits of one metadata object (50 keys, 8 kB), else 422.
 */
function mergeSubscriptionMetadata(stored: unknown, patch: TSubscriptionMetadata): Prisma.InputJsonObject {
  const merged = nullPrototypeRecord(Object.entries(isObject(stored) ? stored : {}));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  if (Object.keys(merged).length > 50 || Buffer.byteLength(JSON.stringify(merged)) > 8_192) {
    throw new AppError("UNPROCESSABLE", "The subscription's metadata would be too large once merged.", {
      details: [{ field: "metadata", issue: "at most 50 keys and 8 kB as JSON after merging" }],
    });
  }
  return merged as Prisma.InputJsonObject;
}

/**
 * Merge `metadata` into one subscription's metadata (and set `notes` when given: a string, or
 * null to clear). Answers the subscription.
 */
export async function updateSubscriptionMetadata(
  db: Db,
  args: {
    accountId: number;
    caller: SubscriptionCaller;
    id: number;
    metadata: TSubscriptionMetadata;
    notes?: string | null;
    now: Date;
  },
): Promise<TSubscriptionWire> {
  return withTransaction(db, async (tx) => {
    const row = await lockSubscription(tx, args.accountId, args.caller, args.id);
    await tx.subscription.update({
      where: { id: row.id },
      data: {
        metadata: mergeSubscriptionMetadata(row.metadata, args.metadata),
        ...(args.notes !== undefined ? { notes: args.notes } : {}),
      },
    });
    return (await loadSubscriptionWire(tx, { accountId: args.accountId, id: row.id, now: args.now }))!;
  });
}

/**
 * Merge `metadata` into every subscription of the subscriber that grants access now (spec: "updates
 * all active subscriptions"), each locked. Answers the subscriptions changed (maybe none).
 */
export async function updateActiveSubscriptionsMetadata(
  db: Db,
  args: { accountId: number; memberId: number; metadata: TSubscriptionMetadata; now: Date },
): Promise<TSubscriptionWire[]> {
  return withTransaction(db, async (tx) => {
    const candidates = await tx.subscription.findMany({
      where: { accountId: args.accountId, memberId: args.memberId, ...accessGrantingWhere(args.now) },
      select: { id: true },
      orderBy: { id: "asc" },
    });
    const ids: number[] = [];
    for (const { id } of candidates) {
      const row = await lockSubscription(tx, args.accountId, { via: "server_api", memberId: args.memberId }, id);
      if (!grantsAccess(row, args.now)) continue;
      await tx.subscription.update({
        where: { id },
        data: { metadata: mergeSubscriptionMetadata(row.metadata, args.metadata) },
      });
      ids.push(id);
    }
    if (!ids.length) return [];
    return loadSubscriptionsWire(tx, { accountId: args.accountId, where: { id: { in: ids } }, now: args.now });
  });
}

// ─── Cancel ──────────────────────────────────────────────────────────────────────────────────

/**
 * Cancel at period end: status cancelled, cancelled_at now, no next payment; access continues
 * until end_timestamp. Already cancelled: nothing changes (the same answer). Pending (never paid):
 * cancelled and ended now, so it never grants access. Failed: 422 (there is nothing to cancel).
 */
export async function cancelSubscription(
  db: Db,
  args: {
    accountId: number;
    caller: SubscriptionCaller;
    id: number;
    now: Date;
    /** The reader's reason (the self-service page), sent in the webhook as `cancellation`. */
    cancellation?: { reason: string; comment: string | null };
  },
): Promise<TSubscriptionWire> {
  return withTransaction(
    db,
    async (tx) => {
      const row = await lockSubscription(tx, args.accountId, args.caller, args.id);
      if (row.status !== "CANCELLED") {
        if (row.status === "FAILED") {
          throw new AppError("UNPROCESSABLE", "A failed subscription cannot be cancelled: it grants nothing.", {
            details: [{ field: "subscription", issue: "has failed" }],
          });
        }
        if (row.status === "EXPIRED") {
          throw new AppError("UNPROCESSABLE", "An expired subscription cannot be cancelled: it has ended.", {
            details: [{ field: "subscription", issue: "has expired" }],
          });
        }
        const endsNow = row.status === "PENDING" && (row.endTimestamp === null || row.endTimestamp > args.now);
        // The gateway that charges it stops first (../recurring/gateway-sync.ts): refused or unreachable, nothing changes.
        await tellGateway(tx, row, row.status === "PENDING" ? "cancel_now" : "cancel_at_period_end", {
          now: args.now,
        });
        await markCancelled(tx, row, {
          actor: actorOf(args.accountId, args.caller),
          via: args.caller.via,
          endsNow,
          now: args.now,
          cancellation: args.cancellation,
        });
      }
      return (await loadSubscriptionWire(tx, { accountId: args.accountId, id: row.id, now: args.now }))!;
    },
    { timeout: GATEWAY_TX_TIMEOUT_MS },
  );
}

/**
 * The cancel itself, on a locked live or pending subscription: status cancelled, no next payment,
 * the end moved to now (`endsNow`: never paid) or the trial's end (cancelled in its trial: nothing
 * was paid for the period after it); the audit row and the `subscription.cancelled` event. The
 * gateway's own cancel (../payments/gateway-subscription-events.ts) records the same, via "gateway".
 */
export async function markCancelled(
  tx: TransactionClient,
  row: Subscription,
  args: {
    actor: Actor;
    via: string;
    endsNow: boolean;
    now: Date;
    cancellation?: { reason: string; comment: string | null };
  },
) {
  // Cancelled in its trial: nothing was paid for the period after it, so access ends with the trial.
  const inTrial = !args.endsNow && row.trialEndsAt !== null && row.trialEndsAt > args.now;
  const endsAt = args.endsNow ? args.now : inTrial ? row.trialEndsAt : row.endTimestamp;
  await tx.subscription.update({
    where: { id: row.id },
    data: {
      status: "CANCELLED",
      cancelledAt: args.now,
      nextPaymentDueDate: null,
      ...(endsAt !== row.endTimestamp ? { endTimestamp: endsAt } : {}),
    },
  });
  await recordAudit(tx, {
    actor: args.actor,
    action: "subscription.cancel",
    targetType: "subscription",
    targetId: row.id,
    metadata: {
      via: args.via,
      from_status: row.status.toLowerCase(),
      end_timestamp: endsAt?.toISOString() ?? null,
      ...(args.cancellation ? { reason: args.cancellation.reason, comment: args.cancellation.comment } : {}),
    },
    now: args.now,
  });
  await emitSubscriptionEvent(tx, {
    accountId: row.accountId,
    name: "subscription.cancelled",
    subscriptionId: row.id,
    occurredAt: args.now,
    ...(args.cancellation ? { extra: { cancellation: args.cancellation } } : {}),
  });
}

// ─── Extend ──────────────────────────────────────────────────────────────────────────────────

const extendRefused = (message: string, issue: string, field = "extend_to") =>
  new AppError("UNPROCESSABLE", message, { details: [{ field, issue }] });

/**
 * The end a YYYY-MM-DD `extend_to` gives: the last millisecond of that day on `zone`'s clocks
 * (access through the whole day); UTC unless a zone is given.
 */
function extendToEnd(date: string, zone = "UTC"): Date {
  return zonedDayEnd(date, zone);
}

/**
 * Move the end of a one-time subscription (§3 extend, §8 extend_to): to the end of the given day
 * on `zone`'s clocks (the client API: UTC; the dashboard: the account's zone), or `indefinitely`
 * (no end). Refused (422): recurring plans (their gateway sets the end), except, for staff and the
 * server API, one billed elsewhere (../payments/billing-source.ts),
 * cancelled or failed subscriptions, a date in the past or not after the current end, a date on a
 * subscription with no end. `indefinitely` on one with no end changes nothing.
 */
export async function extendSubscription(
  db: Db,
  args: { accountId: number; caller: SubscriptionCaller; id: number; extendTo: TExtendTo; now: Date; zone?: string },
): Promise<TSubscriptionWire> {
  return withTransaction(db, async (tx) => {
    const row = await lockSubscription(tx, args.accountId, args.caller, args.id);
    // Billed elsewhere, Masthead hears of no payment: the publisher (staff, server API) sets the end.
    if (row.recurring && !(args.caller.via !== "client_api" && (await billedElsewhere(row, hearingFrom(tx))))) {
      throw extendRefused(
        "A recurring subscription cannot be extended: its payments set its end.",
        "the subscription is recurring",
        "subscription",
      );
    }
    if (row.status === "CANCELLED" || row.cancelledAt) {
      throw extendRefused(
        "A cancelled subscription cannot be extended.",
        "the subscription is cancelled",
        "subscription",
      );
    }
    if (row.status === "FAILED") {
      throw extendRefused("A failed subscription cannot be extended.", "the subscription has failed", "subscription");
    }
    let end: Date | null;
    if (args.extendTo === "indefinitely") {
      if (row.endTimestamp === null) {
        return (await loadSubscriptionWire(tx, { accountId: args.accountId, id: row.id, now: args.now }))!;
      }
      end = null;
    } else {
      const zone = args.zone ?? "UTC";
      end = extendToEnd(args.extendTo, zone);
      const today = dayInZone(args.now, zone);
      if (args.extendTo < today) throw extendRefused("extend_to is in the past.", "must be today or later");
      if (row.endTimestamp === null) {
        throw extendRefused(
          "The subscription has no end already; nothing to extend to.",
          "the subscription has no end",
        );
      }
      if (end.getTime() <= row.endTimestamp.getTime()) {
        throw extendRefused(
          `extend_to must be later than the subscription's current end (${formatInstant(row.endTimestamp, zone)}).`,
          "must be after the current end",
        );
      }
    }
    // An expired one-time subscription extended past now is active again (the lifecycle expires it at its new end).
    await tx.subscription.update({
      where: { id: row.id },
      data: { endTimestamp: end, ...(row.status === "EXPIRED" ? { status: "ACTIVE", graceEndsAt: null } : {}) },
    });
    await scheduleSubscriptionLifecycle(tx, { subscriptionId: row.id, now: args.now });
    await recordAudit(tx, {
      actor: actorOf(args.accountId, args.caller),
      action: "subscription.extend",
      targetType: "subscription",
      targetId: row.id,
      metadata: {
        via: args.caller.via,
        from: row.endTimestamp?.toISOString() ?? null,
        to: end?.toISOString() ?? null,
      },
      now: args.now,
    });
    return (await loadSubscriptionWire(tx, { accountId: args.accountId, id: row.id, now: args.now }))!;
  });
}

// ─── Switchable plans ────────────────────────────────────────────────────────────────────────

/** Rough days of a plan duration, to compare prices per day (lifetime: never compared). */
const DAYS_PER_UNIT = { DAYS: 1, WEEKS: 7, MONTHS: 30.436875, YEARS: 365.2425 } as const;

type PlanForSwitch = Prisma.SubscriptionPlanGetPayload<object>;

function switchEntry(plan: PlanForSwitch, prorationEnabled: boolean) {
  const providers = Array.isArray(plan.supportedPaymentProviders) ? (plan.supportedPaymentProviders as string[]) : [];
  return {
    id: plan.id,
    title: plan.title,
    description: plan.description,
    duration_length: plan.durationLength,
    duration_unit: plan.durationUnit.toLowerCase(),
    price_cents: plan.priceCents,
    price_currency: plan.priceCurrency,
    prices: plan.prices,
    prorated_amount_cents: null,
    proration_enabled: prorationEnabled,
    recurring: plan.recurring,
    supported_payment_providers: providers,
    metadata: plan.metadata,
    payment_provider: providers[0] ?? null,
  };
}

/** Price per day in the subscription's currency (the plan's `prices` entry, else its default when the same currency), or null. */
function pricePerDay(plan: PlanForSwitch, currency: string): number | null {
  if (plan.durationUnit === "LIFETIME") return null;
  const prices = isObject(plan.prices) ? plan.prices : {};
  const entry = ownValue(prices, currency);
  const cents =
    isObject(entry) && typeof entry.amount_cents === "number"
      ? entry.amount_cents
      : plan.priceCurrency === currency
        ? plan.priceCents
        : null;
  if (cents === null) return null;
  return cents / (plan.durationLength * DAYS_PER_UNIT[plan.durationUnit]);
}

/**
 * The other enabled plans of the subscription's group, sorted into upgrades (dearer per day),
 * downgrades (cheaper per day) and crossgrades (the same price per day, or not comparable: another
 * currency only, or lifetime). `proration_enabled`: a one-time subscription whose group prorates
 * (../recurring/plan-switch.ts); `prorated_amount_cents` stays null: the switch preview computes the charge.
 */
export async function switchPlanDetails(db: Db, args: { accountId: number; subscription: TSubscriptionWire }) {
  const empty = { upgrade_plan_details: [], downgrade_plan_details: [], crossgrade_plan_details: [] };
  const groupId = args.subscription.subscription_group_id;
  if (groupId === null || args.subscription.subscription_type === "dynamic_asset") return empty;
  const plans = await db.subscriptionPlan.findMany({
    where: {
      accountId: args.accountId,
      groupId,
      enabled: true,
      deletedAt: null,
      group: { deletedAt: null },
      ...(args.subscription.subscription_plan_id ? { id: { not: args.subscription.subscription_plan_id } } : {}),
    },
    orderBy: [{ priceCents: "asc" }, { id: "asc" }],
  });
  const group = await db.subscriptionGroup.findUnique({ where: { id: groupId }, select: { prorationEnabled: true } });
  const prorationEnabled = !args.subscription.recurring && (group?.prorationEnabled ?? true);
  const currency = args.subscription.plan_amount_currency;
  const unit = args.subscription.duration_unit.toUpperCase() as keyof typeof DAYS_PER_UNIT | "LIFETIME";
  const current =
    unit === "LIFETIME" || args.subscription.duration_length <= 0
      ? null
      : args.subscription.plan_amount_cents / (args.subscription.duration_length * DAYS_PER_UNIT[unit]);
  const result = {
    upgrade_plan_details: [] as ReturnType<typeof switchEntry>[],
    downgrade_plan_details: [] as ReturnType<typeof switchEntry>[],
    crossgrade_plan_details: [] as ReturnType<typeof switchEntry>[],
  };
  for (const plan of plans) {
    const perDay = pricePerDay(plan, currency);
    // A cent per month either way is the same price (rounding of yearly vs monthly prices).
    const tolerance = 1 / 30;
    if (current === null || perDay === null || Math.abs(perDay - current) < tolerance) {
      result.crossgrade_plan_details.push(switchEntry(plan, prorationEnabled));
    } else if (perDay > current) {
      result.upgrade_plan_details.push(switchEntry(plan, prorationEnabled));
    } else {
      result.downgrade_plan_details.push(switchEntry(plan, prorationEnabled));
    }
  }
  return result;
}
