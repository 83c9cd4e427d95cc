/**
 * The activity feed (docs/engagement.md, "Activity feed"): what the feed widget shows.
 *
 * - `accountFeed`: the account's recent visible comments (VISIBLE of comments.ts: published, not
 *   spam, not deleted, not hidden, replies of published comments), newest first, each with its
 *   page. Optionally one page's.
 * - `readerFeed`: the signed-in reader's activity: their own comments (held ones too, marked:
 *   only their author sees them; not the ones they hid or a moderator deleted), visible replies of
 *   others to their comments, and visible comments of others that mention them. A mention op's
 *   `id` is the mentioned reader's member id (the `id` of current_user and of comment authors,
 *   which the widget offers to mention), stored as a string in the body's ops.
 *   One item per comment: a reply that also mentions the reader is a reply.
 * - Paging by an opaque cursor on (created_at, id): comments written while a reader pages do not
 *   shift or repeat what they see.
 * - Indexes: comments (account_id, created_at, id) for the account feed; (author_id, created_at, id)
 *   for own comments; (parent_comment_id) for replies; GIN jsonb_path_ops on body for mentions
 *   (`body @> {"ops":[{"attributes":{"mention":{"id":"<member id>"}}}]}`).
 * Comments are serialised by comments.ts's toWire: the same comment shape as the comments API.
 */
import "server-only";

import type { ApiUser } from "../auth/api-auth";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { Prisma, type Page } from "../generated/prisma/client";
import { findJwtMember } from "../members/identities";
import { toWire } from "./comment-wire";
import { VISIBLE } from "./comments";
import type { TFeed, TFeedItem, TFeedItemType, TFeedPage, TFeedQuery, TMyFeed, TMyFeedQuery } from "./feed.schema";
import { decodePageId, findPage } from "./pages";

/** `unread_count` counts up to this many (a widget shows "50+"). */
const UNREAD_MAX = 50;

// ─── cursors ─────────────────────────────────────────────────────────────────────────────────
// "f1.<created_at ms>.<id>" in base64url: opaque to clients, checked when it comes back.

type Position = { createdAt: Date; id: number };

export function encodeFeedCursor(position: Position): string {
  return Buffer.from(`f1.${position.createdAt.getTime()}.${position.id}`, "utf8").toString("base64url");
}

const CURSOR_FORM = /^f1\.(0|[1-9]\d{0,14})\.([1-9]\d{0,9})$/;

export function decodeFeedCursor(cursor: string): Position {
  const match = /^[A-Za-z0-9_-]+$/.test(cursor)
    ? CURSOR_FORM.exec(Buffer.from(cursor, "base64url").toString("utf8"))
    : null;
  const id = match ? Number(match[2]) : 0;
  if (!match || id > 2_147_483_647) {
    throw new AppError("BAD_REQUEST", "The cursor is not one this feed returned.", {
      details: [{ field: "query.cursor", issue: "is invalid" }],
    });
  }
  return { createdAt: new Date(Number(match[1])), id };
}

// ─── answers ─────────────────────────────────────────────────────────────────────────────────

const pageWire = (page: Page): TFeedPage => ({
  id: page.id,
  url: page.url,
  headline: page.headline,
  hero_image_url: page.heroImageUrl,
});

/** What toWire needs of an author (never the member's e-mail or password hash). */
const AUTHOR = { select: { id: true, name: true, avatarUrl: true, username: true, bio: true } } as const;

type Row = Parameters<typeof toWire>[2][number];

/** The comments as the API answers them, each with its page. */
async function itemsOf(db: Db, rows: Row[]): Promise<TFeedItem[]> {
  if (rows.length === 0) return [];
  const pages = await db.page.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.pageId))] } } });
  const byId = new Map(pages.map((p) => [p.id, p]));
  const wires = await toWire(db, byId, rows);
  return rows.map((row, index) => ({ comment: wires[index]!, page: pageWire(byId.get(row.pageId)!) }));
}

// ─── the account's feed ──────────────────────────────────────────────────────────────────────

