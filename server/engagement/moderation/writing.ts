/**
 * Moderating what a reader writes (a comment, an edit, a UGC submission): the reader's history,
 * the account's scorer and settings, and the decision (moderation.ts), in one call. A banned
 * "reject" word is a 400 naming the field, never the word. Scored before the caller's transaction:
 * a plugged-in scorer may take a while, and must not hold the reader's lock.
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { Prisma } from "../../generated/prisma/client";
import type { TCommentOp } from "../comments.schema";
import { activeBanSql, bannedError } from "./bans";
import { contentOf, decideModeration, isNewReader } from "./moderation";
import { scoreComment } from "./registry";
import { moderationSettingsOf } from "./settings";

/** What moderation knows of a reader: the first comment's time, the published comments, a ban in force. */
export type ReaderHistory = {
  firstCommentAt: Date | null;
  publishedComments: number;
  ban: { until: string | null } | null;
};

/**
 * The reader's first comment time and number of published comments (published, not spam, not
 * deleted) in the account, the comment being edited left out, and with `bans` the ban in force
 * (bans.ts), in one statement.
 */
export async function readerHistory(
  db: Db,
  args: { accountId: number; memberId: number; now: Date; editing?: number; bans?: boolean },
): Promise<ReaderHistory> {
  const [row] = await db.$queryRaw<{ first: Date | null; published: number; ban: { until: string | null } | null }[]>`
    SELECT min(created_at) AS first,
           (count(*) FILTER (WHERE is_published AND NOT is_spam AND deleted_at IS NULL))::int AS published,
           ${args.bans ? activeBanSql(args) : Prisma.sql`NULL::json`} AS ban
    FROM comments
    WHERE account_id = ${args.accountId} AND author_id = ${args.memberId} AND id <> ${args.editing ?? 0}`;
  return {
    firstCommentAt: row?.first ?? null,
    publishedComments: Number(row?.published ?? 0),
    ban: row?.ban ?? null,
  };
}

/** The decision on a reader's writing, or 400 (`field`) when it holds a banned "reject" word. */
export async function moderateWriting(
  db: Db,
  args: {
    accountId: number;
    memberId: number;
    ops: TCommentOp[];
    now: Date;
    /** The field the 400 names. */
    field: string;
    /** What is refused, for the message: "This comment cannot be posted". */
    refusal: string;
    /** The comment being edited (left out of the reader's history). */
    editing?: number;
    /** A guest is always a new reader (guests.ts). */
    guest?: boolean;
    /** 403 for a banned reader (bans.ts), read with the history: one statement fewer than assertNotBanned. */
    refuseBanned?: boolean;
  },
): Promise<{ isPublished: boolean; isSpam: boolean; toxicity: number; reasons: string[] }> {
  const [settings, { ban, ...history }] = await Promise.all([
    moderationSettingsOf(db, args.accountId),
    readerHistory(db, { ...args, bans: args.refuseBanned }),
  ]);
  if (ban && args.refuseBanned) throw bannedError(ban.until === null ? null : new Date(ban.until));
  const reader = { ...history, isNew: args.guest === true || isNewReader(history, args.now) };
  const content = contentOf(args.ops);
  const score = await scoreComment({ ...content, reader });
  const decision = decideModeration({ content, reader, score, settings });
  if (decision.reject) {
    throw new AppError("BAD_REQUEST", `${args.refusal}: it contains language this publication does not accept.`, {
      details: [{ field: args.field, issue: "contains language this publication does not accept" }],
    });
  }
  return decision;
}
