-- CreateEnum
CREATE TYPE "subscription_type" AS ENUM ('standard', 'individual', 'campaign', 'group_access', 'dynamic_asset');

-- CreateEnum
CREATE TYPE "duration_unit" AS ENUM ('days', 'weeks', 'months', 'years', 'lifetime');

-- CreateEnum
CREATE TYPE "subscription_asset_type" AS ENUM ('site', 'static', 'story');

-- CreateEnum
CREATE TYPE "asset_role" AS ENUM ('assets', 'additional_assets', 'display_assets');

-- CreateEnum
CREATE TYPE "pricing_asset_type" AS ENUM ('story', 'collection');

-- CreateEnum
CREATE TYPE "discount_type" AS ENUM ('percent', 'fixed');

-- CreateTable
CREATE TABLE "subscription_groups" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "subscription_type" "subscription_type" NOT NULL DEFAULT 'standard',
    "public" BOOLEAN NOT NULL DEFAULT true,
    "preferred_identity_provider" TEXT,
    "metadata_fields" JSONB NOT NULL DEFAULT '[]',
    "currency" TEXT,
    "target_amount_cents" INTEGER,
    "target_amount_validation_enabled" BOOLEAN NOT NULL DEFAULT false,
    "collected_amount_cents" INTEGER NOT NULL DEFAULT 0,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscription_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_plans" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "subscription_group_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "duration_length" INTEGER NOT NULL,
    "duration_unit" "duration_unit" NOT NULL,
    "price_cents" INTEGER NOT NULL,
    "price_currency" TEXT NOT NULL,
    "prices" JSONB NOT NULL DEFAULT '{}',
    "recurring" BOOLEAN NOT NULL DEFAULT false,
    "trial_period_enabled" BOOLEAN NOT NULL DEFAULT false,
    "max_trial_period_length" INTEGER,
    "max_trial_period_unit" "duration_unit",
    "user_limit" INTEGER,
    "supported_payment_providers" JSONB NOT NULL DEFAULT '[]',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscription_plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_assets" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "asset_category_id" INTEGER,
    "title" TEXT NOT NULL,
    "type" "subscription_asset_type" NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscription_assets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_group_assets" (
    "subscription_group_id" INTEGER NOT NULL,
    "asset_id" INTEGER NOT NULL,
    "role" "asset_role" NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "subscription_group_assets_pkey" PRIMARY KEY ("subscription_group_id","asset_id","role")
);

-- CreateTable
CREATE TABLE "subscription_plan_assets" (
    "subscription_plan_id" INTEGER NOT NULL,
    "asset_id" INTEGER NOT NULL,
    "role" "asset_role" NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "subscription_plan_assets_pkey" PRIMARY KEY ("subscription_plan_id","asset_id","role")
);

-- CreateTable
CREATE TABLE "pricing_plans" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "asset_type" "pricing_asset_type" NOT NULL,
    "asset_ids" JSONB NOT NULL DEFAULT '[]',
    "price_cents" INTEGER NOT NULL,
    "price_currency" TEXT NOT NULL,
    "duration_length" INTEGER NOT NULL DEFAULT 1,
    "duration_unit" "duration_unit" NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "pricing_plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "coupons" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "code" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "discount_type" "discount_type" NOT NULL,
    "percent_off" INTEGER,
    "amount_off_cents" INTEGER,
    "amount_currency" TEXT,
    "valid_from" TIMESTAMPTZ(3) NOT NULL,
    "valid_until" TIMESTAMPTZ(3),
    "max_redemptions" INTEGER,
    "max_redemptions_per_subscriber" INTEGER,
    "redemptions_count" INTEGER NOT NULL DEFAULT 0,
    "plan_ids" JSONB NOT NULL DEFAULT '[]',
    "group_ids" JSONB NOT NULL DEFAULT '[]',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "coupons_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "coupon_redemptions" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "coupon_id" INTEGER NOT NULL,
    "subscriber_id" TEXT NOT NULL,
    "subscription_id" TEXT,
    "redeemed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "coupon_redemptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tax_rules" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "rate_basis_points" INTEGER NOT NULL,
    "country" TEXT,
    "region" TEXT,
    "inclusive" BOOLEAN NOT NULL DEFAULT false,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tax_rules_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subscription_groups_account_id_subscription_type_idx" ON "subscription_groups"("account_id", "subscription_type");

-- CreateIndex
CREATE INDEX "subscription_plans_subscription_group_id_idx" ON "subscription_plans"("subscription_group_id");

-- CreateIndex
CREATE INDEX "subscription_plans_account_id_idx" ON "subscription_plans"("account_id");

-- CreateIndex
CREATE INDEX "subscription_assets_account_id_idx" ON "subscription_assets"("account_id");

-- CreateIndex
CREATE INDEX "subscription_group_assets_asset_id_idx" ON "subscription_group_assets"("asset_id");

-- CreateIndex
CREATE INDEX "subscription_plan_assets_asset_id_idx" ON "subscription_plan_assets"("asset_id");

-- CreateIndex
CREATE INDEX "pricing_plans_account_id_asset_type_idx" ON "pricing_plans"("account_id", "asset_type");

-- CreateIndex
CREATE UNIQUE INDEX "coupons_account_id_code_key" ON "coupons"("account_id", "code");

-- CreateIndex
CREATE INDEX "coupon_redemptions_coupon_id_subscriber_id_idx" ON "coupon_redemptions"("coupon_id", "subscriber_id");

-- CreateIndex
CREATE INDEX "tax_rules_account_id_idx" ON "tax_rules"("account_id");

-- AddForeignKey
ALTER TABLE "subscription_groups" ADD CONSTRAINT "subscription_groups_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_subscription_group_id_fkey" FOREIGN KEY ("subscription_group_id") REFERENCES "subscription_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_assets" ADD CONSTRAINT "subscription_assets_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_group_assets" ADD CONSTRAINT "subscription_group_assets_subscription_group_id_fkey" FOREIGN KEY ("subscription_group_id") REFERENCES "subscription_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_group_assets" ADD CONSTRAINT "subscription_group_assets_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "subscription_assets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_plan_assets" ADD CONSTRAINT "subscription_plan_assets_subscription_plan_id_fkey" FOREIGN KEY ("subscription_plan_id") REFERENCES "subscription_plans"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription_plan_assets" ADD CONSTRAINT "subscription_plan_assets_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "subscription_assets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pricing_plans" ADD CONSTRAINT "pricing_plans_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_coupon_id_fkey" FOREIGN KEY ("coupon_id") REFERENCES "coupons"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tax_rules" ADD CONSTRAINT "tax_rules_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
