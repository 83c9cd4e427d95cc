/**
 * The read paths of comment lists and counts as SQL that reads a few index entries rather than the
 * whole comments table (docs/engagement.md, "Speed"); comments.ts builds the answers.
 *
 * **Counts.** Visible is comments.ts's VISIBLE:
 * published, not spam, not deleted, not hidden and, for a reply, a reply of a published, not spam
 * comment. Counted as Prisma writes VISIBLE, every comment is joined to its parent, and PostgreSQL
 * hashes the whole comments table to do it (37 ms for a realm of 26,000 comments). Here the same
 * number is read in two parts:
 *
 *   visible = (comments whose own flags are visible: comment_counts, which the database's
 *              triggers keep as comments change: migration 20261124120000_comment_counts)
 *           − (of those, replies of a held or spam comment: the few comments of
 *              comments_not_visible_idx, joined to their replies)
 *
 * which is exact, since a reply's parent always exists (the foreign key cascades). The first part
 * is a row per page and 16 per account, not a count over the account's comments (which grew with
 * every comment: 7.7 ms per comment created on a realm of 28,700); the second reads a few index
 * entries. Nothing is kept in the application between requests.
 */
import "server-only";

import type { Db } from "../db/client";
import { Prisma, type Comment, type Member, type Page } from "../generated/prisma/client";
import { PUBLISHER_JWT_PROVIDER } from "../members/identities";
import type { TSortOrder } from "./comments.schema";

/** A comment's own flags are those of a visible comment (the predicate of comments_visible_idx). */
const FLAGS = (alias: string) =>
  Prisma.raw(
    `${alias}.is_published AND NOT ${alias}.is_spam AND ${alias}.deleted_at IS NULL AND ${alias}.hidden_at IS NULL`,
  );

/**
 * The visible replies of comment `alias`, as a correlated subquery: read through the parent index
 * for each of the few unlisted comments (a join was planned as a merge over every reply).
 */
const visibleReplies = (alias: string) =>
  Prisma.raw(
    `(SELECT count(*) FROM comments r WHERE r.parent_comment_id = ${alias}.id AND r.is_published AND NOT r.is_spam AND r.deleted_at IS NULL AND r.hidden_at IS NULL)`,
  );

export type PageCommentStats = {
  /** Visible comments of the page (total_count, comments_count). */
  total: number;
  /** Visible top-level comments. */
  parents: number;
  /** Hidden or deleted top-level comments (published, not spam) that have visible replies: listed as placeholders. */
  placeholders: number;
};

/**
 * Visible comments of each page, by page id (pages without any are absent), in one statement.
 * The literal predicates (not parameters) let the planner use the partial indexes.
 */
export async function visibleCommentStats(
  db: Db,
  accountId: number,
  pageIds: readonly number[],
): Promise<Map<number, PageCommentStats>> {
  if (pageIds.length === 0) return new Map();
  const rows = await db.$queryRaw<StatsRow[]>(statsSql(accountId, pageIds));
  return new Map(rows.map((r) => [Number(r.page_id), statsOf(r)]));
}

type StatsRow = { page_id: number; total: number; parents: number; placeholders: number };

const statsOf = (r: Omit<StatsRow, "page_id">): PageCommentStats => ({
  total: Number(r.total),
  parents: Number(r.parents),
  placeholders: Number(r.placeholders),
});

/**
 * A value of the statements below: a number, or an expression of the statement that holds them
 * (a parameter of comment-write.ts's write statement).
 */
type SqlValue = number | Prisma.Sql;

/** The statement of visibleCommentStats: a row per page that has visible comments. */
function statsSql(accountId: SqlValue, pageIds: readonly SqlValue[]): Prisma.Sql {
  return Prisma.sql`
    SELECT v.page_id,
           (v.own_visible - (
             SELECT COALESCE(sum(${visibleReplies("p")}), 0) FROM comments p
             WHERE p.account_id = ${accountId} AND p.page_id = v.page_id AND (NOT p.is_published OR p.is_spam)))::int AS total,
           v.own_visible_parents AS parents,
           (SELECT count(*) FROM comments p
             WHERE p.account_id = ${accountId} AND p.page_id = v.page_id AND p.parent_comment_id IS NULL
               AND p.is_published AND NOT p.is_spam AND (p.deleted_at IS NOT NULL OR p.hidden_at IS NOT NULL)
               AND EXISTS (SELECT 1 FROM comments r WHERE r.parent_comment_id = p.id AND ${FLAGS("r")}))::int AS placeholders
    FROM comment_counts v
    WHERE v.account_id = ${accountId} AND v.page_id IN (${Prisma.join([...new Set(pageIds)])})
      AND v.own_visible > 0`;
}

