-- Partial indexes for counting and listing visible comments (docs/engagement.md, "Speed"),
-- written by hand: the Prisma schema cannot express a partial index, and the schema diff leaves
-- these alone.
--
-- Visible comments (published, not spam, not deleted, not hidden) by account, page, parent and
-- time. The realm, page and top-level counts read this index only, and never join a comment to
-- its parent. The newest (or oldest) top-level comments of a page are found in it.
CREATE INDEX "comments_visible_idx" ON "comments" ("account_id", "page_id", "parent_comment_id", "created_at")
  WHERE "is_published" AND NOT "is_spam" AND "deleted_at" IS NULL AND "hidden_at" IS NULL;

-- The few comments that are not visible (held, spam, deleted or hidden). The visible replies of a
-- held or spam comment are subtracted from the counts, and a hidden or deleted top-level comment
-- with visible replies is listed as a placeholder.
CREATE INDEX "comments_not_visible_idx" ON "comments" ("account_id", "page_id")
  WHERE NOT "is_published" OR "is_spam" OR "deleted_at" IS NOT NULL OR "hidden_at" IS NOT NULL;
