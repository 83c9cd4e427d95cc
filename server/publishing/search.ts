/**
 * Story search (GET /api/v1/search, /api/v1/advanced-search): PostgreSQL full-text search over
 * the generated `stories.search_vector` (headline A, subheadline B, text C; GIN index), matched
 * with websearch_to_tsquery('english', q) ("quoted phrases", -exclusions, OR) and ranked with
 * ts_rank. Filters: author (slug or name), author-id, section-id, published-before/after.
 *
 * One raw query finds the page of ids and the total (window count); the stories themselves are
 * then loaded like every other list (stories.ts). Every user value is a bound parameter.
 */
import "server-only";

import type { Db } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import type { TSearchQuery } from "./content.schema";
import { loadWireStoriesByIds, type ContentContext } from "./stories";
import type { WireStory } from "./story-view";

export type SearchResult = { total: number; stories: WireStory[] };

export async function searchStories(db: Db, ctx: ContentContext, q: TSearchQuery): Promise<SearchResult> {
  const conditions: Prisma.Sql[] = [Prisma.sql`s.account_id = ${ctx.accountId}`, Prisma.sql`s.status = 'published'`];
  if (q.q) conditions.push(Prisma.sql`s.search_vector @@ websearch_to_tsquery('english', ${q.q})`);
  if (q.publishedBefore) conditions.push(Prisma.sql`s.published_at < ${q.publishedBefore}`);
  if (q.publishedAfter) conditions.push(Prisma.sql`s.published_at > ${q.publishedAfter}`);
  if (q.authorId !== undefined) {
    conditions.push(Prisma.sql`EXISTS (SELECT 1 FROM story_authors sa WHERE sa.story_id = s.id AND sa.author_id = ${q.authorId})`);
  }
  if (q.author) {
    conditions.push(Prisma.sql`EXISTS (SELECT 1 FROM story_authors sa JOIN authors a ON a.id = sa.author_id
      WHERE sa.story_id = s.id AND a.account_id = ${ctx.accountId} AND (a.slug = ${q.author} OR lower(a.name) = lower(${q.author})))`);
  }
  if (q.sectionId !== undefined) {
    conditions.push(Prisma.sql`EXISTS (SELECT 1 FROM story_sections ss JOIN sections sec ON sec.id = ss.section_id
      WHERE ss.story_id = s.id AND (sec.id = ${q.sectionId} OR sec.parent_id = ${q.sectionId}))`);
  }
  const where = Prisma.join(conditions, " AND ");
  const orderBy =
    q.sort === "relevance" && q.q
      ? Prisma.sql`ts_rank(s.search_vector, websearch_to_tsquery('english', ${q.q})) DESC, s.published_at DESC, s.id DESC`
      : q.sort === "asc"
        ? Prisma.sql`s.published_at ASC, s.id ASC`
        : Prisma.sql`s.published_at DESC, s.id DESC`;

  const rows = await db.$queryRaw<{ id: string; total: bigint | number }[]>`
    SELECT s.id::text AS id, count(*) OVER () AS total
    FROM stories s
    WHERE ${where}
    ORDER BY ${orderBy}
    LIMIT ${q.limit} OFFSET ${q.offset}`;

  let total = rows[0] ? Number(rows[0].total) : 0;
  if (rows.length === 0 && q.offset > 0) {
    // Past the last page the window count has no row to ride on: count separately.
    const [count] = await db.$queryRaw<{ total: bigint | number }[]>`SELECT count(*) AS total FROM stories s WHERE ${where}`;
    total = Number(count?.total ?? 0);
  }
  const stories = await loadWireStoriesByIds(db, ctx, rows.map((r) => r.id), q.fields);
  return { total, stories };
}
