/**
 * The two adapters that move no money (interface-spec §2.2 payment_type values):
 * - `manual`: a subscription with no payment, granted by the publisher's back end (server API only);
 * - `sponsored`: paid by someone else (a sponsor, a campaign, a free plan); active at once.
 * A priced plan can be sold through them only on the server API: a reader cannot give
 * themselves a paid plan by sending payment_type "sponsored".
 */
import { PaymentAdapterError, type PaymentAdapter } from "./adapter";

function noPayment(paymentType: "manual" | "sponsored"): PaymentAdapter {
  return {
    paymentTypes: [paymentType],
    provider: null,
    takesPayment: false,
    callers: "server",
    async preparePayment() {
      return { externalReferenceId: null };
    },
    async verifyPayment() {
      return {
        status: "captured",
        externalPaymentId: null,
        externalOrderId: null,
        details: { payment_type: paymentType },
      };
    },
    ...(paymentType === "sponsored"
      ? {
          /** Sponsored periods cost the reader nothing: each renews at once, with no payment row. */
          async chargeRecurring() {
            return { status: "captured" as const, externalPaymentId: null, details: { payment_type: paymentType } };
          },
        }
      : {}),
    // Nothing was taken through Masthead, so nothing is sent anywhere: the refund is recorded
    // (the publisher gives the money back by their own means) and the payment's balance moves.
    async refund() {
      return { externalRefundId: null, details: { payment_type: paymentType, recorded_only: true } };
    },
    webhookRequestAuthorized() {
      return false;
    },
    webhookEventTypeMapping() {
      return {};
    },
    webhookEventDetails() {
      throw new PaymentAdapterError(`${paymentType} receives no gateway webhooks.`, "invalid");
    },
  };
}

export const manualAdapter = noPayment("manual");
export const sponsoredAdapter = noPayment("sponsored");
