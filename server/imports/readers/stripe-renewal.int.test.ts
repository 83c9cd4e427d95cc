/**
 * Subscriptions moved in from a Ghost site on Stripe (its members export, then Stripe's
 * subscriptions export, as docs/migration.md orders them), on PGlite and PostgreSQL: once the account hears from Stripe (keys and
 * webhook secret saved), each keeps renewing on Stripe. The Stripe side is the fake Stripe server,
 * reached through the official SDK, on the test clock; its subscription is made there before the
 * export is taken, and renewed there at its period end, with the webhook Stripe would send.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";

import { systemActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { runImport } from "@/server/imports/runner";
import { receiveGatewayWebhook } from "@/server/subscriptions/payments/gateway-events";
import { grantsAccess } from "@/server/subscriptions/subscribers/subscription-state";
import { now, resetClock, setClock } from "@/server/testing/clock";
import type { FakeStripe } from "@/server/testing/fake-stripe";
import { recurringPlans } from "@/server/testing/imports";
import { passTime, runDueJobs } from "@/server/testing/lifecycle-clock";
import { stripeStandIn } from "@/server/testing/stripe-checkout";

import { ghostMembersSourceWith } from "./ghost-members";
import { subscriptionsSource } from "./subscriptions";

const STRIPE_EXPORT_HEADER =
  "id,Customer ID,Customer Email,Plan,Product,Quantity,Currency,Interval,Amount,Status,Created (UTC),Current Period Start (UTC),Current Period End (UTC),Cancel At Period End,Customer Name";

const stripeAccount = stripeStandIn({ clock: () => now().getTime() });
afterEach(() => resetClock());

/** A reader's monthly Stripe subscription of $9, paid at Stripe a month before the import. */
async function subscribedAtStripe(fake: FakeStripe, email: string) {
  const stripe = new Stripe(fake.secretKey, { ...fake.sdkOptions, maxNetworkRetries: 0 });
  const customer = await stripe.customers.create({ email, name: "Rosa" });
  const product = await stripe.products.create({ name: "Gold" });
  const sub = await stripe.subscriptions.create({
    customer: customer.id,
    items: [
      { price_data: { currency: "usd", product: product.id, unit_amount: 900, recurring: { interval: "month" } } },
    ],
    payment_behavior: "default_incomplete",
    payment_settings: { save_default_payment_method: "on_subscription" },
  });
  const piOfFirstInvoice = fake.state.invoices.get(sub.latest_invoice as string)!.payment_intent_id as string;
  fake.pay(piOfFirstInvoice, "succeeded", { brand: "visa", last4: "4242" });
  const after = fake.subscription(sub.id) as { status: string; items: { data: { current_period_end: number }[] } };
  expect(after.status).toBe("active");
  return { sub, customer, price: sub.items.data[0]!.price.id, end: after.items.data[0]!.current_period_end };
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const utc = (seconds: number) => iso(seconds).slice(0, 16).replace("T", " ");

/** Stripe's event for `object`, signed now (the webhook check's clock is the real one), received. */
async function deliver(
  db: Db,
  fake: FakeStripe,
  accountId: number,
  type: string,
  object: Record<string, unknown>,
  previousAttributes?: Record<string, unknown>,
) {
  const hook = fake.webhook(type, object, { timestamp: Math.floor(Date.now() / 1000), previousAttributes });
  const received = await receiveGatewayWebhook(db, {
    provider: "stripe",
    accountId,
    headers: new Headers(hook.headers),
    rawBody: hook.body,
    now: now(),
  });
  expect(received.status).toBe("accepted");
  await runDueJobs(db);
}

/**
 * Rosa's Stripe subscription, moved in a month after she subscribed, and renewed by Stripe at its
 * period end: checked on the way, answered with what the tests need. `export`: the Ghost members
 * are imported before Stripe is connected, then Stripe's export links her subscription by her
 * customer; `ghost`: Stripe is connected first and the members import reads it from Stripe
 * (Stripe's export, imported after, finds it there already).
 */
async function movedInAndRenewed(via: "export" | "ghost" = "export") {
  const db = await getDb();
  setClock(new Date("2026-10-28T12:00:00Z"));
  const { fake, accountId } = await stripeAccount(db);
  await recurringPlans(db, accountId);
  const rosa = await subscribedAtStripe(fake, "rosa@example.org");

  // A month on, the old site's owner exports Stripe's subscriptions and imports them here.
  setClock(new Date("2026-11-26T12:00:00Z"));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "stripe-moved-"));
  const file = path.join(dir, "subscriptions.csv");
  const plans = path.join(dir, "plans.json");
  // First the Ghost site's members export: Rosa, a paying member, with her Stripe customer.
  const members = path.join(dir, "members.csv");
  await fs.writeFile(
    members,
    [
      "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers",
      `5f00000000000000000000aa,Rosa@Example.org,Rosa Luz,,false,false,${rosa.customer.id},2026-10-28T12:00:00.000Z,,,Gold`,
    ].join("\n"),
  );
  await fs.writeFile(plans, JSON.stringify({ plans: { [rosa.price]: "Gold monthly" } }));
  const connected = (enabled: boolean) =>
    db.paymentGateway.update({ where: { accountId_provider: { accountId, provider: "stripe" } }, data: { enabled } });
  if (via === "export") await connected(false);
  const ghost = await runImport(db, {
    source: ghostMembersSourceWith({ plans }),
    file: { path: members, name: "members.csv" },
    accountId,
    actor: systemActor(accountId, "import"),
    dryRun: false,
    now,
  });
  expect(ghost.kinds.member!.create).toBe(1);
  expect(ghost.kinds.subscription?.create ?? 0).toBe(via === "ghost" ? 1 : 0);
  await connected(true);
  // Then Stripe's subscriptions export, its row naming the customer only (no e-mail).
  await fs.writeFile(
    file,
    [
      STRIPE_EXPORT_HEADER,
      `${rosa.sub.id},${rosa.customer.id},,${rosa.price},prod_GOLD,1,usd,month,9.00,active,${utc(rosa.sub.created)},${utc(rosa.sub.created)},${utc(rosa.end)},false,Rosa`,
    ].join("\n"),
  );
  const report = await runImport(db, {
    source: subscriptionsSource({ plans }),
    file: { path: file, name: "subscriptions.csv" },
    accountId,
    actor: systemActor(accountId, "import"),
    dryRun: false,
    now,
  });
  await fs.rm(dir, { recursive: true });
  expect(report.kinds.subscription!.create).toBe(via === "export" ? 1 : 0);
  expect((via === "export" ? report : ghost).notes).toContain(
    "subscriptions billed by Stripe renew when it reports each charge: with its keys and webhook secret in Subscriptions → Payment gateways; until then they end quietly at their period end",
  );
  const state = async () => {
    const sub = await db.subscription.findFirstOrThrow({ where: { accountId, gatewaySubscriptionId: rosa.sub.id } });
    return {
      paymentType: sub.paymentType,
      status: sub.status,
      access: grantsAccess(sub, now()),
      end: sub.endTimestamp?.toISOString(),
      grace: sub.graceEndsAt !== null && sub.gatewayWordDueAt === null,
    };
  };
  expect(await state()).toEqual({
    paymentType: "stripe_recurring",
    status: "ACTIVE",
    access: true,
    end: iso(rosa.end),
    grace: false,
  });
  // One reader: the Ghost member holds the subscription.
  const holder = await db.subscription.findFirstOrThrow({
    where: { accountId, gatewaySubscriptionId: rosa.sub.id },
    select: { member: { select: { email: true, name: true } } },
  });
  expect(holder.member).toMatchObject({ email: "rosa@example.org", name: "Rosa Luz" });

  // Rosa changes her card in Stripe's Customer Portal: the payment token becomes the new card,
  // and Stripe's webhooks still find her subscription by its Stripe id.
  const card = fake.state.createPaymentMethod({ brand: "mastercard", last4: "4444", customer: rosa.customer.id });
  fake.state.subscriptions.get(rosa.sub.id)!.default_payment_method = card.id;
  await deliver(db, fake, accountId, "customer.subscription.updated", fake.subscription(rosa.sub.id), {
    default_payment_method: "pm_OLD",
  });
  const changed = await db.subscription.findFirstOrThrow({ where: { accountId, gatewaySubscriptionId: rosa.sub.id } });
  expect(changed.paymentToken).toBe(card.id);

  // The period ends: the reader keeps reading, in no grace period, while Stripe charges.
  await passTime(db, new Date((rosa.end + 1) * 1000).toISOString());
  expect(await state()).toMatchObject({ status: "ACTIVE", access: true, grace: false });
  // Stripe renews the subscription an hour later and says so (invoice.paid).
  setClock(new Date((rosa.end + 3600) * 1000));
  const renewed = fake.renew(rosa.sub.id);
  await deliver(db, fake, accountId, "invoice.paid", renewed.invoice);
  await passTime(db, new Date((rosa.end + 3601) * 1000).toISOString());
  const next = (fake.subscription(rosa.sub.id) as { items: { data: { current_period_end: number }[] } }).items.data[0]!;
  expect(await state()).toEqual({
    paymentType: "stripe_recurring",
    status: "ACTIVE",
    access: true,
    end: iso(next.current_period_end),
    grace: false,
  });
  const payments = await db.payment.findMany({
    where: { accountId },
    select: { externalPaymentId: true, amountCents: true },
  });
  expect(payments).toEqual([{ externalPaymentId: renewed.invoice.id, amountCents: 900 }]);
  return { db, fake, accountId, rosa, renewed };
}

