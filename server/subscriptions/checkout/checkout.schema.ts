/**
 * Checkout on the wire (interface-spec §4.2 preview/create, §4.3 members/me/subscriptions,
 * subscription-without-login, pay per asset; docs/subscriptions.md "Checkout"). One body schema
 * serves the server API, the client API and guest checkout: the fields the spec places at the top
 * level in one row and inside `subscription` in another (alternate identity, campaign_id,
 * dynamic_assets, attempt_token, name) are taken from either, `subscription` winning.
 */
import { z } from "zod";

import { PG_INT_MAX, zWholeNumber } from "../../params.schema";
import { ZCents, ZCurrency } from "../money.schema";
import { E164_PATTERN, identityValueIssue, MAX_IDENTITY_LENGTH, ZProvider } from "../subscribers/subscribers.schema";

export const SUBSCRIPTION_TYPES = ["standard", "individual", "campaign", "group_access", "dynamic_asset"] as const;

const ZId = zWholeNumber({ min: 1, max: PG_INT_MAX });

/** Extra gateway fields a client sends in `payment` (a gateway's signature, order id…): small scalars only. */
const ZPaymentExtra = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);

const ZPaymentFields = z
  .object({
    payment_type: z.string().trim().min(1, "is required").max(64),
    amount_cents: ZCents.optional(),
    amount_currency: ZCurrency.optional(),
    /** The gateway's payment id (create only). */
    payment_token: z.string().trim().max(256).nullable().optional(),
  })
  .catchall(ZPaymentExtra);
const fewFields = (payment: object) => Object.keys(payment).length <= 30;

const ZCheckoutPayment = ZPaymentFields.refine(fewFields, { message: "has too many fields" });

/** `payment` with some fields declared otherwise (a renewal's required token); the rest as checkout's. */
export function checkoutPaymentWith<S extends z.ZodRawShape>(shape: S) {
  return ZPaymentFields.extend(shape).refine(fewFields, { message: "has too many fields" });
}

const ZMetadata = z
  .record(z.string().max(100), z.json())
  .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= 8_192, { message: "must be at most 8 kB as JSON" });

const ZDynamicAsset = z.object({
  id: z.union([z.string().trim().min(1).max(64), z.number().int().positive()]).transform(String),
  type: z.enum(["story", "collection"]).optional(),
});
const ZDynamicAssets = z.array(ZDynamicAsset).min(1, "must name at least one asset").max(50);

const ZAlternateFields = {
  alternate_provider: ZProvider.optional(),
  alternate_identity: z.string().max(MAX_IDENTITY_LENGTH).optional(),
};

/** Gifts (spec §4.2 rule 4): who receives the subscription. */
const ZRecipient = z
  .object({
    recipient_identity_provider: ZProvider,
    recipient_identity: z.string().trim().min(1, "is required").max(MAX_IDENTITY_LENGTH),
  })
  .superRefine((r, ctx) => {
    const issue = identityValueIssue(r.recipient_identity_provider, r.recipient_identity);
    if (issue) ctx.addIssue({ code: "custom", path: ["recipient_identity"], message: issue });
  });
const MAX_CUSTOM_MESSAGE_LENGTH = 1000;
const ZGiftFields = {
  recipient_subscriber: ZRecipient.optional(),
  custom_message: z.string().trim().max(MAX_CUSTOM_MESSAGE_LENGTH).nullable().optional(),
};

/** Where a field may be given at both levels (spec rows differ). */
const ZShared = {
  ...ZAlternateFields,
  campaign_id: ZId.nullable().optional(),
  dynamic_assets: ZDynamicAssets.optional(),
  attempt_token: z.string().max(200).optional(),
  name: z.string().trim().max(200).optional(),
  ...ZGiftFields,
};

