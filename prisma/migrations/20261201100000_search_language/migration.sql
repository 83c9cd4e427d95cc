-- Story search in the account's language (docs/publishing.md, "Search in the account's language").
-- stories.search_config is the text-search configuration a story is indexed with: the one for its
-- account's language (publisher_configs.language_iso_code) where the database has one, `simple`
-- (words as written, lower-cased, no stemming, no stop words) where it has none. A BEFORE trigger
-- fills it from the account on every insert (generated columns are computed after BEFORE
-- triggers, so the generated search_vector is built with it), and a trigger on publisher_configs
-- re-indexes the account's stories when its language changes. Queries use
-- search_account_ts_config(account_id), the same configuration. Written by hand: the Prisma schema
-- cannot express functions or triggers.

-- The configuration for an ISO 639-1 code: the languages PostgreSQL's snowball stemmers cover,
-- looked up in pg_ts_config (a build without one of them falls back to `simple`).
CREATE OR REPLACE FUNCTION search_language_ts_config(iso_code text) RETURNS regconfig AS $$
  SELECT coalesce(
    (SELECT c.oid::regconfig
       FROM (VALUES
         ('ar', 'arabic'), ('hy', 'armenian'), ('eu', 'basque'), ('ca', 'catalan'), ('da', 'danish'),
         ('nl', 'dutch'), ('en', 'english'), ('et', 'estonian'), ('fi', 'finnish'), ('fr', 'french'),
         ('de', 'german'), ('el', 'greek'), ('hi', 'hindi'), ('hu', 'hungarian'), ('id', 'indonesian'),
         ('ga', 'irish'), ('it', 'italian'), ('lt', 'lithuanian'), ('ne', 'nepali'), ('no', 'norwegian'),
         ('nb', 'norwegian'), ('nn', 'norwegian'), ('pt', 'portuguese'), ('ro', 'romanian'),
         ('ru', 'russian'), ('sr', 'serbian'), ('es', 'spanish'), ('sv', 'swedish'), ('ta', 'tamil'),
         ('tr', 'turkish'), ('yi', 'yiddish')
       ) AS m(iso, cfgname)
       JOIN pg_catalog.pg_ts_config c ON c.cfgname = m.cfgname
        AND c.cfgnamespace = 'pg_catalog'::regnamespace
      WHERE m.iso = lower(split_part(split_part(coalesce(iso_code, ''), '-', 1), '_', 1))),
    'simple'::regconfig)
$$ LANGUAGE sql STABLE PARALLEL SAFE;

-- The configuration of an account's stories: its language's (an account without publisher
-- settings has the settings' default language, English).
CREATE OR REPLACE FUNCTION search_account_ts_config(account integer) RETURNS regconfig AS $$
  SELECT search_language_ts_config(coalesce(
    (SELECT p.language_iso_code FROM publisher_configs p WHERE p.account_id = account), 'en'))
$$ LANGUAGE sql STABLE PARALLEL SAFE;

ALTER TABLE "stories" ADD COLUMN "search_config" regconfig NOT NULL DEFAULT 'simple'::regconfig;

CREATE OR REPLACE FUNCTION search_story_config_fill() RETURNS trigger AS $$
BEGIN
  NEW.search_config := search_account_ts_config(NEW.account_id);
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER stories_search_config_fill
  BEFORE INSERT OR UPDATE OF account_id ON stories
  FOR EACH ROW EXECUTE FUNCTION search_story_config_fill();

-- Re-index an account's stories when its language (and so its configuration) changes: one UPDATE
-- of the account's stories, in the transaction that saves the language.
CREATE OR REPLACE FUNCTION search_account_language_changed() RETURNS trigger AS $$
DECLARE config regconfig := search_language_ts_config(NEW.language_iso_code);
BEGIN
  UPDATE stories SET search_config = config
   WHERE account_id = NEW.account_id AND search_config IS DISTINCT FROM config;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER publisher_configs_search_language_update
  AFTER UPDATE OF language_iso_code ON publisher_configs
  FOR EACH ROW WHEN (OLD.language_iso_code IS DISTINCT FROM NEW.language_iso_code)
  EXECUTE FUNCTION search_account_language_changed();
CREATE TRIGGER publisher_configs_search_language_insert
  AFTER INSERT ON publisher_configs
  FOR EACH ROW EXECUTE FUNCTION search_account_language_changed();

-- The stories there are: their account's configuration, then the vector built with it.
UPDATE stories SET search_config = search_account_ts_config(account_id);

DROP INDEX "stories_search_vector_idx";
ALTER TABLE "stories" DROP COLUMN "search_vector";
ALTER TABLE "stories" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector("search_config", coalesce("headline", '')), 'A') ||
  setweight(to_tsvector("search_config", coalesce("subheadline", '')), 'B') ||
  setweight(to_tsvector("search_config", coalesce("plain_text", '')), 'C')
) STORED;
CREATE INDEX "stories_search_vector_idx" ON "stories" USING GIN ("search_vector");
