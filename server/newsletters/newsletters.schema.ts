/**
 * Newsletters as staff configure them (docs/newsletters.md "Newsletters"), and readers'
 * subscriptions as the dashboard and the APIs see them. Shared by the tRPC router, the REST routes
 * and the dashboard's form.
 */
import { z } from "zod";

import { zNewsletterSlug } from "../members/members.schema";
import { zWebUrl } from "../web-url";

export const NEWSLETTER_AUDIENCES = ["OPT_IN", "MEMBERS", "PAYING"] as const;
const SUBSCRIPTION_STATUSES = ["PENDING", "ACTIVE", "UNSUBSCRIBED"] as const;

export const AUDIENCE_LABELS: Record<(typeof NEWSLETTER_AUDIENCES)[number], string> = {
  OPT_IN: "Everyone who opted in",
  MEMBERS: "Members with a verified e-mail who opted in",
  PAYING: "Paying subscribers who opted in",
};

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

export const zNewsletterEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "must be at most 254 characters")
  .pipe(z.email("must be an e-mail address"));

const zText = (max: number) => z.string().trim().min(1, "is required").max(max, `must be at most ${max} characters`);

/** "" or null from a form means none. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" || v === undefined ? null : v), schema.nullable());

export const ZNewsletterDesign = z.object({
  logoUrl: optional(zWebUrl({ maxLength: 2_000 })),
  accentColor: z.string().regex(HEX_COLOUR, "must be a colour as #rrggbb").default("#1d4ed8"),
  backgroundColor: z.string().regex(HEX_COLOUR, "must be a colour as #rrggbb").default("#ffffff"),
  /** Plain text (rendered escaped): the publisher's postal address, and anything else the footer says. */
  footer: zText(1_000),
});

export const ZDigestSchedule = z.object({
  /** ISO weekdays, Monday 1 … Sunday 7, each at most once. */
  days: z
    .array(z.number().int().min(1, "must be 1 to 7").max(7, "must be 1 to 7"))
    .min(1, "choose at least one day")
    .max(7)
    .refine((days) => new Set(days).size === days.length, "must not repeat a day")
    .transform((days) => [...days].sort((a, b) => a - b)),
  /** HH:MM on the account's clocks. */
  time: z.string().regex(TIME, "must be a time as HH:MM"),
});
export type TDigestSchedule = z.output<typeof ZDigestSchedule>;

const ZNewsletterFields = z.object({
  name: zText(100),
  slug: zNewsletterSlug,
  description: optional(z.string().trim().max(500, "must be at most 500 characters")),
  senderName: zText(100),
  senderEmail: zNewsletterEmail,
  replyTo: optional(zNewsletterEmail),
  design: ZNewsletterDesign,
  audience: z.enum(NEWSLETTER_AUDIENCES),
  planIds: z.array(z.number().int().positive()).max(100).default([]),
  trackOpens: z.boolean().default(false),
  trackClicks: z.boolean().default(true),
  digestCollectionId: optional(z.number().int().positive()),
  digestSchedule: optional(ZDigestSchedule),
});

/** Create, and update (the form sends every field). */
export const ZNewsletterInput = ZNewsletterFields.superRefine((value, ctx) => {
  if (value.audience !== "PAYING" && value.planIds.length > 0) {
    ctx.addIssue({ code: "custom", path: ["planIds"], message: "plans apply only to paying subscribers" });
  }
  if ((value.digestCollectionId === null) !== (value.digestSchedule === null)) {
    ctx.addIssue({
      code: "custom",
      path: [value.digestCollectionId === null ? "digestCollectionId" : "digestSchedule"],
      message: "a digest needs both a collection and a schedule",
    });
  }
});
export type TNewsletterInput = z.output<typeof ZNewsletterInput>;
export type TNewsletterFormInput = z.input<typeof ZNewsletterInput>;

export const ZNewsletterId = z.number().int().positive().max(2_147_483_647);

export const ZUpdateNewsletterInput = z.object({ id: ZNewsletterId, newsletter: ZNewsletterInput });
export const ZArchiveNewsletterInput = z.object({ id: ZNewsletterId, archived: z.boolean() });

export const ZNewsletterView = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  senderName: z.string(),
  senderEmail: z.string(),
  replyTo: z.string().nullable(),
  design: z.object({
    logoUrl: z.string().nullable(),
    accentColor: z.string(),
    backgroundColor: z.string(),
    footer: z.string(),
  }),
  audience: z.enum(NEWSLETTER_AUDIENCES),
  planIds: z.array(z.number()),
  trackOpens: z.boolean(),
  trackClicks: z.boolean(),
  digestCollectionId: z.number().nullable(),
  digestSchedule: z.object({ days: z.array(z.number()), time: z.string() }).nullable(),
  archivedAt: z.date().nullable(),
  createdAt: z.date(),
  counts: z.object({ active: z.number(), pending: z.number(), unsubscribed: z.number() }),
});
export type TNewsletterView = z.infer<typeof ZNewsletterView>;

// ─── subscribers, as staff see them ───────────────────────────────────────────────────────────

export const ZListSubscribersInput = z.object({
  newsletterId: ZNewsletterId,
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  /** The last row's id of the previous page. */
  cursor: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(100).default(50),
});
export type TListSubscribersInput = z.input<typeof ZListSubscribersInput>;

const ZSubscriberView = z.object({
  id: z.number(),
  memberId: z.number(),
  email: z.string(),
  name: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  consentSource: z.string(),
  consentedAt: z.date(),
  confirmedAt: z.date().nullable(),
  unsubscribedAt: z.date().nullable(),
  unsubscribeSource: z.string().nullable(),
});
export type TSubscriberView = z.infer<typeof ZSubscriberView>;
export const ZSubscriberPage = z.object({ items: z.array(ZSubscriberView), nextCursor: z.number().nullable() });

export const ZAddSubscriberInput = z.object({
  newsletterId: ZNewsletterId,
  email: zNewsletterEmail,
  name: z.string().trim().max(200, "must be at most 200 characters").optional(),
});
export type TAddSubscriberInput = z.output<typeof ZAddSubscriberInput>;

export const ZStaffUnsubscribeInput = z.object({
  newsletterId: ZNewsletterId,
  subscriptionId: z.number().int().positive(),
});
