/**
 * Finding stories in the dashboard (the stories list: search, filters, sort, paging), acting on
 * many at once (bulk actions), and the editor's overview. Inputs, views and the pure helpers the
 * list page shares with the server. Imports zod and other schema files only: components import it.
 */
import { z } from "zod";

import { zCalendarDay } from "../../dates.schema";
import { ZStoryStatus, type TStoryStatus } from "./stories.schema";

// ─── The list's input ────────────────────────────────────────────────────────────────────────

/** A row id: PostgreSQL's integer. */
const zId = z.number().int().positive().max(2_147_483_647);

export const STORY_SORTS = ["updated-desc", "updated-asc", "published-desc", "headline", "relevance"] as const;
export type TStorySort = (typeof STORY_SORTS)[number];
export const STORY_SORT_LABEL: Record<TStorySort, string> = {
  "updated-desc": "Updated, newest first",
  "updated-asc": "Updated, oldest first",
  "published-desc": "Published, newest first",
  headline: "Headline A–Z",
  relevance: "Relevance (when searching)",
};

/** Which of a story's dates the date range filters on. */
const STORY_DATE_FIELDS = ["updated", "published"] as const;
type TStoryDateField = (typeof STORY_DATE_FIELDS)[number];

/** A calendar day, "YYYY-MM-DD", that exists (checked on UTC's calendar, which every zone shares). */
const ZCalendarDay = zCalendarDay;

export const ZListStoriesInput = z
  .object({
    status: ZStoryStatus.optional(),
    /** Words of the headline, subheadline or text (see searchPlan). */
    search: z.string().trim().max(200).optional(),
    sectionId: zId.optional(),
    authorId: zId.optional(),
    tagId: zId.optional(),
    /** Only the signed-in editor's own stories (the ones they created). */
    mine: z.boolean().optional(),
    /** Only stories with a scheduled publication. */
    scheduled: z.boolean().optional(),
    dateField: z.enum(STORY_DATE_FIELDS).default("updated"),
    /** Inclusive days on the account's clocks. */
    from: ZCalendarDay.optional(),
    to: ZCalendarDay.optional(),
    /** Default: relevance when searching, else updated-desc. Relevance without a search is updated-desc. */
    sort: z.enum(STORY_SORTS).optional(),
    offset: z.number().int().min(0).max(100_000).default(0),
    limit: z.number().int().min(1).max(100).default(25),
  })
  .refine((input) => !input.from || !input.to || input.from <= input.to, {
    message: "must not be before the start day",
    path: ["to"],
  });
export type TListStoriesInput = z.input<typeof ZListStoriesInput>;

// ─── Search ──────────────────────────────────────────────────────────────────────────────────

/**
 * How a search is run:
 * - "fulltext": the words (letters, their marks and digits, in any script; at most 10), all required, on the story's
 *   search_vector (headline A, subheadline B, text C), the last word as a prefix ("tram lin" finds
 *   "tram line"); a headline containing the whole query also matches (stop words such as "the" are
 *   not in the index, and a headline typed with punctuation should still be found);
 * - "headline": a query whose words are all shorter than 3 characters (a 1–2 letter prefix in the
 *   index matches nearly everything): headline contains the query, case-insensitively.
 */
type SearchPlan =
  { kind: "none" } | { kind: "headline"; pattern: string } | { kind: "fulltext"; tsquery: string; pattern: string };

/** A LIKE pattern that matches `text` literally anywhere (`\` is the escape character). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function searchPlan(search: string | undefined): SearchPlan {
  const query = (search ?? "").trim();
  if (!query) return { kind: "none" };
  const pattern = containsPattern(query);
  const words = (query.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).slice(0, 10);
  if (!words.length || words.every((word) => word.length < 3)) return { kind: "headline", pattern };
  const tsquery = words.map((word, i) => (i === words.length - 1 ? `${word}:*` : word)).join(" & ");
  return { kind: "fulltext", tsquery, pattern };
}

/** The sort a list runs with: relevance only when there is a search to rank by. */
export function effectiveSort(sort: TStorySort | undefined, searching: boolean): TStorySort {
  if (!sort) return searching ? "relevance" : "updated-desc";
  return sort === "relevance" && !searching ? "updated-desc" : sort;
}