export const ZCheckoutSubscription = z.object({
  subscription_type: z.enum(SUBSCRIPTION_TYPES).optional(),
  subscription_plan_id: ZId,
  coupon_code: z
    .string()
    .trim()
    .max(32)
    .transform((c) => c.toUpperCase())
    .nullable()
    .optional(),
  payment: ZCheckoutPayment,
  metadata: ZMetadata.nullable().optional(),
  notes: z.string().max(2000).nullable().optional(),
  trial_period: z.boolean().optional(),
  trial_period_length: z.number().int().positive().max(1000).optional(),
  trial_period_unit: z.enum(["days", "weeks", "months", "years"]).optional(),
  /** The paywall offer bought from, and its test exposure (docs/subscriptions.md "Offers and experiments"). */
  offer_id: ZId.nullable().optional(),
  exposure_id: z.uuid("is not an exposure id").nullable().optional(),
  ...ZShared,
});

const ZCheckoutBody = z.object({
  subscription: ZCheckoutSubscription,
  ...ZShared,
  /** Client API pay per asset: "dynamic_assets" (spec §4.3). */
  type: z.string().max(40).optional(),
  /** Sent by some clients with the server preview; not used. */
  fingerprint: z.unknown().optional(),
  /** Guest checkout (spec §4.3). */
  emailAddress: z.email("must be an e-mail address").max(MAX_IDENTITY_LENGTH).optional(),
  phoneNumber: z
    .string()
    .trim()
    .regex(E164_PATTERN, "must be a phone number in E.164 form (+ and country code)")
    .optional(),
});
export type TCheckoutBody = z.output<typeof ZCheckoutBody>;

function checkAlternate(
  o: { alternate_provider?: string; alternate_identity?: string },
  ctx: z.RefinementCtx,
  prefix: string[],
) {
  if (!o.alternate_provider && !o.alternate_identity) return;
  if (!o.alternate_provider || !o.alternate_identity) {
    ctx.addIssue({
      code: "custom",
      path: [...prefix, o.alternate_provider ? "alternate_identity" : "alternate_provider"],
      message: "alternate_provider and alternate_identity go together",
    });
    return;
  }
  const issue = identityValueIssue(o.alternate_provider, o.alternate_identity);
  if (issue) ctx.addIssue({ code: "custom", path: [...prefix, "alternate_identity"], message: issue });
}

/** Server API preview and create. */
export const ZServerCheckoutBody = ZCheckoutBody.superRefine((o, ctx) => {
  checkAlternate(o, ctx, []);
  checkAlternate(o.subscription, ctx, ["subscription"]);
});

/** Client API (JWT reader) preview and create. */
export const ZClientCheckoutBody = ZCheckoutBody;

/** Guest checkout: emailAddress and/or phoneNumber. */
export const ZGuestCheckoutBody = ZCheckoutBody.superRefine((o, ctx) => {
  if (!o.emailAddress && !o.phoneNumber)
    ctx.addIssue({ code: "custom", path: ["emailAddress"], message: "emailAddress or phoneNumber is required" });
});

/** The create calls need the preview's token. */
export function requireAttemptToken<T extends z.ZodType<TCheckoutBody>>(schema: T) {
  return schema.superRefine((o, ctx) => {
    if (!(o.subscription.attempt_token ?? o.attempt_token))
      ctx.addIssue({ code: "custom", path: ["attempt_token"], message: "is required (from the preview)" });
  });
}

/** POST /api/access/v1/coupons/validate. */
export const ZValidateCouponBody = z.object({
  subscription_plan_id: ZId,
  coupon_code: z
    .string()
    .trim()
    .min(1, "is required")
    .max(32)
    .transform((c) => c.toUpperCase()),
  currency: ZCurrency.optional(),
});

/** POST /api/v1/subscription_plans/<id>/external_subscription_token.json (deprecated). */
export const ZExternalTokenBody = z.object({
  type: z.string().trim().min(1, "is required").max(64),
  attempt_token: z.string().max(200).optional(),
});

export const ZPlanIdParams = z.object({
  plan_id: z
    .string()
    .regex(/^\d{1,10}$/, "must be a plan id")
    .transform(Number)
    .pipe(z.number().int().positive().max(PG_INT_MAX)),
});
