/** The reference adapter passes the conformance kit, against the fake Razorpay (no network, no database). */
import { describeAdapterConformance } from "@/server/testing/payment-conformance/conformance";
import { fakeRazorpay } from "@/server/testing/payment-conformance/razorpay-gateway";

import { createRazorpayAdapter } from "./razorpay";

describeAdapterConformance(
  "razorpay",
  (gateway) =>
    createRazorpayAdapter({
      baseUrl: () => "https://api.razorpay.test",
      fetch: (gateway as ReturnType<typeof fakeRazorpay>).fixture.handle,
    }),
  fakeRazorpay,
);
