/** The demo paywall's test gateway passes the conformance kit: no credentials, no webhooks, no renewals. */
import { describeAdapterConformance, type FakeGateway } from "@/server/testing/payment-conformance/conformance";

import { demoTestGatewayAdapter } from "./demo-test-gateway";

/** demo_test's "gateway" is its token scheme: demo_pay_<attempt> pays, demo_decline_<attempt> declines. */
const fakeDemoGateway = (): FakeGateway => ({
  credentials: null,
  intent: { accountId: 1 },
  takesOtherAmounts: false,
  authorizes: false,
  pay: ({ intent, prepared, outcome }) => ({
    paymentToken: `${outcome === "declined" ? "demo_decline" : "demo_pay"}_${intent.attemptId}`,
    externalReferenceId: prepared.externalReferenceId,
    extra: {},
  }),
});

describeAdapterConformance(
  "demo_test",
  () => demoTestGatewayAdapter({ enabled: () => true, isDemoAccount: async (id) => id === 1 }),
  fakeDemoGateway,
);
