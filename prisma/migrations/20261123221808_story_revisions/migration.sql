-- CreateTable
CREATE TABLE "story_revisions" (
    "id" SERIAL NOT NULL,
    "story_id" UUID NOT NULL,
    "account_id" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "snapshot" JSONB NOT NULL,
    "staff_user_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "story_revisions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "story_revisions_account_id_idx" ON "story_revisions"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "story_revisions_story_id_version_key" ON "story_revisions"("story_id", "version");

-- AddForeignKey
ALTER TABLE "story_revisions" ADD CONSTRAINT "story_revisions_story_id_fkey" FOREIGN KEY ("story_id") REFERENCES "stories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
