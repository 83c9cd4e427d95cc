-- Live threads (docs/engagement.md "Live threads", server/engagement/live): what a page's open
-- comment widgets are told. The database writes it, whoever changes a comment (a service, a job,
-- SQL by hand): one row per comment that appeared on, changed in or left the page's visible
-- thread, and at commit one notice per page on the deployment's live channel naming the rows'
-- id range. Only ids and kinds: a held or hidden comment is never announced but as removed, and a
-- held comment's edits not at all. Written by hand: the Prisma schema cannot express triggers.

-- CreateTable
CREATE TABLE "comment_live_events" (
    "id" BIGSERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "page_id" INTEGER NOT NULL,
    "comment_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comment_live_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "comment_live_events_page_id_id_idx" ON "comment_live_events"("page_id", "id");

-- CreateIndex
CREATE INDEX "comment_live_events_created_at_idx" ON "comment_live_events"("created_at");

-- Shown in the page's thread: the list's visibility (server/engagement/comment-queries.ts), a
-- reply only under a published, not spam comment.
CREATE OR REPLACE FUNCTION masthead_comment_shown(c comments) RETURNS boolean AS $$
  SELECT c.is_published AND NOT c.is_spam AND c.deleted_at IS NULL AND c.hidden_at IS NULL
    AND (c.parent_comment_id IS NULL OR EXISTS (
      SELECT 1 FROM comments p WHERE p.id = c.parent_comment_id AND p.is_published AND NOT p.is_spam))
$$ LANGUAGE sql STABLE;

-- created: shown now and not before (a new comment, one approved or restored); edited: shown
-- before and after with another body; removed: shown before and not now (hidden, held, deleted).
CREATE OR REPLACE FUNCTION masthead_comments_live() RETURNS trigger AS $$
DECLARE
  notices json;
  notice json;
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH written AS (
      INSERT INTO comment_live_events (account_id, page_id, comment_id, kind)
      SELECT n.account_id, n.page_id, n.id, 'created' FROM new_rows n WHERE masthead_comment_shown(n) ORDER BY n.id
      RETURNING account_id, page_id, id)
    SELECT json_agg(g) INTO notices FROM (
      SELECT account_id AS account, page_id AS page, min(id) AS "from", max(id) AS "to"
      FROM written GROUP BY account_id, page_id) g;
  ELSIF TG_OP = 'UPDATE' THEN
    WITH changed AS (
      SELECT n.account_id, n.page_id, n.id,
             masthead_comment_shown(o) AS was, masthead_comment_shown(n) AS shown,
             (n.body IS DISTINCT FROM o.body OR n.edited_at IS DISTINCT FROM o.edited_at) AS rewritten
      FROM new_rows n JOIN old_rows o ON o.id = n.id),
    written AS (
      INSERT INTO comment_live_events (account_id, page_id, comment_id, kind)
      SELECT account_id, page_id, id,
             CASE WHEN NOT shown THEN 'removed' WHEN NOT was THEN 'created' ELSE 'edited' END
      FROM changed WHERE was <> shown OR (shown AND rewritten) ORDER BY id
      RETURNING account_id, page_id, id)
    SELECT json_agg(g) INTO notices FROM (
      SELECT account_id AS account, page_id AS page, min(id) AS "from", max(id) AS "to"
      FROM written GROUP BY account_id, page_id) g;
  ELSE
    -- Deleted rows: their own flags (a cascade may have removed the parent already).
    WITH written AS (
      INSERT INTO comment_live_events (account_id, page_id, comment_id, kind)
      SELECT o.account_id, o.page_id, o.id, 'removed' FROM old_rows o
      WHERE o.is_published AND NOT o.is_spam AND o.deleted_at IS NULL AND o.hidden_at IS NULL ORDER BY o.id
      RETURNING account_id, page_id, id)
    SELECT json_agg(g) INTO notices FROM (
      SELECT account_id AS account, page_id AS page, min(id) AS "from", max(id) AS "to"
      FROM written GROUP BY account_id, page_id) g;
  END IF;
  IF notices IS NULL THEN
    RETURN NULL;
  END IF;
  -- Kept a day: each writing statement drops up to 100 older rows, skipping rows another
  -- transaction is dropping (no comment write waits for another's pruning).
  DELETE FROM comment_live_events WHERE id IN (
    SELECT id FROM comment_live_events WHERE created_at < now() - interval '1 day'
    ORDER BY created_at LIMIT 100 FOR UPDATE SKIP LOCKED);
  FOR notice IN SELECT value FROM json_array_elements(notices) LOOP
    PERFORM pg_notify(left('masthead_live_' || current_schema(), 63), notice::text);
  END LOOP;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER comments_live_insert AFTER INSERT ON comments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_comments_live();
CREATE TRIGGER comments_live_update AFTER UPDATE ON comments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_comments_live();
CREATE TRIGGER comments_live_delete AFTER DELETE ON comments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_comments_live();
