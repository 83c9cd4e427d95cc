/**
 * The purge key of every cached comment list and comment count of an account (docs/engagement.md
 * "Response cache"; server/http/content-cache.ts cachedRead). One key for the whole account: every
 * list carries the account-wide realm_comment_count. Every write that can change a list or a count
 * (a comment, its moderation, a reaction, the page's metadata, an author's name, avatar, username,
 * bio or publisher-JWT id) purges it in its transaction. Kept apart from comments.ts so members/
 * and oauth/ can purge without importing the engagement services.
 */
import { purgeResponses } from "../cache/response-cache";
import type { Db } from "../db/client";

export const COMMENTS_PURGE_KEY = "comments";

/** Drop the account's cached comment lists and counts once `db`'s transaction commits (at once outside one). */
export function purgeComments(db: Db, accountId: number): Promise<void> {
  return purgeResponses(db, accountId, [COMMENTS_PURGE_KEY]);
}
