/**
 * The revenue dashboard's subscriber lookup (subscribers.search: one box, any identity) and a
 * subscriber's activity (revenue.subscriberActivity: payments with refunds, webhooks about them).
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { addSubscriberIdentity } from "@/server/subscriptions/subscribers/subscribers";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";
import {
  insertTestGroup,
  insertTestPlan,
  insertTestSubscriber,
  insertTestSubscription,
} from "@/server/testing/subscription-fixtures";

describe("subscriber lookup and activity", () => {
  it("finds a subscriber by e-mail, phone, provider:identity, member id and subscription external id", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const ada = await insertTestSubscriber(db, accountId, "ada@example.com");
    const bo = await insertTestSubscriber(db, accountId, "bo@example.com");
    const at = { provider: "email", identity: "ada@example.com" };
    const now = new Date();
    await addSubscriberIdentity(db, { accountId, at, add: { provider: "phone", value: "+14155550123" }, now });
    await addSubscriberIdentity(db, { accountId, at, add: { provider: "wordpress", value: "wp-77" }, now });
    const plan = await insertTestPlan(db, await insertTestGroup(db, accountId));
    const sub = await insertTestSubscription(db, { accountId, memberId: ada.id, planId: plan.id });
    await db.subscription.update({ where: { id: sub.id }, data: { externalId: "order-ext-9" } });

    const find = async (q: string) => (await revenue.caller.subscribers.search({ q, who: "all" })).map((s) => s.id);
    expect(await find("ADA@example.com")).toEqual([ada.id]);
    expect(await find("+14155550123")).toEqual([ada.id]);
    expect(await find("phone:+14155550123")).toEqual([ada.id]);
    expect(await find("wordpress:wp-77")).toEqual([ada.id]);
    expect(await find("email:bo@example.com")).toEqual([bo.id]);
    expect(await find("wordpress:wp-7")).toEqual([]);
    expect(await find("order-ext-9")).toEqual([ada.id]);
    expect(await find(`#${bo.id}`)).toEqual([bo.id]);
    expect(await find(String(bo.id))).toContain(bo.id);
    expect(await find("99999999999")).toEqual([]);
  });

  it("lists paying subscribers by default, every member on request, each with e-mail and standing", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const plan = await insertTestPlan(db, await insertTestGroup(db, accountId));
    const make = (email: string) => insertTestSubscriber(db, accountId, email);
    const [paying, trial, lapsed, failed, reader] = [
      await make("paying@example.com"),
      await make("trial@example.com"),
      await make("lapsed@example.com"),
      await make("failed@example.com"),
      await make("reader@example.com"),
    ];
    const day = 86_400_000;
    await insertTestSubscription(db, { accountId, memberId: paying.id, planId: plan.id });
    const t = await insertTestSubscription(db, { accountId, memberId: trial.id, planId: plan.id });
    await db.subscription.update({ where: { id: t.id }, data: { trialEndsAt: new Date(Date.now() + 7 * day) } });
    await insertTestSubscription(db, {
      accountId,
      memberId: lapsed.id,
      planId: plan.id,
      status: "EXPIRED",
      start: new Date(Date.now() - 60 * day),
      end: new Date(Date.now() - 30 * day),
    });
    await insertTestSubscription(db, { accountId, memberId: failed.id, planId: plan.id, status: "FAILED" });

    const list = async (who?: "paying" | "all") =>
      (await revenue.caller.subscribers.search(who ? { who } : {}))
        .map((s) => [s.email, s.standing])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(await list()).toEqual([
      ["lapsed@example.com", "lapsed"],
      ["paying@example.com", "active"],
      ["trial@example.com", "trial"],
    ]);
    expect(await list("all")).toEqual([
      ["failed@example.com", "none"],
      ["lapsed@example.com", "lapsed"],
      ["paying@example.com", "active"],
      ["reader@example.com", "none"],
      ["trial@example.com", "trial"],
    ]);
    expect((await revenue.caller.subscribers.search({ q: "reader@" })).map((s) => s.id)).toEqual([]);
    expect((await revenue.caller.subscribers.search({ q: "reader@", who: "all" })).map((s) => s.id)).toEqual([
      reader.id,
    ]);
    expect(await trpcCodeOf(revenue.caller.subscribers.search({ who: "everyone" as "all" }))).toBe("BAD_REQUEST");
  });

  it("lists a subscriber's payments with refunds and the subscription webhooks about them", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const stranger = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const plan = await insertTestPlan(db, await insertTestGroup(db, accountId));
    const ada = await insertTestSubscriber(db, accountId, "ada@example.com");
    const bo = await insertTestSubscriber(db, accountId, "bo@example.com");
    const mine = await insertTestSubscription(db, { accountId, memberId: ada.id, planId: plan.id });
    const theirs = await insertTestSubscription(db, { accountId, memberId: bo.id, planId: plan.id });
    const payment = await db.payment.create({
      data: {
        accountId,
        subscriptionId: mine.id,
        paymentType: "manual",
        amountCents: 1_000,
        currency: "EUR",
        status: "CAPTURED",
      },
    });
    await db.payment.create({
      data: {
        accountId,
        subscriptionId: theirs.id,
        paymentType: "manual",
        amountCents: 5,
        currency: "EUR",
        status: "CAPTURED",
      },
    });
    await revenue.caller.revenue.refund({ paymentId: payment.id, amountCents: 250, reason: "goodwill" });

    const endpoint = await db.webhookEndpoint.create({
      data: {
        accountId,
        kind: "SUBSCRIPTION",
        url: "https://hooks.example.com/subs",
        events: ["subscription.created"],
      },
    });
    const event = (name: string, payload: object) =>
      db.webhookEvent.create({ data: { accountId, kind: "SUBSCRIPTION", name, payload, occurredAt: new Date() } });
    const created = await event("subscription.created", { subscription: { id: mine.id, subscriber: { id: ada.id } } });
    await db.webhookDelivery.create({
      data: { eventId: created.id, endpointId: endpoint.id, status: "FAILED", attemptCount: 3, lastStatusCode: 500 },
    });
    await event("subscriber.created", { subscriber: { id: ada.id } });
    await event("subscription.created", { subscription: { id: theirs.id, subscriber: { id: bo.id } } });

    const activity = await revenue.caller.revenue.subscriberActivity({ memberId: ada.id });
    expect(activity.payments).toHaveLength(1);
    expect(activity.payments[0]).toMatchObject({
      id: payment.id,
      subscription_id: mine.id,
      amount_cents: 1_000,
      refunded_cents: 250,
      status: "captured",
      refunds: [{ amount_cents: 250, status: "succeeded", reason: "goodwill", by: "Staff Member" }],
    });
    expect(activity.webhooks.map((w) => w.name).sort()).toEqual(["subscriber.created", "subscription.created"]);
    const delivered = activity.webhooks.find((w) => w.name === "subscription.created")!;
    expect(delivered).toMatchObject({
      subscription_id: mine.id,
      deliveries: [
        { endpoint_url: "https://hooks.example.com/subs", status: "failed", attempts: 3, last_status_code: 500 },
      ],
    });
    expect(await trpcCodeOf(stranger.caller.revenue.subscriberActivity({ memberId: ada.id }))).toBe("NOT_FOUND");
  });
});
