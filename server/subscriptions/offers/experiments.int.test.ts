/**
 * A/B tests of offers on a real database: the reader's arm fixed by reader and recorded once
 * (parallel first calls write one exposure), a subscription bought through the reader routes
 * carrying the offer and exposure into offer_conversions, the result with its interval, the
 * owner's stop (once), and the hourly job stopping a test whose one arm is clearly worse.
 */
import { afterEach, describe, expect, it } from "vitest";

import { POST as PREVIEW } from "@/app/api/access/v1/members/me/subscriptions/preview/route";
import { POST as CREATE } from "@/app/api/access/v1/members/me/subscriptions/route";
import { resetEnvCache } from "@/env.js";
import { findOrCreateJwtMember } from "@/server/members/identities";
import { DEMO } from "@/server/seed/demo";
import { call } from "@/server/testing/engagement";
import { askOffer, copy, demoTools, jwtFor, offerWorld } from "@/server/testing/offer-fixtures";
import { trpcCodeOf } from "@/server/testing/staff";
import { insertTestSubscription } from "@/server/testing/subscription-fixtures";

import { assignArm } from "./assignment";
import { autoStopExperiments } from "./experiments";

afterEach(() => {
  delete process.env.DEMO_TOOLS;
  resetEnvCache();
});

async function twoOffersAndATest() {
  const world = await offerWorld();
  const { owner, monthly, yearly } = world;
  const a = await owner.caller.offers.create({
    name: "Plain",
    planIds: [monthly.id, yearly.id],
    copy: copy("Plain price"),
  });
  const b = await owner.caller.offers.create({
    name: "Discount",
    planIds: [monthly.id],
    couponCode: "WELCOME20",
    copy: copy("20 % off"),
  });
  const test = await owner.caller.offers.start({
    name: "Plain or discount",
    offerAId: a.id,
    offerBId: b.id,
    goal: "subscriptions",
    segment: { audiences: ["anonymous", "registered"] },
  });
  return { ...world, a, b, test };
}

