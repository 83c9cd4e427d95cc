/**
 * Query and body schemas of the story read API (spec §4.4): stories, story by slug, id and
 * external id, related stories, search, advanced search, collections, breaking news and bulk.
 *
 * Query parameters arrive as strings; the same parameters inside a bulk body may be JSON numbers
 * or arrays, so every field takes both. Rules (docs/publishing.md, "Read API"):
 * - numbers: canonical decimal digits only (server/params.schema.ts: no sign, spaces, leading
 *   zeros, exponent or hex); a bulk body may give JSON numbers.
 * - `limit`: a whole number ≥ 1; above the cap (100) it is silently lowered to the cap;
 *   anything else (`abc`, `0`, `-1`, `2.5`, `1e1`, `0x10`, `+5`) is a 400.
 * - `offset`: a whole number from 0 to 10,000 (deep pages are slow and nobody reads them).
 * - lists (`fields`, `not-story-content-ids`…): comma-separated, or the key repeated.
 */
import { z } from "zod";

import { PG_INT_MAX, zWholeNumber } from "../params.schema";
import { decodeSlugParam } from "../text/slug";
import { unsafeInputFindings } from "../validation";

export const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 20;
const MAX_OFFSET = 10_000;
const MAX_LIST = 100;
/** The farthest a JavaScript Date reaches either side of 1970. */
const MAX_TIME_MS = 8.64e15;

// ─── Field types ─────────────────────────────────────────────────────────────────────────────

/**
 * The input guard (server/validation.ts: no NUL character, no unpaired surrogate, no absurd
 * nesting) as a refinement of `schema`, for values that reach a schema without passing a
 * transport's guard (a bulk request decoded from its key). It refines the schema itself rather
 * than piping into it, so the API reference still shows the schema's shape.
 */
export function refuseNul<T extends z.ZodType>(schema: T) {
  return schema.superRefine((value, ctx) => {
    for (const finding of unsafeInputFindings(value)) {
      ctx.addIssue({ code: "custom", path: finding.path, message: finding.issue });
    }
  });
}

/**
 * Whether `value` nests arrays and objects at most `levels` deep. Iterative: any depth is safe to
 * ask about, where JSON.stringify and recursive walks overflow the stack (a 500) a few thousand
 * levels down.
 */
export function nestsAtMost(value: unknown, levels: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth >= levels) return false;
    for (const item of Array.isArray(current) ? current : Object.values(current)) stack.push([item, depth + 1]);
  }
  return true;
}

/** `limit` with its default; above MAX_LIMIT it is capped, not refused. */
export const zLimit = (fallback = DEFAULT_LIMIT) =>
  zWholeNumber({ min: 1 })
    .transform((n) => Math.min(n, MAX_LIMIT))
    .optional()
    .transform((n) => n ?? fallback);

export const zOffset = zWholeNumber({ max: MAX_OFFSET })
  .optional()
  .transform((n) => n ?? 0);

/** A positive integer id (section-id, author-id). */
export const zIntId = zWholeNumber({ min: 1, max: PG_INT_MAX });

/** Epoch milliseconds; negative before 1970. */
const zEpochMs = zWholeNumber({ negative: true, min: -MAX_TIME_MS, max: MAX_TIME_MS }).transform((n) => new Date(n));

const splitList = (value: string | number | (string | number)[]) =>
  (Array.isArray(value) ? value : [value])
    .flatMap((v) => String(v).split(","))
    .map((v) => v.trim())
    .filter(Boolean);

const zRawList = z.union([
  z.string().max(10_000),
  z.number(),
  z.array(z.union([z.string().max(10_000), z.number()])).max(MAX_LIST),
]);

/** `fields=a,b,c`: top-level story keys to keep. */
export const zFields = zRawList
  .transform(splitList)
  .pipe(
    z
      .array(
        z
          .string()
          .max(100)
          .regex(/^[A-Za-z0-9_-]+$/, "Field names are letters, digits, '-' and '_'."),
      )
      .max(MAX_LIST),
  )
  .optional()
  .transform((list) => (list && list.length > 0 ? list : undefined));

