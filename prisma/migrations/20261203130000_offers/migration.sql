-- CreateTable
CREATE TABLE "offers" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "priority" INTEGER NOT NULL DEFAULT 100,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "plan_ids" JSONB NOT NULL DEFAULT '[]',
    "coupon_code" TEXT,
    "trial_days" INTEGER,
    "copy" JSONB NOT NULL DEFAULT '{}',
    "default_locale" TEXT NOT NULL,
    "segment" JSONB NOT NULL DEFAULT '{}',
    "archived_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "offers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "experiments" (
    "id" UUID NOT NULL,
    "account_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "offer_a_id" INTEGER NOT NULL,
    "offer_b_id" INTEGER NOT NULL,
    "split_a" INTEGER NOT NULL DEFAULT 50,
    "segment" JSONB NOT NULL DEFAULT '{}',
    "goal" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "stopped_at" TIMESTAMPTZ(3),
    "stop_reason" TEXT,
    "stop_detail" JSONB,
    "started_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "experiments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "experiment_exposures" (
    "id" UUID NOT NULL,
    "experiment_id" UUID NOT NULL,
    "reader_key" TEXT NOT NULL,
    "arm" TEXT NOT NULL,
    "offer_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "experiment_exposures_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offer_conversions" (
    "subscription_id" INTEGER NOT NULL,
    "account_id" INTEGER NOT NULL,
    "offer_id" INTEGER NOT NULL,
    "exposure_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "offer_conversions_pkey" PRIMARY KEY ("subscription_id")
);

-- CreateIndex
CREATE INDEX "offers_account_id_priority_idx" ON "offers"("account_id", "priority");

-- CreateIndex
CREATE UNIQUE INDEX "offers_account_id_name_key" ON "offers"("account_id", "name");

-- CreateIndex
CREATE INDEX "experiments_account_id_status_idx" ON "experiments"("account_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "experiment_exposures_experiment_id_reader_key_key" ON "experiment_exposures"("experiment_id", "reader_key");

-- CreateIndex
CREATE INDEX "offer_conversions_exposure_id_idx" ON "offer_conversions"("exposure_id");

-- CreateIndex
CREATE INDEX "offer_conversions_offer_id_idx" ON "offer_conversions"("offer_id");

-- AddForeignKey
ALTER TABLE "offers" ADD CONSTRAINT "offers_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "experiment_exposures" ADD CONSTRAINT "experiment_exposures_experiment_id_fkey" FOREIGN KEY ("experiment_id") REFERENCES "experiments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offer_conversions" ADD CONSTRAINT "offer_conversions_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offer_conversions" ADD CONSTRAINT "offer_conversions_offer_id_fkey" FOREIGN KEY ("offer_id") REFERENCES "offers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offer_conversions" ADD CONSTRAINT "offer_conversions_exposure_id_fkey" FOREIGN KEY ("exposure_id") REFERENCES "experiment_exposures"("id") ON DELETE SET NULL ON UPDATE CASCADE;
