/**
 * Dunning (dunning.ts, the lifecycle's retry step) on the test clock and the real job engine: a
 * monthly plan retrying after 1, 3 and 5 days within 7 days of grace, through a recovery and a
 * loss; the "update your card" e-mail once per episode, delivered over SMTP with its link; the
 * webhooks and the subscriber's activity; recovered and lost revenue in the report; a retry run
 * by two workers at once, and one that dies after the gateway charged.
 */
import { randomUUID } from "node:crypto";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { parseEnv } from "@/env.js";
import { formatDateTime, formatMoney } from "@/i18n/translate";

import { staffActor } from "../../auth/actor";
import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { mailTransportFromEnv } from "../../mail/transport";
import { now, resetClock, setClock } from "../../testing/clock";
import { runJobsNow, testJobDeps } from "../../testing/jobs";
import { createTestPublisher } from "../../testing/publishing-factories";
import { scriptedGateway } from "../../testing/scripted-gateway";
import { startSmtpServer, type TestSmtpServer } from "../../testing/smtp-server";
import { createTestStaff } from "../../testing/staff";
import { insertTestGroup, insertTestPlan, insertTestSubscription } from "../../testing/subscription-fixtures";
import { createPlan, updatePlan } from "../catalogue/plans";
import { dunningReport } from "../reports/dunning-report";
import { getSubscriberActivity } from "../subscribers/subscriber-activity";
import { resolveSubscriber } from "../subscribers/subscribers";
import { grantsAccess, subscriptionFlags } from "../subscribers/subscription-state";
import { advanceSubscription, retryChargeSoon, scheduleSubscriptionLifecycle } from "./lifecycle";

const PAYMENT_TYPE = "dunning_test";

const gateway = scriptedGateway(PAYMENT_TYPE);
/** Declines every charge while on. */
const declining = (on: boolean) => (gateway.declines = () => on);

afterEach(() => {
  resetClock();
  gateway.reset();
});

const at = (iso: string) => new Date(iso);
const START = at("2026-01-01T00:00:00.000Z");
const DUE = "2026-02-01T00:00:00.000Z";

async function setup(dunning: { chargeRetryDays?: number[]; gracePeriodDays?: number } = {}) {
  const db = await getDb();
  setClock(START);
  const account = await createTestPublisher(db);
  const group = await insertTestGroup(db, account.id);
  const plan = await insertTestPlan(db, group, { recurring: true, priceCents: 1250, priceCurrency: "EUR" });
  await db.subscriptionPlan.update({
    where: { id: plan.id },
    data: { chargeRetryDays: dunning.chargeRetryDays ?? [1, 3, 5], gracePeriodDays: dunning.gracePeriodDays ?? 7 },
  });
  const email = `reader-${randomUUID().slice(0, 8)}@example.com`;
  const member = await resolveSubscriber(db, {
    accountId: account.id,
    provider: "email",
    identity: email,
    create: true,
    now: START,
  });
  const sub = await insertTestSubscription(db, {
    accountId: account.id,
    memberId: member!.id,
    planId: plan.id,
    start: START,
    end: at(DUE),
    paymentType: PAYMENT_TYPE,
    recurring: true,
  });
  await db.subscription.update({
    where: { id: sub.id },
    data: {
      nextPaymentDueDate: at(DUE),
      paymentAmountCents: 1250,
      paymentAmountCurrency: "EUR",
      // This period's reminder went already: the steps are the charge and what follows it.
      renewalReminderSentAt: at("2026-01-25T00:00:00.000Z"),
    },
  });
  await scheduleSubscriptionLifecycle(db, { subscriptionId: sub.id, now: START });
  return { db, accountId: account.id, subscriptionId: sub.id, memberId: member!.id, email };
}

/** Move the clock to `until`, running every job of the account as it falls due, in order. */
async function runUntil(db: Db, accountId: number, until: Date, deps = testJobDeps({ clock: now })) {
  for (let i = 0; i < 200; i++) {
    const next = await db.job.findFirst({
      where: { accountId, status: "PENDING", runAt: { lte: until } },
      orderBy: { runAt: "asc" },
    });
    if (!next) break;
    if (next.runAt > now()) setClock(next.runAt);
    await runJobsNow(db, deps);
  }
  setClock(until);
  await runJobsNow(db, deps);
}

const load = (db: Db, id: number) => db.subscription.findUniqueOrThrow({ where: { id } });
const events = async (db: Db, accountId: number) =>
  (await db.webhookEvent.findMany({ where: { accountId }, orderBy: { id: "asc" } })).map(
    (e) => `${e.occurredAt.toISOString().slice(0, 10)} ${e.name}`,
  );
