/**
 * The account's subscriptions for revenue staff (the dashboard's Subscriptions page): a searchable,
 * filtered list newest first with a cursor, one subscription with its payments and timeline, and a
 * complimentary subscription given by staff (payment_type manual, created_by dashboard). Cancel and
 * extend are subscriptions.ts's, called with the staff actor (audited).
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { planCopy } from "../catalogue/plan-copy";
import { failedChargesOf } from "../recurring/failed-charges";
import { pausedSubscriptionIds, pausedUntilOf } from "../recurring/pauses";
import { loadSubscriber, resolveSubscriber } from "./subscribers";
import {
  ZListSubscriptionsInput,
  type TListSubscriptionsInput,
  type TSubscriptionStatusFilter,
} from "./subscription-actions.schema";
import { addDuration } from "./subscription-state";
import {
  emitSubscriberCreated,
  emitSubscriptionEvent,
  loadSubscriptionsWire,
  notFoundSubscription,
  type TSubscriptionWire,
} from "./subscription-view";
import { getSubscription } from "./subscriptions";

/** A subscription as staff see it: the wire shape, and when a pause ends (null: not paused; ../recurring/pauses.ts). */
type TAdminSubscription = TSubscriptionWire & { paused_until: string | null };

// Cursor: the last id of a page, base64url ("s:<id>"), checked when it comes back.
const encodeCursor = (id: number) => Buffer.from(`s:${id}`, "utf8").toString("base64url");
function decodeCursor(cursor: string): number {
  const match = /^s:(\d{1,10})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) {
    throw new AppError("BAD_REQUEST", "The cursor is not one this listing returned.", {
      details: [{ field: "cursor", issue: "is invalid" }],
    });
  }
  return Number(match[1]);
}

/**
 * The account's subscriptions (not deleted), newest first (by id: the order they were made), whose
 * subscriber's e-mail, communication e-mail, name or identity value contains `q`; by status and
 * plan; a page at a time.
 */
export async function listSubscriptionsForAdmin(
  db: Db,
  args: { actor: Actor; input: TListSubscriptionsInput; now: Date },
): Promise<{ items: TAdminSubscription[]; nextCursor: string | null }> {
  const input = parseInput(ZListSubscriptionsInput, args.input);
  const contains = { contains: input.q, mode: "insensitive" as const };
  const where: Prisma.SubscriptionWhereInput = {
    deletedAt: null,
    AND: [await statusCondition(db, args.actor.accountId, input.status)],
    ...(input.planId ? { planId: input.planId } : {}),
    ...(input.memberId ? { memberId: input.memberId } : {}),
    ...(input.cursor ? { id: { lt: decodeCursor(input.cursor) } } : {}),
    ...(input.q
      ? {
          member: {
            OR: [
              { email: contains },
              { communicationEmail: contains },
              { name: contains },
              { identities: { some: { externalId: contains } } },
            ],
          },
        }
      : {}),
  };
  const rows = await loadSubscriptionsWire(db, {
    accountId: args.actor.accountId,
    where,
    now: args.now,
    take: input.limit + 1,
    orderBy: "id",
  });
  const page = rows.slice(0, input.limit);
  const paused = await pausedUntilOf(db, page);
  const items = page.map((s) => ({ ...s, paused_until: paused.get(s.id) ?? null }));
  const last = items.at(-1);
  return { items, nextCursor: rows.length > input.limit && last ? encodeCursor(last.id) : null };
}

/**
 * The status filter's condition: `paused` is the subscriptions with an open pause (../recurring/pauses.ts);
 * `cancelled` and `expired` leave those out, as the list words them "Paused".
 */
async function statusCondition(
  db: Db,
  accountId: number,
  status: TSubscriptionStatusFilter | undefined,
): Promise<Prisma.SubscriptionWhereInput> {
  if (!status) return {};
  if (status === "pending" || status === "active" || status === "failed")
    return { status: status.toUpperCase() as Uppercase<typeof status> };
  const paused = await pausedSubscriptionIds(db, accountId);
  if (status === "paused") return { id: { in: paused } };
  return { status: status.toUpperCase() as Uppercase<typeof status>, id: { notIn: paused } };
}

type TimelineEntry = {
  at: string;
  action: string;
  by: string;
  detail: Record<string, unknown>;
};

/**
 * The audit actions that record a subscription's creation (checkout and the server API, a renewal
 * by a new subscription, staff's gift): the timeline shows the creation once, from them.
 */
const CREATION_ACTIONS = new Set(["subscription.create", "subscription.renew", "subscription.grant"]);

/**
 * One subscription with its payments (with its failed renewal charges beside them) and its
 * timeline: the audit entries about it, which start with its creation; a subscription whose
 * creation was not audited (made before the audit log recorded creations) starts with one
 * "subscription.create" from its own created_at.
 */
