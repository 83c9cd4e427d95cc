/**
 * Finding stories in the dashboard and acting on many at once, and the editor's overview.
 * Every function is scoped to the actor's account.
 *
 * - listStories: search (./story-finding.schema.ts searchPlan), filters, sort and paging in one
 *   parameterised SQL query (Prisma.sql fragments; the full-text match has no Prisma API), then
 *   the page's rows with their sections and authors.
 * - bulkStories: one action on up to 100 stories. Each story's move or delete goes through the
 *   same service as the single-story one (./stories/moves.ts moveStory, deleteStory: state rules, audit,
 *   webhook events), each in its own transaction, so one refusal never undoes the others; the
 *   answer says, per story, whether it was done or why not. Adding to a collection is one change
 *   of the collection (./collections/items.ts appendStoriesToCollection).
 * - getEditorOverview, getDailyActivity: the overview page's cards and chart.
 *
 * Days (the list's date range, "today", the chart's days) are on the account's clocks
 * (`accounts.time_zone`): a story published at 23:30 UTC is published "tomorrow" in Asia/Tokyo.
 */
import "server-only";

import { actorUserId, type Actor } from "../../auth/actor";
import { lastZonedDays, nextDay, zonedDayRange, zonedDayStart } from "../../dates.schema";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { Prisma, type StoryStatus } from "../../generated/prisma/client";
import { getAccountTimeZone } from "../../i18n/time-zone";
import { parseInput } from "../../validation";
import { searchConfigOf } from "../search-config";
import { appendStoriesToCollection } from "./collections/items";
import type { TStoryListItem } from "./stories.schema";
import { deleteStory, moveStory } from "./stories/moves";
import {
  ACTIVITY_DAYS,
  effectiveSort,
  searchPlan,
  ZBulkStoriesInput,
  zeroFillDays,
  ZListStoriesInput,
  type TBulkAction,
  type TBulkStoriesInput,
  type TBulkStoriesResult,
  type TBulkStoryResult,
  type TDailyActivity,
  type TEditorOverview,
  type TListStoriesInput,
} from "./story-finding.schema";

// ─── The list ────────────────────────────────────────────────────────────────────────────────

