/**
 * The Razorpay adapter as unit tests use it: against a fresh Razorpay stand-in
 * (razorpay-fixture.ts), with the stand-in's keys as the account's credentials.
 */
import type { GatewayCredentials } from "../subscriptions/payments/adapter";
import { createRazorpayAdapter } from "../subscriptions/payments/razorpay";
import { razorpayFixture } from "./razorpay-fixture";

export function razorpayAdapterStandIn() {
  const fx = razorpayFixture();
  const adapter = createRazorpayAdapter({ baseUrl: () => "https://api.razorpay.test", fetch: fx.handle });
  const creds: GatewayCredentials = {
    app_key: fx.keyId,
    secret: fx.keySecret,
    enabled: true,
    webhook_secret: fx.webhookSecret,
    environment: "sandbox",
  };
  return { fx, adapter, creds };
}