export async function getSubscriptionForAdmin(db: Db, args: { actor: Actor; id: number; now: Date }) {
  const wire = await getSubscription(db, {
    accountId: args.actor.accountId,
    caller: { via: "dashboard", actor: args.actor },
    id: args.id,
    now: args.now,
  });
  const [payments, audit, failedCharges, paused] = await Promise.all([
    db.payment.findMany({
      where: { accountId: args.actor.accountId, subscriptionId: args.id },
      orderBy: { id: "asc" },
      select: {
        id: true,
        paymentType: true,
        externalPaymentId: true,
        amountCents: true,
        currency: true,
        status: true,
        createdAt: true,
      },
    }),
    db.auditLog.findMany({
      where: { accountId: args.actor.accountId, targetType: "subscription", targetId: String(args.id) },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { action: true, metadata: true, createdAt: true, actor: { select: { name: true, email: true } } },
    }),
    failedChargesOf(db, { accountId: args.actor.accountId, subscriptionIds: [args.id] }),
    pausedUntilOf(db, [wire]),
  ]);
  const subscription: TAdminSubscription = { ...wire, paused_until: paused.get(wire.id) ?? null };
  const audited = audit.some((entry) => CREATION_ACTIONS.has(entry.action));
  const timeline: TimelineEntry[] = [
    ...(audited
      ? []
      : [{ at: subscription.created_at, action: "subscription.create", by: subscription.created_by, detail: {} }]),
    ...audit.map((entry) => {
      const detail = (entry.metadata ?? {}) as Record<string, unknown>;
      return {
        at: entry.createdAt.toISOString(),
        action: entry.action,
        by: entry.actor
          ? entry.actor.name || entry.actor.email
          : typeof detail.system === "string"
            ? detail.system
            : "system",
        detail,
      };
    }),
  ];
  return {
    subscription,
    payments: payments.map((p) => ({
      id: p.id,
      payment_type: p.paymentType,
      external_payment_id: p.externalPaymentId,
      amount_cents: p.amountCents,
      currency: p.currency,
      status: p.status.toLowerCase(),
      created_at: p.createdAt.toISOString(),
    })),
    failed_charges: failedCharges,
    timeline,
  };
}

/**
 * Staff give a reader (by e-mail; created as a subscriber when none has it) a complimentary
 * subscription to an enabled plan: the plan copy, start now, end from the plan's duration, active,
 * payment_type manual with nothing paid, never recurring (there is nothing to charge). Audited as
 * `subscription.grant`; emits `subscription.created` and `subscription.activated` (as checkout does
 * for a subscription active from the start), and `subscriber.created` when the reader was new.
 */
export async function grantSubscription(
  db: Db,
  args: { actor: Actor; input: { email: string; planId: number }; now: Date },
): Promise<TSubscriptionWire> {
  const accountId = args.actor.accountId;
  const existing = await resolveSubscriber(db, { accountId, provider: "email", identity: args.input.email });
  const member =
    existing ??
    (await resolveSubscriber(db, {
      accountId,
      provider: "email",
      identity: args.input.email,
      create: true,
      now: args.now,
    }));
  if (!member) throw new AppError("INTERNAL", "grantSubscription: no subscriber");
  const id = await withTransaction(db, async (tx) => {
    const plan = await tx.subscriptionPlan.findFirst({
      where: { id: args.input.planId, accountId, deletedAt: null, group: { deletedAt: null } },
      include: { group: true },
    });
    if (!plan) {
      throw new AppError("UNPROCESSABLE", "The plan does not exist.", {
        details: [{ field: "planId", issue: "names no plan of the account" }],
      });
    }
    if (!plan.enabled) {
      throw new AppError("UNPROCESSABLE", "The plan is disabled.", {
        details: [{ field: "planId", issue: "is disabled" }],
      });
    }
    const row = await tx.subscription.create({
      data: {
        accountId,
        memberId: member.id,
        ...planCopy(plan),
        preferredIdentity: { provider: "email", value: member.email },
        createdBy: "dashboard",
        status: "ACTIVE",
        startTimestamp: args.now,
        endTimestamp: addDuration(args.now, plan.durationLength, plan.durationUnit),
        recurring: false,
        paymentType: "manual",
        paymentAmountCents: 0,
        paymentAmountCurrency: plan.priceCurrency,
        createdAt: args.now,
      },
    });
    await recordAudit(tx, {
      actor: args.actor,
      action: "subscription.grant",
      targetType: "subscription",
      targetId: row.id,
      metadata: { plan_id: plan.id, subscriber_id: member.id, via: "dashboard" },
      now: args.now,
    });
    if (!existing) {
      const subscriber = await loadSubscriber(tx, accountId, member.id, args.now);
      if (subscriber) await emitSubscriberCreated(tx, { subscriber, accountId, occurredAt: args.now });
    }
    // As checkout does for a subscription active from the start: created, then activated.
    for (const name of ["subscription.created", "subscription.activated"] as const) {
      await emitSubscriptionEvent(tx, { accountId, name, subscriptionId: row.id, occurredAt: args.now });
    }
    return row.id;
  });
  const [wire] = await loadSubscriptionsWire(db, { accountId, where: { id }, now: args.now });
  if (!wire) throw notFoundSubscription();
  return wire;
}
