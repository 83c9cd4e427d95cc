/**
 * The SQL of the moderation page's lists (queue.ts reads the rows it names): one view, the
 * filters, a keyset cursor, one page. Raw SQL (Prisma.sql, every value a parameter) because the
 * text search reads the comment's text out of its ops, which Prisma's filters cannot express.
 *
 * - Queue tabs sort on (created_at, id); decided views on (decided_at, id): newest decision first.
 * - A reader is found by name, sign-in e-mail or member id, by the e-mail or id their publisher's
 *   JWT gave (member_identities), or by the name a guest gave.
 * - The page filter matches the page's URL or headline, or the headline of the story it shows.
 * - Text, page and reader filters are ILIKE with the term's %, _ and \ escaped: a term is matched
 *   as written, any case. The comment's text is its text inserts joined in order, as moderation
 *   scores it (mentions and images are not text).
 * - Dates are days in the account's time zone (Settings → Site), both included, on the sort column.
 */
import "server-only";

import { getAccountTimeZone } from "../../../accounts/time-zone";
import { nextDay, zonedDayStart } from "../../../dates.schema";
import type { Db } from "../../../db/client";
import { Prisma } from "../../../generated/prisma/client";
import { SUSPECT_WORD_REASON } from "../moderation";
import { isDecidedView, type TQueueFilters, type TQueueView } from "./queue-filters.schema";

/** `term` as an ILIKE pattern matching it anywhere, with LIKE's special characters escaped. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The SQL condition of a view (comments aliased `c`; the account's threshold for toxic). */
function viewCondition(view: TQueueView, threshold: number): Prisma.Sql {
  switch (view) {
    case "pending":
      return Prisma.sql`c.is_published = false AND c.moderation_state = 'undecided'`;
    case "reported":
      return Prisma.sql`(c.open_reports > 0
        OR (c.moderation_state = 'undecided' AND ${SUSPECT_WORD_REASON} = ANY(c.moderation_reasons)))`;
    case "spam":
      return Prisma.sql`c.is_spam = true AND c.moderation_state = 'undecided'`;
    case "toxic":
      return Prisma.sql`c.toxicity >= ${threshold} AND c.moderation_state = 'undecided'`;
    case "approved":
      return Prisma.sql`c.moderation_state = 'approved' AND c.decided_at IS NOT NULL`;
    case "rejected":
      return Prisma.sql`c.moderation_state = 'rejected' AND c.decided_at IS NOT NULL`;
    case "marked_spam":
      return Prisma.sql`c.moderation_state = 'spam' AND c.decided_at IS NOT NULL`;
    case "published":
      return Prisma.sql`c.is_published AND NOT c.is_spam AND c.hidden_at IS NULL`;
    case "featured":
      return Prisma.sql`c.featured_at IS NOT NULL`;
  }
}

/** The path of an absolute http(s) URL (a POSIX regular expression for SQL's substring). */
const URL_PATH = "^https?://[^/?#]+(/[^?#]*)";

const COMMENT_TEXT = Prisma.sql`(
  SELECT string_agg(op.value ->> 'insert', '' ORDER BY op.ordinality)
  FROM jsonb_array_elements(c.body -> 'ops') WITH ORDINALITY AS op(value, ordinality)
  WHERE jsonb_typeof(op.value -> 'insert') = 'string'
)`;

