/**
 * Wire shapes of paywall offers and their A/B tests (docs/subscriptions.md "Offers and
 * experiments"): the dashboard's inputs and views, the reader endpoint's query and answer.
 */
import { z } from "zod";

import { LOCALES } from "@/i18n/locales";

import { ZAccessQuery } from "../access/access.schema";

export const AUDIENCES = ["anonymous", "registered", "lapsed"] as const;
export const DEVICES = ["mobile", "desktop"] as const;
const GOALS = ["subscriptions", "revenue_30d"] as const;

/**
 * Plain text as staff typed it, cleaned once at save: markup tags and control characters
 * (newlines excepted) removed, NFC, runs of spaces made one, trimmed.
 */
export function cleanPlainText(value: string): string {
  return value
    .normalize("NFC")
    .replace(/<[^>]*>/g, "")
    .replace(/[<>]/g, "")
    .replace(/\r\n?/g, "\n")
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/[ \t]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const zText = (max: number, what: string) =>
  z
    .string()
    .max(max * 2, `${what} is at most ${max} characters`)
    .transform(cleanPlainText)
    .pipe(z.string().min(1, `${what} is required`).max(max, `${what} is at most ${max} characters`));

const ZOfferCopy = z.object({ headline: zText(120, "the headline"), body: zText(600, "the body") });

/** Who an offer or a test is for; each list empty (newsletter null) means "anyone". */
export const ZSegment = z.object({
  audiences: z.array(z.enum(AUDIENCES)).max(3).default([]),
  /** true: only readers who came from a newsletter; false: only readers who did not. */
  newsletter: z.boolean().nullable().default(null),
  countries: z
    .array(
      z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{2}$/, "is not an ISO 3166-1 alpha-2 country code (e.g. IN, US)"),
    )
    .max(250)
    .default([])
    .transform((list) => [...new Set(list)]),
  devices: z.array(z.enum(DEVICES)).max(2).default([]),
});
export type TSegment = z.output<typeof ZSegment>;

const ZLocale = z.enum(LOCALES, { error: `is not one of ${LOCALES.join(", ")}` });

export const ZOfferInput = z
  .object({
    name: z.string().trim().min(1, "the name is required").max(100, "the name is at most 100 characters"),
    priority: z.number().int().min(0).max(10_000).default(100),
    isDefault: z.boolean().default(false),
    enabled: z.boolean().default(true),
    planIds: z.array(z.number().int().positive()).min(1, "choose at least one plan").max(10),
    couponCode: z
      .string()
      .trim()
      .toUpperCase()
      .max(64)
      .nullable()
      .default(null)
      .transform((v) => v || null),
    trialDays: z.number().int().min(1, "a trial is at least 1 day").max(366).nullable().default(null),
    defaultLocale: ZLocale.default("en"),
    /** Copy per locale: the default locale's is required, the others fall back to it. */
    copy: z
      .array(z.object({ locale: ZLocale, headline: z.string(), body: z.string() }))
      .min(1)
      .max(LOCALES.length),
    segment: ZSegment.default({ audiences: [], newsletter: null, countries: [], devices: [] }),
  })
  .superRefine((o, ctx) => {
    const locales = o.copy.map((c) => c.locale);
    if (new Set(locales).size !== locales.length)
      ctx.addIssue({ code: "custom", path: ["copy"], message: "names a locale twice" });
    if (!locales.includes(o.defaultLocale))
      ctx.addIssue({ code: "custom", path: ["copy"], message: "needs the copy of the default locale" });
    if (new Set(o.planIds).size !== o.planIds.length)
      ctx.addIssue({ code: "custom", path: ["planIds"], message: "names a plan twice" });
    o.copy.forEach((c, i) => {
      for (const key of ["headline", "body"] as const) {
        const parsed = ZOfferCopy.shape[key].safeParse(c[key]);
        if (!parsed.success)
          ctx.addIssue({ code: "custom", path: ["copy", i, key], message: parsed.error.issues[0]!.message });
      }
    });
  })
  .transform((o) => ({
    ...o,
    copy: o.copy.map((c) => ({
      locale: c.locale,
      headline: cleanPlainText(c.headline),
      body: cleanPlainText(c.body),
    })),
  }));
export type TOfferInput = z.input<typeof ZOfferInput>;
export type TOfferValues = z.output<typeof ZOfferInput>;

export const ZOfferUpdate = z.object({ id: z.number().int().positive(), offer: ZOfferInput });
export const ZOfferId = z.object({ id: z.number().int().positive() });

export type TOfferView = {
  id: number;
  name: string;
  priority: number;
  isDefault: boolean;
  enabled: boolean;
  planIds: number[];
  couponCode: string | null;
  trialDays: number | null;
  defaultLocale: string;
  copy: { locale: string; headline: string; body: string }[];
  segment: TSegment;
  updatedAt: string;
};

export const ZExperimentInput = z
  .object({
    name: z.string().trim().min(1, "the name is required").max(100, "the name is at most 100 characters"),
    offerAId: z.number().int().positive(),
    offerBId: z.number().int().positive(),
    splitA: z.number().int().min(1, "each arm needs at least 1 %").max(99, "each arm needs at least 1 %").default(50),
    goal: z.enum(GOALS),
    segment: ZSegment.default({ audiences: [], newsletter: null, countries: [], devices: [] }),
  })
  .superRefine((o, ctx) => {
    if (o.offerAId === o.offerBId)
      ctx.addIssue({ code: "custom", path: ["offerBId"], message: "must be another offer than A" });
  });
export type TExperimentInput = z.input<typeof ZExperimentInput>;

export const ZExperimentId = z.object({ id: z.uuid() });

/** GET /api/access/v1/offer: the client key, the reader (JWT and/or readerId), the page's context. */
export const ZOfferQuery = ZAccessQuery.pick({
  key: true,
  masthead_jwt: true,
  accesstype_jwt: true,
  svc_jwt: true,
  readerId: true,
  locale: true,
}).extend({
  storyId: z.string().trim().min(1).max(100).optional(),
  utm_medium: z.string().max(100).optional(),
  ref: z.string().max(100).optional(),
});
