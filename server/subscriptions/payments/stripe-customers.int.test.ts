/**
 * One Stripe customer per reader, by the real checkout routes against the fake Stripe server, on
 * PGlite and PostgreSQL: a known reader's recurring subscriptions and one-time PaymentIntents share
 * one customer (recorded in member_gateway_customers), two previews at once still make one, a
 * customer deleted at Stripe is replaced, the customer's e-mail follows the reader's, and guests
 * without a record keep a customer per attempt.
 */
import { describe, expect, it } from "vitest";

import { POST as GUEST_PREVIEW } from "@/app/api/access/v1/subscription-without-login/preview/route";
import { POST as SERVER_CREATE } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions.json/route";
import { POST as SERVER_PREVIEW } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions/preview.json/route";
import { getDb } from "@/server/db";
import { resolveSubscriber } from "@/server/subscriptions/subscribers/subscribers";
import { createCheckoutFixture } from "@/server/testing/checkout";
import { call } from "@/server/testing/engagement";
import { stripeStandIn } from "@/server/testing/stripe-checkout";

const stripeAccount = stripeStandIn();

type Preview = { external_reference_id: string; attempt_token: string };

async function setup() {
  const db = await getDb();
  const f = await createCheckoutFixture(db);
  const { fake } = await stripeAccount(db, f.account.id);
  const identity = "ada-customer@example.com";
  const member = (await resolveSubscriber(db, {
    accountId: f.account.id,
    provider: "email",
    identity,
    create: true,
    now: new Date(),
  }))!;
  await db.member.update({ where: { id: member.id }, data: { communicationEmail: identity } });
  const previewAs = async (who: { provider: string; identity: string }, subscription: Record<string, unknown>) => {
    const res = await call(SERVER_PREVIEW, "POST", "/x", who, { subscription }, { "x-subauth": f.serverKey });
    const body = (await res.json()) as Preview;
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const ada = { provider: "email", identity };
  const recurring = {
    subscription_plan_id: f.trial.id,
    trial_period: false,
    payment: { payment_type: "stripe_recurring" },
  };
  const oneTime = { subscription_plan_id: f.monthly.id, payment: { payment_type: "stripe", amount_currency: "USD" } };
  const customerOf = (p: Preview) => {
    const id = p.external_reference_id;
    const object = id.startsWith("sub_") ? fake.state.subscriptions.get(id) : fake.state.paymentIntents.get(id);
    return object!.customer as string;
  };
  const recorded = () =>
    db.memberGatewayCustomer.findMany({ where: { accountId: f.account.id }, orderBy: { id: "asc" } });
  return { db, f, fake, member, ada, previewAs, recurring, oneTime, customerOf, recorded };
}

describe("one Stripe customer per reader", () => {
  it("makes a known reader's customer once and reuses it for subscriptions and one-time payments", async () => {
    const { fake, member, ada, previewAs, recurring, oneTime, customerOf, recorded, f } = await setup();
    const first = await previewAs(ada, recurring);
    const customer = customerOf(first);
    expect(customer).toMatch(/^cus_/);
    expect(fake.state.customers.get(customer)).toMatchObject({
      email: "ada-customer@example.com",
      metadata: { account_id: String(f.account.id), member_id: String(member.id) },
    });
    expect(await recorded()).toEqual([
      expect.objectContaining({
        memberId: member.id,
        provider: "stripe",
        environment: "sandbox",
        externalCustomerId: customer,
      }),
    ]);

    const second = await previewAs(ada, recurring);
    const payment = await previewAs(ada, oneTime);
    expect(customerOf(second)).toBe(customer);
    expect(customerOf(payment)).toBe(customer);
    expect(fake.state.customers.size).toBe(1);
    expect(fake.calls.filter((c) => c.method === "POST" && c.path === "/v1/customers")).toHaveLength(1);
    expect(await recorded()).toHaveLength(1);
  });

  it("makes one customer when two previews of the same reader run at once", async () => {
    const { fake, ada, previewAs, recurring, oneTime, customerOf, recorded } = await setup();
    const [a, b, c] = await Promise.all([
      previewAs(ada, recurring),
      previewAs(ada, recurring),
      previewAs(ada, oneTime),
    ]);
    expect(new Set([customerOf(a), customerOf(b), customerOf(c)]).size).toBe(1);
    const live = [...fake.state.customers.values()].filter((x) => !x.deleted);
    expect(live).toHaveLength(1);
    expect(await recorded()).toHaveLength(1);
    expect((await recorded())[0]!.externalCustomerId).toBe(customerOf(a));
  });

  it("replaces a customer deleted at Stripe, and brings its e-mail up to the reader's", async () => {
    const { db, fake, member, ada, previewAs, recurring, customerOf, recorded } = await setup();
    const first = customerOf(await previewAs(ada, recurring));

    await db.member.update({ where: { id: member.id }, data: { communicationEmail: "ada.new@example.com" } });
    const again = customerOf(await previewAs(ada, recurring));
    expect(again).toBe(first);
    expect(fake.state.customers.get(first)!.email).toBe("ada.new@example.com");

    fake.state.customers.set(first, { id: first, object: "customer", deleted: true });
    const replaced = customerOf(await previewAs(ada, recurring));
    expect(replaced).not.toBe(first);
    expect(fake.state.customers.get(replaced)!.email).toBe("ada.new@example.com");
    expect((await recorded()).map((r) => r.externalCustomerId)).toEqual([replaced]);
  });

  it("gives guests without a subscriber record a customer per attempt, and other readers their own", async () => {
    const { fake, f, ada, previewAs, recurring, customerOf, recorded } = await setup();
    const guest = async () => {
      const res = await call(
        GUEST_PREVIEW,
        "POST",
        `/x?key=${f.key}`,
        {},
        { emailAddress: "gus@example.com", subscription: recurring },
      );
      const body = (await res.json()) as Preview;
      expect(res.status, JSON.stringify(body)).toBe(200);
      return body;
    };
    const g1 = customerOf(await guest());
    const g2 = customerOf(await guest());
    expect(g1).not.toBe(g2);
    expect(await recorded()).toEqual([]);

    const adaCustomer = customerOf(await previewAs(ada, recurring));
    const bob = { provider: "email", identity: "bob-customer@example.com" };
    await resolveSubscriber(await getDb(), { accountId: f.account.id, ...bob, create: true, now: new Date() });
    const bobCustomer = customerOf(await previewAs(bob, recurring));
    expect(bobCustomer).not.toBe(adaCustomer);
    expect((await recorded()).map((r) => r.externalCustomerId)).toEqual([adaCustomer, bobCustomer]);
    expect(fake.state.customers.size).toBe(4);
  });

  it("keeps the customer of a new reader's first subscription as theirs once the create makes their record", async () => {
    const { db, f, fake, previewAs, recurring, customerOf, recorded } = await setup();
    const cleo = { provider: "email", identity: "cleo-customer@example.com" };
    const first = await previewAs(cleo, recurring);
    const customer = customerOf(first);
    expect(await recorded()).toEqual([]);
    const sub = fake.state.subscriptions.get(first.external_reference_id)!;
    fake.pay(fake.state.invoices.get(sub.latest_invoice as string)!.payment_intent_id as string, "succeeded");
    const res = await call(
      SERVER_CREATE,
      "POST",
      "/x",
      cleo,
      {
        subscription: {
          ...recurring,
          payment: { payment_type: "stripe_recurring", amount_cents: 1000, payment_token: first.external_reference_id },
        },
        attempt_token: first.attempt_token,
      },
      { "x-subauth": f.serverKey },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const member = await db.member.findFirstOrThrow({ where: { accountId: f.account.id, email: cleo.identity } });
    expect((await recorded()).map((r) => [r.memberId, r.externalCustomerId])).toEqual([[member.id, customer]]);
    expect(customerOf(await previewAs(cleo, recurring))).toBe(customer);
  });
});
