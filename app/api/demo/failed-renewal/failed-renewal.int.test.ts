/**
 * The demo's failed-renewal test tool (server/demo/failed-renewal.ts) through the routes a
 * browser calls: a demo reader subscribes through demo_test, the tool makes the renewal fail now,
 * and the reader is in grace (the paywall's banner reads `in_grace_period` and `grace_ends_at`
 * from the client API), still reads as a SUBSCRIBER, and has the "update your card" e-mail; a new
 * card makes the first retry succeed. 404 on another account or with DEMO_TOOLS off, 422 for a
 * reader with nothing to fail.
 */
import { describe, expect, it } from "vitest";

import { GET as LIST } from "@/app/api/access/v1/members/me/subscriptions/route";
import { GET as ACCESS } from "@/app/api/access/v1/stories/[storyId]/access/route";
import { createApiKey } from "@/server/auth/api-keys";
import { ownWritesHeard } from "@/server/cache/process-cache";
import { withTransaction } from "@/server/db/transaction";
import { DEMO } from "@/server/seed/demo";
import { advanceSubscription } from "@/server/subscriptions/recurring/lifecycle";
import {
  demoCheckout,
  demoReaderJwt,
  seedDemoPaywallAccount,
  unsetDemoToolsAfterEach,
} from "@/server/testing/demo-checkout";
import { call } from "@/server/testing/engagement";
import { demoTools } from "@/server/testing/offer-fixtures";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { POST as FAIL } from "./route";

unsetDemoToolsAfterEach();

type Wire = { id: number; status: string; in_grace_period: boolean; grace_ends_at: string | null; active: boolean };

/** Preview and create a Yearly subscription through demo_test, as the demo page does. */
async function subscribe(planId: number, jwt: string) {
  const { created } = await demoCheckout(jwt, { subscription_plan_id: planId });
  expect(created.status).toBe(201);
  return ((await created.json()) as { subscription: Wire }).subscription;
}

describe("the demo's failed-renewal test tool", () => {
  it("puts the reader's subscription in grace: still reading, the banner's facts, the e-mail; a new card recovers it", async () => {
    const { db, accountId, storyIds } = await seedDemoPaywallAccount();
    demoTools(true);
    const jwt = await demoReaderJwt("grace-reader@example.com");
    const yearly = await db.subscriptionPlan.findFirstOrThrow({ where: { accountId, title: "Yearly" } });
    expect(yearly).toMatchObject({ chargeRetryDays: [1, 3, 5], gracePeriodDays: 7 });
    const bought = await subscribe(yearly.id, jwt);

    const before = Date.now();
    const res = await call(FAIL, "POST", `/api/demo/failed-renewal?key=${DEMO.accountKey}&accesstype_jwt=${jwt}`, {});
    expect(res.status).toBe(200);
    const failed = ((await res.json()) as { subscription: Wire }).subscription;
    expect(failed).toMatchObject({ id: bought.id, status: "active", active: true, in_grace_period: true });
    const graceEnds = Date.parse(failed.grace_ends_at!);
    expect(graceEnds - before).toBeGreaterThanOrEqual(7 * 86_400_000 - 1);
    expect(graceEnds - before).toBeLessThan(7 * 86_400_000 + 60_000);

    // What the paywall reads: the client API's list says in grace, and the story is still granted.
    const list = await call(
      LIST,
      "GET",
      `/api/access/v1/members/me/subscriptions?key=${DEMO.accountKey}&accesstype_jwt=${jwt}`,
      {},
    );
    expect(((await list.json()) as Wire[]).find((s) => s.id === bought.id)).toMatchObject({ in_grace_period: true });
    const access = await call(
      ACCESS,
      "GET",
      `/api/access/v1/stories/${storyIds[2]}/access?key=${DEMO.accountKey}&accesstype_jwt=${jwt}&readerId=browser-0002`,
      { storyId: storyIds[2]! },
    );
    expect(await access.json()).toMatchObject({ granted: true, grantReason: "SUBSCRIBER" });
    const mails = await db.outgoingEmail.findMany({ where: { accountId, kind: "subscription.payment_failed" } });
    expect(mails.map((m) => m.to)).toEqual(["grace-reader@example.com"]);
    expect(mails[0]!.text).toMatch(new RegExp(`/member/card/\\d+\\.${bought.id}\\.\\d+\\.\\d+\\.[A-Za-z0-9_-]{43}`));
    // Not twice: the subscription is in grace, nothing renewing is left to fail.
    expect(
      (await call(FAIL, "POST", `/api/demo/failed-renewal?key=${DEMO.accountKey}&accesstype_jwt=${jwt}`, {})).status,
    ).toBe(422);

    // The reader gives a new card (what the self-service page's payment method does): the first retry succeeds.
    await db.subscription.update({ where: { id: bought.id }, data: { paymentToken: "demo_method_visa-4242" } });
    const sub = await db.subscription.findUniqueOrThrow({ where: { id: bought.id } });
    await withTransaction(db, (tx) => advanceSubscription(tx, { subscriptionId: bought.id, now: sub.chargeRetryAt! }));
    const recovered = await db.subscription.findUniqueOrThrow({ where: { id: bought.id } });
    expect(recovered).toMatchObject({ status: "ACTIVE", graceEndsAt: null, chargeRetryAt: null });
    expect(await db.dunningEpisode.findFirstOrThrow({ where: { subscriptionId: bought.id } })).toMatchObject({
      outcome: "RECOVERED",
      retries: 0,
    });
  });

  it("is a 404 on another account or with DEMO_TOOLS off, and a 422 for a reader with nothing renewing", async () => {
    const { db } = await seedDemoPaywallAccount();
    demoTools(true);
    const jwt = await demoReaderJwt("nobody@example.com");
    const path = (key: string) => `/api/demo/failed-renewal?key=${key}&accesstype_jwt=${jwt}`;
    expect((await call(FAIL, "POST", path(DEMO.accountKey), {})).status).toBe(422);
    const other = await createTestPublisher(db);
    const { key } = await createApiKey(db, { accountId: other.id, kind: "CLIENT", name: "web" });
    // Another publisher's key: the demo reader's JWT is not signed with its shared key (401) and,
    // with a reader of its own, the tool is not there (404).
    expect((await call(FAIL, "POST", path(key), {})).status).toBe(401);
    await db.account.update({ where: { id: other.id }, data: { jwtSecret: "another-publisher-shared-secret-000" } });
    // The 401 above cached the account's old secret; on PostgreSQL the change's notice clears it a
    // moment after the commit, as for any write outside a request (server/cache/process-cache.ts).
    await ownWritesHeard(db);
    const { readerJwt } = await import("@/server/testing/engagement");
    const otherJwt = await readerJwt({ id: "r-9", name: "R" }, { secret: "another-publisher-shared-secret-000" });
    expect(
      (await call(FAIL, "POST", `/api/demo/failed-renewal?key=${key}&accesstype_jwt=${otherJwt}`, {})).status,
    ).toBe(404);
    demoTools(false);
    expect((await call(FAIL, "POST", path(DEMO.accountKey), {})).status).toBe(404);
  });
});
