-- AlterTable
ALTER TABLE "invoices" ADD COLUMN     "credit_cents" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "credit_cents" INTEGER NOT NULL DEFAULT 0;
