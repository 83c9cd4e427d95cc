/**
 * The payment adapters Masthead knows, by payment_type. A gateway adapter is added here once
 * (e.g. razorpay.ts); checkout and the gateway-webhook route look adapters up only through this.
 */
import type { PaymentAdapter } from "./adapter";
import { manualAdapter, sponsoredAdapter } from "./builtin";
import { demoTestGatewayAdapter } from "./demo-test-gateway";
import { razorpayAdapter } from "./razorpay";
import { stripeAdapter } from "./stripe";

const adapters: PaymentAdapter[] = [manualAdapter, sponsoredAdapter, razorpayAdapter, stripeAdapter];

export function registerPaymentAdapter(adapter: PaymentAdapter) {
  for (const t of adapter.paymentTypes)
    if (adapters.some((a) => a.paymentTypes.includes(t))) throw new Error(`payment_type ${t} is registered twice`);
  adapters.push(adapter);
}

export function paymentAdapterFor(paymentType: string): PaymentAdapter | null {
  return adapters.find((a) => a.paymentTypes.includes(paymentType)) ?? null;
}

export function paymentAdapterForProvider(provider: string): PaymentAdapter | null {
  return adapters.find((a) => a.provider === provider) ?? null;
}

// TEST-ONLY: the demo paywall's gateway; refuses every account but the demo one, and everything
// unless DEMO_TOOLS is on (demo-test-gateway.ts).
registerPaymentAdapter(demoTestGatewayAdapter());

/**
 * Whether a subscription's payments are taken by a system Masthead cannot charge or hear from:
 * a payment type with no adapter, an imported recurring Stripe subscription (payment type
 * `stripe`), or an imported recurring subscription whose old system was not named (payment type
 * manual). Masthead never reminds,
 * charges or duns it, and never mails its reader about a payment: it ends at its end
 * (lifecycle-steps.ts), unless staff extend it.
 */
export function billedElsewhere(sub: { paymentType: string; createdBy: string; recurring: boolean }): boolean {
  if (paymentAdapterFor(sub.paymentType) === null) return true;
  // An imported Stripe subscription (the import names it "stripe", the one-time type): nothing
  // ties it to this account's Stripe webhooks yet, so Masthead hears of no renewal.
  if (sub.createdBy === "import" && sub.recurring && sub.paymentType === "stripe") return true;
  return sub.createdBy === "import" && sub.paymentType === "manual" && sub.recurring;
}
