-- Comment counts kept as comments change, rather than counted on every request
-- (server/engagement/comment-queries.ts; docs/engagement.md "Speed"). A comment's own flags are
-- visible when it is published, not spam, not deleted and not hidden; comment_counts holds how
-- many are, and how many of those are top-level, per page and per account. The account's count is
-- spread over 16 rows (page_id -1 - page id % 16): a comment locks its page's row and one share
-- until its transaction ends, so comments on different pages seldom wait for each other.
--
-- The triggers are per statement, over its transition tables: one upsert per statement however
-- many rows it wrote, in (account_id, page_id) order, so two transactions lock rows in the same
-- order and cannot deadlock. Every writer is counted: the services, jobs, cascades, SQL by hand.
-- TRUNCATE empties the counts. Written by hand: Prisma cannot express triggers.
CREATE TABLE "comment_counts" (
    "account_id" INTEGER NOT NULL,
    "page_id" INTEGER NOT NULL,
    "own_visible" INTEGER NOT NULL DEFAULT 0,
    "own_visible_parents" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "comment_counts_pkey" PRIMARY KEY ("account_id","page_id")
);

-- changes: (account_id, page_id, parent_comment_id IS NULL, +1 or -1) of rows whose own flags are visible.
CREATE OR REPLACE FUNCTION masthead_apply_comment_counts(changes jsonb) RETURNS void AS $$
BEGIN
  INSERT INTO comment_counts AS t (account_id, page_id, own_visible, own_visible_parents)
  SELECT c.account_id, c.page_id, sum(c.delta), sum(c.delta * c.top)
  FROM (
    SELECT (x->>0)::int AS account_id, p.page_id, (x->>3)::int AS delta, (x->>2)::int AS top
    FROM jsonb_array_elements(changes) AS x,
         LATERAL (VALUES ((x->>1)::int), (-1 - (x->>1)::int % 16)) AS p(page_id)
  ) AS c
  GROUP BY c.account_id, c.page_id
  HAVING sum(c.delta) <> 0 OR sum(c.delta * c.top) <> 0
  ORDER BY c.account_id, c.page_id
  ON CONFLICT (account_id, page_id) DO UPDATE
    SET own_visible = t.own_visible + EXCLUDED.own_visible,
        own_visible_parents = t.own_visible_parents + EXCLUDED.own_visible_parents;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION masthead_comment_counts() RETURNS trigger AS $$
DECLARE
  changes jsonb;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM comment_counts;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(jsonb_build_array(account_id, page_id, (parent_comment_id IS NULL)::int, 1)) INTO changes
    FROM new_rows WHERE is_published AND NOT is_spam AND deleted_at IS NULL AND hidden_at IS NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(jsonb_build_array(account_id, page_id, (parent_comment_id IS NULL)::int, -1)) INTO changes
    FROM old_rows WHERE is_published AND NOT is_spam AND deleted_at IS NULL AND hidden_at IS NULL;
  ELSE
    SELECT jsonb_agg(change) INTO changes FROM (
      SELECT jsonb_build_array(account_id, page_id, (parent_comment_id IS NULL)::int, 1) AS change
      FROM new_rows WHERE is_published AND NOT is_spam AND deleted_at IS NULL AND hidden_at IS NULL
      UNION ALL
      SELECT jsonb_build_array(account_id, page_id, (parent_comment_id IS NULL)::int, -1)
      FROM old_rows WHERE is_published AND NOT is_spam AND deleted_at IS NULL AND hidden_at IS NULL
    ) AS both_sides;
  END IF;
  IF changes IS NOT NULL THEN
    PERFORM masthead_apply_comment_counts(changes);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER comments_counted_insert AFTER INSERT ON comments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_comment_counts();
CREATE TRIGGER comments_counted_update AFTER UPDATE ON comments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_comment_counts();
CREATE TRIGGER comments_counted_delete AFTER DELETE ON comments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_comment_counts();
CREATE TRIGGER comments_counted_truncate AFTER TRUNCATE ON comments
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_comment_counts();

-- The comments already there.
INSERT INTO comment_counts (account_id, page_id, own_visible, own_visible_parents)
SELECT per_page.account_id, p.page_id, sum(per_page.n), sum(per_page.top)
FROM (
  SELECT account_id, page_id, count(*) AS n, count(*) FILTER (WHERE parent_comment_id IS NULL) AS top
  FROM comments WHERE is_published AND NOT is_spam AND deleted_at IS NULL AND hidden_at IS NULL
  GROUP BY account_id, page_id
) AS per_page,
LATERAL (VALUES (per_page.page_id), (-1 - per_page.page_id % 16)) AS p(page_id)
GROUP BY per_page.account_id, p.page_id;
