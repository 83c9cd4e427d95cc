-- AlterTable
ALTER TABLE "subscription_groups" ADD COLUMN     "proration_enabled" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "scheduled_plan_id" INTEGER,
ADD COLUMN     "scheduled_switch" JSONB,
ADD COLUMN     "scheduled_switch_at" TIMESTAMPTZ(3);
