-- Disputes (chargebacks) of payments as their gateway reports them
-- (server/subscriptions/payments/gateway-disputes.ts): open until the bank decides; won, or lost,
-- when the disputed money went back to the reader and is recorded as a refund (refund_id).
CREATE TABLE "payment_disputes" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "payment_id" INTEGER NOT NULL,
    "external_dispute_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "reason" TEXT,
    "status" TEXT NOT NULL DEFAULT 'open',
    "opened_at" TIMESTAMPTZ(3) NOT NULL,
    "closed_at" TIMESTAMPTZ(3),
    "refund_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "payment_disputes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payment_disputes_status_check" CHECK ("status" IN ('open', 'won', 'lost')),
    CONSTRAINT "payment_disputes_amount_check" CHECK ("amount_cents" >= 0)
);
CREATE UNIQUE INDEX "payment_disputes_refund_id_key" ON "payment_disputes"("refund_id");
CREATE UNIQUE INDEX "payment_disputes_payment_id_external_dispute_id_key" ON "payment_disputes"("payment_id", "external_dispute_id");
CREATE INDEX "payment_disputes_account_id_opened_at_idx" ON "payment_disputes"("account_id", "opened_at");
ALTER TABLE "payment_disputes" ADD CONSTRAINT "payment_disputes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "payment_disputes" ADD CONSTRAINT "payment_disputes_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "payment_disputes" ADD CONSTRAINT "payment_disputes_refund_id_fkey" FOREIGN KEY ("refund_id") REFERENCES "payment_refunds"("id") ON DELETE SET NULL ON UPDATE CASCADE;
