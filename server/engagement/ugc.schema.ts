/**
 * User-generated content (docs/engagement.md, "User-generated content"): what the contribution
 * widget sends and gets back (REST, snake_case), and the dashboard's review (tRPC). Zod only: the
 * dashboard's client components import it.
 *
 * A submission is plain text (HTML in it is text: stored as written, shown escaped, never
 * rendered), an optional title, optional http(s) links and optional images Masthead serves,
 * on a topic the page gives (`data-svc-topic-type`, `data-svc-topic-value`: comma-separated).
 */
import { z } from "zod";

import { zCursorPage, zCursorPaging } from "../cursor-page.schema";
import { zWholeNumber } from "../params.schema";

export const UGC_LIMITS = {
  /** Characters of text (413 beyond). */
  maxTextLength: 10_000,
  maxTitleLength: 200,
  maxTopicValues: 20,
  maxTopicValueLength: 200,
  maxLinks: 10,
  maxImages: 10,
  /** Bytes of the request body (413 beyond). */
  maxBodyBytes: 64 * 1024,
};

/** A repeated submit (same reader, same content) within this window answers the first submission. */
export const UGC_DUPLICATE_WINDOW_MS = 30_000;

// C0 controls other than tab and line feed, DEL and C1 controls (carriage returns are read as line feeds first).
const CONTROL = /[\u0001-\u0008\u000b-\u001f\u007f-\u009f]/;
const CONTROL_ISSUE = "must not contain control characters (other than tab and line feed)";
const LINE_BREAK = /[\n\t]/;

/** Text as written: CRLF and CR read as LF, no other control characters. */
const zPlain = z
  .string()
  .transform((s) => s.replace(/\r\n?/g, "\n"))
  .refine((s) => !CONTROL.test(s), CONTROL_ISSUE);
/** One line: no control characters at all, trimmed. */
const zLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !CONTROL.test(s) && !LINE_BREAK.test(s), "must be one line without control characters");

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname) && !url.username && !url.password
    );
  } catch {
    return false;
  }
}
const zHttpUrl = z
  .string()
  .max(2048)
  .refine(
    (s) => !CONTROL.test(s) && !/\s/.test(s) && isHttpUrl(s),
    "must be an absolute http(s) URL without credentials",
  );

const ZUgcTopicType = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$/, "must be 1 to 50 letters, digits, _ or - (a letter or digit first)")
  .transform((s) => s.toLowerCase());

/** An array of values, or one string of comma-separated values (as the widget's attribute gives them). */
const ZUgcTopicValues = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(",")))
  .pipe(z.array(zLine(UGC_LIMITS.maxTopicValueLength)))
  .transform((values) => [...new Set(values.filter(Boolean))])
  .pipe(
    z
      .array(z.string())
      .min(1, "give at least one topic value")
      .max(UGC_LIMITS.maxTopicValues, `at most ${UGC_LIMITS.maxTopicValues} topic values`),
  );

/** POST /api/v1/accounts/<id>/ugc */
export const ZCreateUgcBody = z.object({
  jwt: z.string().optional(),
  submission: z.strictObject({
    topic_type: ZUgcTopicType,
    topic_values: ZUgcTopicValues,
    title: z
      .union([zLine(UGC_LIMITS.maxTitleLength), z.null()])
      .optional()
      .transform((s) => s || null),
    /** Length beyond UGC_LIMITS.maxTextLength is the service's 413. */
    text: zPlain.refine((s) => s.trim().length > 0, "must not be empty"),
    links: z.array(zHttpUrl).max(UGC_LIMITS.maxLinks, `at most ${UGC_LIMITS.maxLinks} links`).default([]),
    /** Images uploaded to Masthead (checked by the service, which knows the account's image CDN). */
    images: z.array(zHttpUrl).max(UGC_LIMITS.maxImages, `at most ${UGC_LIMITS.maxImages} images`).default([]),
  }),
});
export type TCreateUgcBody = z.output<typeof ZCreateUgcBody>;

const ZUgcStatus = z.enum(["pending", "approved", "rejected"]);
export type TUgcStatus = z.infer<typeof ZUgcStatus>;

/** Submissions per page of GET ugc/me: default and most. */
const UGC_LIST_LIMIT = { default: 20, max: 50 };

/** GET /api/v1/accounts/<id>/ugc/me */
export const ZMyUgcQuery = z.object({
  jwt: z.string().optional(),
  limit: zWholeNumber({ min: 1, max: UGC_LIST_LIMIT.max }).default(UGC_LIST_LIMIT.default),
  cursor: z.string().min(1).max(200).optional(),
  status: ZUgcStatus.optional(),
});
export type TMyUgcQuery = z.output<typeof ZMyUgcQuery>;

export const ZUgcParams = z.object({ account_id: z.string() });

/** A submission as its author gets it (the moderation scores are the moderators'). */
export type TUgcSubmissionWire = {
  id: number;
  topic_type: string;
  topic_values: string[];
  title: string | null;
  text: string;
  links: string[];
  images: string[];
  status: TUgcStatus;
  created_at: string;
  decided_at: string | null;
};

// ─── dashboard (tRPC ugc.*) ──────────────────────────────────────────────────────────────────

const ZUgcReviewStatus = z.enum(["PENDING", "APPROVED", "REJECTED"]);
export type TUgcReviewStatus = z.infer<typeof ZUgcReviewStatus>;

export const ZListUgcInput = z.object({
  ...zCursorPaging,
  status: ZUgcReviewStatus.optional(),
  topicType: z.string().max(50).optional(),
});
export type TListUgcInput = z.input<typeof ZListUgcInput>;

const ZUgcView = z.object({
  id: z.number().int(),
  topicType: z.string(),
  topicValues: z.array(z.string()),
  title: z.string().nullable(),
  text: z.string(),
  links: z.array(z.string()),
  images: z.array(z.string()),
  status: ZUgcReviewStatus,
  toxicity: z.number(),
  isSpam: z.boolean(),
  moderationReasons: z.array(z.string()),
  createdAt: z.date(),
  decidedAt: z.date().nullable(),
  decidedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  member: z.object({ id: z.number().int(), name: z.string(), avatarUrl: z.string().nullable() }),
});
export type TUgcView = z.infer<typeof ZUgcView>;

export const ZUgcPage = zCursorPage(ZUgcView);
export type TUgcPage = z.infer<typeof ZUgcPage>;

export const ZUgcCounts = z.object({
  PENDING: z.number().int(),
  APPROVED: z.number().int(),
  REJECTED: z.number().int(),
});

export const ZUgcTopicTypes = z.array(z.object({ topicType: z.string(), count: z.number().int() }));

export const ZDecideUgcInput = z.object({
  id: z.number().int().min(1).max(2_147_483_647),
  decision: z.enum(["APPROVED", "REJECTED"]),
});
export type TDecideUgcInput = z.infer<typeof ZDecideUgcInput>;

export const ZDecideUgcResult = z.object({ submission: ZUgcView, changed: z.boolean() });
