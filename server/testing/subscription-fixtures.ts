/**
 * Subscriptions for tests, written as checkout writes them (server/subscriptions): the
 * plan copy filled from the plan, start now (or given) and end from addDuration, the status a
 * checkout leaves (active for manual/sponsored, pending for a paid one awaiting its payment).
 * Plain rows: no webhook event, no audit entry (checkout's own tests cover those).
 */
import { randomUUID } from "node:crypto";

import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import type { DurationUnit, SubscriptionStatus, SubscriptionType } from "../generated/prisma/enums";
import { findOrCreateJwtMember } from "../members/identities";
import { createMemberSession } from "../members/sessions";
import { planCopy } from "../subscriptions/catalogue/plan-copy";
import { resolveSubscriber } from "../subscriptions/subscribers/subscribers";
import { addDuration } from "../subscriptions/subscribers/subscription-state";
import { readerJwt } from "./engagement";
import { createTestPublisher } from "./publishing-factories";

/** The account's subscriber with this e-mail, made if new (a fresh payer's address unless one is named). */
export async function insertTestSubscriber(
  db: Db,
  accountId: number,
  email = `payer-${Math.random().toString(36).slice(2, 8)}@example.com`,
  now?: Date,
) {
  return (await resolveSubscriber(db, { accountId, provider: "email", identity: email, create: true, now }))!;
}

export async function insertTestGroup(
  db: Db,
  accountId: number,
  overrides: { name?: string; subscriptionType?: SubscriptionType; public?: boolean } = {},
) {
  return db.subscriptionGroup.create({
    data: {
      accountId,
      name: overrides.name ?? "Digital access",
      description: "Every story, every device",
      subscriptionType: overrides.subscriptionType ?? "STANDARD",
      public: overrides.public ?? true,
      ...(overrides.subscriptionType === "CAMPAIGN" ? { currency: "USD", targetAmountCents: 1_000_000 } : {}),
    },
  });
}

export async function insertTestPlan(
  db: Db,
  group: { id: number; accountId: number },
  overrides: {
    title?: string;
    durationLength?: number;
    durationUnit?: DurationUnit;
    priceCents?: number;
    priceCurrency?: string;
    prices?: Record<string, { amount_cents: number }>;
    recurring?: boolean;
    enabled?: boolean;
  } = {},
) {
  const priceCents = overrides.priceCents ?? 900;
  const priceCurrency = overrides.priceCurrency ?? "USD";
  return db.subscriptionPlan.create({
    data: {
      accountId: group.accountId,
      groupId: group.id,
      title: overrides.title ?? "Monthly",
      description: "Billed once",
      durationLength: overrides.durationLength ?? 1,
      durationUnit: overrides.durationUnit ?? "MONTHS",
      priceCents,
      priceCurrency,
      prices: overrides.prices ?? { [priceCurrency]: { amount_cents: priceCents } },
      recurring: overrides.recurring ?? false,
      supportedPaymentProviders: ["manual"],
      enabled: overrides.enabled ?? true,
    },
  });
}

type TestSubscriptionOverrides = {
  status?: SubscriptionStatus;
  start?: Date;
  /** Replaces the end addDuration gives (null: no end). */
  end?: Date | null;
  paymentType?: string;
  metadata?: Prisma.InputJsonObject;
  notes?: string | null;
  gifterMemberId?: number | null;
  cancelledAt?: Date | null;
  deletedAt?: Date | null;
  createdAt?: Date;
  /** Copied from the plan unless given. */
  recurring?: boolean;
};

/** A subscription of `memberId` to `planId`, as checkout writes it. */
export async function insertTestSubscription(
  db: Db,
  args: { accountId: number; memberId: number; planId: number } & TestSubscriptionOverrides,
) {
  const plan = await db.subscriptionPlan.findUniqueOrThrow({ where: { id: args.planId }, include: { group: true } });
  const start = args.start ?? new Date();
  const end = args.end !== undefined ? args.end : addDuration(start, plan.durationLength, plan.durationUnit);
  const recurring = args.recurring ?? plan.recurring;
  const paymentType = args.paymentType ?? "manual";
  return db.subscription.create({
    data: {
      accountId: args.accountId,
      memberId: args.memberId,
      ...planCopy(plan),
      preferredIdentity: undefined,
      createdBy: "server_api",
      gifterMemberId: args.gifterMemberId ?? null,
      status: args.status ?? "ACTIVE",
      startTimestamp: start,
      endTimestamp: end,
      cancelledAt: args.cancelledAt ?? null,
      nextPaymentDueDate: recurring ? end : null,
      recurring,
      paymentType,
      paymentAmountCents: paymentType === "sponsored" ? 0 : plan.priceCents,
      paymentAmountCurrency: plan.priceCurrency,
      metadata: args.metadata ?? {},
      notes: args.notes ?? null,
      deletedAt: args.deletedAt ?? null,
      ...(args.createdAt ? { createdAt: args.createdAt } : {}),
    },
  });
}

const DAY_MS = 86_400_000;

/**
 * Ada (the publisher's JWT reader "r-ada") as a member with a signed-in self-service session and a
 * subscription to `planId` that started 10 days ago for 30 days: what the self-service tests start
 * from. `jwt` is her reader JWT for the client API; `token` her session (X-QT-AUTH).
 */
export async function insertSelfServiceSubscription(
  db: Db,
  input: { accountId: number; planId: number; paymentType: string },
) {
  const user = { id: "r-ada", name: "Ada", email: null, avatarUrl: null, provider: null };
  const member = await findOrCreateJwtMember(db, { accountId: input.accountId, user, now: new Date() });
  const jwt = await readerJwt({ id: "r-ada", name: "Ada" });
  const { token } = await createMemberSession(db, { memberId: member.id, now: new Date(), days: 1 });
  const start = new Date(Date.now() - 10 * DAY_MS);
  const sub = await insertTestSubscription(db, {
    accountId: input.accountId,
    memberId: member.id,
    planId: input.planId,
    paymentType: input.paymentType,
    start,
    end: new Date(start.getTime() + 30 * DAY_MS),
  });
  return { member, jwt, token, sub };
}

/**
 * A new publisher's recurring plan (USD) and a fresh reader's subscription on it from `start` to
 * `end`, charged through `paymentType`: the lifecycle's own start (tests then set its payment due).
 */
export async function insertRecurringTestSubscription(
  db: Db,
  opts: { paymentType: string; start: Date; end: Date; priceCents: number },
) {
  const account = await createTestPublisher(db);
  const group = await insertTestGroup(db, account.id);
  const plan = await insertTestPlan(db, group, { recurring: true, priceCents: opts.priceCents, priceCurrency: "USD" });
  const email = `reader-${randomUUID().slice(0, 8)}@example.com`;
  const member = await insertTestSubscriber(db, account.id, email, opts.start);
  const sub = await insertTestSubscription(db, {
    accountId: account.id,
    memberId: member.id,
    planId: plan.id,
    start: opts.start,
    end: opts.end,
    paymentType: opts.paymentType,
    recurring: true,
  });
  return { account, member, sub };
}
