-- Responses that show a surface's messages in a locale (the AccessType SDK's words, the AMP page's)
-- carry the purge key "messages/<surface>/<locale>" (server/i18n/surface-messages.ts): an owner's
-- override of that surface and locale, saved, changed or removed, drops them. Responses that chose
-- a locale among the account's carry "locales": a change of the account's language or of the
-- locales it offers drops them. Announced through masthead_announce (migration
-- 20261125200000_changes_announced_by_the_database), whoever writes the rows.
CREATE OR REPLACE FUNCTION masthead_message_overrides_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM masthead_announce(NULL, OLD.account_id, ARRAY['messages/' || OLD.surface || '/' || OLD.locale]);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM masthead_announce(NULL, NEW.account_id, ARRAY['messages/' || NEW.surface || '/' || NEW.locale]);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER message_overrides_announced AFTER INSERT OR UPDATE OR DELETE ON message_overrides
  FOR EACH ROW EXECUTE FUNCTION masthead_message_overrides_changed();

CREATE OR REPLACE FUNCTION masthead_account_locales_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM masthead_announce(NULL, OLD.account_id, ARRAY['locales']);
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM masthead_announce(NULL, NEW.account_id, ARRAY['locales']);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER publisher_configs_locales_announced
  AFTER UPDATE OF language_iso_code, language_ietf_code, locales_offered ON publisher_configs
  FOR EACH ROW WHEN (OLD.language_iso_code IS DISTINCT FROM NEW.language_iso_code
    OR OLD.language_ietf_code IS DISTINCT FROM NEW.language_ietf_code
    OR OLD.locales_offered IS DISTINCT FROM NEW.locales_offered)
  EXECUTE FUNCTION masthead_account_locales_changed();
CREATE TRIGGER publisher_configs_locales_announced_insert_delete AFTER INSERT OR DELETE ON publisher_configs
  FOR EACH ROW EXECUTE FUNCTION masthead_account_locales_changed();
