-- CreateTable
CREATE TABLE "story_wires" (
    "story_id" UUID NOT NULL,
    "current_seq" INTEGER NOT NULL DEFAULT 0,
    "form_seq" INTEGER,
    "built_for" TEXT,
    "body" TEXT,

    CONSTRAINT "story_wires_pkey" PRIMARY KEY ("story_id")
);

-- AddForeignKey
ALTER TABLE "story_wires" ADD CONSTRAINT "story_wires_story_id_fkey" FOREIGN KEY ("story_id") REFERENCES "stories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A story's kept wire form (story_wires.body) is read only while its form_seq is the story's
-- current_seq. The database raises current_seq in the transaction of every change the form shows,
-- whoever makes it: the story's row, its sections, authors, tags and entities, and the names,
-- slugs and the rest of what the form copies from them. A form built from an older state is never
-- read again (server/publishing/story-wire.ts). The version lives in story_wires, not in the story's
-- row, so that raising it never rewrites a story (and its search vector). Written by hand: the
-- Prisma schema cannot express triggers.

-- Raises the version of these stories (those that still exist: a story's deletion deletes its
-- links too, and its row in story_wires).
CREATE OR REPLACE FUNCTION masthead_story_wires_changed(story_ids uuid[]) RETURNS void AS $$
  INSERT INTO story_wires (story_id, current_seq)
  SELECT s.id, 1 FROM stories s WHERE s.id IN (SELECT DISTINCT unnest(story_ids))
  ORDER BY s.id
  ON CONFLICT (story_id) DO UPDATE SET current_seq = story_wires.current_seq + 1;
$$ LANGUAGE sql;

-- A story's row, and its links to sections, authors, tags and entities (and their order).
CREATE OR REPLACE FUNCTION masthead_story_rows_changed() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'stories' THEN
    PERFORM masthead_story_wires_changed(ARRAY(SELECT id FROM new_rows));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM masthead_story_wires_changed(ARRAY(SELECT story_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM masthead_story_wires_changed(ARRAY(SELECT story_id FROM old_rows));
  ELSE
    PERFORM masthead_story_wires_changed(ARRAY(SELECT story_id FROM new_rows UNION SELECT story_id FROM old_rows));
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER stories_wire_update AFTER UPDATE ON stories
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_story_rows_changed();
DO $$
DECLARE links text;
BEGIN
  FOREACH links IN ARRAY ARRAY['story_sections', 'story_authors', 'story_tags', 'story_entities'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION masthead_story_rows_changed()', links || '_wire_insert', links);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION masthead_story_rows_changed()', links || '_wire_update', links);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION masthead_story_rows_changed()', links || '_wire_delete', links);
  END LOOP;
END
$$;

-- What the wire form copies from a linked author, section (and the section's collection), tag or
-- entity: an update that changes any of it raises the version of the stories linked to that row.
-- (Deleting one deletes its links, which raises them above.)
CREATE OR REPLACE FUNCTION masthead_story_taxonomy_changed() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'authors' THEN
    PERFORM masthead_story_wires_changed(ARRAY(
      SELECT l.story_id FROM story_authors l
        JOIN new_rows n ON n.id = l.author_id JOIN old_rows o ON o.id = n.id
       WHERE (n.name, n.slug, n.avatar_url, n.avatar_s3_key, n.twitter_handle, n.bio, n.metadata)
             IS DISTINCT FROM (o.name, o.slug, o.avatar_url, o.avatar_s3_key, o.twitter_handle, o.bio, o.metadata)));
  ELSIF TG_TABLE_NAME = 'sections' THEN
    PERFORM masthead_story_wires_changed(ARRAY(
      SELECT l.story_id FROM story_sections l
        JOIN new_rows n ON n.id = l.section_id JOIN old_rows o ON o.id = n.id
       WHERE (n.name, n.display_name, n.slug, n.parent_id, n.domain_slug, n.collection_id)
             IS DISTINCT FROM (o.name, o.display_name, o.slug, o.parent_id, o.domain_slug, o.collection_id)));
  ELSIF TG_TABLE_NAME = 'collections' THEN
    PERFORM masthead_story_wires_changed(ARRAY(
      SELECT l.story_id FROM story_sections l JOIN sections s ON s.id = l.section_id
        JOIN new_rows n ON n.id = s.collection_id JOIN old_rows o ON o.id = n.id
       WHERE (n.name, n.slug) IS DISTINCT FROM (o.name, o.slug)));
  ELSIF TG_TABLE_NAME = 'tags' THEN
    PERFORM masthead_story_wires_changed(ARRAY(
      SELECT l.story_id FROM story_tags l
        JOIN new_rows n ON n.id = l.tag_id JOIN old_rows o ON o.id = n.id
       WHERE (n.name, n.slug, n.meta_description) IS DISTINCT FROM (o.name, o.slug, o.meta_description)));
  ELSIF TG_TABLE_NAME = 'entities' THEN
    PERFORM masthead_story_wires_changed(ARRAY(
      SELECT l.story_id FROM story_entities l
        JOIN new_rows n ON n.id = l.entity_id JOIN old_rows o ON o.id = n.id
       WHERE (n.name, n.type, n.slug) IS DISTINCT FROM (o.name, o.type, o.slug)));
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

DO $$
DECLARE shown text;
BEGIN
  FOREACH shown IN ARRAY ARRAY['authors', 'sections', 'collections', 'tags', 'entities'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION masthead_story_taxonomy_changed()', shown || '_wire_update', shown);
  END LOOP;
END
$$;
