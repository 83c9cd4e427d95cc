-- Access checks keep each reader's access-granting subscriptions in every instance's memory
-- (server/subscriptions/access.ts). Whatever writes the rows they come from (the services, a job,
-- SQL by hand, a cascade) announces it here, on the deployment's cache channel: every instance
-- then forgets them (cache topic "access"). NOTIFY is sent at commit, not on a rollback, and one
-- identical notice per transaction however many statements ran. Written by hand: the Prisma
-- schema cannot express triggers and its diff leaves them alone.
CREATE OR REPLACE FUNCTION masthead_access_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify(left('masthead_cache_' || current_schema(), 63), '{"instance":"db","topics":["access"]}');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER subscriptions_access_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON subscriptions
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_access_changed();
CREATE TRIGGER subscription_members_access_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON subscription_members
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_access_changed();
CREATE TRIGGER member_identities_access_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON member_identities
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_access_changed();
CREATE TRIGGER subscription_assets_access_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON subscription_assets
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_access_changed();
CREATE TRIGGER subscription_plan_assets_access_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON subscription_plan_assets
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_access_changed();
CREATE TRIGGER subscription_group_assets_access_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON subscription_group_assets
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_access_changed();
