-- Shifts and surges (docs/engagement.md "Shifts and surges"): the account's shifts, surge rules and
-- queue-age alert; each page's surges, kept apart from its own rules; the alert's episodes and the
-- staff who asked for it. The generated part first, then what the schema cannot express.

-- CreateEnum
CREATE TYPE "page_surge_reason" AS ENUM ('queue', 'off_shift');

-- CreateEnum
CREATE TYPE "page_surge_action" AS ENUM ('pre_moderation', 'slow_mode');

-- CreateTable
CREATE TABLE "moderation_surge_settings" (
    "account_id" INTEGER NOT NULL,
    "time_zone" TEXT NOT NULL DEFAULT 'UTC',
    "shifts" JSONB NOT NULL DEFAULT '[]',
    "surge_action" "page_surge_action",
    "surge_slow_mode_seconds" INTEGER NOT NULL DEFAULT 60,
    "surge_pending_min" INTEGER NOT NULL DEFAULT 20,
    "surge_arrival_ratio" INTEGER NOT NULL DEFAULT 2,
    "surge_window_minutes" INTEGER NOT NULL DEFAULT 10,
    "surge_calm_minutes" INTEGER NOT NULL DEFAULT 10,
    "alert_after_minutes" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "moderation_surge_settings_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "page_surges" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "page_id" INTEGER,
    "reason" "page_surge_reason" NOT NULL,
    "action" "page_surge_action" NOT NULL,
    "slow_mode_seconds" INTEGER NOT NULL DEFAULT 0,
    "pending_at_start" INTEGER NOT NULL DEFAULT 0,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "calm_since" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "page_surges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "moderation_alert_episodes" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "pending_count" INTEGER NOT NULL,
    "oldest_at" TIMESTAMPTZ(3) NOT NULL,
    "recipients" INTEGER NOT NULL DEFAULT 0,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "moderation_alert_episodes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "moderation_alert_subscribers" (
    "admin_user_id" UUID NOT NULL,
    "account_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "moderation_alert_subscribers_pkey" PRIMARY KEY ("admin_user_id")
);

-- CreateIndex
CREATE INDEX "page_surges_account_id_started_at_idx" ON "page_surges"("account_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "page_surges_page_id_idx" ON "page_surges"("page_id");

-- CreateIndex
CREATE INDEX "moderation_alert_episodes_account_id_started_at_idx" ON "moderation_alert_episodes"("account_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "moderation_alert_subscribers_account_id_idx" ON "moderation_alert_subscribers"("account_id");

-- AddForeignKey
ALTER TABLE "moderation_surge_settings" ADD CONSTRAINT "moderation_surge_settings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "page_surges" ADD CONSTRAINT "page_surges_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "page_surges" ADD CONSTRAINT "page_surges_page_id_fkey" FOREIGN KEY ("page_id") REFERENCES "pages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "moderation_alert_episodes" ADD CONSTRAINT "moderation_alert_episodes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "moderation_alert_subscribers" ADD CONSTRAINT "moderation_alert_subscribers_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "moderation_alert_subscribers" ADD CONSTRAINT "moderation_alert_subscribers_admin_user_id_fkey" FOREIGN KEY ("admin_user_id") REFERENCES "admin_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand: the Prisma schema cannot express partial indexes or triggers (the schema diff
-- leaves them alone).

-- At most one open surge per account and page (page_id NULL: the account's off-shift surge), and
-- one open alert episode per account: two watches at once insert one, and the other's insert does
-- nothing (ON CONFLICT DO NOTHING), so one switch is recorded and one e-mail sent.
CREATE UNIQUE INDEX "page_surges_open_key" ON "page_surges" ("account_id", (coalesce("page_id", 0)))
  WHERE "ended_at" IS NULL;
CREATE UNIQUE INDEX "moderation_alert_episodes_open_key" ON "moderation_alert_episodes" ("account_id")
  WHERE "ended_at" IS NULL;

-- The pending queue (unpublished, undecided, not deleted), per account and page, oldest first: what
-- the surge watch and the queue-age figures read every minute without reading decided comments.
CREATE INDEX "comments_pending_idx" ON "comments" ("account_id", "page_id", "created_at")
  WHERE NOT "is_published" AND "moderation_state" = 'undecided' AND "deleted_at" IS NULL;

-- Every comment create reads the account's open surges from memory (surges.ts, cache topic
-- "moderation-surges"): every write of page_surges drops them in every instance at commit
-- (decision 0004), as comment_moderation_settings does for topic "moderation".
CREATE TRIGGER page_surges_announced
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON page_surges
  FOR EACH STATEMENT EXECUTE FUNCTION masthead_topics_changed('moderation-surges');
