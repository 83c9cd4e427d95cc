/**
 * The self-service page's inputs (app/member/subscriptions, the /api/member/subscriptions… routes,
 * docs/subscriptions.md "Self-service page"), and the retention offer staff set. Imported by the
 * routes, the dashboard's router and the page's forms alike.
 */
import { z } from "zod";

import { ZTimeZone } from "../../publishing/settings.schema";

/** Why a reader cancels: the page's choices (stored as these keys, shown to staff as the labels). */
export const CANCEL_REASONS = {
  too_expensive: "It costs too much",
  not_using: "I don't read it enough",
  found_alternative: "I found another source",
  technical: "Something doesn't work",
  temporary: "I need a break for a while",
  other: "Another reason",
} as const;
export type TCancelReason = keyof typeof CANCEL_REASONS;
const ZCancelReason = z.enum(Object.keys(CANCEL_REASONS) as [TCancelReason, ...TCancelReason[]], {
  error: "Choose a reason.",
});

export const ZSelfServiceCancelInput = z.object({
  reason: ZCancelReason,
  comment: z
    .string()
    .trim()
    .max(1000, "At most 1000 characters.")
    .optional()
    .transform((s) => (s ? s : undefined)),
});
export type TSelfServiceCancelInput = z.infer<typeof ZSelfServiceCancelInput>;

/**
 * `?time_zone=Europe/Paris`: the reader's browser's zone, the one the server's sentences name their
 * times in (the account's without it). A zone this runtime does not know is a 400.
 */
export const ZSelfServiceZoneQuery = z.object({ time_zone: ZTimeZone.optional() });

export const ZSelfServiceSwitchPreviewInput = z.object({
  subscription_plan_id: z.coerce.number().int().positive(),
});

export const ZSelfServiceSwitchInput = z.object({
  attempt_token: z.string().min(1).max(200),
  /** Only for a switch that costs something now: the gateway's payment id and its signature. */
  payment_token: z.string().min(1).max(200).optional(),
  signature: z.string().min(1).max(200).optional(),
});

export const ZPaymentMethodInput = z.object({
  /** What the gateway's card form handed the browser for the new method. */
  payment_token: z.string().trim().min(1, "The card form gave no token.").max(200),
  signature: z.string().min(1).max(200).optional(),
});

const RETENTION_OFFER_KINDS = ["coupon", "pause"] as const;

/** The dashboard's retention offer: a coupon off the next N charges, or a pause of N periods. */
export const ZRetentionOfferInput = z
  .object({
    kind: z.enum(RETENTION_OFFER_KINDS),
    coupon_id: z.number().int().positive().nullable().optional(),
    periods: z.number().int().min(1, "At least 1 period.").max(12, "At most 12 periods."),
    enabled: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.kind === "coupon" && !v.coupon_id)
      ctx.addIssue({ code: "custom", path: ["coupon_id"], message: "Choose the coupon to offer." });
  });
export type TRetentionOfferInput = z.infer<typeof ZRetentionOfferInput>;

/** The path of a signed "update your card" link (server/subscriptions/self-service/card-link.ts); its signature is checked after. */
export const ZCardLinkParams = z.object({
  token: z
    .string()
    .max(200)
    .regex(/^[0-9.]+[A-Za-z0-9_-]{43}$/, "This link is not valid."),
});
