-- The published stories that are not public, newest first, per account: what an access check
-- reads ahead (server/subscriptions/access.ts, "Read-ahead"; docs/subscriptions.md "Speed"),
-- without reading the public ones between them. Written by hand: the Prisma schema cannot express
-- a partial index, and the schema diff leaves it alone.
CREATE INDEX "stories_not_public_idx" ON "stories" ("account_id", "published_at" DESC)
  WHERE "status" = 'published' AND "access" <> 'public';