/** A page of the account's stories matching the search and filters, in the chosen order. */
export async function listStories(
  db: Db,
  args: { actor: Actor } & TListStoriesInput,
): Promise<{ items: TStoryListItem[]; total: number; offset: number; limit: number }> {
  const { actor, ...rest } = args;
  const input = parseInput(ZListStoriesInput, rest);
  const { offset, limit } = input;
  const plan = searchPlan(input.search);
  const conditions: Prisma.Sql[] = [Prisma.sql`s.account_id = ${actor.accountId}`];
  if (input.status) conditions.push(Prisma.sql`s.status = ${input.status.toLowerCase()}::story_status`);
  if (input.sectionId)
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM story_sections x WHERE x.story_id = s.id AND x.section_id = ${input.sectionId})`,
    );
  if (input.authorId)
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM story_authors x WHERE x.story_id = s.id AND x.author_id = ${input.authorId})`,
    );
  if (input.tagId)
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM story_tags x WHERE x.story_id = s.id AND x.tag_id = ${input.tagId})`,
    );
  if (input.mine) {
    const userId = actorUserId(actor);
    conditions.push(userId ? Prisma.sql`s.owner_id = ${userId}::uuid` : Prisma.sql`FALSE`);
  }
  if (input.scheduled) conditions.push(Prisma.sql`s.publish_at IS NOT NULL`);
  const dateColumn = input.dateField === "published" ? Prisma.sql`s.published_at` : Prisma.sql`s.updated_at`;
  if (input.from || input.to) {
    // Inclusive days on the account's clocks.
    const zone = await getAccountTimeZone(db, actor.accountId);
    if (input.from) conditions.push(Prisma.sql`${dateColumn} >= ${zonedDayStart(input.from, zone)}`);
    if (input.to) conditions.push(Prisma.sql`${dateColumn} < ${zonedDayStart(nextDay(input.to), zone)}`);
  }
  if (plan.kind === "headline") conditions.push(Prisma.sql`s.headline ILIKE ${plan.pattern}`);
  // The account's configuration as a literal, as the stories were indexed with (../search-config.ts).
  const config = plan.kind === "fulltext" ? await searchConfigOf(db, actor.accountId) : null;
  if (plan.kind === "fulltext")
    conditions.push(
      // The query's words stemmed as the index is, or as typed: a prefix is a word cut short, and
      // stemming it can cut it elsewhere ("ready" stems to "readi", no prefix of "readymad").
      Prisma.sql`(s.search_vector @@ (to_tsquery(${config!}, ${plan.tsquery}) || to_tsquery('simple', ${plan.tsquery})) OR s.headline ILIKE ${plan.pattern})`,
    );
  const where = Prisma.join(conditions, " AND ");

  const sort = effectiveSort(input.sort, plan.kind !== "none");
  const orderBy =
    sort === "relevance" && plan.kind === "fulltext"
      ? Prisma.sql`ts_rank(s.search_vector, to_tsquery(${config!}, ${plan.tsquery})) DESC, s.updated_at DESC, s.id DESC`
      : sort === "updated-asc"
        ? Prisma.sql`s.updated_at ASC, s.id ASC`
        : sort === "published-desc"
          ? Prisma.sql`s.published_at DESC NULLS LAST, s.updated_at DESC, s.id DESC`
          : sort === "headline"
            ? Prisma.sql`lower(s.headline) ASC, s.id ASC`
            : Prisma.sql`s.updated_at DESC, s.id DESC`;

  const [counted, page] = await Promise.all([
    db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM stories s WHERE ${where}`,
    db.$queryRaw<{ id: string }[]>`
      SELECT s.id FROM stories s WHERE ${where} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
  ]);
  const ids = page.map((row) => row.id);
  const rows = ids.length
    ? await db.story.findMany({
        where: { accountId: actor.accountId, id: { in: ids } },
        select: {
          id: true,
          headline: true,
          slug: true,
          status: true,
          version: true,
          isBreakingNews: true,
          updatedAt: true,
          publishedAt: true,
          publishAt: true,
          sections: { orderBy: { position: "asc" }, take: 1, select: { section: { select: { name: true } } } },
          authors: { orderBy: { position: "asc" }, select: { author: { select: { name: true } } } },
        },
      })
    : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    items: ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return []; // deleted between the two queries
      const { sections, authors, ...story } = row;
      return [{ ...story, section: sections[0]?.section.name ?? null, authors: authors.map((a) => a.author.name) }];
    }),
    total: counted[0]?.total ?? 0,
    offset,
    limit,
  };
}

// ─── Bulk actions ────────────────────────────────────────────────────────────────────────────

/** What each action needs the story to be, named for the editor ("not approved (draft)"). */
const NEEDS: Record<Exclude<TBulkAction, "add-to-collection">, { status: StoryStatus; missing: string }> = {
  submit: { status: "DRAFT", missing: "not a draft" },
  publish: { status: "APPROVED", missing: "not approved" },
  retract: { status: "PUBLISHED", missing: "not published" },
  delete: { status: "DRAFT", missing: "not a draft" },
};

function refusal(action: TBulkAction, status: StoryStatus, error: AppError): string {
  if (error.code === "UNPROCESSABLE" && action !== "add-to-collection")
    return `${NEEDS[action].missing} (${status.toLowerCase()})`;
  if (error.code === "CONFLICT") return "changed by someone else meanwhile";
  if (error.code === "NOT_FOUND") return "no such story";
  return error.message;
}

/**
 * Apply `action` to each of the stories. Ids that are not the account's stories are refused as
 * "no such story" and nothing happens to them. A story changed by someone else since it was
 * read here is refused (CONFLICT), not moved from a state the editor did not see.
 */
export async function bulkStories(
  db: Db,
  args: { actor: Actor; input: TBulkStoriesInput; now: Date; appUrl: string },
): Promise<TBulkStoriesResult> {
  const { actor, now, appUrl } = args;
  const { ids, action, collectionId } = parseInput(ZBulkStoriesInput, args.input);
  const found = await db.story.findMany({
    where: { accountId: actor.accountId, id: { in: ids } },
    select: { id: true, headline: true, status: true, version: true },
  });
  const byId = new Map(found.map((story) => [story.id, story]));
  const missing = (id: string): TBulkStoryResult => ({ id, headline: null, ok: false, reason: "no such story" });

  if (action === "add-to-collection") {
    const { added, alreadyIn } = await appendStoriesToCollection(db, {
      actor,
      collectionId: collectionId!,
      storyIds: ids.filter((id) => byId.has(id)),
      now,
    });
    const addedSet = new Set(added);
    const inSet = new Set(alreadyIn);
    return {
      action,
      results: ids.map((id) => {
        const story = byId.get(id);
        if (!story || (!addedSet.has(id) && !inSet.has(id))) return missing(id);
        return addedSet.has(id)
          ? { id, headline: story.headline, ok: true, reason: null }
          : { id, headline: story.headline, ok: false, reason: "already in the collection" };
      }),
    };
  }

  const results: TBulkStoryResult[] = [];
  for (const id of ids) {
    const story = byId.get(id);
    if (!story) {
      results.push(missing(id));
      continue;
    }
    try {
      if (action === "delete") await deleteStory(db, { actor, id, version: story.version, now });
      else await withTransaction(db, (tx) => moveStory(tx, { actor, id, version: story.version, action, now, appUrl }));
      results.push({ id, headline: story.headline, ok: true, reason: null });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ id, headline: story.headline, ok: false, reason: refusal(action, story.status, error) });
    }
  }
  return { action, results };
}

// ─── The overview ────────────────────────────────────────────────────────────────────────────

const CARD_ITEMS = 5;

/**
 * What an editor needs first thing: stories awaiting approval (longest waiting first), scheduled
 * publications (soonest first), stories published today (the account's day) and the editor's own
 * drafts.
 */
export async function getEditorOverview(db: Db, args: { actor: Actor; now: Date }): Promise<TEditorOverview> {
  const { actor, now } = args;
  const accountId = actor.accountId;
  const { day: today, start, end } = zonedDayRange(now, await getAccountTimeZone(db, accountId));
  const userId = actorUserId(actor);
  const card = async (
    where: Prisma.StoryWhereInput,
    orderBy: Prisma.StoryOrderByWithRelationInput[],
    at: "updatedAt" | "publishAt" | "publishedAt",
  ) => {
    const scoped = { ...where, accountId };
    const [total, rows] = await Promise.all([
      db.story.count({ where: scoped }),
      db.story.findMany({
        where: scoped,
        orderBy,
        take: CARD_ITEMS,
        select: { id: true, headline: true, updatedAt: true, publishAt: true, publishedAt: true },
      }),
    ]);
    return { total, items: rows.map((row) => ({ id: row.id, headline: row.headline, at: row[at] })) };
  };
  const [awaitingApproval, scheduled, publishedToday, myDrafts] = await Promise.all([
    card({ status: "SUBMITTED" }, [{ updatedAt: "asc" }, { id: "asc" }], "updatedAt"),
    card({ status: "APPROVED", publishAt: { not: null } }, [{ publishAt: "asc" }, { id: "asc" }], "publishAt"),
    card(
      { status: "PUBLISHED", publishedAt: { gte: start, lt: end } },
      [{ publishedAt: "desc" }, { id: "desc" }],
      "publishedAt",
    ),
    userId
      ? card({ status: "DRAFT", ownerId: userId }, [{ updatedAt: "desc" }, { id: "desc" }], "updatedAt")
      : Promise.resolve({ total: 0, items: [] }),
  ]);
  return { today, awaitingApproval, scheduled, publishedToday, myDrafts };
}

/**
 * Stories first published, and votes cast on the account's stories, per day of the account's
 * zone over the last 30 days (today included): one grouped query each, zero-filled.
 */
export async function getDailyActivity(db: Db, args: { actor: Actor; now: Date }): Promise<TDailyActivity> {
  const accountId = args.actor.accountId;
  const zone = await getAccountTimeZone(db, accountId);
  const days = lastZonedDays(args.now, ACTIVITY_DAYS, zone);
  const start = zonedDayStart(days[0]!, zone);
  const end = zonedDayStart(nextDay(days[days.length - 1]!), zone);
  const [published, votes] = await Promise.all([
    db.$queryRaw<{ day: string; n: number }[]>`
      SELECT to_char(s.first_published_at AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS day, count(*)::int AS n
      FROM stories s
      WHERE s.account_id = ${accountId} AND s.first_published_at >= ${start} AND s.first_published_at < ${end}
      GROUP BY 1`,
    db.$queryRaw<{ day: string; n: number }[]>`
      SELECT to_char(v.created_at AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS day, count(*)::int AS n
      FROM story_votes v JOIN stories s ON s.id = v.story_id
      WHERE s.account_id = ${accountId} AND v.created_at >= ${start} AND v.created_at < ${end}
      GROUP BY 1`,
  ]);
  return zeroFillDays(
    days,
    new Map(published.map((row) => [row.day, row.n])),
    new Map(votes.map((row) => [row.day, row.n])),
  );
}
