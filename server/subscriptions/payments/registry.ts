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