const cardMails = (db: Db, accountId: number) =>
  db.outgoingEmail.findMany({
    where: { accountId, kind: "subscription.payment_failed" },
    orderBy: { createdAt: "asc" },
  });
const keys = () => gateway.calls.map((c) => c.idempotencyKey.replace(/^sub:\d+:/, ""));

describe("dunning on the test clock", () => {
  it("retries on the plan's schedule in grace, keeps access, and recovers the moment a retry succeeds", async () => {
    const { db, accountId, subscriptionId, memberId, email } = await setup();
    // The mail names its times in the account's zone.
    await db.account.update({ where: { id: accountId }, data: { timeZone: "Europe/Berlin" } });
    declining(true);

    // 1 February: the charge is declined. Grace until 8 February, first retry on the 2nd, one e-mail.
    await runUntil(db, accountId, at(DUE));
    let sub = await load(db, subscriptionId);
    expect(sub).toMatchObject({ status: "ACTIVE", endTimestamp: at(DUE), graceEndsAt: at("2026-02-08T00:00:00.000Z") });
    expect(sub.chargeRetryAt?.toISOString()).toBe("2026-02-02T00:00:00.000Z");
    expect(subscriptionFlags(sub, now())).toMatchObject({ active: true, in_grace_period: true });
    let mails = await cardMails(db, accountId);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      [email, "Your Monthly payment did not go through: update your card"],
    ]);
    expect(mails[0]!.text).toMatch(
      new RegExp(`http://localhost:3000/member/card/\\d+\\.${subscriptionId}\\.\\d+\\.\\d+\\.[A-Za-z0-9_-]{43}`),
    );
    expect(mails[0]!.text).toContain("€12.50");
    expect(mails[0]!.text).toContain("You can keep reading until 8 Feb 2026, 01:00 CET.");
    expect(mails[0]!.text).toContain(
      "We will try your card again on these dates:\n2 Feb 2026, 01:00 CET\n4 Feb 2026, 01:00 CET\n6 Feb 2026, 01:00 CET",
    );

    // 2 February: the first retry is declined too; the next one is on the 4th. No second e-mail.
    await runUntil(db, accountId, at("2026-02-03T00:00:00.000Z"));
    sub = await load(db, subscriptionId);
    expect(sub.chargeRetryAt?.toISOString()).toBe("2026-02-04T00:00:00.000Z");
    expect(grantsAccess(sub, now())).toBe(true);
    expect(await db.dunningEpisode.findMany({ where: { subscriptionId } })).toMatchObject([
      { outcome: "OPEN", retries: 1, amountCents: 1250, currency: "EUR", lastError: "Card declined." },
    ]);

    // The reader fixes the card: the retry on the 4th is captured. The period from 1 February is paid.
    declining(false);
    await runUntil(db, accountId, at("2026-02-04T00:00:00.000Z"));
    sub = await load(db, subscriptionId);
    expect(sub).toMatchObject({ status: "ACTIVE", graceEndsAt: null, chargeRetryAt: null });
    expect(sub.endTimestamp?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(sub.nextPaymentDueDate?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(subscriptionFlags(sub, now()).in_grace_period).toBe(false);
    const payments = await db.payment.findMany({ where: { subscriptionId } });
    expect(payments).toHaveLength(1);
    expect(payments[0]!.details).toMatchObject({ recurring_charge: { period_start: DUE } });
    const [episode] = await db.dunningEpisode.findMany({ where: { subscriptionId } });
    expect(episode).toMatchObject({ outcome: "RECOVERED", retries: 1, paymentId: payments[0]!.id });
    expect(episode!.endedAt?.toISOString()).toBe("2026-02-04T00:00:00.000Z");
    // One charge per scheduled attempt, each with its own key.
    expect(keys()).toEqual([DUE, `${DUE}:retry:1`, `${DUE}:retry:2`]);

    // The next period is charged as usual on 1 March; still one e-mail for the whole episode.
    await runUntil(db, accountId, at("2026-03-01T00:00:00.000Z"));
    expect((await load(db, subscriptionId)).endTimestamp?.toISOString()).toBe("2026-04-01T00:00:00.000Z");
    mails = await cardMails(db, accountId);
    expect(mails).toHaveLength(1);

    expect(await events(db, accountId)).toEqual([
      "2026-02-01 subscription.charge_failed",
      "2026-02-01 subscription.grace_period_entered",
      "2026-02-02 subscription.charge_failed",
      "2026-02-04 subscription.renewed",
      "2026-02-04 subscription.recovered",
      "2026-03-01 subscription.renewed",
    ]);
    const recovered = await db.webhookEvent.findFirstOrThrow({ where: { accountId, name: "subscription.recovered" } });
    expect(recovered.payload).toMatchObject({
      subscription: { id: subscriptionId, status: "active", in_grace_period: false },
    });
    // Every step shows in the subscriber's activity (the revenue dashboard).
    const activity = await getSubscriberActivity(db, { accountId, memberId });
    expect(activity.webhooks.map((w) => w.name)).toEqual(
      expect.arrayContaining([
        "subscription.charge_failed",
        "subscription.grace_period_entered",
        "subscription.recovered",
      ]),
    );
    // The failed renewal is in the subscriber's payments beside the payment that recovered it.
    expect(activity.payments.map((p) => p.id)).toEqual(expect.arrayContaining([payments[0]!.id]));
    expect(activity.failed_charges).toEqual([
      {
        id: episode!.id,
        subscription_id: subscriptionId,
        amount_cents: 1250,
        currency: "EUR",
        period_start: DUE,
        failed_at: DUE,
        retries: 1,
        last_error: "Card declined.",
        outcome: "recovered",
        payment_id: payments[0]!.id,
      },
    ]);

    // Recovered revenue, on the day it was paid, in its currency.
    const report = await dunningReport(db, { accountId, range: { from: "2026-02-01", to: "2026-02-28" } });
    expect(report).toEqual({
      currencies: ["EUR"],
      days: [{ day: "2026-02-04", currency: "EUR", recovered_cents: 1250, lost_cents: 0, recovered: 1, lost: 0 }],
      totals: [{ currency: "EUR", recovered_cents: 1250, lost_cents: 0, recovered: 1, lost: 0 }],
      at_risk: [],
    });
  });

  it("expires at the grace period's end when every retry fails: the revenue is lost", async () => {
    const { db, accountId, subscriptionId } = await setup();
    declining(true);
    await runUntil(db, accountId, at("2026-02-05T00:00:00.000Z"));
    const atRisk = await dunningReport(db, { accountId, range: { from: "2026-02-01", to: "2026-02-28" } });
    expect(atRisk.at_risk).toEqual([{ currency: "EUR", cents: 1250, subscriptions: 1 }]);

    await runUntil(db, accountId, at("2026-02-07T23:59:00.000Z"));
    let sub = await load(db, subscriptionId);
    expect(sub.status).toBe("ACTIVE");
    expect(sub.chargeRetryAt).toBeNull();
    expect(grantsAccess(sub, now())).toBe(true);

    await runUntil(db, accountId, at("2026-02-08T00:00:00.000Z"));
    sub = await load(db, subscriptionId);
    expect(sub.status).toBe("EXPIRED");
    expect(grantsAccess(sub, now())).toBe(false);
    expect(keys()).toEqual([DUE, `${DUE}:retry:1`, `${DUE}:retry:2`, `${DUE}:retry:3`]);
    expect(await db.payment.count({ where: { subscriptionId } })).toBe(0);
    expect(await db.dunningEpisode.findFirstOrThrow({ where: { subscriptionId } })).toMatchObject({
      outcome: "LOST",
      retries: 3,
      endedAt: at("2026-02-08T00:00:00.000Z"),
    });
    expect(await events(db, accountId)).toEqual([
      "2026-02-01 subscription.charge_failed",
      "2026-02-01 subscription.grace_period_entered",
      "2026-02-02 subscription.charge_failed",
      "2026-02-04 subscription.charge_failed",
      "2026-02-06 subscription.charge_failed",
      "2026-02-08 subscription.expired",
    ]);
    expect(await cardMails(db, accountId)).toHaveLength(1);
    // Nothing more is ever scheduled.
    await runUntil(db, accountId, at("2026-04-01T00:00:00.000Z"));
    expect(gateway.calls).toHaveLength(4);

    const report = await dunningReport(db, { accountId, range: { from: "2026-02-01", to: "2026-02-28" } });
    expect(report.totals).toEqual([{ currency: "EUR", recovered_cents: 0, lost_cents: 1250, recovered: 0, lost: 1 }]);
    expect(report.days.map((d) => d.day)).toEqual(["2026-02-08"]);
    expect(report.at_risk).toEqual([]);
  });

  it("tells a reader whose saved locale is Hindi in Hindi: amount, dates in the account's zone, the card link", async () => {
    const { db, accountId, memberId, subscriptionId } = await setup();
    await db.account.update({ where: { id: accountId }, data: { timeZone: "Asia/Kolkata" } });
    await db.member.update({ where: { id: memberId }, data: { locale: "hi" } });
    declining(true);
    await runUntil(db, accountId, at(DUE));
    const [mail, ...more] = await cardMails(db, accountId);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe("आपके Monthly का भुगतान नहीं हो पाया: अपना कार्ड अपडेट करें");
    expect(mail!.text).toContain(`${formatMoney(1250, "EUR", "hi")} का भुगतान हम नहीं ले पाए`);
    const graceEnd = formatDateTime(at("2026-02-08T00:00:00.000Z"), "hi", "Asia/Kolkata");
    expect(graceEnd).toMatch(/IST$/);
    expect(mail!.text).toContain(`आप ${graceEnd} तक पढ़ना जारी रख सकते हैं।`);
    expect(mail!.text).toMatch(new RegExp(`/member/card/\\d+\\.${subscriptionId}\\.`));
    expect(mail!.html).toContain('<html lang="hi" dir="ltr">');
    expect(mail!.html).toContain("मेरा कार्ड अपडेट करें");
  });

  it("takes the grace length from the plan: 3 days and no retries", async () => {
    const { db, accountId, subscriptionId } = await setup({ chargeRetryDays: [], gracePeriodDays: 3 });
    declining(true);
    await runUntil(db, accountId, at(DUE));
    expect((await load(db, subscriptionId)).graceEndsAt?.toISOString()).toBe("2026-02-04T00:00:00.000Z");
    expect((await cardMails(db, accountId))[0]!.text).not.toContain("We will try your card again");
    await runUntil(db, accountId, at("2026-02-04T00:00:00.000Z"));
    expect((await load(db, subscriptionId)).status).toBe("EXPIRED");
    expect(keys()).toEqual([DUE]);
  });

  it("a failed charge and its retry, each run by two workers and two direct calls at once, happen once", async () => {
    const { db, accountId, subscriptionId } = await setup();
    declining(true);
    // The failing charge: one episode, one e-mail, one pair of events.
    setClock(at(DUE));
    const run = async () => {
      const deps = testJobDeps({ clock: now });
      await Promise.all([
        runJobsNow(db, deps, "worker-a"),
        runJobsNow(db, deps, "worker-b"),
        withTransaction(db, (tx) => advanceSubscription(tx, { subscriptionId, now: now() })),
        withTransaction(db, (tx) => advanceSubscription(tx, { subscriptionId, now: now() })),
      ]);
    };
    await run();
    expect(keys()).toEqual([DUE]);
    expect(await db.dunningEpisode.count({ where: { subscriptionId } })).toBe(1);
    expect(await cardMails(db, accountId)).toHaveLength(1);
    expect(await events(db, accountId)).toEqual([
      "2026-02-01 subscription.charge_failed",
      "2026-02-01 subscription.grace_period_entered",
    ]);
    // The retry on the 2nd: one charge, one payment, one recovery.
    declining(false);
    setClock(at("2026-02-02T00:00:00.000Z"));
    await run();
    await runJobsNow(db, testJobDeps({ clock: now }));
    expect(keys()).toEqual([DUE, `${DUE}:retry:1`]);
    expect(await db.payment.count({ where: { subscriptionId } })).toBe(1);
    expect((await events(db, accountId)).filter((e) => e.endsWith("recovered"))).toHaveLength(1);
    expect((await load(db, subscriptionId)).endTimestamp?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
  });

  it("a retry that dies after the gateway charged runs again with the same key: one payment, one recovery", async () => {
    const { db, accountId, subscriptionId } = await setup();
    declining(true);
    await runUntil(db, accountId, at(DUE));
    declining(false);
    gateway.crashOnce = true;
    await runUntil(db, accountId, at("2026-02-02T00:00:00.000Z"));
    // Nothing of the dead step committed: still in grace, no payment, the retry not counted.
    expect(await db.payment.count({ where: { subscriptionId } })).toBe(0);
    expect((await db.dunningEpisode.findFirstOrThrow({ where: { subscriptionId } })).retries).toBe(0);
    await runUntil(db, accountId, at("2026-02-02T00:05:00.000Z"));
    expect(keys()).toEqual([DUE, `${DUE}:retry:1`, `${DUE}:retry:1`]);
    const payments = await db.payment.findMany({ where: { subscriptionId } });
    expect(payments).toHaveLength(1);
    expect(payments[0]!.externalPaymentId).toBe(gateway.charged.get(`sub:${subscriptionId}:${DUE}:retry:1`));
    expect(await db.dunningEpisode.findFirstOrThrow({ where: { subscriptionId } })).toMatchObject({
      outcome: "RECOVERED",
      retries: 0,
    });
    expect((await events(db, accountId)).slice(-2)).toEqual([
      "2026-02-02 subscription.renewed",
      "2026-02-02 subscription.recovered",
    ]);
  });
});

describe("a new payment method in grace", () => {
  it("retries at once (a retry the schedule counts), and does nothing outside grace", async () => {
    const { db, accountId, subscriptionId } = await setup();
    expect(await withTransaction(db, (tx) => retryChargeSoon(tx, { subscriptionId, now: now() }))).toBe(false);
    declining(true);
    await runUntil(db, accountId, at(DUE));
    // Half a day later the reader gives a card that works: the retry runs now, not on the 2nd.
    declining(false);
    setClock(at("2026-02-01T12:00:00.000Z"));
    expect(await withTransaction(db, (tx) => retryChargeSoon(tx, { subscriptionId, now: now() }))).toBe(true);
    await runUntil(db, accountId, at("2026-02-01T12:00:00.000Z"));
    expect(keys()).toEqual([DUE, `${DUE}:retry:1`]);
    const sub = await load(db, subscriptionId);
    expect(sub).toMatchObject({ graceEndsAt: null, chargeRetryAt: null });
    expect(sub.endTimestamp?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(await withTransaction(db, (tx) => retryChargeSoon(tx, { subscriptionId, now: now() }))).toBe(false);
  });
});

describe("the plan's dunning settings", () => {
  it("are stored on create and update, shown on the plan, and refused when a retry comes after the grace end", async () => {
    const db = await getDb();
    const { account, user } = await createTestStaff(db, { roles: ["REVENUE"] });
    const group = await insertTestGroup(db, account.id);
    const actor = staffActor({ id: user.id, accountId: account.id, roles: ["REVENUE"] });
    const base = {
      groupId: group.id,
      title: "Monthly",
      durationLength: 1,
      durationUnit: "months" as const,
      priceCents: 900,
      priceCurrency: "USD",
      recurring: true,
    };
    const plain = await createPlan(db, { actor, input: base });
    expect(plain).toMatchObject({ charge_retry_days: [], grace_period_days: 7 });
    const plan = await createPlan(db, { actor, input: { ...base, chargeRetryDays: [1, 3, 5], gracePeriodDays: 10 } });
    expect(plan).toMatchObject({ charge_retry_days: [1, 3, 5], grace_period_days: 10 });
    await expect(updatePlan(db, { actor, input: { id: plan.id, gracePeriodDays: 5 } })).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      details: [{ field: "chargeRetryDays", issue: "must each come before the grace period ends" }],
    });
    expect(await updatePlan(db, { actor, input: { id: plan.id, gracePeriodDays: 6 } })).toMatchObject({
      charge_retry_days: [1, 3, 5],
      grace_period_days: 6,
    });
  });
});

