-- CreateEnum
CREATE TYPE "ugc_status" AS ENUM ('pending', 'approved', 'rejected');

-- DropIndex
-- The account index (account_id, created_at) of the moderation queue migration is superseded by
-- (account_id, created_at, id), which serves the queue and the feed.
DROP INDEX "comments_account_id_created_at_idx";

-- CreateTable
CREATE TABLE "ugc_submissions" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "topic_type" TEXT NOT NULL,
    "topic_values" TEXT[],
    "title" TEXT,
    "text" TEXT NOT NULL,
    "links" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "images" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" "ugc_status" NOT NULL DEFAULT 'pending',
    "toxicity" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "is_spam" BOOLEAN NOT NULL DEFAULT false,
    "moderation_reasons" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "body_digest" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),
    "decided_by_id" UUID,

    CONSTRAINT "ugc_submissions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ugc_submissions_account_id_status_created_at_id_idx" ON "ugc_submissions"("account_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "ugc_submissions_account_id_topic_type_created_at_idx" ON "ugc_submissions"("account_id", "topic_type", "created_at");

-- CreateIndex
CREATE INDEX "ugc_submissions_member_id_created_at_id_idx" ON "ugc_submissions"("member_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "comments_account_id_created_at_id_idx" ON "comments"("account_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "comments_author_id_created_at_id_idx" ON "comments"("author_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "comments_body_idx" ON "comments" USING GIN ("body" jsonb_path_ops);

-- AddForeignKey
ALTER TABLE "ugc_submissions" ADD CONSTRAINT "ugc_submissions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ugc_submissions" ADD CONSTRAINT "ugc_submissions_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ugc_submissions" ADD CONSTRAINT "ugc_submissions_decided_by_id_fkey" FOREIGN KEY ("decided_by_id") REFERENCES "admin_users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
