/**
 * `demo_test`: a TEST-ONLY payment gateway for the demo paywalled story (docs/subscriptions.md
 * "Demo paywalled story"), so the demo can check out through preview and create end to end
 * while no real gateway is reachable. It moves no money and proves nothing: anyone who reads this
 * file can make its payment token. That is why it answers ONLY
 *   - when the operator turned the demo tools on (env DEMO_TOOLS; `npm start` does so outside
 *     production, never with NODE_ENV=production in the shell), and
 *   - for the demo publisher's account (slug "demo", whose keys and passwords are public anyway).
 * Anywhere else preview and create refuse it (422, "declined"), so a reader of a real publication
 * cannot get a subscription with it.
 *
 * Its contract mirrors a real gateway's: preview makes an "order" `demo_order_<attempt id>` (the
 * preview's external_reference_id); the demo page's test checkout step "pays" it and hands back
 * `payment_token` `demo_pay_<attempt id>`; create verifies that the token belongs to the order
 * frozen in the attempt and reports the payment captured, so the subscription is active at once.
 * `demo_decline_<attempt id>` reports a failed payment (the create is refused), to show that path.
 */
import "server-only";

import { getEnv } from "../../../env.js";
import { PaymentAdapterError, type PaymentAdapter, type PaymentIntent } from "./adapter";

export const DEMO_TEST_PAYMENT_TYPE = "demo_test";
/**
 * The payment token of a demo_test card that has stopped working: its renewal charges are declined
 * (the demo's "failed renewal" test tool sets it, server/demo/failed-renewal.ts), until the reader
 * gives a new card (updatePaymentMethod).
 */
export const DEMO_EXPIRED_CARD_TOKEN = "demo_card_expired";
const DEMO_ACCOUNT_SLUG = "demo";

type DemoGatewayGuard = {
  /** Whether the operator turned the demo tools on (env DEMO_TOOLS). */
  enabled: () => boolean;
  /** Whether the account is the demo publisher. */
  isDemoAccount: (accountId: number) => Promise<boolean>;
};

const demoAccounts = new Map<number, boolean>();

const defaultGuard: DemoGatewayGuard = {
  enabled: () => getEnv().DEMO_TOOLS,
  async isDemoAccount(accountId) {
    const known = demoAccounts.get(accountId);
    if (known !== undefined) return known;
    const { getDb } = await import("../../db");
    const account = await (await getDb()).account.findUnique({ where: { id: accountId }, select: { slug: true } });
    const demo = account?.slug === DEMO_ACCOUNT_SLUG;
    demoAccounts.set(accountId, demo);
    return demo;
  },
};

export function demoTestGatewayAdapter(guard: DemoGatewayGuard = defaultGuard): PaymentAdapter {
  const assertAllowed = async (intent: Pick<PaymentIntent, "accountId">) => {
    if (!guard.enabled())
      throw new PaymentAdapterError(
        "The demo_test gateway is a test tool and is turned off here (DEMO_TOOLS).",
        "declined",
      );
    if (!(await guard.isDemoAccount(intent.accountId)))
      throw new PaymentAdapterError("The demo_test gateway works only on the demo publisher's account.", "declined");
  };
  return {
    paymentTypes: [DEMO_TEST_PAYMENT_TYPE],
    provider: null,
    takesPayment: true,
    callers: "any",
    async preparePayment(_creds, intent) {
      await assertAllowed(intent);
      return {
        externalReferenceId: `demo_order_${intent.attemptId}`,
        clientOptions: { test_gateway: true, note: "demo_test moves no money" },
      };
    },
    async verifyPayment(_creds, intent, proof) {
      await assertAllowed(intent);
      const order = `demo_order_${intent.attemptId}`;
      if (proof.externalReferenceId !== order)
        return {
          status: "failed",
          externalPaymentId: null,
          externalOrderId: proof.externalReferenceId,
          reason: "Unknown order.",
        };
      if (proof.paymentToken === `demo_decline_${intent.attemptId}`)
        return {
          status: "failed",
          externalPaymentId: null,
          externalOrderId: order,
          reason: "The test card was declined.",
        };
      if (proof.paymentToken !== `demo_pay_${intent.attemptId}`)
        return {
          status: "failed",
          externalPaymentId: null,
          externalOrderId: order,
          reason: "The payment token is not this order's.",
        };
      return {
        status: "captured",
        externalPaymentId: proof.paymentToken,
        externalOrderId: order,
        details: { test_gateway: true, amount_cents: intent.amountCents, currency: intent.currency },
      };
    },
    /**
     * A renewal of the demo publisher's test subscription: "paid" at once, one payment per period
     * (per idempotency key); declined while its card is DEMO_EXPIRED_CARD_TOKEN.
     */
    async chargeRecurring(_creds, charge) {
      if (!guard.enabled() || !(await guard.isDemoAccount(charge.accountId)))
        return { status: "failed", reason: "The demo_test gateway is turned off here." };
      if (charge.paymentToken === DEMO_EXPIRED_CARD_TOKEN)
        return { status: "failed", reason: "The test card has expired." };
      return {
        status: "captured",
        externalPaymentId: `demo_renew_${charge.idempotencyKey}`,
        details: { test_gateway: true, amount_cents: charge.amountCents, currency: charge.currency },
      };
    },
    /**
     * The test card form's new method: `demo_method_<label>` is accepted as it is (the label, e.g.
     * "visa-4242", is shown to the reader); `demo_method_decline` is refused, to show that path.
     */
    async updatePaymentMethod(_creds, update) {
      await assertAllowed(update);
      const token = update.proof.paymentToken;
      if (token === "demo_method_decline") throw new PaymentAdapterError("The test card was declined.", "declined");
      const label = /^demo_method_([a-z0-9-]{1,40})$/.exec(token)?.[1];
      if (!label) throw new PaymentAdapterError("Not a demo_test payment method.", "declined");
      return { paymentToken: token, label: `Test card ${label}` };
    },
    async refund(_creds, request) {
      await assertAllowed(request);
      if (!request.externalPaymentId?.startsWith("demo_pay_"))
        throw new PaymentAdapterError("Not a demo_test payment.", "declined");
      return {
        externalRefundId: `demo_refund_${request.refundId}`,
        details: { test_gateway: true, amount_cents: request.amountCents, currency: request.currency },
      };
    },
    webhookRequestAuthorized() {
      return false;
    },
    webhookEventTypeMapping() {
      return {};
    },
    webhookEventDetails() {
      throw new PaymentAdapterError("demo_test receives no gateway webhooks.", "invalid");
    },
  };
}
