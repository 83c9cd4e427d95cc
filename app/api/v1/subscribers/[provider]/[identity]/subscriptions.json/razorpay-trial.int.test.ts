/**
 * A trial through razorpay_recurring, against the Razorpay stand-in (server/testing/razorpay-fixture.ts)
 * on PGlite and PostgreSQL: the preview creates the Razorpay subscription starting at the trial's
 * end, Checkout's payment is the 5-unit authorization, and Razorpay's signed subscription.charged
 * webhooks (through the webhook route) pay the first period from the trial's end (the end checkout
 * set does not move) and then one period each; a redelivered event, also two at once, changes
 * nothing. A coupon on a Razorpay subscription is refused, saying why.
 */
import { afterEach, describe, expect, it } from "vitest";

import { postGatewayWebhook } from "@/app/api/v1/payment_gateways/[provider]/webhooks/[account_id]/post-webhook";
import { getDb } from "@/server/db";
import { addDuration } from "@/server/subscriptions/subscribers/subscription-state";
import { createCheckoutFixture } from "@/server/testing/checkout";
import { serverCreate, serverPreview, type Answer } from "@/server/testing/checkout-calls";
import { now, resetClock, setClock } from "@/server/testing/clock";
import { razorpayStandIn } from "@/server/testing/gateway-checkout";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";

const razorpayAccount = razorpayStandIn();
afterEach(() => resetClock());

const ada = { provider: "email", identity: "ada-razorpay@example.com" };
const deps = () => testJobDeps({ clock: now });

async function setup() {
  const db = await getDb();
  const f = await createCheckoutFixture(db);
  const { fx } = await razorpayAccount(db, f.account.id);
  await db.subscriptionPlan.update({
    where: { id: f.trial.id },
    data: { metadata: { razorpay_plan_id: "plan_Monthly000001" } },
  });
  const preview = (subscription: Record<string, unknown>) => serverPreview(f, subscription, {}, ada);
  const create = (subscription: Record<string, unknown>, attemptToken: string) =>
    serverCreate(f, { subscription, attempt_token: attemptToken }, ada);
  const webhook = (hook: { body: string; headers: Record<string, string> }) =>
    postGatewayWebhook("razorpay", f.account.id, hook);
  return { db, f, fx, preview, create, webhook };
}

