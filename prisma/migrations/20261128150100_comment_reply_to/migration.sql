-- The comment a reply answers (reply_to_id in the comments API): replies nest one level, so a reply
-- to a reply is kept under that reply's top-level comment (parent_comment_id), and the comment it
-- really answered is kept here; null for a top-level comment or a reply to its parent itself. Set
-- by live replies (server/engagement/comments.ts) and imports (server/imports/comments), whose
-- deeper threads are flattened the same way. The comment answered may go: the reply stays.
ALTER TABLE "comments" ADD COLUMN "reply_to_id" INTEGER;
ALTER TABLE "comments" ADD CONSTRAINT "comments_reply_to_id_fkey" FOREIGN KEY ("reply_to_id")
  REFERENCES "comments"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "comments_reply_to_id_idx" ON "comments"("reply_to_id");
