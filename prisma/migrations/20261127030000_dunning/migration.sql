-- Dunning: per-plan retry schedule and grace length, the subscription's next retry, and one row per failure episode.

-- AlterTable
ALTER TABLE "subscription_plans" ADD COLUMN "charge_retry_days" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN "grace_period_days" INTEGER NOT NULL DEFAULT 7;

-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN "charge_retry_at" TIMESTAMPTZ(3);

-- CreateEnum
CREATE TYPE "dunning_outcome" AS ENUM ('open', 'recovered', 'lost');

-- CreateTable
CREATE TABLE "dunning_episodes" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "subscription_id" INTEGER NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "retry_days" JSONB NOT NULL DEFAULT '[]',
    "retries" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "outcome" "dunning_outcome" NOT NULL DEFAULT 'open',
    "payment_id" INTEGER,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "grace_ends_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "dunning_episodes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "dunning_episodes_subscription_id_period_start_key" ON "dunning_episodes"("subscription_id", "period_start");

-- CreateIndex
CREATE INDEX "dunning_episodes_account_id_ended_at_idx" ON "dunning_episodes"("account_id", "ended_at");

-- AddForeignKey
ALTER TABLE "dunning_episodes" ADD CONSTRAINT "dunning_episodes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dunning_episodes" ADD CONSTRAINT "dunning_episodes_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
