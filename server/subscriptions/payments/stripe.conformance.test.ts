/**
 * The Stripe adapter passes the conformance kit, through the official SDK against the fake Stripe
 * server (server/testing/fake-stripe.ts, on 127.0.0.1; no database, no outside network).
 */
import "vitest";

import type { FakeStripe } from "@/server/testing/fake-stripe";
import { describeAdapterConformance } from "@/server/testing/payment-conformance/conformance";
import { fakeStripeGateway } from "@/server/testing/payment-conformance/stripe-gateway";

import { withFakeStripe } from "../../testing/fake-stripe-hooks";
import { createStripeAdapter } from "./stripe";

let fake: FakeStripe;
withFakeStripe((started) => (fake = started));

describeAdapterConformance(
  "stripe",
  () => createStripeAdapter({ connection: () => fake.sdkOptions, maxNetworkRetries: 0 }),
  () => fakeStripeGateway(fake),
);
