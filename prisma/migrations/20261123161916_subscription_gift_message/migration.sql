-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "custom_message" TEXT;