/** The realm count of realmCommentCount, as a scalar expression. */
function realmSql(accountId: SqlValue): Prisma.Sql {
  return Prisma.sql`
    ((SELECT COALESCE(sum(own_visible), 0) FROM comment_counts WHERE account_id = ${accountId} AND page_id < 0)
     - (SELECT COALESCE(sum(${visibleReplies("p")}), 0) FROM comments p
        WHERE p.account_id = ${accountId} AND (NOT p.is_published OR p.is_spam)))::int`;
}

/** One page's stats (undefined without visible comments) and the realm count, in one statement. */
export async function pageAndRealmCounts(
  db: Db,
  accountId: number,
  pageId: number,
): Promise<{ stats: PageCommentStats | undefined; realm: number }> {
  const [row] = await db.$queryRaw<PageAndRealmRow[]>(pageAndRealmSql(accountId, pageId));
  return { stats: row?.page_id == null ? undefined : statsOf(row), realm: Number(row?.realm ?? 0) };
}

type PageAndRealmRow = Omit<StatsRow, "page_id"> & { page_id: number | null; realm: number };

function pageAndRealmSql(accountId: SqlValue, pageId: SqlValue): Prisma.Sql {
  return Prisma.sql`
    SELECT ${realmSql(accountId)} AS realm, s.page_id, s.total, s.parents, s.placeholders
    FROM (SELECT 1) AS one LEFT JOIN (${statsSql(accountId, [pageId])}) AS s ON true`;
}

/**
 * **A create's counts, in its write statement.** comment-write.ts reads the page's stats and the
 * realm count in the same statement that writes the comment, as that statement's snapshot has
 * them: before the new comment, which the statement triggers on `comments` count only when the
 * statement ends. With them, the state of the comment it replies to, which decides what the new
 * comment adds (countsAfterCreate). The arguments are the write statement's parameters.
 */
export function countsBeforeCreateSql(accountId: Prisma.Sql, pageId: Prisma.Sql, parentId: Prisma.Sql): Prisma.Sql {
  // Two lookups of the parent by its key measured cheaper than one lateral join to it.
  return Prisma.sql`
    SELECT counts.*,
      (SELECT p.is_published AND NOT p.is_spam FROM comments p WHERE p.id = ${parentId}) AS parent_listed,
      (SELECT p.deleted_at IS NOT NULL OR p.hidden_at IS NOT NULL FROM comments p WHERE p.id = ${parentId}) AS parent_gone,
      EXISTS (SELECT 1 FROM comments r WHERE r.parent_comment_id = ${parentId} AND ${FLAGS("r")}) AS parent_has_visible_reply
    FROM (${pageAndRealmSql(accountId, pageId)}) AS counts`;
}

export type CountsBeforeCreate = PageAndRealmRow & {
  parent_listed: boolean | null;
  parent_gone: boolean | null;
  parent_has_visible_reply: boolean;
};

/**
 * The counts after a create, from the counts before it (countsBeforeCreateSql) and the comment it
 * wrote. As the triggers and the reads above count: a comment whose
 * own flags are visible (published, not spam; a new comment is neither hidden nor deleted) adds to
 * the page's and the realm's visible comments unless it replies to a held or spam comment, to the
 * page's top-level ones when it is one, and makes its parent a placeholder when that parent is
 * hidden or deleted and had no visible reply yet.
 */
export function countsAfterCreate(
  before: CountsBeforeCreate,
  written: Pick<Comment, "isPublished" | "isSpam" | "parentCommentId">,
): { stats: PageCommentStats | undefined; realm: number } {
  const stats = before.page_id == null ? undefined : statsOf(before);
  const realm = Number(before.realm);
  if (!written.isPublished || written.isSpam) return { stats, realm };
  const topLevel = written.parentCommentId === null;
  const visible = topLevel || before.parent_listed === true;
  const placeholder = !topLevel && visible && before.parent_gone === true && !before.parent_has_visible_reply;
  const base = stats ?? { total: 0, parents: 0, placeholders: 0 };
  return {
    stats: {
      total: base.total + (visible ? 1 : 0),
      parents: base.parents + (topLevel ? 1 : 0),
      placeholders: base.placeholders + (placeholder ? 1 : 0),
    },
    realm: realm + (visible ? 1 : 0),
  };
}

