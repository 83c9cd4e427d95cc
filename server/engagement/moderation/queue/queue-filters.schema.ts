/**
 * The moderation page's views and filters (docs/engagement.md "The queue", "Search and filters"),
 * as tRPC takes them and as the page's URL carries them (`?view=rejected&q=budget&from=…`), so a
 * filtered view can be shared or bookmarked. zod only: the dashboard imports it.
 *
 * Views: the four queue tabs (undecided comments), the three decided views (a moderator's
 * approval, rejection or spam decision), newest decision first, and the published and featured
 * comments (CONVERSATION_VIEWS), newest first.
 */
import { z } from "zod";

import { zCalendarDay } from "../../../dates.schema";

/** The queue's tabs: comments waiting for a decision (a comment may be in several). */
export const QUEUE_TABS = ["pending", "reported", "spam", "toxic"] as const;
export type TQueueTab = (typeof QUEUE_TABS)[number];

/** Comments a moderator decided, by the decision. */
export const DECIDED_VIEWS = ["approved", "rejected", "marked_spam"] as const;
export type TDecidedView = (typeof DECIDED_VIEWS)[number];

/**
 * Comments readers see (published, not spam, not hidden), and the featured ones: where a moderator
 * finds any comment to feature, or one to stop featuring (docs/engagement.md "Conversation tools").
 */
const CONVERSATION_VIEWS = ["published", "featured"] as const;

export const QUEUE_VIEWS = [...QUEUE_TABS, ...DECIDED_VIEWS, ...CONVERSATION_VIEWS] as const;
export type TQueueView = (typeof QUEUE_VIEWS)[number];

export const isDecidedView = (view: TQueueView): view is TDecidedView =>
  (DECIDED_VIEWS as readonly string[]).includes(view);

export const QUEUE_ORDERS = ["newest", "oldest"] as const;
export type TQueueOrder = (typeof QUEUE_ORDERS)[number];

/** Search terms are bounded: a pattern over every comment of the account must stay cheap. */
export const FILTER_LIMITS = { text: 200, page: 500, reader: 200, reason: 64 } as const;

const emptyToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const zTerm = (max: number) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .max(max, `must be at most ${max} characters`)
      .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "must not contain control characters")
      .optional(),
  );

/** A day as YYYY-MM-DD (a day of the account's zone), a real date. */
const zDay = z.preprocess(emptyToUndefined, zCalendarDay.optional());

/** Reason codes as scorers and moderation write them ("toxicity.insult", "held.spam"). */
const REASON_CODE = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/;

export const ZQueueFilters = z
  .object({
    /** Words in the comment's text (its text inserts), any case. */
    q: zTerm(FILTER_LIMITS.text),
    /** Part of the page's URL or headline, any case. */
    page: zTerm(FILTER_LIMITS.page),
    /** Part of the reader's name or e-mail, any case, or their member id (digits). */
    reader: zTerm(FILTER_LIMITS.reader),
    /** One reason code, exactly. */
    reason: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .max(FILTER_LIMITS.reason, `must be at most ${FILTER_LIMITS.reason} characters`)
        .regex(REASON_CODE, "must be a reason code such as toxicity.insult")
        .optional(),
    ),
    /** First and last day (both included, on the account's clocks) of the comment's creation, or of the decision in decided views. */
    from: zDay,
    to: zDay,
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: "must not be before from", path: ["to"] });
export type TQueueFilters = z.output<typeof ZQueueFilters>;

export const FILTER_KEYS = ["q", "page", "reader", "reason", "from", "to"] as const;

// ─── the page's URL ──────────────────────────────────────────────────────────────────────────

export type TQueueUrlState = { view: TQueueView; order: TQueueOrder; filters: TQueueFilters };

type SearchParamsLike = URLSearchParams | Record<string, string | string[] | undefined>;

const first = (params: SearchParamsLike, key: string): string | undefined => {
  if (params instanceof URLSearchParams) return params.get(key) ?? undefined;
  const value = Object.hasOwn(params, key) ? params[key] : undefined;
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The view, order and filters a URL's query names. A link is forgiving, as the dashboard's other
 * pages are: an unknown view or order falls back to the default, and a filter that is not valid is
 * left out and named in `invalid` (the page says so) rather than failing the page.
 */
export function parseQueueSearchParams(params: SearchParamsLike): TQueueUrlState & { invalid: string[] } {
  const viewRaw = first(params, "view");
  const view = (QUEUE_VIEWS as readonly string[]).includes(viewRaw ?? "") ? (viewRaw as TQueueView) : "pending";
  const order = first(params, "order") === "oldest" ? "oldest" : "newest";
  const raw = Object.create(null) as Record<string, string | undefined>;
  for (const key of FILTER_KEYS) raw[key] = first(params, key);
  const invalid: string[] = [];
  const parsed = ZQueueFilters.safeParse(raw);
  if (parsed.success) return { view, order, filters: parsed.data, invalid };
  const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  for (const key of bad) {
    invalid.push(key);
    delete raw[key];
  }
  const retry = ZQueueFilters.safeParse(raw);
  return { view, order, filters: retry.success ? retry.data : {}, invalid };
}

/** The query string (without "?") for a view, order and filters: defaults and empty filters left out. */
export function queueSearchParams(state: TQueueUrlState): string {
  const params = new URLSearchParams();
  if (state.view !== "pending") params.set("view", state.view);
  if (state.order !== "newest") params.set("order", state.order);
  for (const key of FILTER_KEYS) {
    const value = state.filters[key];
    if (value) params.set(key, value);
  }
  return params.toString();
}

export const hasFilters = (filters: TQueueFilters) => FILTER_KEYS.some((key) => !!filters[key]);