/** Comma list of story UUIDs. */
const zStoryIdList = zRawList
  .transform(splitList)
  .pipe(z.array(z.uuid("Expected story ids (UUIDs).")).max(MAX_LIST))
  .optional()
  .transform((list) => list ?? []);

/** Comma list of plain strings (templates). */
const zStringList = zRawList.transform(splitList).pipe(z.array(z.string().max(200)).max(MAX_LIST));

const zBooleanish = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0", "yes", "no", ""])])
  .optional()
  .transform((v) => v === true || v === "true" || v === "1" || v === "yes");

/**
 * A slug in a path or query (any script, text/slug.ts): percent-escapes a client or router left
 * in it decoded, composed (NFC). Room for a slug of 300 characters percent-encoded (up to 9
 * characters each).
 */
export const zSlugParam = (max = 300) =>
  z
    .string()
    .min(1, "must not be empty")
    .max(max * 10, `must be at most ${max} characters`)
    .transform(decodeSlugParam)
    .pipe(z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`));
const zSlug = zSlugParam();

// ─── Orders ──────────────────────────────────────────────────────────────────────────────────

/**
 * `story-order` values. "published-at" (newest first) is the default; "top", "recent", "latest"
 * and friends are its names in the original API's story groups. "last-updated" orders by the
 * last (re)publication; "oldest" is published-at ascending.
 */
const STORY_ORDERS = {
  "published-at": "published",
  top: "published",
  stack: "published",
  recent: "published",
  latest: "published",
  "latest-published": "published",
  newest: "published",
  "last-updated": "last-published",
  "last-published-at": "last-published",
  "last-published": "last-published",
  "updated-at": "last-published",
  oldest: "oldest",
  "earliest-published": "oldest",
} as const;
export type TStoryOrder = (typeof STORY_ORDERS)[keyof typeof STORY_ORDERS];
const ORDER_NAMES = Object.keys(STORY_ORDERS) as [keyof typeof STORY_ORDERS, ...(keyof typeof STORY_ORDERS)[]];

const zStoryOrder = z
  .enum(ORDER_NAMES, { message: `Expected one of: ${ORDER_NAMES.join(", ")}.` })
  .transform((name) => STORY_ORDERS[name]);

/**
 * `story-group` (what @quintype/backend sends from `Story.getStories(client, group)`): a known
 * order name picks that order; any other group name ("stack-12", a custom group) falls back to
 * newest first, so existing front ends keep working.
 */
const zStoryGroup = z
  .string()
  .max(200)
  .transform((name): TStoryOrder =>
    Object.hasOwn(STORY_ORDERS, name) ? STORY_ORDERS[name as keyof typeof STORY_ORDERS] : "published",
  );

// ─── Endpoints ───────────────────────────────────────────────────────────────────────────────

const storyFilterShape = {
  "section-id": zIntId.optional(),
  section: zSlug.optional(),
  tag: zSlug.optional(),
  template: zStringList.optional(),
  "story-order": zStoryOrder.optional(),
  "story-group": zStoryGroup.optional(),
  randomize: zBooleanish,
  "not-story-content-ids": zStoryIdList,
  fields: zFields,
  limit: zLimit(),
  offset: zOffset,
};

const zStoryFilter = z.object(storyFilterShape);

/** A story filter in its wire names as the stories query services take (`fields`: the ones to answer). */
function toStoriesQuery(q: z.output<typeof zStoryFilter>, fields = q.fields) {
  return {
    sectionId: q["section-id"],
    sectionSlug: q.section,
    tagSlug: q.tag,
    templates: q.template,
    order: q["story-order"] ?? q["story-group"] ?? "published",
    randomize: q.randomize,
    excludeIds: q["not-story-content-ids"],
    fields,
    limit: q.limit,
    offset: q.offset,
  };
}

/** GET /api/v1/stories (and bulk requests of `_type: "stories"`). */
export const ZStoriesQuery = refuseNul(zStoryFilter.transform((q) => toStoriesQuery(q)));
export type TStoriesQuery = z.output<typeof ZStoriesQuery>;

/** GET /api/v1/stories-by-slug */
export const ZStoryBySlugQuery = refuseNul(
  z.object({
    slug: zSlugParam(1_000),
    fields: zFields,
  }),
);

/** GET /api/v1/stories/{id}, …/attributes */
export const ZStoryIdParams = z.object({ storyId: z.uuid("The story id is a UUID.") });
export const ZFieldsQuery = z.object({ fields: zFields });

/** GET /api/v1/story-by-external-id/{id} */
export const ZExternalIdParams = refuseNul(z.object({ externalId: z.string().trim().min(1).max(500) }));

/** GET /api/v1/stories/{id}/related-stories: 5 by default. */
export const ZRelatedQuery = z.object({
  "section-id": zIntId.optional(),
  fields: zFields,
  limit: zLimit(5),
  offset: zOffset,
});

/**
 * Search `sort`: relevance (default when `q` is given), or published-at descending (default
 * without `q`) or ascending. The original API's advanced-search names are accepted too.
 */
const SORTS = {
  relevance: "relevance",
  score: "relevance",
  descending: "desc",
  desc: "desc",
  "latest-published": "desc",
  newest: "desc",
  ascending: "asc",
  asc: "asc",
  "earliest-published": "asc",
  oldest: "asc",
} as const;
const SORT_NAMES = Object.keys(SORTS) as [keyof typeof SORTS, ...(keyof typeof SORTS)[]];

/** GET /api/v1/search and /api/v1/advanced-search */
export const ZSearchQuery = refuseNul(
  z
    .object({
      q: z.string().max(500).optional(),
      author: z.string().trim().max(300).optional(),
      "author-id": zIntId.optional(),
      "section-id": zIntId.optional(),
      fields: zFields,
      limit: zLimit(),
      offset: zOffset,
      sort: z.enum(SORT_NAMES, { message: `Expected one of: ${SORT_NAMES.join(", ")}.` }).optional(),
      "published-before": zEpochMs.optional(),
      "published-after": zEpochMs.optional(),
    })
    .transform((q) => {
      const text = q.q?.trim() || undefined;
      return {
        q: text,
        author: q.author || undefined,
        authorId: q["author-id"],
        sectionId: q["section-id"],
        fields: q.fields,
        limit: q.limit,
        offset: q.offset,
        sort: q.sort ? SORTS[q.sort] : text ? "relevance" : "desc",
        publishedBefore: q["published-before"],
        publishedAfter: q["published-after"],
      };
    }),
);
export type TSearchQuery = z.output<typeof ZSearchQuery>;

/** GET /api/v1/collections/{slug} (and bulk requests of `_type: "collection"`). */
export const ZCollectionParams = refuseNul(z.object({ slug: zSlug }));
const collectionShape = {
  "item-type": z.enum(["story", "collection"], { message: "Expected story or collection." }).optional(),
  "exclude-story-ids": zStoryIdList,
  "story-fields": zFields,
  fields: zFields,
  limit: zLimit(),
  offset: zOffset,
};
export const ZCollectionQuery = z.object(collectionShape).transform((q) => ({
  itemType: q["item-type"],
  excludeStoryIds: q["exclude-story-ids"],
  storyFields: q["story-fields"] ?? q.fields,
  limit: q.limit,
  offset: q.offset,
}));
export type TCollectionQuery = z.output<typeof ZCollectionQuery>;

/** GET /api/v1/breaking-news */
export const ZBreakingNewsQuery = z.object({ fields: zFields, limit: zLimit() });

// ─── Bulk ────────────────────────────────────────────────────────────────────────────────────

const MAX_BULK_REQUESTS = 25;

const bulkCollectionShape = z.object({
  _type: z.literal("collection"),
  slug: z.string().trim().min(1).max(300),
  ...collectionShape,
});
const bulkStoriesShape = z.object({ _type: z.literal("stories"), ...storyFilterShape, "story-fields": zFields });

/**
 * One named request of a bulk body: `_type` "collection" (slug, limit, story-fields, item-type…)
 * or "stories" (the parameters of GET /api/v1/stories). Without `_type` it is a stories request,
 * as in the original client. Unknown keys are ignored.
 */
const ZBulkItem = z
  .preprocess(
    (value) =>
      value && typeof value === "object" && !Array.isArray(value) && !("_type" in value)
        ? { ...value, _type: "stories" }
        : value,
    z.discriminatedUnion("_type", [bulkCollectionShape, bulkStoriesShape], {
      message: 'Expected _type "collection" or "stories".',
    }),
  )
  .transform((q) =>
    q._type === "collection"
      ? {
          type: "collection" as const,
          slug: q.slug,
          query: {
            itemType: q["item-type"],
            excludeStoryIds: q["exclude-story-ids"],
            storyFields: q["story-fields"] ?? q.fields,
            limit: q.limit,
            offset: q.offset,
          } satisfies TCollectionQuery,
        }
      : {
          type: "stories" as const,
          query: toStoriesQuery(q, q.fields ?? q["story-fields"]) satisfies TStoriesQuery,
        },
  );
export type TBulkItem = z.output<typeof ZBulkItem>;

export const ZBulkRequests = refuseNul(
  z
    .record(z.string().min(1).max(200), ZBulkItem)
    .refine((r) => Object.keys(r).length >= 1, "Give at least one request.")
    .refine((r) => Object.keys(r).length <= MAX_BULK_REQUESTS, `At most ${MAX_BULK_REQUESTS} requests at once.`),
);

/**
 * POST /api/v1/bulk and /api/v1/bulk-request: {requests: {<name>: {...}}}. The route keeps the
 * requests as sent (bulk-request encodes them into its GET location); server/publishing/bulk.ts
 * validates each one with ZBulkRequests.
 */
export const ZBulkBody = z.object({
  // A request's parameters are flat (strings, numbers, lists of them); deeper nesting is refused.
  requests: z.record(
    z.string().min(1).max(200),
    z
      .record(z.string(), z.unknown())
      .refine((request) => nestsAtMost(request, 4), "nests too deep: parameters are strings, numbers or lists of them"),
  ),
});

/** GET /api/v1/bulk-request/{key} */
export const ZBulkKeyParams = z.object({
  key: z
    .string()
    .min(2)
    .max(8_000)
    .regex(/^[A-Za-z0-9_-]+$/, "Not a bulk request key."),
});

// ─── Collection rules ────────────────────────────────────────────────────────────────────────

const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/**
 * Rules of an automated collection (Collection.rules), evaluated over published stories: each
 * rule given narrows the set (a story matches a rule when it has any of the listed values).
 * Unreadable rules are ignored rather than failing the read.
 */
/** Rules as stored, read leniently: a rule this version does not know, or a bad value, is dropped. */
export const ZStoredCollectionRules = z
  .object({
    "section-ids": lenient(z.array(z.number().int().positive()).max(MAX_LIST)),
    "tag-slugs": lenient(z.array(z.string().min(1).max(300)).max(MAX_LIST)),
    "author-ids": lenient(z.array(z.number().int().positive()).max(MAX_LIST)),
    "story-templates": lenient(z.array(z.string().min(1).max(200)).max(MAX_LIST)),
    sort: lenient(z.enum(["published-at", "last-published-at"])),
  })
  .catch({});
export type TStoredCollectionRules = z.output<typeof ZStoredCollectionRules>;