/** Visible comments of the account (the comment realm): realm_comment_count. */
export async function realmCommentCount(db: Db, accountId: number): Promise<number> {
  const [row] = await db.$queryRaw<{ count: number }[]>(Prisma.sql`SELECT ${realmSql(accountId)} AS count`);
  return Number(row?.count ?? 0);
}

const PARENT_ORDER: Record<TSortOrder, Prisma.Sql> = {
  newest: Prisma.sql`created_at DESC, id DESC`,
  oldest: Prisma.sql`created_at ASC, id ASC`,
  most_reacted: Prisma.sql`reaction_count DESC, created_at DESC, id DESC`,
};

/**
 * A Q&A page (docs/engagement.md "Q&A pages"): the publisher-JWT ids of its authors, whose visible
 * replies answer a question. Null: the page is no Q&A page.
 */
export type QaPage = { authorIds: readonly string[] } | null;

/**
 * Question `alias` is answered: a moderator marked it, or one of the page's authors replied (a
 * visible reply whose author's publisher-JWT id is one of the page's author ids).
 */
function answeredSql(alias: string, qa: NonNullable<QaPage>): Prisma.Sql {
  const marked = Prisma.raw(`${alias}.answered_at IS NOT NULL`);
  if (qa.authorIds.length === 0) return marked;
  return Prisma.sql`(${marked} OR EXISTS (
    SELECT 1 FROM comments r JOIN member_identities mi
      ON mi.member_id = r.author_id AND mi.account_id = r.account_id AND mi.provider = ${PUBLISHER_JWT_PROVIDER}
    WHERE r.parent_comment_id = ${Prisma.raw(alias)}.id AND ${FLAGS("r")}
      AND mi.external_id IN (${Prisma.join([...qa.authorIds])})))`;
}

const qaWhere = (alias: string, qa: QaPage) => (qa ? Prisma.sql`AND ${answeredSql(alias, qa)}` : Prisma.empty);

/**
 * **Listed top-level comments.** The ids of one page of a page's listed top-level comments, in
 * order: visible ones (comments_visible_idx; comments_reacted_idx for most reacted, on the
 * reaction count the database keeps), and hidden or deleted ones that have a visible reply
 * (placeholders, from comments_not_visible_idx), each branch cut at offset + limit before they
 * are merged. The orders end with the id, so a page boundary never splits or repeats a comment.
 * On a Q&A page only answered questions are listed. Written with Prisma (`OR: [visible,
 * {replies: {some}}]` and the relations included), the planner hashed every visible comment of
 * the account for the EXISTS and joined every top-level comment of the page to its author and
 * replies before sorting: 45 ms for a page of 1,400 top-level comments, against 0.6 ms here.
 */
export async function listedParentIds(db: Db, args: ListedParentsArgs): Promise<number[]> {
  const rows = await db.$queryRaw<{ id: number }[]>(listedParentIdsSql(args));
  return rows.map((r) => Number(r.id));
}

type ListedParentsArgs = {
  accountId: number;
  pageId: number;
  sort: TSortOrder;
  offset: number;
  limit: number;
  qa?: QaPage;
};

/** The statement of listedParentIds (its plan is checked by the tests). */
export function listedParentIdsSql(args: ListedParentsArgs): Prisma.Sql {
  const { accountId, pageId } = args;
  const order = PARENT_ORDER[args.sort];
  const qa = qaWhere("c", args.qa ?? null);
  const cut = args.offset + args.limit;
  return Prisma.sql`
    SELECT id FROM (
      (SELECT c.id, c.created_at, c.reaction_count FROM comments c
        WHERE c.account_id = ${accountId} AND c.page_id = ${pageId} AND c.parent_comment_id IS NULL AND ${FLAGS("c")} ${qa}
        ORDER BY ${order} LIMIT ${cut})
      UNION ALL
      (SELECT c.id, c.created_at, c.reaction_count FROM comments c
        WHERE c.account_id = ${accountId} AND c.page_id = ${pageId} AND c.parent_comment_id IS NULL
          AND c.is_published AND NOT c.is_spam AND (c.deleted_at IS NOT NULL OR c.hidden_at IS NOT NULL)
          AND EXISTS (SELECT 1 FROM comments r WHERE r.parent_comment_id = c.id AND ${FLAGS("r")}) ${qa}
        ORDER BY ${order} LIMIT ${cut})
    ) AS listed
    ORDER BY ${order} LIMIT ${args.limit} OFFSET ${args.offset}`;
}

