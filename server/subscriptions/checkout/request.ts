/**
 * A checkout request, normalised: the body's fields wherever the spec row put them (in
 * `subscription` first, then at the top level), for the preview, the create and the renewal.
 */
import type { TCheckoutBody } from "./checkout.schema";

/** The body's fields, wherever the spec row put them (subscription first). */
export function checkoutRequest(body: TCheckoutBody) {
  const s = body.subscription;
  const dynamic =
    s.subscription_type === "dynamic_asset" ||
    body.type === "dynamic_assets" ||
    body.type === "dynamic_asset" ||
    (s.subscription_type === undefined && (s.dynamic_assets ?? body.dynamic_assets) !== undefined);
  const { payment_type, amount_cents, amount_currency, payment_token, ...extra } = s.payment;
  const recipient = s.recipient_subscriber ?? body.recipient_subscriber ?? null;
  const customMessage = s.custom_message ?? body.custom_message ?? null;
  return {
    dynamic,
    subscriptionType: s.subscription_type,
    /** Gifts (spec §4.2 rule 4): a recipient_subscriber given (a custom_message alone asks for one). */
    gift: recipient !== null || customMessage !== null ? { recipient, customMessage } : null,
    planId: s.subscription_plan_id,
    couponCode: s.coupon_code || null,
    payment: { payment_type, amount_cents, amount_currency, payment_token: payment_token ?? null, extra },
    metadata: s.metadata ?? null,
    notes: s.notes ?? null,
    trial: {
      trial_period: s.trial_period,
      trial_period_length: s.trial_period_length,
      trial_period_unit: s.trial_period_unit,
    },
    dynamicAssets: s.dynamic_assets ?? body.dynamic_assets,
    campaignId: s.campaign_id ?? body.campaign_id ?? null,
    offer: { offerId: s.offer_id ?? null, exposureId: s.exposure_id ?? null },
    attemptToken: s.attempt_token ?? body.attempt_token ?? null,
    alternate:
      (s.alternate_provider && s.alternate_identity
        ? { provider: s.alternate_provider, identity: s.alternate_identity }
        : null) ??
      (body.alternate_provider && body.alternate_identity
        ? { provider: body.alternate_provider, identity: body.alternate_identity }
        : null),
    name: s.name ?? body.name ?? null,
  };
}
export type CheckoutRequest = ReturnType<typeof checkoutRequest>;
