-- Answers that carry an account's reader messages (a widget frame's page, the SDK's messages) are
-- kept under the account's purge key "messages" (server/i18n/messages-cache.ts). The database
-- announces it at the commit of every change to what they show, whoever writes: an owner's
-- override (message_overrides), and the account's default locale and the locales it offers
-- (publisher_configs' language and locales_offered). Through the one function of migration
-- 20261125200000_changes_announced_by_the_database. Written by hand: Prisma cannot express triggers.
CREATE OR REPLACE FUNCTION masthead_messages_changed() RETURNS trigger AS $$
DECLARE
  accounts integer[];
  account integer;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    SELECT array_agg(id) INTO accounts FROM accounts;
  ELSIF TG_OP = 'DELETE' THEN
    accounts := ARRAY[OLD.account_id];
  ELSIF TG_OP = 'UPDATE' THEN
    accounts := ARRAY[OLD.account_id, NEW.account_id];
  ELSE
    accounts := ARRAY[NEW.account_id];
  END IF;
  FOREACH account IN ARRAY (SELECT coalesce(array_agg(DISTINCT a), '{}') FROM unnest(accounts) a) LOOP
    PERFORM masthead_announce(NULL, account, ARRAY['messages']);
  END LOOP;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER message_overrides_announced
  AFTER INSERT OR UPDATE OR DELETE ON message_overrides
  FOR EACH ROW EXECUTE FUNCTION masthead_messages_changed();
CREATE TRIGGER message_overrides_announced_truncate
  AFTER TRUNCATE ON message_overrides
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_messages_changed();

-- Only when what a reader's locale is chosen from changes: not on every settings save.
CREATE TRIGGER publisher_configs_messages_announced_update
  AFTER UPDATE OF language_iso_code, language_ietf_code, language_direction, locales_offered ON publisher_configs
  FOR EACH ROW
  WHEN ((OLD.language_iso_code, OLD.language_ietf_code, OLD.language_direction, OLD.locales_offered)
    IS DISTINCT FROM (NEW.language_iso_code, NEW.language_ietf_code, NEW.language_direction, NEW.locales_offered))
  EXECUTE FUNCTION masthead_messages_changed();
CREATE TRIGGER publisher_configs_messages_announced_write
  AFTER INSERT OR DELETE ON publisher_configs
  FOR EACH ROW EXECUTE FUNCTION masthead_messages_changed();
