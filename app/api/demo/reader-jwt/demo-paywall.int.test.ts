/**
 * The demo paywall's server half on a real database: the seed (premium stories, meter, demo_test
 * on the plans), the demo reader JWT (demo account only, DEMO_TOOLS only), and the whole reader
 * flow through the routes the SDK calls: access + pingback until the meter is spent, then the
 * client API's preview and create with the demo_test gateway, then SUBSCRIBER access. demo_test
 * is refused on any other account and while DEMO_TOOLS is off.
 */
import { describe, expect, it } from "vitest";

import { POST as PREVIEW } from "@/app/api/access/v1/members/me/subscriptions/preview/route";
import { POST as CREATE } from "@/app/api/access/v1/members/me/subscriptions/route";
import { GET as ACCESS } from "@/app/api/access/v1/stories/[storyId]/access/route";
import { POST as PINGBACK } from "@/app/api/access/v1/stories/[storyId]/pingback/route";
import { createApiKey } from "@/server/auth/api-keys";
import { DEMO } from "@/server/seed/demo";
import { DEMO_PAYWALL_FREE_STORIES, DEMO_PREMIUM_STORIES, seedDemoPaywall } from "@/server/seed/demo-paywall";
import { seedDemoPaywallAccount, unsetDemoToolsAfterEach } from "@/server/testing/demo-checkout";
import { call } from "@/server/testing/engagement";
import { demoTools } from "@/server/testing/offer-fixtures";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { POST as READER_JWT } from "./route";

type Grant = {
  granted: boolean;
  grantReason: string | null;
  data: { numberRemaining: number | null; isLast: boolean };
};

unsetDemoToolsAfterEach();

