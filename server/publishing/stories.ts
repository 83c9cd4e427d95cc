/**
 * The story read side of the content API (spec §4.4): lists, one story by id, slug or external
 * id, related stories, attributes and breaking news.
 *
 * Invariants:
 * - Only PUBLISHED stories of the request's publisher are ever returned; every query here filters
 *   on both, so drafts, submitted, approved and retracted stories are invisible (404 by id).
 * - A page of stories is its ids, then one statement over the wire forms kept beside them, with
 *   their vote totals (story-wire.ts); a story whose form is out of date is built with its
 *   relations and kept.
 * - Every story goes out through storyToWire, then projectFields.
 *
 * Vocabulary: a "content context" is who is asking (the publisher, from the Host) and how stories
 * are shaped for them (site URL for links, publisher-id).
 */
import "server-only";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import type { TStoriesQuery, TStoryOrder } from "./content.schema";
import type { PaidPartAccess } from "./paid-part";
import type { Publisher } from "./publisher";
import type { StoryViewContext, WireStory } from "./story-view";
import {
  fromKept,
  integerSql,
  KEPT_COLUMNS,
  KEPT_JOINS,
  pageLimitSql,
  readWirePage,
  readWireStories,
  readWireStoriesByIds,
  readWireStoryBy,
  type KeptRow,
  type StoryPageArgs,
} from "./story-wire";

export type ContentContext = {
  accountId: number;
  view: StoryViewContext;
  now: Date;
  /** What the caller gets of closed stories (./paid-part.ts): all of them, or their free part. */
  paidPart: PaidPartAccess;
};

/**
 * How stories are shaped for `publisher`'s readers right now: `paidPart` is what the caller gets
 * of closed stories, by default what the account's content API setting gives a public caller.
 */
export function contentContext(
  publisher: Publisher,
  now = new Date(),
  paidPart: PaidPartAccess = publisher.contentApiAccess,
): ContentContext {
  return {
    accountId: publisher.accountId,
    view: {
      publisherId: publisher.accountId,
      siteUrl: publisher.siteUrl,
      ...(paidPart === "free_part" ? { freePart: { defaultElements: publisher.paywallDefaultElements } } : {}),
    },
    now,
    paidPart,
  };
}

/** The same context for a caller with access to every closed story (a reader the decision granted). */
export function withFullAccess(ctx: ContentContext): ContentContext {
  const { freePart: _, ...view } = ctx.view;
  return { ...ctx, view, paidPart: "full" };
}

/** The base filter of everything public: this publisher, published. */
export const publishedWhere = (accountId: number): Prisma.StoryWhereInput => ({ accountId, status: "PUBLISHED" });

// ─── Loading a page of stories ───────────────────────────────────────────────────────────────

/** One page of stories in wire shape, in the query's order (from their kept forms, story-wire.ts). */
export function loadWireStories(db: Db, ctx: ContentContext, args: StoryPageArgs): Promise<WireStory[]> {
  return readWireStories(db, ctx.view, args);
}

/** Stories by id, returned in the order of `ids` (ids that are not public are left out). */
export function loadWireStoriesByIds(
  db: Db,
  ctx: ContentContext,
  ids: readonly string[],
  fields?: readonly string[],
): Promise<WireStory[]> {
  return readWireStoriesByIds(db, ctx.view, ids, fields);
}

export function orderByFor(order: TStoryOrder): Prisma.StoryOrderByWithRelationInput[] {
  switch (order) {
    case "last-published":
      return [{ lastPublishedAt: "desc" }, { id: "desc" }];
    case "oldest":
      return [{ publishedAt: "asc" }, { id: "asc" }];
    case "published":
      return [{ publishedAt: "desc" }, { id: "desc" }];
  }
}

/** Purge keys of a response holding these stories (server/http/content-cache.ts). */
export const storyTags = (stories: readonly WireStory[]): string[] => stories.map((s) => `s/${String(s.id)}`);

// ─── Filters ─────────────────────────────────────────────────────────────────────────────────

/**
 * Ids of a section and its direct sub-sections, found by id or slug: a section's page lists the
 * stories of its sub-sections too. Unknown (or deleted) sections give [], which filters out
 * everything.
 */
