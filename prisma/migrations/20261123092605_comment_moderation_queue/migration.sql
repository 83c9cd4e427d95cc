-- CreateEnum
CREATE TYPE "comment_moderation_state" AS ENUM ('undecided', 'approved', 'rejected', 'spam');

-- CreateEnum
CREATE TYPE "comment_report_reason" AS ENUM ('spam', 'abuse', 'off_topic', 'other');

-- AlterEnum
ALTER TYPE "webhook_kind" ADD VALUE 'engagement';

-- DropIndex
DROP INDEX "comments_account_id_idx";

-- AlterTable
ALTER TABLE "comments" ADD COLUMN     "decided_at" TIMESTAMPTZ(3),
ADD COLUMN     "decided_by_id" UUID,
ADD COLUMN     "moderation_state" "comment_moderation_state" NOT NULL DEFAULT 'undecided',
ADD COLUMN     "open_reports" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "comment_reports" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "comment_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "reason" "comment_report_reason" NOT NULL,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comment_reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comment_bans" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    "created_by_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lifted_at" TIMESTAMPTZ(3),
    "lifted_by_id" UUID,

    CONSTRAINT "comment_bans_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "comment_reports_member_id_idx" ON "comment_reports"("member_id");

-- CreateIndex
CREATE INDEX "comment_reports_account_id_idx" ON "comment_reports"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "comment_reports_comment_id_member_id_key" ON "comment_reports"("comment_id", "member_id");

-- CreateIndex
CREATE INDEX "comment_bans_member_id_created_at_idx" ON "comment_bans"("member_id", "created_at");

-- CreateIndex
CREATE INDEX "comment_bans_account_id_idx" ON "comment_bans"("account_id");

-- CreateIndex
CREATE INDEX "comments_account_id_created_at_idx" ON "comments"("account_id", "created_at");

-- AddForeignKey
ALTER TABLE "comment_reports" ADD CONSTRAINT "comment_reports_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_reports" ADD CONSTRAINT "comment_reports_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_reports" ADD CONSTRAINT "comment_reports_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_bans" ADD CONSTRAINT "comment_bans_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_bans" ADD CONSTRAINT "comment_bans_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
