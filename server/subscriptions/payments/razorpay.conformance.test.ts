/** The reference adapter passes the conformance kit, against the fake Razorpay (no network, no database). */
import { createRazorpayAdapter } from "../razorpay";
import { describeAdapterConformance } from "./conformance";
import { fakeRazorpay } from "./razorpay-gateway";

describeAdapterConformance(
  "razorpay",
  (gateway) =>
    createRazorpayAdapter({
      baseUrl: () => "https://api.razorpay.test",
      fetch: (gateway as ReturnType<typeof fakeRazorpay>).fixture.handle,
    }),
  fakeRazorpay,
);
