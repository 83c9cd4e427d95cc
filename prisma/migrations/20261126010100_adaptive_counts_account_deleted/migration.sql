-- The adaptive layer's counting trigger (migration 20261126010000_adaptive_scoring), again with one
-- change: deleting an account whose comments were decided deletes their decision rows by cascade,
-- and the trigger counted those deletions into comment_term_stats for the account being deleted,
-- which its foreign key refused (the account could not be deleted). Written by hand.
CREATE OR REPLACE FUNCTION masthead_comment_decision_terms_counted() RETURNS trigger AS $$
DECLARE
  old_terms text[] := '{}';
  new_terms text[] := '{}';
  old_outcome text := NULL;
  new_outcome text := NULL;
  old_account integer := NULL;
  new_account integer := NULL;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    old_terms := array_append(coalesce(OLD.terms, '{}'), '');
    old_outcome := OLD.outcome::text;
    old_account := OLD.account_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    new_terms := array_append(coalesce(NEW.terms, '{}'), '');
    new_outcome := NEW.outcome::text;
    new_account := NEW.account_id;
  END IF;
  INSERT INTO comment_term_stats AS s (account_id, term, approved, rejected, spam)
  SELECT moves.account_id, moves.term, sum(moves.approved)::int, sum(moves.rejected)::int, sum(moves.spam)::int
  FROM (
    SELECT old_account AS account_id, t AS term,
           CASE WHEN old_outcome = 'approved' THEN -1 ELSE 0 END AS approved,
           CASE WHEN old_outcome = 'rejected' THEN -1 ELSE 0 END AS rejected,
           CASE WHEN old_outcome = 'spam' THEN -1 ELSE 0 END AS spam
    FROM unnest(old_terms) AS t
    UNION ALL
    SELECT new_account, t,
           CASE WHEN new_outcome = 'approved' THEN 1 ELSE 0 END,
           CASE WHEN new_outcome = 'rejected' THEN 1 ELSE 0 END,
           CASE WHEN new_outcome = 'spam' THEN 1 ELSE 0 END
    FROM unnest(new_terms) AS t
  ) AS moves
  -- An account being deleted takes its counts with it (its rows go by the foreign key's cascade):
  -- nothing is counted for an account that is gone, which would break that key.
  WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = moves.account_id)
  GROUP BY moves.account_id, moves.term
  HAVING sum(moves.approved) <> 0 OR sum(moves.rejected) <> 0 OR sum(moves.spam) <> 0
  ORDER BY moves.account_id, moves.term
  ON CONFLICT (account_id, term) DO UPDATE SET
    approved = s.approved + EXCLUDED.approved,
    rejected = s.rejected + EXCLUDED.rejected,
    spam = s.spam + EXCLUDED.spam;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
