-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "test" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "webhook_test_receipts" (
    "id" BIGSERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "headers" JSONB NOT NULL,
    "body" TEXT NOT NULL,
    "body_bytes" INTEGER NOT NULL,
    "body_truncated" BOOLEAN NOT NULL,
    "signature_valid" BOOLEAN NOT NULL,
    "signature_note" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,

    CONSTRAINT "webhook_test_receipts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_test_receipts_account_id_id_idx" ON "webhook_test_receipts"("account_id", "id" DESC);

-- AddForeignKey
ALTER TABLE "webhook_test_receipts" ADD CONSTRAINT "webhook_test_receipts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
