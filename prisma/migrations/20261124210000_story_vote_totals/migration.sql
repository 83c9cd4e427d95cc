-- A story's votes kept as they change, rather than counted on every story read
-- (server/publishing/stories.ts reads them joined to the story, in the story's own statement;
-- docs/publishing.md "Votes"). story_vote_totals holds the up and down votes of each story that
-- has any.
--
-- The triggers are per statement, over its transition tables: one upsert per statement however
-- many rows it wrote, in story order, so two transactions lock rows in the same order and cannot
-- deadlock. Every writer is counted: the services, cascades (a member deleted), SQL by hand.
-- TRUNCATE empties the totals. A story deleted takes its totals with it (the foreign key); the
-- upsert joins stories, so the cascade of its votes adds nothing back. Written by hand: Prisma
-- cannot express triggers.
CREATE TABLE "story_vote_totals" (
    "story_id" UUID NOT NULL,
    "up" INTEGER NOT NULL DEFAULT 0,
    "down" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "story_vote_totals_pkey" PRIMARY KEY ("story_id")
);

ALTER TABLE "story_vote_totals" ADD CONSTRAINT "story_vote_totals_story_id_fkey" FOREIGN KEY ("story_id") REFERENCES "stories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- changes: [story id, +1/-1 up, +1/-1 down] per vote row written.
CREATE OR REPLACE FUNCTION masthead_apply_story_vote_totals(changes jsonb) RETURNS void AS $$
BEGIN
  INSERT INTO story_vote_totals AS t (story_id, up, down)
  SELECT c.story_id, sum(c.up), sum(c.down)
  FROM (
    SELECT (x->>0)::uuid AS story_id, (x->>1)::int AS up, (x->>2)::int AS down
    FROM jsonb_array_elements(changes) AS x
  ) AS c
  JOIN stories s ON s.id = c.story_id
  GROUP BY c.story_id
  HAVING sum(c.up) <> 0 OR sum(c.down) <> 0
  ORDER BY c.story_id
  ON CONFLICT (story_id) DO UPDATE SET up = t.up + EXCLUDED.up, down = t.down + EXCLUDED.down;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION masthead_story_vote_totals() RETURNS trigger AS $$
DECLARE
  changes jsonb;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM story_vote_totals;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(jsonb_build_array(story_id, (magnitude > 0)::int, (magnitude < 0)::int)) INTO changes
    FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(jsonb_build_array(story_id, -(magnitude > 0)::int, -(magnitude < 0)::int)) INTO changes
    FROM old_rows;
  ELSE
    SELECT jsonb_agg(change) INTO changes FROM (
      SELECT jsonb_build_array(story_id, (magnitude > 0)::int, (magnitude < 0)::int) AS change FROM new_rows
      UNION ALL
      SELECT jsonb_build_array(story_id, -(magnitude > 0)::int, -(magnitude < 0)::int) FROM old_rows
    ) AS both_sides;
  END IF;
  IF changes IS NOT NULL THEN
    PERFORM masthead_apply_story_vote_totals(changes);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER story_votes_counted_insert AFTER INSERT ON story_votes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_story_vote_totals();
CREATE TRIGGER story_votes_counted_update AFTER UPDATE ON story_votes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_story_vote_totals();
CREATE TRIGGER story_votes_counted_delete AFTER DELETE ON story_votes
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION masthead_story_vote_totals();
CREATE TRIGGER story_votes_counted_truncate AFTER TRUNCATE ON story_votes
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_story_vote_totals();

-- The votes already there.
INSERT INTO story_vote_totals (story_id, up, down)
SELECT story_id, count(*) FILTER (WHERE magnitude > 0), count(*) FILTER (WHERE magnitude < 0)
FROM story_votes
GROUP BY story_id;
