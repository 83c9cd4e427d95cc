-- Collections as the content reads find them by slug (topic "collections": a collection's row and
-- the section whose collection it is, kept in each process by server/publishing/collections.ts).
-- Announced at commit, whoever writes (server/cache/process-cache.ts). Written by hand: the Prisma
-- schema cannot express triggers.
CREATE TRIGGER collections_announced
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON collections
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_topics_changed('collections');
CREATE TRIGGER sections_collection_announced
  AFTER INSERT OR UPDATE OF collection_id OR DELETE OR TRUNCATE ON sections
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_topics_changed('collections');
