/**
 * A scripted payment gateway for the subscription tests, registered under a payment type of the
 * test's own: it charges what it is asked (idempotent on the key, as the adapter contract asks: the
 * same key is the same payment), declines a charge `declines` picks, and may "die" once right
 * after charging (`crashOnce`), as a process killed after the gateway took the money.
 */
import { randomUUID } from "node:crypto";

import type { PaymentAdapter, RecurringCharge, RecurringChargeResult } from "../subscriptions/payments/adapter";
import { paymentAdapterFor, registerPaymentAdapter } from "../subscriptions/payments/registry";

type ScriptedGateway = {
  /** Every recurring charge asked for, in order. */
  calls: RecurringCharge[];
  /** The payment id of each idempotency key charged. */
  charged: Map<string, string>;
  /** Which charges are declined (none, after `reset`). */
  declines: (charge: RecurringCharge) => boolean;
  crashOnce: boolean;
  reset(): void;
};

export function scriptedGateway(paymentType: string): ScriptedGateway {
  const gateway: ScriptedGateway = {
    calls: [],
    charged: new Map(),
    declines: () => false,
    crashOnce: false,
    reset() {
      this.calls = [];
      this.charged.clear();
      this.declines = () => false;
      this.crashOnce = false;
    },
  };
  registerTestAdapter(paymentType, {
    async chargeRecurring(_creds, charge): Promise<RecurringChargeResult> {
      gateway.calls.push(charge);
      if (gateway.declines(charge)) return { status: "failed", reason: "Card declined." };
      const id = gateway.charged.get(charge.idempotencyKey) ?? `pay_${randomUUID().slice(0, 8)}`;
      gateway.charged.set(charge.idempotencyKey, id);
      if (gateway.crashOnce) {
        gateway.crashOnce = false;
        throw new Error("the process died after the gateway charged");
      }
      return { status: "captured", externalPaymentId: id };
    },
  });
  return gateway;
}

/**
 * Register (once per payment type) a server-only test gateway that captures every checkout and
 * takes no webhooks, with the test's own `parts` (a recurring charge, subscription controls).
 */
export function registerTestAdapter(paymentType: string, parts: Partial<PaymentAdapter>): void {
  if (paymentAdapterFor(paymentType)) return;
  registerPaymentAdapter({
    paymentTypes: [paymentType],
    provider: null,
    takesPayment: true,
    callers: "server",
    async preparePayment() {
      return { externalReferenceId: null };
    },
    async verifyPayment() {
      return { status: "captured", externalPaymentId: null, externalOrderId: null };
    },
    webhookRequestAuthorized: () => false,
    webhookEventTypeMapping: () => ({}),
    webhookEventDetails: () => {
      throw new Error("none");
    },
    ...parts,
  });
}
