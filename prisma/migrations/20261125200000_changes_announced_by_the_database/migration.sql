-- Every change a cache depends on is announced by the database, on the deployment's cache channel
-- (server/cache/process-cache.ts), whoever writes the rows: the services, a job, a cascade, SQL
-- by hand. Each instance, the writer's included, acts on what its listener hears. A notice names
-- cache topics to clear and built responses to drop by account and purge key (tags null: all of
-- the account's). NOTIFY is sent at commit, not on a rollback, and identical notices of one
-- transaction are sent once. Written by hand: the Prisma schema cannot express triggers.

-- The one function every trigger announces through. PostgreSQL refuses a payload of 8,000 bytes
-- or more: a notice too long names the account instead of its keys (all of its responses).
CREATE OR REPLACE FUNCTION masthead_announce(topics text[], account integer, tags text[]) RETURNS void AS $$
DECLARE
  notice text;
BEGIN
  notice := json_build_object(
    'topics', to_json(coalesce(topics, '{}')),
    'purges', CASE WHEN account IS NULL THEN '[]'::json
      ELSE json_build_array(json_build_object('account', account, 'tags', to_json(tags))) END)::text;
  IF octet_length(notice) > 7000 THEN
    notice := json_build_object('topics', to_json(coalesce(topics, '{}')),
      'purges', json_build_array(json_build_object('account', account, 'tags', NULL)))::text;
  END IF;
  PERFORM pg_notify(left('masthead_cache_' || current_schema(), 63), notice);
END;
$$ LANGUAGE plpgsql;

-- Tables whose every write clears cache topics (the trigger's arguments).
CREATE OR REPLACE FUNCTION masthead_topics_changed() RETURNS trigger AS $$
BEGIN
  PERFORM masthead_announce(TG_ARGV::text[], NULL, NULL);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Access-granting subscriptions (topic "access") and webhook endpoints: as before, through the one function.
CREATE OR REPLACE FUNCTION masthead_access_changed() RETURNS trigger AS $$
BEGIN
  PERFORM masthead_announce(ARRAY['access'], NULL, NULL);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE OR REPLACE FUNCTION masthead_webhook_endpoints_changed() RETURNS trigger AS $$
BEGIN
  PERFORM masthead_announce(ARRAY['webhook-endpoints'], NULL, NULL);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Accounts: their name and slug (topic "publisher") and JWT secret ("api-keys").
CREATE TRIGGER accounts_announced
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_topics_changed('publisher', 'api-keys');
CREATE TRIGGER publisher_configs_announced
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON publisher_configs
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_topics_changed('publisher');
-- API keys: not when only last_used_at is written (each use of a key, throttled).
CREATE TRIGGER api_keys_announced_write
  AFTER INSERT OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_topics_changed('api-keys');
CREATE TRIGGER api_keys_announced_update
  AFTER UPDATE OF account_id, kind, hash, revoked_at, expires_at ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_topics_changed('api-keys');
CREATE TRIGGER meter_settings_announced
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON meter_settings
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_topics_changed('meter');
CREATE TRIGGER comment_moderation_settings_announced
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON comment_moderation_settings
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_topics_changed('moderation');

-- Comments: one notice per account the statement wrote to, through the one function.
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
    PERFORM masthead_announce(NULL, account, ARRAY['comments']);
  END LOOP;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- What else a comment list or count shows (server/engagement/comments-cache.ts): a comment's
-- reactions, its page's headline, hero image and authors, its author's name, username, bio and
-- avatar, and the author's publisher-JWT id (is_page_author).
CREATE OR REPLACE FUNCTION masthead_comment_reactions_changed() RETURNS trigger AS $$
DECLARE
  account integer;
BEGIN
  FOR account IN SELECT DISTINCT c.account_id FROM changed_rows r JOIN comments c ON c.id = r.comment_id LOOP
    PERFORM masthead_announce(NULL, account, ARRAY['comments']);
  END LOOP;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER comment_reactions_announced_insert AFTER INSERT ON comment_reactions
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_comment_reactions_changed();
CREATE TRIGGER comment_reactions_announced_delete AFTER DELETE ON comment_reactions
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_comment_reactions_changed();

CREATE OR REPLACE FUNCTION masthead_account_comments_changed() RETURNS trigger AS $$
BEGIN
  PERFORM masthead_announce(NULL, CASE WHEN TG_OP = 'DELETE' THEN OLD.account_id ELSE NEW.account_id END, ARRAY['comments']);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER pages_announced AFTER UPDATE ON pages FOR EACH ROW
  WHEN ((OLD.url, OLD.headline, OLD.hero_image_url, OLD.author_ids, OLD.metadata)
    IS DISTINCT FROM (NEW.url, NEW.headline, NEW.hero_image_url, NEW.author_ids, NEW.metadata))
  EXECUTE FUNCTION masthead_account_comments_changed();
-- An author's name, username, bio, avatar and publisher-JWT id show only in lists that hold one
-- of their comments: a reader without comments (a new one) changes none.
CREATE OR REPLACE FUNCTION masthead_comment_author_changed() RETURNS trigger AS $$
DECLARE
  author integer;
  row_account integer;
BEGIN
  IF TG_TABLE_NAME = 'members' THEN
    author := NEW.id; row_account := NEW.account_id;
  ELSIF TG_OP = 'DELETE' THEN
    author := OLD.member_id; row_account := OLD.account_id;
  ELSE
    author := NEW.member_id; row_account := NEW.account_id;
  END IF;
  IF EXISTS (SELECT 1 FROM comments WHERE author_id = author) THEN
    PERFORM masthead_announce(NULL, row_account, ARRAY['comments']);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER members_announced AFTER UPDATE ON members FOR EACH ROW
  WHEN ((OLD.name, OLD.username, OLD.bio, OLD.avatar_url, OLD.avatar_s3_key)
    IS DISTINCT FROM (NEW.name, NEW.username, NEW.bio, NEW.avatar_url, NEW.avatar_s3_key))
  EXECUTE FUNCTION masthead_comment_author_changed();
CREATE TRIGGER member_identities_publisher_announced_insert AFTER INSERT ON member_identities FOR EACH ROW
  WHEN (NEW.provider = 'publisher') EXECUTE FUNCTION masthead_comment_author_changed();
CREATE TRIGGER member_identities_publisher_announced_update AFTER UPDATE ON member_identities FOR EACH ROW
  WHEN (NEW.provider = 'publisher' OR OLD.provider = 'publisher') EXECUTE FUNCTION masthead_comment_author_changed();
CREATE TRIGGER member_identities_publisher_announced_delete AFTER DELETE ON member_identities FOR EACH ROW
  WHEN (OLD.provider = 'publisher') EXECUTE FUNCTION masthead_comment_author_changed();

-- Content: an event that announces purge keys ("purge-keys", and "purge-all" when every response
-- changes) drops the same responses the CDN is told to drop (server/webhooks/deliveries.ts).
CREATE OR REPLACE FUNCTION masthead_event_announced() RETURNS trigger AS $$
BEGIN
  IF NEW.payload -> 'purge-all' = 'true'::jsonb THEN
    PERFORM masthead_announce(NULL, NEW.account_id, NULL);
  ELSIF jsonb_typeof(NEW.payload -> 'purge-keys') = 'array' THEN
    PERFORM masthead_announce(NULL, NEW.account_id, ARRAY(
      SELECT DISTINCT k FROM jsonb_array_elements_text(
        (SELECT jsonb_agg(e) FROM jsonb_array_elements(NEW.payload -> 'purge-keys') e WHERE jsonb_typeof(e) = 'string')
      ) k));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER webhook_events_announced AFTER INSERT ON webhook_events FOR EACH ROW
  WHEN (NEW.payload ? 'purge-keys' OR NEW.payload ? 'purge-all')
  EXECUTE FUNCTION masthead_event_announced();

-- Content changes that announce no event: a new section, author, tag or entity (the lists that
-- show them), an entity's relations, a published story's breaking-news link (it shows in the
-- story), a story's votes (its `votes`). The keys are the ones the content events use
-- (server/publishing/editorial/taxonomy-events.ts taxonomyPurgeKeys).
CREATE OR REPLACE FUNCTION masthead_content_created() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'sections' THEN
    PERFORM masthead_announce(NULL, NEW.account_id, ARRAY['config', 'stories']
      || CASE WHEN NEW.collection_id IS NULL THEN '{}'::text[] ELSE ARRAY['c/' || NEW.collection_id] END);
  ELSIF TG_TABLE_NAME = 'tags' THEN
    PERFORM masthead_announce(NULL, NEW.account_id, ARRAY['t/' || NEW.id, 'stories']);
  ELSIF TG_TABLE_NAME = 'authors' THEN
    PERFORM masthead_announce(NULL, NEW.account_id, ARRAY['a/' || NEW.id, 'authors', 'stories']);
  ELSE
    PERFORM masthead_announce(NULL, NEW.account_id, ARRAY['e/' || NEW.id, 'entities']);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER sections_announced_insert AFTER INSERT ON sections FOR EACH ROW EXECUTE FUNCTION masthead_content_created();
CREATE TRIGGER tags_announced_insert AFTER INSERT ON tags FOR EACH ROW EXECUTE FUNCTION masthead_content_created();
CREATE TRIGGER authors_announced_insert AFTER INSERT ON authors FOR EACH ROW EXECUTE FUNCTION masthead_content_created();
CREATE TRIGGER entities_announced_insert AFTER INSERT ON entities FOR EACH ROW EXECUTE FUNCTION masthead_content_created();

CREATE OR REPLACE FUNCTION masthead_entity_relationships_changed() RETURNS trigger AS $$
DECLARE
  from_id integer;
  to_id integer;
BEGIN
  IF TG_OP = 'DELETE' THEN
    from_id := OLD.from_entity_id; to_id := OLD.to_entity_id;
  ELSE
    from_id := NEW.from_entity_id; to_id := NEW.to_entity_id;
  END IF;
  PERFORM masthead_announce(NULL, e.account_id, ARRAY['e/' || from_id, 'e/' || to_id, 'entities'])
  FROM entities e WHERE e.id = from_id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER entity_relationships_announced AFTER INSERT OR UPDATE OR DELETE ON entity_relationships
  FOR EACH ROW EXECUTE FUNCTION masthead_entity_relationships_changed();

CREATE OR REPLACE FUNCTION masthead_story_shown_changed() RETURNS trigger AS $$
BEGIN
  PERFORM masthead_announce(NULL, NEW.account_id, ARRAY['s/' || NEW.id]);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER stories_breaking_link_announced AFTER UPDATE OF breaking_news_linked_story_id ON stories FOR EACH ROW
  WHEN (NEW.status = 'published' AND OLD.breaking_news_linked_story_id IS DISTINCT FROM NEW.breaking_news_linked_story_id)
  EXECUTE FUNCTION masthead_story_shown_changed();

CREATE OR REPLACE FUNCTION masthead_story_votes_changed() RETURNS trigger AS $$
DECLARE
  story uuid;
BEGIN
  story := CASE WHEN TG_OP = 'DELETE' THEN OLD.story_id ELSE NEW.story_id END;
  PERFORM masthead_announce(NULL, s.account_id, ARRAY['s/' || s.id]) FROM stories s WHERE s.id = story;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER story_votes_announced AFTER INSERT OR UPDATE OR DELETE ON story_votes
  FOR EACH ROW EXECUTE FUNCTION masthead_story_votes_changed();

-- A reader's meter as access checks keep it (server/subscriptions/meter.ts meterPurgeKey): a new
-- view changes it; views of past periods are removed without changing any current meter.
CREATE OR REPLACE FUNCTION masthead_meter_view_added() RETURNS trigger AS $$
BEGIN
  PERFORM masthead_announce(NULL, NEW.account_id, ARRAY['meter/' || NEW.reader_key]);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER meter_views_announced AFTER INSERT ON meter_views FOR EACH ROW EXECUTE FUNCTION masthead_meter_view_added();
