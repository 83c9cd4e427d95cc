/**
 * Imported subscriptions billed elsewhere on the lifecycle, on PGlite and PostgreSQL: the import
 * and the lifecycle's sweep and jobs run on the test clock, around each period end. A Stripe
 * subscription of an account that does not hear from Stripe, or an imported recurring one with no gateway named, keeps
 * access until its period end, is never reminded, charged or dunned, and ends quietly there;
 * staff (not the reader) can extend it. Not one e-mail is queued. An imported Razorpay
 * subscription is billed elsewhere too while the account does not hear from Razorpay; once it
 * does, Razorpay's word renews it, and the reader hears nothing while that word is on its way.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { systemActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { runImport } from "@/server/imports/runner";
import { receiveGatewayWebhook } from "@/server/subscriptions/payments/gateway-events";
import { grantsAccess } from "@/server/subscriptions/subscribers/subscription-state";
import { extendSubscription } from "@/server/subscriptions/subscribers/subscriptions";
import { now, resetClock, setClock } from "@/server/testing/clock";
import { razorpayStandIn } from "@/server/testing/gateway-checkout";
import { FIXTURES, importAccount, recurringPlans } from "@/server/testing/imports";
import { passTime } from "@/server/testing/lifecycle-clock";

import { subscriptionsSource } from "./subscriptions";

const NOW = new Date("2026-11-26T12:00:00Z");
const PLANS = path.join(FIXTURES, "subscriptions-plans.json");

/** Two rows of a system that names no gateway: one recurring, ending two days after the import. */
const NO_GATEWAY = [
  "email,name,plan,status,current_period_end,cancel_at_period_end,amount,currency,started_at",
  "nina@example.com,Nina,gold-monthly,active,2026-11-28T00:00:00Z,false,9.00,USD,2026-10-28T00:00:00Z",
].join("\n");

async function setup() {
  const db = await getDb();
  const account = await importAccount(db);
  await recurringPlans(db, account.id);
  return { db, accountId: account.id };
}

async function importFile(db: Db, accountId: number, file: string) {
  return runImport(db, {
    source: subscriptionsSource({ plans: PLANS }),
    file: { path: file, name: path.basename(file) },
    accountId,
    actor: systemActor(accountId, "import"),
    dryRun: false,
    now,
  });
}

/** A reader's subscription, by e-mail or by the gateway's subscription id. */
const subOf = (db: Db, accountId: number, key: string) =>
  db.subscription.findFirstOrThrow({ where: { accountId, OR: [{ member: { email: key } }, { paymentToken: key }] } });

const razorpayAccount = razorpayStandIn();
afterEach(() => resetClock());

