/**
 * Story search (GET /api/v1/search, /api/v1/advanced-search): PostgreSQL full-text search over
 * the generated `stories.search_vector` (headline A, subheadline B, text C; GIN index), matched
 * with websearch_to_tsquery(config, q) ("quoted phrases", -exclusions, OR) and ranked by
 * relevance with freshness over a candidate pool of the newest matches (RANK_POOL). Filters: author (slug or name), author-id, section-id, published-before/after.
 *
 * `config` is the account's text-search configuration (./search-config.ts, a literal): its
 * language's where PostgreSQL has one (stemmed: "elections" finds "election"), else `simple` (the
 * words as written, lower-cased). The stories are indexed with the same one (the search_language
 * migration), so a query's words are normalised exactly as the stories' were.
 *
 * Two raw queries, side by side, find the page of ids and the total; the stories themselves are
 * then loaded like every other list (stories.ts). Every user value is a bound parameter.
 */
import "server-only";

import type { Db } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import type { TSearchQuery } from "./content.schema";
import { searchConfigOf } from "./search-config";
import { loadWireStoriesByIds, type ContentContext } from "./stories";
import type { WireStory } from "./story-view";

export type SearchResult = { total: number; stories: WireStory[] };

/**
 * `total` is counted exactly when PostgreSQL's estimate of the match count (from the table's
 * statistics, one query plan) is at most this; above, the estimate is the total, as Elasticsearch
 * counts only up to track_total_hits. Counting a word found in half the archive reads every
 * match: 100 ms at 50,000 stories, on every request. Counting up to a bound is no cheaper for a
 * word of middling frequency: PostgreSQL then scans the table until it has found enough.
 */
export const EXACT_TOTAL_UP_TO = 2_000;

/**
 * With `sort=relevance`, the candidate set: the newest RANK_POOL matches, which the
 * (account, status, published_at) index hands over newest first, stopping as soon as it has them.
 * They are ranked by relevance with freshness (RANKING); the matches past the pool follow, newest
 * first, so every match can still be paged to. Ranking reads each candidate's vector: a word found
 * in every story would otherwise rank the whole archive on each request.
 */
export const RANK_POOL = 200;

/** Days after which freshness halves a candidate's text rank. */
const FRESHNESS_HALF_LIFE_DAYS = 30;

/**
 * Relevance with freshness: ts_rank (a match in the headline weighs 1, the subheadline 0.4, the
 * text 0.2) halved for every FRESHNESS_HALF_LIFE_DAYS since publication; ties newest first. The
 * age is in double precision (`date_part`): `extract` gives numeric, whose power() cost 7.5 µs a
 * candidate (1.5 ms of a 200-story pool), against 0.4 µs.
 */
const RANKING = (query: Prisma.Sql) => Prisma.sql`
  ts_rank(c.search_vector, ${query})
    * power(0.5, GREATEST(date_part('epoch', now() - c.published_at), 0) / ${FRESHNESS_HALF_LIFE_DAYS * 86_400}) DESC,
  c.published_at DESC, c.id DESC`;

export async function searchStories(
  db: Db,
  { ctx, ...q }: { ctx: ContentContext } & TSearchQuery,
): Promise<SearchResult> {
  const conditions: Prisma.Sql[] = [Prisma.sql`s.account_id = ${ctx.accountId}`, Prisma.sql`s.status = 'published'`];
  // The configuration as a literal (./search-config.ts): the planner estimates the match and the GIN index serves it.
  const config = q.q ? await searchConfigOf(db, ctx.accountId) : Prisma.raw("'simple'::regconfig");
  const query = Prisma.sql`websearch_to_tsquery(${config}, ${q.q ?? ""})`;
  if (q.q) conditions.push(Prisma.sql`s.search_vector @@ ${query}`);
  if (q.publishedBefore) conditions.push(Prisma.sql`s.published_at < ${q.publishedBefore}`);
  if (q.publishedAfter) conditions.push(Prisma.sql`s.published_at > ${q.publishedAfter}`);
  if (q.authorId !== undefined) {
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM story_authors sa WHERE sa.story_id = s.id AND sa.author_id = ${q.authorId})`,
    );
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
  const byRelevance = q.sort === "relevance" && q.q !== undefined;
  const newest = (limit: number, offset: number) =>
    db.$queryRaw<{ id: string }[]>(Prisma.sql`SELECT s.id::text AS id FROM stories s WHERE ${where}
      ORDER BY s.published_at DESC, s.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const page = async (): Promise<{ id: string }[]> => {
    if (!byRelevance) {
      if (q.sort !== "asc") return newest(q.limit, q.offset);
      return db.$queryRaw<{ id: string }[]>(Prisma.sql`SELECT s.id::text AS id FROM stories s WHERE ${where}
        ORDER BY s.published_at ASC, s.id ASC LIMIT ${q.limit} OFFSET ${q.offset}`);
    }
    // The ranked pool first, then the matches past it, newest first (the pool is the newest
    // RANK_POOL matches in this same order, so the two never overlap or leave a gap).
    const ranked =
      q.offset < RANK_POOL
        ? await db.$queryRaw<{ id: string }[]>(Prisma.sql`
            SELECT c.id::text AS id FROM (
              SELECT s.id, s.published_at, s.search_vector FROM stories s WHERE ${where}
              ORDER BY s.published_at DESC, s.id DESC LIMIT ${RANK_POOL}
            ) c
            ORDER BY ${RANKING(query)}
            LIMIT ${Math.min(q.limit, RANK_POOL - q.offset)} OFFSET ${q.offset}`)
        : [];
    const rest = q.limit - ranked.length;
    // A short ranked page means the pool held every match: nothing lies past it.
    if (rest === 0 || (q.offset < RANK_POOL && ranked.length < Math.min(q.limit, RANK_POOL - q.offset))) return ranked;
    return [...ranked, ...(await newest(rest, Math.max(q.offset, RANK_POOL)))];
  };
  const [rows, total] = await Promise.all([page(), countMatches(db, where)]);
  const stories = await loadWireStoriesByIds(
    db,
    ctx,
    rows.map((r) => r.id),
    q.fields,
  );
  return { total, stories };
}

/** The planner's estimate, and an exact count (through the search index) when it is small. */
async function countMatches(db: Db, where: Prisma.Sql): Promise<number> {
  const [plan] = await db.$queryRaw<{ "QUERY PLAN": unknown }[]>(
    Prisma.sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM stories s WHERE ${where}`,
  );
  const raw = plan?.["QUERY PLAN"];
  const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan?: { "Plan Rows"?: number } }[] | undefined;
  const estimate = Math.round(parsed?.[0]?.Plan?.["Plan Rows"] ?? 0);
  if (estimate > EXACT_TOTAL_UP_TO) return estimate;
  const [exact] = await db.$queryRaw<{ n: bigint | number }[]>(
    Prisma.sql`SELECT count(*) AS n FROM stories s WHERE ${where}`,
  );
  return Number(exact?.n ?? 0);
}
