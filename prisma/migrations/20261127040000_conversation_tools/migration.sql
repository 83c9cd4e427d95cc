-- Conversation tools (docs/engagement.md "Conversation tools"): featured comments, questions of a
-- Q&A page marked answered, the reaction count the "most reacted" order reads from an index, and
-- the account's edit window.
ALTER TABLE "comments"
  ADD COLUMN "featured_at" TIMESTAMPTZ(3),
  ADD COLUMN "featured_by_id" UUID,
  ADD COLUMN "answered_at" TIMESTAMPTZ(3),
  ADD COLUMN "answered_by_id" UUID,
  ADD COLUMN "reaction_count" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "pages" ADD COLUMN "qa_mode" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "comment_moderation_settings" ADD COLUMN "edit_window_minutes" INTEGER NOT NULL DEFAULT 0;

-- The reactions already given.
UPDATE "comments" c SET "reaction_count" = x.n
FROM (SELECT comment_id, count(*)::int AS n FROM comment_reactions GROUP BY comment_id) AS x
WHERE x.comment_id = c.id;

-- comments.reaction_count follows comment_reactions, one statement at a time (a comment deleted
-- with its reactions is simply not found).
CREATE OR REPLACE FUNCTION masthead_comment_reaction_count() RETURNS trigger AS $$
BEGIN
  UPDATE comments c
  SET reaction_count = GREATEST(c.reaction_count + CASE WHEN TG_OP = 'INSERT' THEN d.n ELSE -d.n END, 0)
  FROM (SELECT comment_id, count(*)::int AS n FROM changed_rows GROUP BY comment_id) AS d
  WHERE c.id = d.comment_id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER comment_reactions_counted_insert AFTER INSERT ON comment_reactions
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_comment_reaction_count();
CREATE TRIGGER comment_reactions_counted_delete AFTER DELETE ON comment_reactions
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_comment_reaction_count();

-- A page's visible top-level comments, most reacted first (comment-queries.ts listedParentIds):
-- a page of them is read from the index, not counted comment by comment.
CREATE INDEX "comments_reacted_idx" ON "comments" ("account_id", "page_id", "reaction_count" DESC, "created_at" DESC, "id" DESC)
  WHERE "parent_comment_id" IS NULL AND "is_published" AND NOT "is_spam" AND "deleted_at" IS NULL AND "hidden_at" IS NULL;

-- The few featured comments of a page.
CREATE INDEX "comments_featured_idx" ON "comments" ("page_id") WHERE "featured_at" IS NOT NULL;

-- Q&A mode changes what a page's list shows: announced like the page's headline.
DROP TRIGGER pages_announced ON pages;
CREATE TRIGGER pages_announced AFTER UPDATE ON pages FOR EACH ROW
  WHEN ((OLD.url, OLD.headline, OLD.hero_image_url, OLD.author_ids, OLD.metadata, OLD.qa_mode)
    IS DISTINCT FROM (NEW.url, NEW.headline, NEW.hero_image_url, NEW.author_ids, NEW.metadata, NEW.qa_mode))
  EXECUTE FUNCTION masthead_account_comments_changed();