describe("the update-your-card e-mail over SMTP", () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer({ user: "mailer", pass: "secret-pass" });
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("arrives once, with its subject and the link to the reader's payment method", async () => {
    const { db, accountId, subscriptionId, email } = await setup();
    const mail = mailTransportFromEnv(
      parseEnv({ SMTP_URL: `smtp://mailer:secret-pass@127.0.0.1:${smtp.port}`, MAIL_FROM: "News <news@gazette.test>" }),
    );
    declining(true);
    await runUntil(db, accountId, at("2026-02-05T00:00:00.000Z"), testJobDeps({ clock: now, mail }));
    const received = smtp.received.filter((m) => m.to.includes(email));
    expect(received).toHaveLength(1);
    const unfolded = received[0]!.raw.replace(/\r\n[ \t]+/g, " ");
    expect(/^Subject: (.*)$/m.exec(unfolded)![1]).toBe("Your Monthly payment did not go through: update your card");
    const body = unfolded.replace(/=\r\n/g, "").replace(/=3D/g, "=");
    expect(body).toMatch(
      new RegExp(`http://localhost:3000/member/card/\\d+\\.${subscriptionId}\\.\\d+\\.\\d+\\.[A-Za-z0-9_-]{43}`),
    );
    expect((await cardMails(db, accountId)).map((m) => m.status)).toEqual(["SENT"]);
  });
});
