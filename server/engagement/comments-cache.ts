/**
 * The purge key of every cached comment list and comment count of an account (docs/engagement.md
 * "Response cache"; server/http/content-cache.ts cachedRead). One key for the whole account: every
 * list carries the account-wide realm_comment_count. The database announces it at the commit of
 * every write that can change a list or a count: a comment, its moderation, a reaction, the page's
 * headline, hero image or authors, an author's name, username, bio or avatar, a publisher-JWT
 * identity (migration 20261125200000_changes_announced_by_the_database).
 */
export const COMMENTS_PURGE_KEY = "comments";