describe("Stripe subscriptions moved in", () => {
  it("renew on Stripe at their period end, with no mail while Stripe's word is on its way", async () => {
    const { db, accountId, rosa } = await movedInAndRenewed();
    // Days later, nothing has been mailed to anyone and nobody was dunned.
    await passTime(db, new Date((rosa.end + 5 * 86_400) * 1000).toISOString());
    expect(await db.outgoingEmail.count({ where: { accountId } })).toBe(0);
    expect(await db.dunningEpisode.count({ where: { subscription: { accountId } } })).toBe(0);
  });

  it("are read from Stripe by the Ghost members import when Stripe is connected, and renew there the same", async () => {
    const { db, accountId, rosa } = await movedInAndRenewed("ghost");
    const linked = await db.subscription.findFirstOrThrow({ where: { accountId, gatewaySubscriptionId: rosa.sub.id } });
    expect(linked.metadata).toMatchObject({ imported_from: { source: "ghost-members", gateway: "stripe" } });
    expect(await db.subscription.count({ where: { accountId } })).toBe(1);
    expect(await db.outgoingEmail.count({ where: { accountId } })).toBe(0);
  });

  it("a renewal refunded or disputed at Stripe reaches the payment recorded by its invoice", async () => {
    const { db, fake, accountId, renewed } = await movedInAndRenewed();
    const payment = await db.payment.findFirstOrThrow({
      where: { accountId, externalPaymentId: renewed.invoice.id as string },
    });
    const paymentIntent = renewed.paymentIntent.id as string;
    // Staff refund $3 on Stripe's dashboard: the event names the PaymentIntent, not the invoice.
    const refund = fake.state.refund({ paymentIntent, amount: 300 });
    await deliver(db, fake, accountId, "refund.created", refund);
    await deliver(db, fake, accountId, "refund.created", refund);
    const refunds = await db.paymentRefund.findMany({
      where: { paymentId: payment.id },
      select: { amountCents: true, status: true, externalRefundId: true },
    });
    expect(refunds).toEqual([{ amountCents: 300, status: "SUCCEEDED", externalRefundId: refund.id }]);
    expect(await db.creditNote.count({ where: { accountId } })).toBe(1);
    // The reader's bank disputes the rest.
    const dispute = {
      id: "dp_RENEWAL1",
      object: "dispute",
      amount: 600,
      currency: "usd",
      charge: renewed.paymentIntent.latest_charge,
      payment_intent: paymentIntent,
      reason: "fraudulent",
      status: "needs_response",
      created: Math.floor(now().getTime() / 1000),
      livemode: false,
      metadata: {},
    };
    await deliver(db, fake, accountId, "charge.dispute.created", dispute);
    const disputes = await db.paymentDispute.findMany({
      where: { paymentId: payment.id },
      select: { externalDisputeId: true, amountCents: true, status: true },
    });
    expect(disputes).toEqual([{ externalDisputeId: "dp_RENEWAL1", amountCents: 600, status: "open" }]);
  });
});
