-- An owner's own words (topic "message-overrides": the widget frames keep each account's overrides
-- per locale, server/widgets/frame-catalogue.ts). Announced at commit, whoever writes
-- (server/cache/process-cache.ts). Written by hand: the Prisma schema cannot express triggers.
CREATE TRIGGER message_overrides_topic_announced
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON message_overrides
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_topics_changed('message-overrides');
