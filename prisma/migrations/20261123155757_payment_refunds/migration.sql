-- CreateEnum
CREATE TYPE "payment_refund_status" AS ENUM ('pending', 'succeeded', 'failed');

-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "refunded_cents" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "payment_refunds" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "payment_id" INTEGER NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "status" "payment_refund_status" NOT NULL DEFAULT 'pending',
    "external_refund_id" TEXT,
    "reason" TEXT,
    "error" TEXT,
    "actor_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payment_refunds_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "payment_refunds_payment_id_idx" ON "payment_refunds"("payment_id");

-- CreateIndex
CREATE INDEX "payment_refunds_account_id_created_at_idx" ON "payment_refunds"("account_id", "created_at");

-- AddForeignKey
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_cents_check" CHECK ("refunded_cents" >= 0 AND "refunded_cents" <= "amount_cents");
