/**
 * Where the browser tests' fake Stripe runs (server/testing/fake-stripe.ts, started by
 * playwright.config.ts's second webServer, e2e/fake-stripe-server.ts) and its keys: fixed, so the
 * app's server (STRIPE_API_BASE_URL, STRIPE_JS_URL) and the specs (the keys they save on the demo
 * account) know them before it starts. Test-only keys of a fake (in the shapes the dashboard
 * accepts: letters and digits after the prefix): they open nothing.
 */
export const FAKE_STRIPE_PORT = Number(process.env.E2E_PORT ?? 3210) + 40;
export const FAKE_STRIPE_URL = `http://127.0.0.1:${FAKE_STRIPE_PORT}`;
export const FAKE_STRIPE_KEYS = {
  secretKey: "sk_test_MastheadE2eFakeStripeSecret0000",
  publishableKey: "pk_test_MastheadE2eFakeStripePublic0000",
  webhookSecret: "whsec_MastheadE2eFakeStripeSigning0000",
};
