/**
 * For a test file of Stripe payments through the real routes: call at the top level. Each call of
 * the returned function starts a fresh fake Stripe server (fake-stripe.ts), points the adapter's
 * SDK at it (STRIPE_API_BASE_URL), and makes an account (a new one, or the one whose id is given)
 * whose owner saved the Stripe keys through the dashboard's procedure. The settings it changes are
 * restored, and the fake closed, after the file's tests.
 */
import { afterAll, beforeAll } from "vitest";

import { resetEnvCache } from "../../env.js";
import type { Db } from "../db/client";
import { startFakeStripe, type FakeStripe } from "./fake-stripe";
import { createTestStaff } from "./staff";

export function stripeStandIn(
  options: Parameters<typeof startFakeStripe>[0] = {},
): (db: Db, account?: number) => Promise<{ fake: FakeStripe; accountId: number }> {
  let fake: FakeStripe | undefined;
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.STRIPE_API_BASE_URL;
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.STRIPE_API_BASE_URL;
    else process.env.STRIPE_API_BASE_URL = saved;
    resetEnvCache();
    await fake?.close();
  });
  return async (db, account) => {
    await fake?.close();
    fake = await startFakeStripe(options);
    process.env.STRIPE_API_BASE_URL = fake.url;
    resetEnvCache();
    const owner = await createTestStaff(db, { roles: ["OWNER"], ...(account === undefined ? {} : { account }) });
    await owner.caller.paymentGateways.save({
      provider: "stripe",
      environment: "sandbox",
      appKey: fake.publishableKey,
      secret: fake.secretKey,
      webhookSecret: fake.webhookSecret,
    });
    return { fake, accountId: owner.account.id };
  };
}
