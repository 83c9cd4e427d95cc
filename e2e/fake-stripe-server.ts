/**
 * The fake Stripe server of the browser tests, on its fixed port (e2e/fake-stripe-config.ts):
 * Stripe's API for the app's adapter, the fake Stripe.js at /v3/ for the reader's browser, and
 * the controls the specs drive. Started by playwright.config.ts (a webServer: Playwright starts
 * those before globalSetup) and stopped with it.
 */
import { startFakeStripe } from "../server/testing/fake-stripe";
import { FAKE_STRIPE_KEYS, FAKE_STRIPE_PORT } from "./fake-stripe-config";

const fake = await startFakeStripe({ port: FAKE_STRIPE_PORT, keys: FAKE_STRIPE_KEYS });
console.log(`fake Stripe at ${fake.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    void fake.close().then(() => process.exit(0));
  });
