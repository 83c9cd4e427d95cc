-- AlterTable
ALTER TABLE "newsletter_sends" DROP COLUMN "story_id",
ADD COLUMN     "story_id" UUID;

-- CreateIndex
CREATE INDEX "newsletter_sends_story_id_idx" ON "newsletter_sends"("story_id");
