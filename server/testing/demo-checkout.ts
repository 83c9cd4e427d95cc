/**
 * The demo paywall's checkout in integration tests, through the routes a browser calls: a demo
 * reader's JWT (`demoReaderJwt`), and a plan previewed and bought through demo_test with the
 * preview's amount and attempt token (`demoCheckout`, as components/demo/paywall-demo.tsx does);
 * the demo account seeded with its paywall (`seedDemoPaywallAccount`), DEMO_TOOLS unset after each
 * test (`unsetDemoToolsAfterEach`).
 */
import { afterEach, expect } from "vitest";

import { POST as PREVIEW } from "@/app/api/access/v1/members/me/subscriptions/preview/route";
import { POST as CREATE } from "@/app/api/access/v1/members/me/subscriptions/route";
import { POST as READER_JWT } from "@/app/api/demo/reader-jwt/route";
import { resetEnvCache } from "@/env.js";
import { getDb } from "@/server/db";
import { DEMO, seedDemoPublisher } from "@/server/seed/demo";
import { seedDemoCatalogue } from "@/server/seed/demo-catalogue";
import { seedDemoPaywall } from "@/server/seed/demo-paywall";

import { call } from "./engagement";

/**
 * The demo account with its catalogue, DEMO_TOOLS on (the caller's afterEach turns it off), and
 * the plan `title` of it.
 */
export async function seedDemoWithTools(title: string) {
  const db = await getDb();
  process.env.DEMO_TOOLS = "true";
  resetEnvCache();
  const report = { created: [] as string[] };
  const accountId = await seedDemoPublisher(db, report);
  await seedDemoCatalogue(db, { accountId }, report);
  const plan = await db.subscriptionPlan.findFirstOrThrow({ where: { accountId, title } });
  return { db, accountId, plan };
}

/** Unset DEMO_TOOLS after each test of the calling file. */
export function unsetDemoToolsAfterEach() {
  afterEach(() => {
    delete process.env.DEMO_TOOLS;
    resetEnvCache();
  });
}

/** The demo account with its catalogue and its paywall (premium stories, meter); DEMO_TOOLS as it is. */
export async function seedDemoPaywallAccount() {
  const db = await getDb();
  const report = { created: [] as string[] };
  const accountId = await seedDemoPublisher(db, report);
  await seedDemoCatalogue(db, { accountId }, report);
  const { storyIds } = await seedDemoPaywall(db, { accountId }, report);
  return { db, accountId, storyIds };
}

/** A JWT for the demo reader `email` (the demo account; DEMO_TOOLS on). */
export async function demoReaderJwt(email: string): Promise<string> {
  const res = await call(READER_JWT, "POST", `/api/demo/reader-jwt?key=${DEMO.accountKey}`, {}, { email });
  return ((await res.json()) as { accesstype_jwt: string }).accesstype_jwt;
}

type Previewed = {
  attempt_token: string;
  external_reference_id: string;
  subscription: { payment_amount_cents: number; total_amount_cents: number };
};

/**
 * Preview `subscription` (a plan, and a coupon when given) for the reader of `jwt`, then create it
 * with the preview's amount, its demo_test payment and attempt token. Fails the test unless the
 * preview answers 200; answers the preview and the create's response (the caller reads its status).
 */
export async function demoCheckout(
  jwt: string,
  subscription: { subscription_plan_id: number; coupon_code?: string },
): Promise<{ previewed: Previewed; created: Response }> {
  const q = `key=${DEMO.accountKey}&accesstype_jwt=${jwt}`;
  const wanted = { ...subscription, payment: { payment_type: "demo_test", amount_currency: "USD" } };
  const preview = await call(
    PREVIEW,
    "POST",
    `/api/access/v1/members/me/subscriptions/preview?${q}`,
    {},
    {
      subscription: wanted,
    },
  );
  const previewed = (await preview.json()) as Previewed;
  expect(preview.status, JSON.stringify(previewed)).toBe(200);
  const attempt = previewed.external_reference_id.replace(/^demo_order_/, "");
  const created = await call(
    CREATE,
    "POST",
    `/api/access/v1/members/me/subscriptions?${q}`,
    {},
    {
      subscription: {
        ...wanted,
        payment: {
          ...wanted.payment,
          amount_cents: previewed.subscription.payment_amount_cents,
          payment_token: `demo_pay_${attempt}`,
        },
      },
      attempt_token: previewed.attempt_token,
    },
  );
  return { previewed, created };
}