const CHILD_ORDER: Record<TSortOrder, Prisma.Sql> = {
  newest: Prisma.sql`c."createdAt" DESC, c.id DESC`,
  oldest: Prisma.sql`c."createdAt" ASC, c.id ASC`,
  most_reacted: Prisma.sql`c."reactionCount" DESC, c."createdAt" DESC, c.id DESC`,
};

/** The comment fields a comment is answered with (comment-wire.ts toWire), and its author's. */
export type WireComment = Pick<
  Comment,
  | "id"
  | "accountId"
  | "pageId"
  | "parentCommentId"
  | "replyToId"
  | "authorId"
  | "body"
  | "hiddenById"
  | "hiddenAt"
  | "deletedById"
  | "deletedAt"
  | "editedAt"
  | "isSpam"
  | "isPublished"
  | "pageAuthor"
  | "toxicity"
  | "confidential"
  | "guest"
  | "guestName"
  | "createdAt"
> & { author: Pick<Member, "id" | "name" | "avatarUrl" | "username" | "bio"> };

/** A comment of a thread as threadRows reads it: what toWire answers with but its author, and its reactions. */
type ThreadRow = Omit<WireComment, "author"> & {
  /** Reaction id → how many gave it; null for none. */
  reactions: Record<string, number> | null;
};

/**
 * **Threads.** The comments `ids` (whatever their state: a listed placeholder is hidden or deleted)
 * and the visible replies of each, replies in `childOrder`, each with its reaction counts, in one
 * statement (the comments through their key, the replies through the parent index, the reactions
 * through their comment's). Their authors are the members module's to read (commentAuthorsOf).
 */
export async function threadRows(
  db: Db,
  args: { ids: readonly number[]; childOrder: TSortOrder },
): Promise<ThreadRow[]> {
  if (args.ids.length === 0) return [];
  const columns = Prisma.raw(`c.id, c.account_id AS "accountId", c.page_id AS "pageId",
      c.parent_comment_id AS "parentCommentId", c.reply_to_id AS "replyToId", c.author_id AS "authorId", c.body,
      c.hidden_by_id AS "hiddenById", c.hidden_at AS "hiddenAt", c.deleted_by_id AS "deletedById",
      c.deleted_at AS "deletedAt", c.edited_at AS "editedAt", c.is_spam AS "isSpam",
      c.is_published AS "isPublished", c.page_author AS "pageAuthor", c.toxicity, c.confidential, c.guest, c.guest_name AS "guestName",
      c.created_at AS "createdAt", c.reaction_count AS "reactionCount"`);
  const ids = [...args.ids];
  return db.$queryRaw<ThreadRow[]>(Prisma.sql`
    SELECT c.*,
           (SELECT json_object_agg(g.reaction_id, g.n ORDER BY g.reaction_id)
              FROM (SELECT reaction_id, count(*)::int AS n FROM comment_reactions
                    WHERE comment_id = c.id GROUP BY reaction_id) AS g) AS reactions
    FROM (
      SELECT ${columns} FROM comments c WHERE c.id = ANY(${ids}::int[])
      UNION ALL
      SELECT ${columns} FROM comments c WHERE c.parent_comment_id = ANY(${ids}::int[]) AND ${FLAGS("c")}
    ) AS c
    ORDER BY c."parentCommentId" NULLS FIRST, ${CHILD_ORDER[args.childOrder]}`);
}

/** Featured comments shown at most, newest featured first. */
const FEATURED_MAX = 10;

/** The page's visible featured top-level comments (answered ones on a Q&A page), newest featured first. */
export async function featuredParentIds(
  db: Db,
  args: { accountId: number; pageId: number; qa?: QaPage },
): Promise<number[]> {
  const rows = await db.$queryRaw<{ id: number }[]>(Prisma.sql`
    SELECT c.id FROM comments c
    WHERE c.page_id = ${args.pageId} AND c.featured_at IS NOT NULL AND c.account_id = ${args.accountId}
      AND c.parent_comment_id IS NULL AND ${FLAGS("c")} ${qaWhere("c", args.qa ?? null)}
    ORDER BY c.featured_at DESC, c.id DESC LIMIT ${FEATURED_MAX}`);
  return rows.map((r) => Number(r.id));
}

/**
 * A Q&A page's counts as readers see them: its answered questions (visible, or hidden with
 * visible replies) and, in total_count, the visible ones and the visible replies of all of them.
 */
