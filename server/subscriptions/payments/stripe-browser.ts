/**
 * What a reader's browser needs from the Stripe adapter besides the publishable key: where to load
 * Stripe.js from (`js_url`, STRIPE_JS_URL; https://js.stripe.com/v3/ unless a test serves a fake),
 * listed in GET /api/access/v1/payment_options. The browser SDK (sdk/accesstype/stripe.ts) loads
 * it and mounts Stripe's Payment Element with the preview's client secret.
 */
import "server-only";

import { getEnv } from "../../../env.js";

export function stripeBrowserOptions(): Record<string, string> {
  return { js_url: getEnv().STRIPE_JS_URL };
}