/** The account's visible comments, newest first, a page at a time. */
export async function accountFeed(db: Db, args: { accountId: number; query: TFeedQuery }): Promise<TFeed> {
  const { query } = args;
  const after = query.cursor ? decodeFeedCursor(query.cursor) : null;
  let pageId: number | undefined;
  if (query.page !== undefined) {
    // A `+` of a btoa id put in a query string unencoded arrives as a space (as in the counts' page_ids).
    const page = await findPage(db, args.accountId, decodePageId(query.page.replace(/ /g, "+"), "query.page"));
    if (!page) return { items: [], next_cursor: null };
    pageId = page.id;
  }
  const rows = await db.comment.findMany({
    where: {
      accountId: args.accountId,
      ...(pageId !== undefined ? { pageId } : {}),
      ...VISIBLE,
      ...(after
        ? {
            AND: [
              // The first condition bounds the index scan (the OR alone would be a filter over every newer row).
              { createdAt: { lte: after.createdAt } },
              { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] },
            ],
          }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    // One more than asked: its presence says whether there is a next page.
    take: query.limit + 1,
    include: { author: AUTHOR },
  });
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  return {
    items: await itemsOf(db, shown),
    next_cursor: rows.length > query.limit && last ? encodeFeedCursor(last) : null,
  };
}

// ─── the reader's feed ───────────────────────────────────────────────────────────────────────

type Candidate = { id: number; created_at: Date; type: TFeedItemType };

/** Others' visible comments, as the reader's feed lists them (comments.ts VISIBLE, checked again with it below). */
const VISIBLE_SQL = Prisma.sql`c.is_published AND NOT c.is_spam AND c.deleted_at IS NULL AND c.hidden_at IS NULL`;

/** Visible replies by others to the reader's published comments. */
function repliesSql(accountId: number, memberId: number, filter: Prisma.Sql) {
  return Prisma.sql`SELECT c.id, c.created_at, 'reply' AS type
       FROM comments p JOIN comments c ON c.parent_comment_id = p.id
      WHERE p.author_id = ${memberId} AND p.account_id = ${accountId} AND p.is_published AND NOT p.is_spam
        AND c.author_id <> ${memberId} AND ${VISIBLE_SQL} ${filter}`;
}

/** Visible comments by others mentioning the reader (not replies to the reader's comments: those are replies). */
function mentionsSql(accountId: number, memberId: number, filter: Prisma.Sql) {
  const mention = JSON.stringify({ ops: [{ attributes: { mention: { id: String(memberId) } } }] });
  return Prisma.sql`SELECT c.id, c.created_at, 'mention' AS type
       FROM comments c LEFT JOIN comments p ON p.id = c.parent_comment_id
      WHERE c.account_id = ${accountId} AND c.body @> ${mention}::jsonb
        AND c.author_id <> ${memberId} AND ${VISIBLE_SQL}
        AND (c.parent_comment_id IS NULL OR (p.is_published AND NOT p.is_spam AND p.author_id <> ${memberId}))
        ${filter}`;
}

/**
 * The ids of the reader's feed items after `after`, newest first: three index-backed branches
 * (own comments, replies to them, mentions), each cut at `take`, merged and cut again.
 */
function candidates(db: Db, args: { accountId: number; memberId: number; after: Position | null; take: number }) {
  const { accountId, memberId, after, take } = args;
  const before = after ? Prisma.sql`AND (c.created_at, c.id) < (${after.createdAt}, ${after.id})` : Prisma.empty;
  const newest = Prisma.sql`ORDER BY c.created_at DESC, c.id DESC LIMIT ${take}`;
  return db.$queryRaw<Candidate[]>`
    (SELECT c.id, c.created_at, 'own_comment' AS type
       FROM comments c
      WHERE c.author_id = ${memberId} AND c.account_id = ${accountId}
        AND c.deleted_at IS NULL AND c.hidden_at IS NULL ${before}
      ${newest})
    UNION ALL
    (${repliesSql(accountId, memberId, before)} ${newest})
    UNION ALL
    (${mentionsSql(accountId, memberId, before)} ${newest})
    ORDER BY created_at DESC, id DESC LIMIT ${take}`;
}

/** Replies and mentions newer than `since` (the reader's own comments are not news to them), at most UNREAD_MAX. */
async function unreadCount(db: Db, args: { accountId: number; memberId: number; since: Date }): Promise<number> {
  const { accountId, memberId, since } = args;
  const newer = Prisma.sql`AND c.created_at > ${since}`;
  const [row] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      (${repliesSql(accountId, memberId, newer)} LIMIT ${UNREAD_MAX})
      UNION ALL
      (${mentionsSql(accountId, memberId, newer)} LIMIT ${UNREAD_MAX})
    ) AS news`;
  return Math.min(row?.n ?? 0, UNREAD_MAX);
}

/** The signed-in reader's own comments, replies to them and mentions of them, newest first. */
export async function readerFeed(
  db: Db,
  args: { accountId: number; user: ApiUser; query: TMyFeedQuery },
): Promise<TMyFeed> {
  const { query } = args;
  const after = query.cursor ? decodeFeedCursor(query.cursor) : null;
  // A reader never seen has no activity; reading creates nothing.
  const member = await findJwtMember(db, { accountId: args.accountId, userId: args.user.id });
  if (!member) return { items: [], next_cursor: null, unread_count: query.since ? 0 : null };
  const [found, unread] = await Promise.all([
    candidates(db, { accountId: args.accountId, memberId: member.id, after, take: query.limit + 1 }),
    query.since ? unreadCount(db, { accountId: args.accountId, memberId: member.id, since: query.since }) : null,
  ]);
  const shown = found.slice(0, query.limit);
  const others = shown.filter((c) => c.type !== "own_comment").map((c) => c.id);
  const [rows, stillVisible] = await Promise.all([
    db.comment.findMany({ where: { id: { in: shown.map((c) => c.id) } }, include: { author: AUTHOR } }),
    others.length
      ? db.comment.findMany({ where: { id: { in: others }, ...VISIBLE }, select: { id: true } })
      : Promise.resolve([]),
  ]);
  const visibleIds = new Set(stillVisible.map((r) => r.id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const kept = shown.filter((c) => byId.has(c.id) && (c.type === "own_comment" || visibleIds.has(c.id)));
  const items = await itemsOf(
    db,
    kept.map((c) => byId.get(c.id)!),
  );
  const last = shown.at(-1);
  return {
    items: items.map((item, index) => ({
      type: kept[index]!.type,
      held: kept[index]!.type === "own_comment" && !item.comment.is_published,
      ...item,
    })),
    // The cursor is the last candidate looked at, so an item dropped by the check above never stops paging.
    next_cursor:
      found.length > query.limit && last
        ? encodeFeedCursor({ createdAt: new Date(last.created_at), id: last.id })
        : null,
    unread_count: unread,
  };
}
