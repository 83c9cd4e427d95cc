-- Shown in the page's thread (as in 20261127050000_live_threads): the same rule, in PL/pgSQL. The
-- live-thread trigger calls it on rows of its transition tables; a SQL function with a subquery
-- is never inlined, and PostgreSQL parses and plans its body again on every statement that calls
-- it, while PL/pgSQL keeps the plan of its query for the session (decision 0028).
CREATE OR REPLACE FUNCTION masthead_comment_shown(c comments) RETURNS boolean AS $$
BEGIN
  RETURN c.is_published AND NOT c.is_spam AND c.deleted_at IS NULL AND c.hidden_at IS NULL
    AND (c.parent_comment_id IS NULL OR EXISTS (
      SELECT 1 FROM comments p WHERE p.id = c.parent_comment_id AND p.is_published AND NOT p.is_spam));
END;
$$ LANGUAGE plpgsql STABLE;
