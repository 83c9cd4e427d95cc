-- CreateEnum
CREATE TYPE "unscored_language_policy" AS ENUM ('pre_moderate', 'external', 'publish');

-- CreateEnum
CREATE TYPE "language_word_list_action" AS ENUM ('flag', 'hold', 'off');

-- AlterTable
ALTER TABLE "comment_moderation_settings" ADD COLUMN     "language_word_lists" "language_word_list_action" NOT NULL DEFAULT 'flag',
ADD COLUMN     "unscored_languages" "unscored_language_policy" NOT NULL DEFAULT 'publish';
