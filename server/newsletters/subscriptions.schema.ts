/** Readers' newsletter subscriptions on the wire: the member API, the public sign-up, bounce reports. */
import { z } from "zod";

import { zNewsletterSlug, zNewsletterSlugExact } from "../members/members.schema";
import { PG_INT_MAX, zWholeNumber } from "../params.schema";
import { zNewsletterEmail } from "./newsletters.schema";

/** A slug in the path names the newsletter exactly (not trimmed, as forms are). */
export const ZNewsletterSlugParams = z.object({ slug: zNewsletterSlugExact });

export const ZMemberNewsletterPut = z.object({ subscribed: z.boolean() });

/** A newsletter as a signed-in reader sees it. */
export const ZMemberNewsletter = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** "none": never subscribed. */
  status: z.enum(["none", "pending", "active", "unsubscribed"]),
  subscribed: z.boolean(),
});
export type TMemberNewsletter = z.infer<typeof ZMemberNewsletter>;

/** Control characters (line breaks, tabs, escapes) and the bidirectional embeddings, overrides and isolates. */
const NAME_FORBIDDEN = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

export const ZPublicSubscribeInput = z.object({
  account_id: zWholeNumber({ min: 1, max: PG_INT_MAX }),
  email: zNewsletterEmail,
  newsletters: z
    .array(zNewsletterSlug)
    .min(1, "name at least one newsletter")
    .max(20, "must name at most 20 newsletters")
    .transform((slugs) => [...new Set(slugs)]),
  // The name greets the reader in the confirmation mail: one line, with no control characters
  // or bidirectional overrides that would let a stranger lay out text of their own in it.
  name: z
    .string()
    .trim()
    .max(200, "must be at most 200 characters")
    .refine((name) => !NAME_FORBIDDEN.test(name), "must be one line without control characters")
    .optional(),
  /** The widget's or page's locale (a BCP 47 tag): a new reader's mail, the confirmation first, is in it. */
  locale: z
    .string()
    .trim()
    .max(35, "must be at most 35 characters")
    .regex(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/, "must be a language tag such as hi or pt-BR")
    .optional(),
});

/** The one answer to a public sign-up, whether or not the e-mail is known. */
export const PUBLIC_SUBSCRIBE_MESSAGE =
  "Thank you. If this address can receive our mail, we have sent it a link to confirm the subscription.";

export const ZNewsletterTokenParams = z.object({ token: z.string().min(1).max(200) });

const BOUNCE_TYPES = ["bounce", "complaint"] as const;

export const ZBounceReportInput = z.object({
  bounces: z
    .array(
      z.object({
        email: zNewsletterEmail,
        type: z.enum(BOUNCE_TYPES),
        detail: z.string().trim().max(1000, "must be at most 1000 characters").optional(),
      }),
    )
    .min(1, "must hold at least one report")
    .max(1000, "must hold at most 1000 reports"),
});
export type TBounceReportInput = z.output<typeof ZBounceReportInput>;
