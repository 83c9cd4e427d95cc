-- Two more kinds of change announced by the database itself on the deployment's cache channel
-- (server/cache/process-cache.ts), whoever writes the rows (the services, a job, a cascade, SQL by
-- hand), so that the services need not send the notice as a statement of their own. NOTIFY is
-- sent at commit, not on a rollback, and identical notices of one transaction are sent once.
-- Written by hand: the Prisma schema cannot express triggers.

-- Webhook endpoints: every instance forgets the endpoints it keeps for emitting events (cache
-- topic "webhook-endpoints", server/webhooks/deliveries.ts).
CREATE OR REPLACE FUNCTION masthead_webhook_endpoints_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify(left('masthead_cache_' || current_schema(), 63), '{"instance":"db","topics":["webhook-endpoints"]}');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER webhook_endpoints_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON webhook_endpoints
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_webhook_endpoints_changed();

-- Comments: every instance drops the account's cached comment lists and counts, the responses
-- carrying the purge key "comments" (server/engagement/comments-cache.ts COMMENTS_PURGE_KEY).
-- One notice per account the statement wrote to; TRUNCATE names every account.
CREATE OR REPLACE FUNCTION masthead_comments_changed() RETURNS trigger AS $$
DECLARE
  accounts integer[];
  account integer;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    SELECT array_agg(id) INTO accounts FROM accounts;
  ELSIF TG_OP = 'UPDATE' THEN
    -- A report only counts (open_reports): no list or count shows it; the report that holds the
    -- comment changes is_published too. (A comment never changes account.)
    SELECT array_agg(DISTINCT n.account_id) INTO accounts
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE to_jsonb(n) - 'open_reports' IS DISTINCT FROM to_jsonb(o) - 'open_reports';
  ELSE
    SELECT array_agg(DISTINCT account_id) INTO accounts FROM changed_rows;
  END IF;
  FOREACH account IN ARRAY coalesce(accounts, '{}') LOOP
    PERFORM pg_notify(
      left('masthead_cache_' || current_schema(), 63),
      json_build_object('instance', 'db', 'topics', json_build_array(),
        'purges', json_build_array(json_build_object('account', account, 'tags', json_build_array('comments'))))::text
    );
  END LOOP;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER comments_announced_insert AFTER INSERT ON comments
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_comments_changed();
CREATE TRIGGER comments_announced_update AFTER UPDATE ON comments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_comments_changed();
CREATE TRIGGER comments_announced_delete AFTER DELETE ON comments
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_comments_changed();
CREATE TRIGGER comments_announced_truncate AFTER TRUNCATE ON comments
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_comments_changed();