export async function qaPageStats(
  db: Db,
  args: { accountId: number; pageId: number; qa: NonNullable<QaPage> },
): Promise<{ total: number; parents: number }> {
  const [row] = await db.$queryRaw<{ total: number; parents: number }[]>(Prisma.sql`
    SELECT (count(*) FILTER (WHERE c.hidden_at IS NULL AND c.deleted_at IS NULL) + COALESCE(sum(${visibleReplies("c")}), 0))::int AS total,
           count(*) FILTER (WHERE c.hidden_at IS NULL AND c.deleted_at IS NULL
             OR EXISTS (SELECT 1 FROM comments r WHERE r.parent_comment_id = c.id AND ${FLAGS("r")}))::int AS parents
    FROM comments c
    WHERE c.account_id = ${args.accountId} AND c.page_id = ${args.pageId} AND c.parent_comment_id IS NULL
      AND c.is_published AND NOT c.is_spam ${qaWhere("c", args.qa)}`);
  return { total: Number(row?.total ?? 0), parents: Number(row?.parents ?? 0) };
}

/** The ids of a Q&A page's answered questions, whatever their state (the RSS feed's filter). */
export async function answeredQuestionIds(
  db: Db,
  args: { accountId: number; pageId: number; qa: NonNullable<QaPage> },
): Promise<number[]> {
  const rows = await db.$queryRaw<{ id: number }[]>(Prisma.sql`
    SELECT c.id FROM comments c
    WHERE c.account_id = ${args.accountId} AND c.page_id = ${args.pageId} AND c.parent_comment_id IS NULL
      AND ${answeredSql("c", args.qa)}`);
  return rows.map((r) => Number(r.id));
}

/**
 * A reader's questions on a Q&A page that readers do not see yet: theirs, visible, not answered
 * (oldest first, at most 20). Held ones are not here: the widget keeps those it posted.
 */
export async function awaitingQuestionIds(
  db: Db,
  args: { accountId: number; pageId: number; memberId: number; qa: NonNullable<QaPage> },
): Promise<number[]> {
  const rows = await db.$queryRaw<{ id: number }[]>(Prisma.sql`
    SELECT c.id FROM comments c
    WHERE c.author_id = ${args.memberId} AND c.page_id = ${args.pageId} AND c.account_id = ${args.accountId}
      AND c.parent_comment_id IS NULL AND ${FLAGS("c")} AND NOT ${answeredSql("c", args.qa)}
    ORDER BY c.created_at ASC, c.id ASC LIMIT 20`);
  return rows.map((r) => Number(r.id));
}

/**
 * Visible comments of the account's pages at these normalised URLs, by URL (pages that do not
 * exist are absent), with the Q&A pages among them, whose counts follow their own rule
 * (qaPageStats): the counts endpoint's one statement, the URLs as one array parameter.
 */
export async function visibleCommentsByUrl(
  db: Db,
  accountId: number,
  urls: readonly string[],
): Promise<{ totals: Map<string, number>; qaPages: Pick<Page, "id" | "url" | "qaMode" | "authorIds">[] }> {
  if (urls.length === 0) return { totals: new Map(), qaPages: [] };
  // Each page's row of comment_counts, less its few hidden replies (read per page through the
  // not-visible index: as a join, the planner hashed the account's whole comments table). The
  // URLs are joined, not tested with `= ANY`: under the prepared statement's generic plan that
  // compared every page's URL with each of the 100 (1.9 ms, against 0.5 ms joined).
  const rows = await db.$queryRaw<
    { id: number; url: string; total: number; qa_mode: boolean; author_ids: string[] | null }[]
  >(
    Prisma.sql`
    SELECT pg.id, pg.url, pg.qa_mode, CASE WHEN pg.qa_mode THEN pg.author_ids END AS author_ids,
           ((SELECT COALESCE(max(n.own_visible), 0) FROM comment_counts n WHERE n.account_id = ${accountId} AND n.page_id = pg.id)
            - (SELECT COALESCE(sum(${visibleReplies("p")}), 0) FROM comments p
               WHERE p.account_id = ${accountId} AND p.page_id = pg.id AND (NOT p.is_published OR p.is_spam)))::int AS total
    FROM unnest(${[...new Set(urls)]}::text[]) AS u(url)
    JOIN pages pg ON pg.account_id = ${accountId} AND pg.url = u.url`,
  );
  return {
    totals: new Map(rows.map((r) => [r.url, Number(r.total)])),
    qaPages: rows
      .filter((r) => r.qa_mode)
      .map((r) => ({ id: Number(r.id), url: r.url, qaMode: true, authorIds: r.author_ids ?? [] })),
  };
}