// ─── The list's state in the URL ─────────────────────────────────────────────────────────────

/** What the list page keeps in its query string: reload, Back and a shared link restore it. */
export type StoryListState = {
  q: string;
  status: TStoryStatus | "";
  section: number | null;
  author: number | null;
  tag: number | null;
  mine: boolean;
  scheduled: boolean;
  date: TStoryDateField;
  from: string;
  to: string;
  sort: TStorySort | "";
  page: number;
};

export const EMPTY_LIST_STATE: StoryListState = {
  q: "",
  status: "",
  section: null,
  author: null,
  tag: null,
  mine: false,
  scheduled: false,
  date: "updated",
  from: "",
  to: "",
  sort: "",
  page: 1,
};

const positiveInt = (value: string | null): number | null => {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= 2_147_483_647 ? n : null;
};

/** The state in a query string; anything malformed is dropped (a hand-edited URL never breaks the page). */
export function listStateFromParams(params: { get(name: string): string | null }): StoryListState {
  const status = params.get("status")?.toUpperCase() ?? "";
  const sort = params.get("sort") ?? "";
  const date = params.get("date");
  const day = (name: string) => {
    const value = params.get(name) ?? "";
    return ZCalendarDay.safeParse(value).success ? value : "";
  };
  return {
    q: (params.get("q") ?? "").slice(0, 200),
    status: ZStoryStatus.safeParse(status).success ? (status as TStoryStatus) : "",
    section: positiveInt(params.get("section")),
    author: positiveInt(params.get("author")),
    tag: positiveInt(params.get("tag")),
    mine: params.get("mine") === "1",
    scheduled: params.get("scheduled") === "1",
    date: date === "published" ? "published" : "updated",
    from: day("from"),
    to: day("to"),
    sort: (STORY_SORTS as readonly string[]).includes(sort) ? (sort as TStorySort) : "",
    page: Math.min(positiveInt(params.get("page")) ?? 1, 4_000),
  };
}

/** The query string of a state, without defaults (so the plain list is plain /admin/content/stories). */
export function listStateToParams(state: StoryListState): string {
  const params = new URLSearchParams();
  if (state.q.trim()) params.set("q", state.q);
  if (state.status) params.set("status", state.status.toLowerCase());
  if (state.section) params.set("section", String(state.section));
  if (state.author) params.set("author", String(state.author));
  if (state.tag) params.set("tag", String(state.tag));
  if (state.mine) params.set("mine", "1");
  if (state.scheduled) params.set("scheduled", "1");
  if (state.date !== "updated") params.set("date", state.date);
  if (state.from) params.set("from", state.from);
  if (state.to) params.set("to", state.to);
  if (state.sort) params.set("sort", state.sort);
  if (state.page > 1) params.set("page", String(state.page));
  return params.toString();
}

/** The list procedure's input for a state and page size. */
export function listInputFromState(state: StoryListState, pageSize: number): TListStoriesInput {
  const from = state.from && state.to && state.from > state.to ? state.to : state.from;
  return {
    search: state.q.trim() || undefined,
    status: state.status || undefined,
    sectionId: state.section ?? undefined,
    authorId: state.author ?? undefined,
    tagId: state.tag ?? undefined,
    mine: state.mine || undefined,
    scheduled: state.scheduled || undefined,
    dateField: state.date,
    from: from || undefined,
    to: state.to || undefined,
    sort: state.sort || undefined,
    offset: (state.page - 1) * pageSize,
    limit: pageSize,
  };
}

// ─── Bulk actions ────────────────────────────────────────────────────────────────────────────

const BULK_ACTIONS = ["submit", "publish", "retract", "add-to-collection", "delete"] as const;
export type TBulkAction = (typeof BULK_ACTIONS)[number];