describe("imported subscriptions billed elsewhere, on the lifecycle", () => {
  it("keep access until their period end, then end without a reminder, a charge, dunning or an e-mail", async () => {
    const { db, accountId } = await setup();
    setClock(NOW);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "subs-elsewhere-"));
    const noGateway = path.join(dir, "no-gateway.csv");
    await fs.writeFile(noGateway, NO_GATEWAY);
    const stripe = await importFile(db, accountId, path.join(FIXTURES, "subscriptions.csv"));
    const manual = await importFile(db, accountId, noGateway);
    await fs.rm(dir, { recursive: true });
    expect(stripe.kinds.subscription!.create).toBe(6);
    expect(manual.kinds.subscription!.create).toBe(1);
    expect(stripe.notes).toContain(
      "subscriptions billed by Stripe renew when it reports each charge: with its keys and webhook secret in Subscriptions → Payment gateways; until then they end quietly at their period end",
    );

    const mails = () => db.outgoingEmail.findMany({ where: { accountId }, select: { kind: true, to: true } });
    const state = async (email: string) => {
      const sub = await subOf(db, accountId, email);
      return { status: sub.status, access: grantsAccess(sub, now()), graceEndsAt: sub.graceEndsAt };
    };
    // Minutes after the quiet import, and the day before Nina's and Henry's (past_due) ends.
    await passTime(db, "2026-11-26T12:05:00Z");
    await passTime(db, "2026-11-27T23:59:00Z");
    expect(await state("nina@example.com")).toEqual({ status: "ACTIVE", access: true, graceEndsAt: null });
    await passTime(db, "2026-11-28T00:00:01Z");
    expect(await state("nina@example.com")).toEqual({ status: "EXPIRED", access: false, graceEndsAt: null });
    await passTime(db, "2026-11-29T23:59:00Z");
    expect(await state("henry@example.com")).toEqual({ status: "ACTIVE", access: true, graceEndsAt: null });
    // Henry's end, then a week later (where a grace period would have ended), Dave's trial end, Bob's end.
    for (const at of ["2026-11-30T00:00:01Z", "2026-12-08T00:00:00Z", "2026-12-10T00:00:01Z", "2027-01-15T00:00:01Z"])
      await passTime(db, at);
    for (const email of ["henry@example.com", "sub_DAVE", "bob@example.net"])
      expect(await state(email)).toEqual({ status: "EXPIRED", access: false, graceEndsAt: null });
    // Zoë cancelled: access until her end still.
    expect(await state("zoe@example.fr")).toMatchObject({ status: "CANCELLED", access: true });

    expect(await mails()).toEqual([]);
    expect(await db.dunningEpisode.count({ where: { subscription: { accountId } } })).toBe(0);
    expect(await db.payment.count({ where: { accountId } })).toBe(0);
    const events = await db.webhookEvent.findMany({ where: { accountId }, select: { name: true } });
    expect(new Set(events.map((e) => e.name))).toEqual(new Set(["subscription.expired"]));

    // Staff extend Henry's (the gateway still bills him); the reader cannot extend it himself.
    const henry = await subOf(db, accountId, "henry@example.com");
    await expect(
      extendSubscription(db, {
        accountId,
        caller: { via: "client_api", memberId: henry.memberId },
        id: henry.id,
        extendTo: "2027-02-28",
        now: now(),
      }),
    ).rejects.toThrow("A recurring subscription cannot be extended");
    await extendSubscription(db, {
      accountId,
      caller: { via: "dashboard", actor: systemActor(accountId, "staff-test") },
      id: henry.id,
      extendTo: "2027-02-28",
      now: now(),
    });
    expect(await state("henry@example.com")).toEqual({ status: "ACTIVE", access: true, graceEndsAt: null });
    await passTime(db, "2027-03-01T00:00:01Z");
    expect(await state("henry@example.com")).toEqual({ status: "EXPIRED", access: false, graceEndsAt: null });
    expect(await mails()).toEqual([]);
  });

  it("an imported Razorpay subscription ends quietly unless the account hears from Razorpay, whose word then renews it", async () => {
    setClock(NOW);
    const rows = (id: string) =>
      [
        "email,name,plan,status,current_period_end,cancel_at_period_end,gateway,gateway_subscription_id,amount,currency,started_at",
        `ravi@example.in,Ravi,gold-monthly,active,2026-11-28T00:00:00Z,false,razorpay,${id},9.00,USD,2026-10-28T00:00:00Z`,
      ].join("\n");
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "subs-razorpay-"));
    const deaf = await setup();
    const heard = await setup();
    const { fx } = await razorpayAccount(heard.db, heard.accountId);
    for (const [ctx, id] of [
      [deaf, "sub_DEAF"],
      [heard, "sub_HEARD"],
    ] as const) {
      const file = path.join(dir, `${id}.csv`);
      await fs.writeFile(file, rows(id));
      const report = await importFile(ctx.db, ctx.accountId, file);
      expect(report.kinds.subscription!.create).toBe(1);
      expect(report.notes).toContain(
        "subscriptions billed by Razorpay renew when it reports each charge: with its keys and webhook secret in Subscriptions → Payment gateways; until then they end quietly at their period end",
      );
    }
    await fs.rm(dir, { recursive: true });
    const { db } = heard;
    const state = async (accountId: number, id: string) => {
      const sub = await subOf(db, accountId, id);
      return { status: sub.status, access: grantsAccess(sub, now()), end: sub.endTimestamp?.toISOString() };
    };
    const mails = (accountId: number) => db.outgoingEmail.count({ where: { accountId } });

    // The period ends. Not heard: it ends. Heard: the reader keeps reading while Razorpay charges.
    await passTime(db, "2026-11-28T00:00:01Z");
    expect(await state(deaf.accountId, "sub_DEAF")).toMatchObject({ status: "EXPIRED", access: false });
    expect(await state(heard.accountId, "sub_HEARD")).toMatchObject({ status: "ACTIVE", access: true });
    // Razorpay's charge, an hour late: the next period, and no mail to anyone.
    setClock(new Date("2026-11-28T01:00:00Z"));
    const payment = fx.pay({ subscriptionId: "sub_HEARD", amount: 900, currency: "USD" }).payment;
    const hook = fx.webhook("subscription.charged", {
      subscription: { id: "sub_HEARD", entity: "subscription", status: "active", notes: [] },
      payment,
    });
    await receiveGatewayWebhook(db, {
      provider: "razorpay",
      accountId: heard.accountId,
      headers: new Headers(hook.headers),
      rawBody: hook.body,
      now: now(),
    });
    await passTime(db, "2026-11-28T01:00:01Z");
    expect(await state(heard.accountId, "sub_HEARD")).toEqual({
      status: "ACTIVE",
      access: true,
      end: "2026-12-28T00:00:00.000Z",
    });
    await passTime(db, "2026-11-30T00:00:00Z");
    expect(await mails(deaf.accountId)).toBe(0);
    expect(await mails(heard.accountId)).toBe(0);
    expect(await db.dunningEpisode.count({ where: { subscription: { accountId: heard.accountId } } })).toBe(0);
  });
});
