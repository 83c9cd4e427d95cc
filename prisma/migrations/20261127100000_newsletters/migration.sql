-- Newsletters (server/newsletters): lists with sender, design and audience; readers' subscriptions with consent; suppressed addresses; sends, one delivery per address, clicks.
-- CreateEnum
CREATE TYPE "newsletter_audience" AS ENUM ('opt_in', 'members', 'paying');

-- CreateEnum
CREATE TYPE "newsletter_subscription_status" AS ENUM ('pending', 'active', 'unsubscribed');

-- CreateEnum
CREATE TYPE "newsletter_send_status" AS ENUM ('queued', 'sending', 'sent', 'cancelled');

-- CreateEnum
CREATE TYPE "newsletter_delivery_status" AS ENUM ('pending', 'sent', 'failed', 'bounced', 'skipped');

-- CreateTable
CREATE TABLE "newsletters" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "sender_name" TEXT NOT NULL,
    "sender_email" TEXT NOT NULL,
    "reply_to" TEXT,
    "design" JSONB NOT NULL DEFAULT '{}',
    "audience" "newsletter_audience" NOT NULL DEFAULT 'opt_in',
    "plan_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "track_opens" BOOLEAN NOT NULL DEFAULT false,
    "track_clicks" BOOLEAN NOT NULL DEFAULT true,
    "digest_collection_id" INTEGER,
    "digest_schedule" JSONB,
    "archived_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "newsletters_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "newsletter_subscriptions" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "newsletter_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "status" "newsletter_subscription_status" NOT NULL,
    "consented_at" TIMESTAMPTZ(3) NOT NULL,
    "consent_source" TEXT NOT NULL,
    "confirmed_at" TIMESTAMPTZ(3),
    "unsubscribed_at" TIMESTAMPTZ(3),
    "unsubscribe_source" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "newsletter_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_suppressions" (
    "account_id" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "detail" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_suppressions_pkey" PRIMARY KEY ("account_id","email")
);

-- CreateTable
CREATE TABLE "newsletter_sends" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "newsletter_id" INTEGER NOT NULL,
    "story_id" INTEGER,
    "collection_id" INTEGER,
    "kind" TEXT NOT NULL,
    "dedupe_key" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "status" "newsletter_send_status" NOT NULL DEFAULT 'queued',
    "recipients" INTEGER NOT NULL DEFAULT 0,
    "created_by" INTEGER,
    "scheduled_at" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "newsletter_sends_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "newsletter_deliveries" (
    "id" BIGSERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "send_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "status" "newsletter_delivery_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "claimed_until" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),
    "opened_at" TIMESTAMPTZ(3),
    "clicked_at" TIMESTAMPTZ(3),
    "bounced_at" TIMESTAMPTZ(3),
    "unsubscribed_at" TIMESTAMPTZ(3),

    CONSTRAINT "newsletter_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "newsletter_clicks" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" BIGINT NOT NULL,
    "url" TEXT NOT NULL,
    "clicked_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "newsletter_clicks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "newsletters_account_id_slug_key" ON "newsletters"("account_id", "slug");

-- CreateIndex
CREATE INDEX "newsletter_subscriptions_member_id_idx" ON "newsletter_subscriptions"("member_id");

-- CreateIndex
CREATE INDEX "newsletter_subscriptions_newsletter_id_status_idx" ON "newsletter_subscriptions"("newsletter_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "newsletter_subscriptions_newsletter_id_member_id_key" ON "newsletter_subscriptions"("newsletter_id", "member_id");

-- CreateIndex
CREATE INDEX "newsletter_sends_account_id_created_at_idx" ON "newsletter_sends"("account_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "newsletter_sends_newsletter_id_dedupe_key_key" ON "newsletter_sends"("newsletter_id", "dedupe_key");

-- CreateIndex
CREATE INDEX "newsletter_deliveries_send_id_status_idx" ON "newsletter_deliveries"("send_id", "status");

-- CreateIndex
CREATE INDEX "newsletter_deliveries_member_id_idx" ON "newsletter_deliveries"("member_id");

-- CreateIndex
CREATE UNIQUE INDEX "newsletter_deliveries_send_id_email_key" ON "newsletter_deliveries"("send_id", "email");

-- CreateIndex
CREATE INDEX "newsletter_clicks_delivery_id_idx" ON "newsletter_clicks"("delivery_id");

-- AddForeignKey
ALTER TABLE "newsletters" ADD CONSTRAINT "newsletters_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "newsletter_subscriptions" ADD CONSTRAINT "newsletter_subscriptions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "newsletter_subscriptions" ADD CONSTRAINT "newsletter_subscriptions_newsletter_id_fkey" FOREIGN KEY ("newsletter_id") REFERENCES "newsletters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "newsletter_subscriptions" ADD CONSTRAINT "newsletter_subscriptions_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_suppressions" ADD CONSTRAINT "email_suppressions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "newsletter_sends" ADD CONSTRAINT "newsletter_sends_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "newsletter_sends" ADD CONSTRAINT "newsletter_sends_newsletter_id_fkey" FOREIGN KEY ("newsletter_id") REFERENCES "newsletters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "newsletter_deliveries" ADD CONSTRAINT "newsletter_deliveries_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "newsletter_deliveries" ADD CONSTRAINT "newsletter_deliveries_send_id_fkey" FOREIGN KEY ("send_id") REFERENCES "newsletter_sends"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "newsletter_deliveries" ADD CONSTRAINT "newsletter_deliveries_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "newsletter_clicks" ADD CONSTRAINT "newsletter_clicks_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "newsletter_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