/** Past tense for the editor's summary ("4 published"). */
const BULK_DONE: Record<TBulkAction, string> = {
  submit: "submitted",
  publish: "published",
  retract: "retracted",
  "add-to-collection": "added to the collection",
  delete: "deleted",
};

const BULK_MAX = 100;

export const ZBulkStoriesInput = z
  .object({
    ids: z
      .array(z.uuid())
      .min(1, "choose at least one story")
      .max(BULK_MAX, `at most ${BULK_MAX} stories at once`)
      .refine((ids) => new Set(ids).size === ids.length, "the same story is listed twice"),
    action: z.enum(BULK_ACTIONS),
    /** The collection, for add-to-collection (and only then). */
    collectionId: zId.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.action === "add-to-collection" && input.collectionId === undefined)
      ctx.addIssue({ code: "custom", path: ["collectionId"], message: "choose a collection" });
    if (input.action !== "add-to-collection" && input.collectionId !== undefined)
      ctx.addIssue({ code: "custom", path: ["collectionId"], message: "is only for add-to-collection" });
  });
export type TBulkStoriesInput = z.input<typeof ZBulkStoriesInput>;

const ZBulkStoryResult = z.object({
  id: z.uuid(),
  /** Null when there is no such story (of this account). */
  headline: z.string().nullable(),
  ok: z.boolean(),
  /** Why it was refused (null when ok). */
  reason: z.string().nullable(),
});
export type TBulkStoryResult = z.infer<typeof ZBulkStoryResult>;

export const ZBulkStoriesResult = z.object({ action: z.enum(BULK_ACTIONS), results: z.array(ZBulkStoryResult) });
export type TBulkStoriesResult = z.infer<typeof ZBulkStoriesResult>;

/** "4 published, 1 refused: not approved" — the reasons of the refused, most frequent first. */
export function summarizeBulk(result: TBulkStoriesResult): string {
  const done = result.results.filter((r) => r.ok).length;
  const refused = result.results.filter((r) => !r.ok);
  const head = `${done} ${BULK_DONE[result.action]}`;
  if (!refused.length) return head;
  const counts = new Map<string, number>();
  for (const r of refused) counts.set(r.reason ?? "refused", (counts.get(r.reason ?? "refused") ?? 0) + 1);
  const reasons = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => (counts.size > 1 ? `${reason} (${n})` : reason))
    .join("; ");
  return `${head}, ${refused.length} refused: ${reasons}`;
}

// ─── The overview ────────────────────────────────────────────────────────────────────────────

const ZOverviewStory = z.object({ id: z.uuid(), headline: z.string(), at: z.date().nullable() });

const ZOverviewCard = z.object({ total: z.number().int(), items: z.array(ZOverviewStory) });

export const ZEditorOverview = z.object({
  /** The day "today" means, on the account's clocks ("YYYY-MM-DD"). */
  today: z.string(),
  awaitingApproval: ZOverviewCard,
  scheduled: ZOverviewCard,
  publishedToday: ZOverviewCard,
  myDrafts: ZOverviewCard,
});
export type TEditorOverview = z.infer<typeof ZEditorOverview>;

export const ACTIVITY_DAYS = 30;

export const ZDailyActivity = z.object({
  days: z.array(z.object({ day: z.string(), published: z.number().int(), votes: z.number().int() })),
  totals: z.object({ published: z.number().int(), votes: z.number().int() }),
});
export type TDailyActivity = z.infer<typeof ZDailyActivity>;

/** One row per day of `days`, with the counts found (0 where none). */
export function zeroFillDays(
  days: readonly string[],
  published: ReadonlyMap<string, number>,
  votes: ReadonlyMap<string, number>,
): TDailyActivity {
  const rows = days.map((day) => ({ day, published: published.get(day) ?? 0, votes: votes.get(day) ?? 0 }));
  return {
    days: rows,
    totals: {
      published: rows.reduce((sum, r) => sum + r.published, 0),
      votes: rows.reduce((sum, r) => sum + r.votes, 0),
    },
  };
}
