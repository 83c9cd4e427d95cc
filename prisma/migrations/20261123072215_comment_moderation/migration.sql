-- CreateEnum
CREATE TYPE "comment_moderation_mode" AS ENUM ('post_moderation', 'pre_moderation');

-- AlterTable
ALTER TABLE "comments" ADD COLUMN     "moderation_reasons" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "comment_moderation_settings" (
    "account_id" INTEGER NOT NULL,
    "mode" "comment_moderation_mode" NOT NULL DEFAULT 'post_moderation',
    "toxicity_threshold" INTEGER NOT NULL DEFAULT 70,
    "banned_words" JSONB NOT NULL DEFAULT '[]',
    "hold_links_from_new_readers" BOOLEAN NOT NULL DEFAULT true,
    "guest_comments_allowed" BOOLEAN NOT NULL DEFAULT false,
    "confidential_comments_allowed" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "comment_moderation_settings_pkey" PRIMARY KEY ("account_id")
);

-- AddForeignKey
ALTER TABLE "comment_moderation_settings" ADD CONSTRAINT "comment_moderation_settings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
