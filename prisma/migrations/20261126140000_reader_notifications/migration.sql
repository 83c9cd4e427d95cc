-- CreateEnum
CREATE TYPE "reader_notification_choice" AS ENUM ('off', 'immediate', 'digest');

-- CreateEnum
CREATE TYPE "reader_notification_kind" AS ENUM ('reply', 'mention', 'decision');

-- CreateEnum
CREATE TYPE "reader_notification_status" AS ENUM ('pending', 'sent', 'skipped');

-- AlterTable
ALTER TABLE "outgoing_emails" ADD COLUMN     "headers" JSONB,
ADD COLUMN     "html" TEXT;

-- CreateTable
CREATE TABLE "reader_notification_prefs" (
    "member_id" INTEGER NOT NULL,
    "replies" "reader_notification_choice" NOT NULL DEFAULT 'immediate',
    "mentions" "reader_notification_choice" NOT NULL DEFAULT 'immediate',
    "decisions" "reader_notification_choice" NOT NULL DEFAULT 'immediate',
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "reader_notification_prefs_pkey" PRIMARY KEY ("member_id")
);

-- CreateTable
CREATE TABLE "reader_notifications" (
    "id" BIGSERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "kind" "reader_notification_kind" NOT NULL,
    "comment_id" INTEGER NOT NULL,
    "event_key" TEXT NOT NULL,
    "delivery" "reader_notification_choice" NOT NULL,
    "status" "reader_notification_status" NOT NULL DEFAULT 'pending',
    "email_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "done_at" TIMESTAMPTZ(3),

    CONSTRAINT "reader_notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "reader_notifications_member_id_status_idx" ON "reader_notifications"("member_id", "status");

-- CreateIndex
CREATE INDEX "reader_notifications_comment_id_idx" ON "reader_notifications"("comment_id");

-- CreateIndex
CREATE INDEX "reader_notifications_account_id_idx" ON "reader_notifications"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "reader_notifications_member_id_event_key_key" ON "reader_notifications"("member_id", "event_key");

-- AddForeignKey
ALTER TABLE "reader_notification_prefs" ADD CONSTRAINT "reader_notification_prefs_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reader_notifications" ADD CONSTRAINT "reader_notifications_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reader_notifications" ADD CONSTRAINT "reader_notifications_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reader_notifications" ADD CONSTRAINT "reader_notifications_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
