/**
 * The purge key of every cached comment list and comment count of an account (docs/engagement.md
 * "Response cache"; server/http/content-cache.ts cachedRead). One key for the whole account: every
 * list carries the account-wide realm_comment_count. Every write that can change a list or a count
 * (a comment, its moderation, a reaction, the page's metadata, an author's name, avatar, username,
 * bio or publisher-JWT id) purges it in its transaction. A write to the comments table itself is
 * announced to every instance by the database (migration comment_and_webhook_endpoint_notices:
 * the key is named there too), so its writer only drops this process's copies at commit
 * (commentsWritten). Kept apart from comments.ts so members/ and oauth/ can purge without
 * importing the engagement services.
 */
import { applyPurges, purgeResponses } from "../cache/response-cache";
import type { Db } from "../db/client";
import { afterCommit } from "../db/transaction";

export const COMMENTS_PURGE_KEY = "comments";

/** Drop the account's cached comment lists and counts once `db`'s transaction commits (at once outside one). */
export function purgeComments(db: Db, accountId: number): Promise<void> {
  return purgeResponses(db, accountId, [COMMENTS_PURGE_KEY]);
}

/**
 * `db`'s transaction wrote to the comments table of the account: the database announces it to
 * every instance at commit (its trigger), and this process drops its own copies then too, at
 * once rather than when the notice comes back to it (a reader who has just posted reads the new
 * list). No statement of its own.
 */
export function commentsWritten(db: Db, accountId: number): void {
  afterCommit(db, () => applyPurges([{ account: accountId, tags: [COMMENTS_PURGE_KEY] }]));
}
