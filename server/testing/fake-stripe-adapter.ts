/**
 * The Stripe adapter as unit tests use it: pointed at a fake Stripe server (fake-stripe.ts), no
 * network retries, with the fake's keys as the account's credentials.
 */
import type { GatewayCredentials } from "../subscriptions/payments/adapter";
import { createStripeAdapter } from "../subscriptions/payments/stripe";
import type { FakeStripe } from "./fake-stripe";

export const fakeStripeAdapter = (fake: FakeStripe, connection = () => fake.sdkOptions) =>
  createStripeAdapter({ connection, maxNetworkRetries: 0 });

export const fakeStripeCredentials = (
  fake: FakeStripe,
  over: Partial<GatewayCredentials> = {},
): GatewayCredentials => ({
  app_key: fake.publishableKey,
  secret: fake.secretKey,
  enabled: true,
  webhook_secret: fake.webhookSecret,
  environment: "sandbox",
  ...over,
});