export async function sectionFamilyIds(
  db: Db,
  accountId: number,
  by: { ids?: readonly number[]; slug?: string },
): Promise<number[]> {
  const match: Prisma.SectionWhereInput =
    by.slug !== undefined ? { slug: by.slug } : { id: { in: [...(by.ids ?? [])] } };
  const rows = await db.section.findMany({
    where: { accountId, deletedAt: null, OR: [match, { parent: { ...match, deletedAt: null } }] },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/**
 * The conditions of GET /api/v1/stories for these parameters, over `stories s`: this publisher's
 * published stories, in the section (by id or slug, with its sub-sections), with the tag, of the
 * templates, not excluded.
 */
async function storiesConditions(
  db: Db,
  accountId: number,
  q: Pick<TStoriesQuery, "sectionId" | "sectionSlug" | "tagSlug" | "templates" | "excludeIds">,
): Promise<Prisma.Sql> {
  const and = [Prisma.sql`s.account_id = ${accountId}`, Prisma.sql`s.status = 'published'`];
  const inSections = (ids: number[]) =>
    Prisma.sql`EXISTS (SELECT 1 FROM story_sections x WHERE x.story_id = s.id AND x.section_id = ANY(${ids}::int[]))`;
  if (q.sectionId !== undefined) and.push(inSections(await sectionFamilyIds(db, accountId, { ids: [q.sectionId] })));
  if (q.sectionSlug !== undefined) and.push(inSections(await sectionFamilyIds(db, accountId, { slug: q.sectionSlug })));
  if (q.tagSlug !== undefined) {
    and.push(Prisma.sql`EXISTS (SELECT 1 FROM story_tags x JOIN tags t ON t.id = x.tag_id
      WHERE x.story_id = s.id AND t.account_id = ${accountId} AND t.slug = ${q.tagSlug})`);
  }
  if (q.templates && q.templates.length > 0) and.push(Prisma.sql`s.story_template = ANY(${q.templates}::text[])`);
  if (q.excludeIds.length > 0) and.push(Prisma.sql`s.id <> ALL(${q.excludeIds}::uuid[])`);
  return Prisma.join(and, " AND ");
}

/** The list's orders, over `stories s` (as orderByFor). */
const ORDER_SQL: Record<TStoryOrder, Prisma.Sql> = {
  "last-published": Prisma.sql`s.last_published_at DESC, s.id DESC`,
  oldest: Prisma.sql`s.published_at ASC, s.id ASC`,
  published: Prisma.sql`s.published_at DESC, s.id DESC`,
};

// ─── Endpoints ───────────────────────────────────────────────────────────────────────────────

/** How many of the newest matching stories `randomize` draws from. */
const RANDOM_POOL = 200;

/**
 * GET /api/v1/stories: published stories, filtered, ordered and paged: the page and its kept
 * forms in one statement (story-wire.ts). With `randomize`, `limit` stories drawn at random from
 * the newest RANDOM_POOL matches (offset ignored).
 */
export async function listPublishedStories(
  db: Db,
  { ctx, ...q }: { ctx: ContentContext } & TStoriesQuery,
): Promise<WireStory[]> {
  const where = await storiesConditions(db, ctx.accountId, q);
  const order = ORDER_SQL[q.order];
  if (q.randomize) {
    const pool = await db.$queryRaw<{ id: string }[]>`
      SELECT s.id::text AS id FROM stories s WHERE ${where}
       ORDER BY ${order} LIMIT ${Math.max(RANDOM_POOL, q.limit)}`;
    const ids = shuffle(pool.map((p) => p.id)).slice(0, q.limit);
    return loadWireStoriesByIds(db, ctx, ids, q.fields);
  }
  return readWirePage(
    db,
    ctx.view,
    Prisma.sql`SELECT s.id, row_number() OVER (ORDER BY ${order}) AS n FROM stories s WHERE ${where}
      ORDER BY ${order} LIMIT ${pageLimitSql(q.offset + q.limit)}`,
    q,
  );
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function found(story: WireStory | undefined, what: string): WireStory {
  if (!story) throw new AppError("NOT_FOUND", `No published story with this ${what}.`);
  return story;
}

/** GET /api/v1/stories/{id} */
export async function getStoryById(
  db: Db,
  { ctx, id, fields }: { ctx: ContentContext; id: string; fields?: readonly string[] },
): Promise<WireStory> {
  return found((await readWireStoriesByIds(db, ctx.view, [id], fields))[0], "id");
}

/** GET /api/v1/stories-by-slug: slugs may contain "/"; leading and trailing slashes are ignored. */
export async function getStoryBySlug(
  db: Db,
  { ctx, slug, fields }: { ctx: ContentContext; slug: string; fields?: readonly string[] },
): Promise<WireStory> {
  const clean = slug.trim().replace(/^\/+|\/+$/g, "");
  if (!clean) throw new AppError("NOT_FOUND", "No published story with this slug.");
  return found(await readWireStoryBy(db, ctx.view, { slug: clean }, fields), "slug");
}

/** GET /api/v1/story-by-external-id/{id}: imported stories keep the id they had elsewhere. */
export async function getStoryByExternalId(
  db: Db,
  { ctx, externalId, fields }: { ctx: ContentContext; externalId: string; fields?: readonly string[] },
): Promise<WireStory> {
  return found(await readWireStoryBy(db, ctx.view, { externalId }, fields), "external id");
}

/**
 * How many of the account's newest published stories listRelatedStories reads first. Stories
 * sharing a section or a tag are usually many and recent, and among them the newest are found by
 * walking the `published_at` index and testing each story's sections and tags (a few index
 * probes each). Asked as one query, PostgreSQL builds a hash of every story of the section instead
 * (142,863 of a million stories: 70 ms against 1.2 ms).
 */
const RELATED_WALK = 5_000;

/**
 * GET /api/v1/stories/{id}/related-stories: published stories sharing a section (the given
 * `section-id`, or the story's own sections) or a tag with the story, newest first, without it.
 *
 * First among the `walk` newest published stories: when that finds offset + limit of them, they
 * are the newest overall (the walk is in the list's order), so the answer is exact. A rarer
 * section or tag (fewer matches in the walk) is asked of the whole archive.
 */
export async function listRelatedStories(
  db: Db,
  {
    ctx,
    storyId,
    ...q
  }: {
    ctx: ContentContext;
    storyId: string;
    sectionId?: number;
    fields?: readonly string[];
    limit: number;
    offset: number;
    walk?: number;
  },
): Promise<WireStory[]> {
  const take = q.offset + q.limit;
  const walk = q.walk ?? RELATED_WALK;
  // One statement: the story's sections (or the one asked for) and tags, the walk, and the
  // page's kept forms (story-wire.ts). No row: no such published story. The walk's limits are
  // written into the text, so that PostgreSQL keeps one plan for it (pageLimitSql).
  const walkLimit = integerSql(take <= walk ? walk : 0);
  const matchLimit = pageLimitSql(take);
  const rows = await db.$queryRaw<(KeptRow & { section_ids: number[]; tag_ids: number[]; found: number })[]>`
    WITH me AS (
      SELECT st.id,
             CASE WHEN ${q.sectionId ?? null}::int IS NULL
                  THEN ARRAY(SELECT x.section_id FROM story_sections x WHERE x.story_id = st.id ORDER BY x.section_id)
                  ELSE ARRAY[${q.sectionId ?? null}::int] END AS section_ids,
             ARRAY(SELECT x.tag_id FROM story_tags x WHERE x.story_id = st.id ORDER BY x.tag_id) AS tag_ids
        FROM stories st
       WHERE st.id = ${storyId}::uuid AND st.account_id = ${ctx.accountId} AND st.status = 'published'
    ), newest AS (
      SELECT r.id, r.published_at FROM (
        SELECT s.id, s.published_at FROM stories s
        WHERE s.account_id = ${ctx.accountId} AND s.status = 'published'
        ORDER BY s.published_at DESC, s.id DESC LIMIT ${walkLimit}
      ) AS r, me
      WHERE r.id <> me.id
        AND (EXISTS (SELECT 1 FROM story_sections x WHERE x.story_id = r.id AND x.section_id = ANY(me.section_ids) OFFSET 0)
          OR EXISTS (SELECT 1 FROM story_tags x WHERE x.story_id = r.id AND x.tag_id = ANY(me.tag_ids) OFFSET 0))
      ORDER BY r.published_at DESC, r.id DESC LIMIT ${matchLimit}
    ), page AS (
      SELECT id, row_number() OVER (ORDER BY published_at DESC, id DESC) AS n FROM newest
    )
    SELECT me.section_ids, me.tag_ids, (SELECT count(*)::int FROM newest) AS found, ${KEPT_COLUMNS}
      FROM me
      LEFT JOIN (page k JOIN stories s ON s.id = k.id) ON k.n > ${q.offset} AND k.n <= ${take}
      ${KEPT_JOINS}
     ORDER BY k.n`;
  // (OFFSET 0 keeps each test a probe per story: without it PostgreSQL hashes the whole section.)
  const story = rows[0];
  if (!story) throw new AppError("NOT_FOUND", "No published story with this id.");
  // The walk found them all: they are the newest overall.
  if (story.found >= take) return fromKept(db, ctx.view, rows, q.fields);
  const or: Prisma.StoryWhereInput[] = [];
  if (story.section_ids.length > 0) or.push({ sections: { some: { sectionId: { in: story.section_ids } } } });
  if (story.tag_ids.length > 0) or.push({ tags: { some: { tagId: { in: story.tag_ids } } } });
  if (or.length === 0) return [];
  return loadWireStories(db, ctx, {
    where: { ...publishedWhere(ctx.accountId), id: { not: storyId }, OR: or },
    orderBy: orderByFor("published"),
    take: q.limit,
    skip: q.offset,
    fields: q.fields,
  });
}

/**
 * GET /api/v1/stories/{id}/attributes: the story's attributes, kept by editors in
 * `metadata["story-attributes"]` (e.g. {"disable-amp-for-single-story": ["true"]}).
 */
export async function getStoryAttributes(
  db: Db,
  { ctx, storyId }: { ctx: ContentContext; storyId: string },
): Promise<{ "story-id": string; "story-attributes": Record<string, unknown> }> {
  const story = await db.story.findFirst({
    where: { id: storyId, ...publishedWhere(ctx.accountId) },
    select: { id: true, metadata: true },
  });
  if (!story) throw new AppError("NOT_FOUND", "No published story with this id.");
  const metadata = story.metadata as Record<string, unknown> | null;
  const attributes = metadata?.["story-attributes"];
  return {
    "story-id": story.id,
    "story-attributes":
      attributes && typeof attributes === "object" && !Array.isArray(attributes)
        ? (attributes as Record<string, unknown>)
        : {},
  };
}

/**
 * When the answer of breaking news next changes by itself: the first expiry still to come (null:
 * none). The response cache keeps the answer no longer than that.
 */
export async function nextBreakingNewsExpiry(db: Db, ctx: ContentContext): Promise<Date | null> {
  const next = await db.story.findFirst({
    where: { ...publishedWhere(ctx.accountId), isBreakingNews: true, breakingNewsExpiresAt: { gt: ctx.now } },
    orderBy: { breakingNewsExpiresAt: "asc" },
    select: { breakingNewsExpiresAt: true },
  });
  return next?.breakingNewsExpiresAt ?? null;
}

/** GET /api/v1/breaking-news: published breaking news whose expiry has not passed, newest first. */
export function listBreakingNews(
  db: Db,
  { ctx, ...q }: { ctx: ContentContext; fields?: readonly string[]; limit: number },
): Promise<WireStory[]> {
  return loadWireStories(db, ctx, {
    where: {
      ...publishedWhere(ctx.accountId),
      isBreakingNews: true,
      OR: [{ breakingNewsExpiresAt: null }, { breakingNewsExpiresAt: { gt: ctx.now } }],
    },
    orderBy: orderByFor("published"),
    take: q.limit,
    fields: q.fields,
  });
}
