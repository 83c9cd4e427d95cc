-- CreateEnum
CREATE TYPE "subscription_status" AS ENUM ('pending', 'active', 'cancelled', 'failed');

-- CreateEnum
CREATE TYPE "payment_status" AS ENUM ('pending', 'authorized', 'captured', 'failed', 'refunded');

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "subscriber_id" INTEGER NOT NULL,
    "subscription_type" "subscription_type" NOT NULL,
    "subscription_plan_id" INTEGER,
    "subscription_group_id" INTEGER,
    "pricing_plan_id" INTEGER,
    "subscription_attempt_id" UUID,
    "preferred_identity" JSONB,
    "external_id" TEXT,
    "created_by" TEXT NOT NULL DEFAULT 'server_api',
    "referrer" TEXT,
    "gifter_id" INTEGER,
    "code" TEXT,
    "status" "subscription_status" NOT NULL DEFAULT 'pending',
    "start_timestamp" TIMESTAMPTZ(3) NOT NULL,
    "end_timestamp" TIMESTAMPTZ(3),
    "cancelled_at" TIMESTAMPTZ(3),
    "next_payment_due_date" TIMESTAMPTZ(3),
    "renewal_reminder_sent_date" TIMESTAMPTZ(3),
    "trial_ends_at" TIMESTAMPTZ(3),
    "trial_period_length" INTEGER,
    "trial_period_unit" "duration_unit",
    "grace_ends_at" TIMESTAMPTZ(3),
    "plan_name" TEXT NOT NULL,
    "plan_description" TEXT NOT NULL DEFAULT '',
    "group_name" TEXT,
    "group_description" TEXT,
    "duration_length" INTEGER NOT NULL,
    "duration_unit" "duration_unit" NOT NULL,
    "plan_amount_cents" INTEGER NOT NULL,
    "plan_amount_currency" TEXT NOT NULL,
    "recurring" BOOLEAN NOT NULL DEFAULT false,
    "payment_type" TEXT NOT NULL,
    "payment_token" TEXT,
    "payment_amount_cents" INTEGER NOT NULL,
    "payment_amount_currency" TEXT NOT NULL,
    "tax_amount_cents" INTEGER NOT NULL DEFAULT 0,
    "tax_detail" JSONB NOT NULL DEFAULT '[]',
    "coupon_code_id" INTEGER,
    "coupon_code" TEXT,
    "discount_detail" JSONB NOT NULL DEFAULT '{}',
    "dynamic_assets" JSONB NOT NULL DEFAULT '[]',
    "campaign_id" INTEGER,
    "campaign_name" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "notes" TEXT,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_attempts" (
    "id" UUID NOT NULL,
    "account_id" INTEGER NOT NULL,
    "subscriber_id" INTEGER,
    "terms" JSONB NOT NULL,
    "payment_type" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "external_reference_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "create_request_hash" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payments" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "subscription_id" INTEGER,
    "attempt_id" UUID,
    "payment_type" TEXT NOT NULL,
    "external_payment_id" TEXT,
    "external_order_id" TEXT,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "status" "payment_status" NOT NULL DEFAULT 'pending',
    "details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_gateways" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "environment" TEXT NOT NULL DEFAULT 'sandbox',
    "app_key" TEXT NOT NULL,
    "secret_encrypted" TEXT NOT NULL,
    "webhook_secret_encrypted" TEXT,
    "secret_hint" TEXT NOT NULL DEFAULT '',
    "webhook_secret_hint" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payment_gateways_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gateway_events" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "external_event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'received',
    "error" TEXT,
    "processed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gateway_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_members" (
    "subscription_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_members_pkey" PRIMARY KEY ("subscription_id","member_id")
);

-- CreateTable
CREATE TABLE "meter_settings" (
    "account_id" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "free_stories" INTEGER NOT NULL DEFAULT 3,
    "period_length" INTEGER NOT NULL DEFAULT 1,
    "period_unit" "duration_unit" NOT NULL DEFAULT 'months',
    "meter_anonymous" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "meter_settings_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "meter_views" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "reader_key" TEXT NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "story_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "meter_views_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "subscriptions_subscription_attempt_id_key" ON "subscriptions"("subscription_attempt_id");

-- CreateIndex
CREATE INDEX "subscriptions_subscriber_id_status_end_timestamp_idx" ON "subscriptions"("subscriber_id", "status", "end_timestamp");

-- CreateIndex
CREATE INDEX "subscriptions_account_id_created_at_idx" ON "subscriptions"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "subscriptions_account_id_status_idx" ON "subscriptions"("account_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "subscriptions_account_id_external_id_key" ON "subscriptions"("account_id", "external_id");

-- CreateIndex
CREATE INDEX "subscription_attempts_account_id_expires_at_idx" ON "subscription_attempts"("account_id", "expires_at");

-- CreateIndex
CREATE INDEX "payments_subscription_id_idx" ON "payments"("subscription_id");

-- CreateIndex
CREATE UNIQUE INDEX "payments_account_id_payment_type_external_payment_id_key" ON "payments"("account_id", "payment_type", "external_payment_id");

-- CreateIndex
CREATE UNIQUE INDEX "payment_gateways_account_id_provider_key" ON "payment_gateways"("account_id", "provider");

-- CreateIndex
CREATE UNIQUE INDEX "gateway_events_account_id_provider_external_event_id_key" ON "gateway_events"("account_id", "provider", "external_event_id");

-- CreateIndex
CREATE INDEX "subscription_members_member_id_idx" ON "subscription_members"("member_id");

-- CreateIndex
CREATE UNIQUE INDEX "meter_views_account_id_reader_key_period_start_story_id_key" ON "meter_views"("account_id", "reader_key", "period_start", "story_id");

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_subscriber_id_fkey" FOREIGN KEY ("subscriber_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_gifter_id_fkey" FOREIGN KEY ("gifter_id") REFERENCES "members"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_subscription_plan_id_fkey" FOREIGN KEY ("subscription_plan_id") REFERENCES "subscription_plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_subscription_group_id_fkey" FOREIGN KEY ("subscription_group_id") REFERENCES "subscription_groups"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_pricing_plan_id_fkey" FOREIGN KEY ("pricing_plan_id") REFERENCES "pricing_plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_subscription_attempt_id_fkey" FOREIGN KEY ("subscription_attempt_id") REFERENCES "subscription_attempts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_attempts" ADD CONSTRAINT "subscription_attempts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_gateways" ADD CONSTRAINT "payment_gateways_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gateway_events" ADD CONSTRAINT "gateway_events_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_members" ADD CONSTRAINT "subscription_members_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_members" ADD CONSTRAINT "subscription_members_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "meter_settings" ADD CONSTRAINT "meter_settings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "meter_views" ADD CONSTRAINT "meter_views_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
