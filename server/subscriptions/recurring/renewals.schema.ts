/**
 * The body of a renewal (interface-spec §4.2 `…/subscriptions/<id>/renewals.json`):
 * {subscription:{coupon_code?, payment:{payment_type, payment_token, amount_cents?, amount_currency?},
 * metadata?}, alternate_provider?, alternate_identity?}. payment_token is required: it is what
 * makes the same renewal sent twice one renewal.
 */
import { z } from "zod";

import { checkoutPaymentWith, ZCheckoutSubscription } from "../checkout/checkout.schema";
import { ALTERNATE_IDENTITY_FIELDS, refineAlternateIdentity } from "../subscribers/subscribers.schema";

export const ZRenewalBody = z
  .object({
    subscription: z.object({
      coupon_code: ZCheckoutSubscription.shape.coupon_code,
      payment: checkoutPaymentWith({
        payment_token: z.string().trim().min(1, "is required").max(256),
        /** The gateway order the payment was made against (Razorpay: order_…). */
        external_reference_id: z.string().trim().min(1).max(256).optional(),
      }),
      metadata: ZCheckoutSubscription.shape.metadata,
    }),
    ...ALTERNATE_IDENTITY_FIELDS,
  })
  .superRefine(refineAlternateIdentity);
export type TRenewalBody = z.output<typeof ZRenewalBody>;