/** The filters as SQL conditions; `zone`: the account's, whose clocks the from and to days are on. */
function filterConditions(accountId: number, filters: TQueueFilters, decided: boolean, zone: string): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  const at = decided ? Prisma.sql`c.decided_at` : Prisma.sql`c.created_at`;
  if (filters.q) out.push(Prisma.sql`${COMMENT_TEXT} ILIKE ${containsPattern(filters.q)}`);
  if (filters.page) {
    const p = containsPattern(filters.page);
    // A page is also found by the headline of the account's story it shows: the page's path is the
    // story's (its slug, or the path of its canonical URL), whatever the host, without a trailing slash.
    out.push(Prisma.sql`c.page_id IN (
      SELECT p.id FROM pages p WHERE p.account_id = ${accountId} AND (p.url ILIKE ${p} OR p.headline ILIKE ${p}
        OR rtrim(substring(p.url from ${URL_PATH}), '/') IN (
          SELECT '/' || s.slug FROM stories s WHERE s.account_id = ${accountId} AND s.headline ILIKE ${p}
          UNION ALL
          SELECT rtrim(substring(s.canonical_url from ${URL_PATH}), '/') FROM stories s
          WHERE s.account_id = ${accountId} AND s.headline ILIKE ${p} AND s.canonical_url IS NOT NULL)))`);
  }
  if (filters.reader) {
    const p = containsPattern(filters.reader);
    // Digits are an id (the member's, or the publisher's id of the reader), never part of an e-mail.
    const id = /^\d{1,10}$/.test(filters.reader) ? Number(filters.reader) : null;
    out.push(
      id !== null
        ? Prisma.sql`(${id <= 2_147_483_647 ? Prisma.sql`c.author_id = ${id} OR ` : Prisma.empty}c.author_id IN (
            SELECT i.member_id FROM member_identities i
            WHERE i.account_id = ${accountId} AND i.external_id = ${filters.reader}))`
        : Prisma.sql`(c.author_id IN (
            SELECT m.id FROM members m
            WHERE m.account_id = ${accountId} AND (m.name ILIKE ${p} OR m.email ILIKE ${p}))
          OR c.author_id IN (
            SELECT i.member_id FROM member_identities i
            WHERE i.account_id = ${accountId} AND (i.email ILIKE ${p} OR i.external_id = ${filters.reader}))
          OR c.guest_name ILIKE ${p})`,
    );
  }
  if (filters.reason) out.push(Prisma.sql`${filters.reason} = ANY(c.moderation_reasons)`);
  if (filters.from) out.push(Prisma.sql`${at} >= ${zonedDayStart(filters.from, zone)}::timestamptz`);
  if (filters.to) out.push(Prisma.sql`${at} < ${zonedDayStart(nextDay(filters.to), zone)}::timestamptz`);
  return out;
}

type QueueRow = { id: number; at: Date };

/**
 * One page of ids of a view, in order, and the sort time of each (for the cursor): `limit + 1`
 * rows at most, so the caller knows whether there is a next page.
 */
export async function findQueuePage(
  db: Db,
  args: {
    accountId: number;
    view: TQueueView;
    order: "newest" | "oldest";
    filters: TQueueFilters;
    after: { at: Date; id: number } | null;
    limit: number;
    threshold: number;
  },
): Promise<QueueRow[]> {
  const decided = isDecidedView(args.view);
  const at = decided ? Prisma.sql`c.decided_at` : Prisma.sql`c.created_at`;
  const newest = args.order === "newest";
  const conditions = [
    Prisma.sql`c.account_id = ${args.accountId}`,
    Prisma.sql`c.deleted_at IS NULL`,
    viewCondition(args.view, args.threshold),
    ...filterConditions(
      args.accountId,
      args.filters,
      decided,
      args.filters.from || args.filters.to ? await getAccountTimeZone(db, args.accountId) : "UTC",
    ),
  ];
  if (args.after) {
    const key = Prisma.sql`(${args.after.at}::timestamptz, ${args.after.id}::int)`;
    conditions.push(newest ? Prisma.sql`(${at}, c.id) < ${key}` : Prisma.sql`(${at}, c.id) > ${key}`);
  }
  const dir = newest ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  return db.$queryRaw<QueueRow[]>`
    SELECT c.id, ${at} AS "at"
    FROM comments c
    WHERE ${Prisma.join(conditions, " AND ")}
    ORDER BY ${at} ${dir}, c.id ${dir}
    LIMIT ${args.limit + 1}`;
}