describe("an A/B test of two offers", () => {
  it("puts each reader in the arm of the hash, once, even when the first calls race", async () => {
    const { db, a, b, test } = await twoOffersAndATest();
    const answers = await Promise.all(Array.from({ length: 8 }, () => askOffer({ readerId: "racing-reader" })));
    const arm = assignArm(test.id, "r:racing-reader", 50);
    for (const { status, body } of answers) {
      expect(status).toBe(200);
      expect(body.experiment).toMatchObject({ id: test.id, arm });
      expect(body.offer?.id).toBe(arm === "a" ? a.id : b.id);
    }
    expect(new Set(answers.map((r) => r.body.experiment?.exposure_id)).size).toBe(1);
    expect(await db.experimentExposure.count({ where: { experimentId: test.id } })).toBe(1);
    // 40 readers: each sees its own arm again, and both arms are used.
    const arms = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const first = await askOffer({ readerId: `reader-${i}` });
      const again = await askOffer({ readerId: `reader-${i}` });
      expect(again.body.experiment).toEqual(first.body.experiment);
      arms.add(first.body.experiment!.arm);
    }
    expect([...arms].sort()).toEqual(["a", "b"]);
    expect(await db.experimentExposure.count({ where: { experimentId: test.id } })).toBe(41);
  });

  it("carries the offer and the exposure through checkout, counts the result, stops once", async () => {
    const { db, accountId, owner, revenue, monthly, a, b, test, jwtSecret } = await twoOffersAndATest();
    demoTools(true);
    // A signed-in reader in arm B (found by trying JWT ids: the arm is the hash's).
    let id = 0;
    while (assignArm(test.id, `u:buyer-${id}`, 50) !== "b") id++;
    const jwt = await jwtFor(`buyer-${id}`, jwtSecret);
    const shown = await askOffer({ accesstype_jwt: jwt });
    expect(shown.body.offer).toMatchObject({ id: b.id, coupon_code: "WELCOME20" });
    const exposureId = shown.body.experiment!.exposure_id;
    const q = `key=${DEMO.accountKey}&accesstype_jwt=${jwt}`;
    const subscription = {
      subscription_plan_id: monthly.id,
      coupon_code: "WELCOME20",
      trial_period: false,
      offer_id: b.id,
      exposure_id: exposureId,
      payment: { payment_type: "demo_test", amount_currency: "USD" },
    };
    const preview = (body: unknown) =>
      call(PREVIEW, "POST", `/api/access/v1/members/me/subscriptions/preview?${q}`, {}, { subscription: body });
    // The exposure of another offer, and an offer without the plan, are 422 naming the field.
    const wrong = await preview({ ...subscription, offer_id: a.id });
    expect(wrong.status).toBe(422);
    expect(JSON.stringify(await wrong.json())).toContain("subscription.exposure_id");
    const yearly = await db.subscriptionPlan.findFirstOrThrow({ where: { accountId, title: "Yearly" } });
    const noPlan = await preview({ ...subscription, subscription_plan_id: yearly.id, coupon_code: null });
    expect(noPlan.status).toBe(422);
    expect(JSON.stringify(await noPlan.json())).toContain("subscription.offer_id");

    const ok = await preview(subscription);
    expect(ok.status).toBe(200);
    const previewed = (await ok.json()) as {
      attempt_token: string;
      external_reference_id: string;
      subscription: { payment_amount_cents: number };
    };
    expect(previewed.subscription.payment_amount_cents).toBe(720);
    const attempt = previewed.external_reference_id.replace(/^demo_order_/, "");
    const created = await call(
      CREATE,
      "POST",
      `/api/access/v1/members/me/subscriptions?${q}`,
      {},
      {
        subscription: {
          ...subscription,
          payment: { ...subscription.payment, amount_cents: 720, payment_token: `demo_pay_${attempt}` },
        },
        attempt_token: previewed.attempt_token,
      },
    );
    expect(created.status).toBe(201);
    const conversion = await db.offerConversion.findFirstOrThrow({ where: { accountId } });
    expect(conversion).toMatchObject({ offerId: b.id, exposureId });

    const result = await revenue.caller.offers.result({ id: test.id });
    const armB = result.arms.find((x) => x.arm === "b")!;
    expect(armB).toMatchObject({ offerId: b.id, exposures: 1, conversions: 1, revenueCents: 720 });
    expect(result.result.method).toBe("newcombe");
    expect(result.result.ci95.low).toBeLessThanOrEqual(result.result.diff);
    expect(result.result.ci95.high).toBeGreaterThanOrEqual(result.result.diff);

    expect(await trpcCodeOf(revenue.caller.offers.stop({ id: test.id }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(owner.caller.offers.archive({ id: a.id }))).toBe("CONFLICT");
    const stops = await Promise.allSettled([
      owner.caller.offers.stop({ id: test.id }),
      owner.caller.offers.stop({ id: test.id }),
    ]);
    expect(stops.filter((s) => s.status === "fulfilled")).toHaveLength(1);
    const stopped = await db.experiment.findUniqueOrThrow({ where: { id: test.id } });
    expect(stopped).toMatchObject({ status: "stopped", stopReason: "owner" });
    expect(await db.auditLog.count({ where: { accountId, action: "experiment.stop" } })).toBe(1);
    // A stopped test shows no arm: readers get the offers by segment again; its exposures buy nothing.
    expect((await askOffer({ readerId: "after-stop" })).body.experiment).toBeNull();
    expect((await preview(subscription)).status).toBe(422);
  });

  it("is stopped by the hourly job when one arm is clearly worse, and not before", async () => {
    const { db, accountId, monthly, a, b, test } = await twoOffersAndATest();
    const { id: memberId } = await findOrCreateJwtMember(db, {
      accountId,
      user: { id: "buyer", name: "Buyer", email: "buyer@example.com", avatarUrl: null, provider: null },
      now: new Date(),
    });
    const expose = async (arm: "a" | "b", n: number, converted: number) => {
      for (let i = 0; i < n; i++) {
        const exposure = await db.experimentExposure.create({
          data: { experimentId: test.id, readerKey: `r:${arm}-${i}`, arm, offerId: arm === "a" ? a.id : b.id },
        });
        if (i >= converted) continue;
        const sub = await insertTestSubscription(db, { accountId, memberId, planId: monthly.id, end: null });
        await db.offerConversion.create({
          data: { accountId, subscriptionId: sub.id, offerId: exposure.offerId, exposureId: exposure.id },
        });
      }
    };
    await expose("a", 99, 30);
    await expose("b", 120, 1);
    // Arm A is far ahead, but has fewer than 100 readers: the test runs on.
    expect(await autoStopExperiments(db, { now: new Date() })).toEqual([]);
    await db.experimentExposure.create({
      data: { experimentId: test.id, readerKey: "r:a-last", arm: "a", offerId: a.id },
    });
    expect(await autoStopExperiments(db, { now: new Date() })).toEqual([test.id]);
    const row = await db.experiment.findUniqueOrThrow({ where: { id: test.id } });
    expect(row).toMatchObject({ status: "stopped", stopReason: "auto" });
    expect(row.stopDetail).toMatchObject({ worseArm: "b" });
    const audit = await db.auditLog.findFirstOrThrow({ where: { accountId, action: "experiment.stop" } });
    expect(audit.metadata).toMatchObject({ reason: "auto", worseArm: "b", system: "experiment_auto_stop" });
    expect(await autoStopExperiments(db, { now: new Date() })).toEqual([]);
  });
});