describe("a trial through Razorpay", () => {
  it("authorizes at checkout, charges the plan's price from the trial's end, then one period per renewal", async () => {
    const { db, f, fx, preview, create, webhook } = await setup();
    const subscription = {
      subscription_plan_id: f.trial.id,
      payment: { payment_type: "razorpay_recurring", amount_currency: "USD" },
    };
    const res = await preview(subscription);
    const previewed = (await res.json()) as Answer;
    expect(res.status, JSON.stringify(previewed)).toBe(200);
    expect(previewed.subscription).toMatchObject({ payment_amount_cents: 500, total_amount_cents: 1000 });
    const gatewaySub = previewed.external_reference_id;
    expect(gatewaySub).toMatch(/^sub_/);

    // Checkout: the reader authorises the card with Razorpay's 5-unit authorization.
    const { checkout } = fx.pay({ subscriptionId: gatewaySub, amount: 500, currency: "USD" });
    const made = await create(
      {
        ...subscription,
        payment: {
          ...subscription.payment,
          amount_cents: 500,
          payment_token: checkout.razorpay_payment_id,
          razorpay_signature: checkout.razorpay_signature,
        },
      },
      previewed.attempt_token,
    );
    const body = (await made.json()) as { subscription: { id: number } };
    expect(made.status, JSON.stringify(body)).toBe(201);
    const row = await db.subscription.findUniqueOrThrow({ where: { id: body.subscription.id } });
    const trialEnd = row.trialEndsAt!;
    const firstEnd = addDuration(trialEnd, 1, "MONTHS")!;
    expect(row).toMatchObject({ status: "ACTIVE", paymentAmountCents: 1000, paymentAmountCurrency: "USD" });
    expect(row.endTimestamp?.toISOString()).toBe(firstEnd.toISOString());
    expect(row.nextPaymentDueDate?.toISOString()).toBe(trialEnd.toISOString());
    // Razorpay was asked for a subscription whose first charge is at the trial's end, without an offer.
    const asked = fx.calls.find((c) => c.method === "POST" && c.path === "/v1/subscriptions")!.body!;
    expect(asked).toMatchObject({ plan_id: "plan_Monthly000001", quantity: 1 });
    expect(asked).not.toHaveProperty("offer_id");
    expect(Math.abs((asked.start_at as number) - trialEnd.getTime() / 1000)).toBeLessThanOrEqual(5);

    const gatewayState = { id: gatewaySub, entity: "subscription", status: "active", notes: [] };
    const charge = (
      eventId: string,
      payment = fx.pay({ subscriptionId: gatewaySub, amount: 1000, currency: "USD" }).payment,
    ) =>
      Object.assign(fx.webhook("subscription.charged", { subscription: gatewayState, payment }, eventId), { payment });
    const state = async () => {
      const sub = await db.subscription.findUniqueOrThrow({ where: { id: row.id } });
      const charges = await db.payment.findMany({
        where: { subscriptionId: row.id, attemptId: null },
        orderBy: { id: "asc" },
      });
      return {
        status: sub.status,
        end: sub.endTimestamp?.toISOString(),
        next: sub.nextPaymentDueDate?.toISOString(),
        charges: charges.map((p) => {
          const period = (p.details as { recurring_charge: { period_start: string; period_end: string } })
            .recurring_charge;
          return [p.status, p.amountCents, p.currency, period.period_start, period.period_end];
        }),
      };
    };

    // The trial ends: Razorpay charges the plan's price. Delivered twice at once, and again later.
    setClock(new Date(trialEnd.getTime() + 60_000));
    const first = charge("evt_trial_end");
    const answers = await Promise.all([webhook(first), webhook(first)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const statuses = await Promise.all(answers.map(async (a) => ((await a.json()) as { status: string }).status));
    expect(statuses.sort()).toEqual(["accepted", "duplicate"]);
    await Promise.all([runJobsNow(db, deps(), "worker-a"), runJobsNow(db, deps(), "worker-b")]);
    await runJobsNow(db, deps());
    const afterTrial = {
      status: "ACTIVE",
      end: firstEnd.toISOString(),
      next: firstEnd.toISOString(),
      charges: [["CAPTURED", 1000, "USD", trialEnd.toISOString(), firstEnd.toISOString()]],
    };
    expect(await state()).toEqual(afterTrial);
    expect(((await (await webhook(first)).json()) as { status: string }).status).toBe("duplicate");
    // The same payment in another event (Razorpay's payment id is the key): counted once.
    expect(
      ((await (await webhook(charge("evt_same_payment", first.payment))).json()) as { status: string }).status,
    ).toBe("accepted");
    await runJobsNow(db, deps());
    expect(await state()).toEqual(afterTrial);

    // A forged delivery is refused and changes nothing.
    const forged = charge("evt_forged");
    const refused = await webhook({
      ...forged,
      headers: { ...forged.headers, "x-razorpay-signature": "0".repeat(64) },
    });
    expect(refused.status).toBe(401);

    // The renewal a month later: one more period, at the same price.
    setClock(new Date(firstEnd.getTime() + 60_000));
    const renewal = charge("evt_renewal_1");
    expect(((await (await webhook(renewal)).json()) as { status: string }).status).toBe("accepted");
    await runJobsNow(db, deps());
    const secondEnd = addDuration(firstEnd, 1, "MONTHS")!;
    expect(await state()).toEqual({
      status: "ACTIVE",
      end: secondEnd.toISOString(),
      next: secondEnd.toISOString(),
      charges: [
        ["CAPTURED", 1000, "USD", trialEnd.toISOString(), firstEnd.toISOString()],
        ["CAPTURED", 1000, "USD", firstEnd.toISOString(), secondEnd.toISOString()],
      ],
    });
    await webhook(renewal);
    await runJobsNow(db, deps());
    expect((await state()).end).toBe(secondEnd.toISOString());
    // Each charge is invoiced at the plan's price; the authorization is not.
    const invoices = await db.invoice.findMany({ where: { subscriptionId: row.id }, orderBy: { id: "asc" } });
    expect(invoices.map((i) => i.amountCents)).toEqual([1000, 1000]);
  });

  it("refuses a coupon on a Razorpay subscription, saying why; a one-time Razorpay order takes it", async () => {
    const { db, f, fx, preview } = await setup();
    await db.coupon.create({
      data: {
        accountId: f.account.id,
        code: "WELCOME20",
        discountType: "PERCENT",
        percentOff: 20,
        validFrom: new Date(Date.now() - 86_400_000),
      },
    });
    const res = await preview({
      subscription_plan_id: f.trial.id,
      coupon_code: "WELCOME20",
      payment: { payment_type: "razorpay_recurring", amount_currency: "USD" },
    });
    const refused = (await res.json()) as { error: { message: string; details: { field: string; issue: string }[] } };
    expect(res.status).toBe(422);
    expect(refused.error.details).toEqual([
      {
        field: "subscription.coupon_code",
        issue: "cannot be used with Razorpay subscriptions: Razorpay would charge the plan's full price each period",
      },
    ]);
    expect(fx.calls.filter((c) => c.path === "/v1/subscriptions")).toEqual([]);

    // A one-time plan bought through a Razorpay order: the order is for the discounted amount.
    const oneTime = await preview({
      subscription_plan_id: f.monthly.id,
      coupon_code: "WELCOME20",
      payment: { payment_type: "razorpay", amount_currency: "USD" },
    });
    expect(oneTime.status, await oneTime.clone().text()).toBe(200);
    expect(fx.calls.find((c) => c.path === "/v1/orders")?.body).toMatchObject({ amount: 800, currency: "USD" });
  });
});