async function mint(key: string, email: string) {
  return call(READER_JWT, "POST", `/api/demo/reader-jwt?key=${key}`, {}, { email });
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("the demo paywall", () => {
  it("seeds premium stories, a meter and demo_test on the Digital access plans, once", async () => {
    const { db, accountId, storyIds } = await seedDemoPaywallAccount();
    expect(storyIds).toHaveLength(DEMO_PREMIUM_STORIES.length);
    const again = await seedDemoPaywall(db, { accountId }, { created: [] });
    expect(again.storyIds).toEqual(storyIds);
    const stories = await db.story.findMany({ where: { id: { in: storyIds } } });
    expect(stories.every((s) => s.access === "subscription" && s.status === "PUBLISHED")).toBe(true);
    expect(await db.meterSettings.findUnique({ where: { accountId } })).toMatchObject({
      enabled: true,
      freeStories: DEMO_PAYWALL_FREE_STORIES,
      meterAnonymous: true,
    });
    const plans = await db.subscriptionPlan.findMany({ where: { accountId, group: { name: "Digital access" } } });
    expect(plans.length).toBe(2);
    for (const plan of plans) expect(plan.supportedPaymentProviders).toEqual(["manual", "demo_test"]);
  });

  it("mints a reader JWT only for the demo account and only with DEMO_TOOLS on", async () => {
    const { db } = await seedDemoPaywallAccount();
    demoTools(false);
    expect((await mint(DEMO.accountKey, "ada@example.com")).status).toBe(404);
    demoTools(true);
    const res = await mint(DEMO.accountKey, "Ada@Example.com");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { accesstype_jwt: string; reader_id: string };
    expect(body.accesstype_jwt.split(".")).toHaveLength(3);
    expect(body.reader_id).toBe(
      ((await (await mint(DEMO.accountKey, "ada@example.com")).json()) as { reader_id: string }).reader_id,
    );
    expect((await mint(DEMO.accountKey, "not an e-mail")).status).toBe(400);
    const other = await createTestPublisher(db);
    const { key } = await createApiKey(db, { accountId: other.id, kind: "CLIENT", name: "web" });
    expect((await mint(key, "ada@example.com")).status).toBe(404);
  });

  it("meters a reader, shows the paywall, sells a plan through demo_test, then grants SUBSCRIBER", async () => {
    const { db, accountId, storyIds } = await seedDemoPaywallAccount();
    demoTools(true);
    const { accesstype_jwt: jwt } = (await (await mint(DEMO.accountKey, "reader@example.com")).json()) as {
      accesstype_jwt: string;
    };
    const q = `key=${DEMO.accountKey}&accesstype_jwt=${jwt}&readerId=browser-0001`;
    const access = async (storyId: string) => {
      const res = await call(ACCESS, "GET", `/api/access/v1/stories/${storyId}/access?${q}`, { storyId });
      expect(res.status).toBe(200);
      return (await res.json()) as Grant;
    };
    const read = async (storyId: string) => {
      const grant = await access(storyId);
      if (grant.granted && grant.grantReason === "METERING") {
        const res = await call(
          PINGBACK,
          "POST",
          `/api/access/v1/stories/${storyId}/pingback?${q}`,
          { storyId },
          JSON.stringify(grant),
          {
            "content-type": "text/plain",
          },
        );
        expect(res.status).toBeLessThan(300);
      }
      return grant;
    };
    expect(await read(storyIds[0]!)).toMatchObject({ granted: true, grantReason: "METERING" });
    expect(await read(storyIds[1]!)).toMatchObject({ granted: true, grantReason: "METERING", data: { isLast: true } });
    expect(await read(storyIds[0]!)).toMatchObject({ granted: true });
    expect(await read(storyIds[2]!)).toMatchObject({ granted: false });

    const yearly = await db.subscriptionPlan.findFirstOrThrow({ where: { accountId, title: "Yearly" } });
    const subscription = {
      subscription_plan_id: yearly.id,
      subscription_type: "standard",
      payment: { payment_type: "demo_test", amount_currency: "USD" },
    };
    const preview = await call(
      PREVIEW,
      "POST",
      `/api/access/v1/members/me/subscriptions/preview?key=${DEMO.accountKey}&accesstype_jwt=${jwt}`,
      {},
      { subscription },
    );
    expect(preview.status).toBe(200);
    const previewed = (await preview.json()) as {
      attempt_token: string;
      external_reference_id: string;
      subscription: { payment_amount_cents: number };
    };
    expect(previewed.external_reference_id).toMatch(/^demo_order_/);
    const attempt = previewed.external_reference_id.replace(/^demo_order_/, "");
    const createBody = (token: string) => ({
      subscription: {
        ...subscription,
        payment: {
          ...subscription.payment,
          amount_cents: previewed.subscription.payment_amount_cents,
          payment_token: token,
        },
      },
      attempt_token: previewed.attempt_token,
    });
    const createPath = `/api/access/v1/members/me/subscriptions?key=${DEMO.accountKey}&accesstype_jwt=${jwt}`;
    // A token that is not this order's pays nothing.
    expect((await call(CREATE, "POST", createPath, {}, createBody("demo_pay_someone-else"))).status).toBe(422);
    const created = await call(CREATE, "POST", createPath, {}, createBody(`demo_pay_${attempt}`));
    expect(created.status).toBe(201);
    expect(((await created.json()) as { subscription: unknown }).subscription).toMatchObject({
      status: "active",
      payment_type: "demo_test",
      payment_amount_cents: 9000,
    });
    expect(await access(storyIds[2]!)).toMatchObject({ granted: true, grantReason: "SUBSCRIBER" });
  });

  it("refuses demo_test on any other account, and on the demo account while DEMO_TOOLS is off", async () => {
    const { db, accountId } = await seedDemoPaywallAccount();
    const other = await createTestPublisher(db);
    const { key } = await createApiKey(db, { accountId: other.id, kind: "CLIENT", name: "web" });
    const group = await db.subscriptionGroup.create({ data: { accountId: other.id, name: "Digital" } });
    const plan = await db.subscriptionPlan.create({
      data: {
        accountId: other.id,
        groupId: group.id,
        title: "Monthly",
        durationLength: 1,
        durationUnit: "MONTHS",
        priceCents: 500,
        priceCurrency: "USD",
        prices: { USD: { amount_cents: 500 } },
      },
    });
    const { readerJwt } = await import("@/server/testing/engagement");
    await db.account.update({ where: { id: other.id }, data: { jwtSecret: "another-publisher-shared-secret-000" } });
    const otherJwt = await readerJwt({ id: "r-9", name: "R" }, { secret: "another-publisher-shared-secret-000" });
    demoTools(true);
    const body = (planId: number) => ({
      subscription: { subscription_plan_id: planId, payment: { payment_type: "demo_test", amount_currency: "USD" } },
    });
    const res = await call(
      PREVIEW,
      "POST",
      `/api/access/v1/members/me/subscriptions/preview?key=${key}&accesstype_jwt=${otherJwt}`,
      {},
      body(plan.id),
    );
    expect(res.status).toBe(422);
    demoTools(false);
    const { accesstype_jwt } = {
      accesstype_jwt: await readerJwt({ id: "r-10", name: "D" }, { secret: DEMO.jwtSecret }),
    };
    const yearly = await db.subscriptionPlan.findFirstOrThrow({ where: { accountId, title: "Yearly" } });
    const off = await call(
      PREVIEW,
      "POST",
      `/api/access/v1/members/me/subscriptions/preview?key=${DEMO.accountKey}&accesstype_jwt=${accesstype_jwt}`,
      {},
      body(yearly.id),
    );
    expect(off.status).toBe(422);
  });
});
