-- Rules before a comment is published (docs/engagement.md "Rules before publishing"): the
-- account's rule settings, and each page's comment mode and slow mode.

-- CreateEnum
CREATE TYPE "page_comment_mode" AS ENUM ('open', 'pre_moderation', 'closed');

-- AlterTable
ALTER TABLE "comment_moderation_settings"
    ADD COLUMN "pre_moderate_until_approved" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "trust_rejection_rate" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "trust_window_days" INTEGER NOT NULL DEFAULT 30,
    ADD COLUMN "trust_min_decisions" INTEGER NOT NULL DEFAULT 5,
    ADD COLUMN "repeated_post_window_minutes" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "hold_disposable_emails" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "pages"
    ADD COLUMN "comment_mode" "page_comment_mode" NOT NULL DEFAULT 'open',
    ADD COLUMN "slow_mode_seconds" INTEGER NOT NULL DEFAULT 0;
