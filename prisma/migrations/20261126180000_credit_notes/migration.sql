-- CreateTable
CREATE TABLE "credit_notes" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "sequenced_credit_note_number" INTEGER NOT NULL,
    "invoice_id" INTEGER NOT NULL,
    "refund_id" INTEGER NOT NULL,
    "subscriber_id" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "net_cents" INTEGER NOT NULL,
    "tax_lines" JSONB NOT NULL DEFAULT '[]',
    "amount_cents" INTEGER NOT NULL,
    "reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credit_notes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credit_note_counters" (
    "account_id" INTEGER NOT NULL,
    "last_number" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "credit_note_counters_pkey" PRIMARY KEY ("account_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "credit_notes_refund_id_key" ON "credit_notes"("refund_id");

-- CreateIndex
CREATE INDEX "credit_notes_invoice_id_idx" ON "credit_notes"("invoice_id");

-- CreateIndex
CREATE INDEX "credit_notes_subscriber_id_idx" ON "credit_notes"("subscriber_id");

-- CreateIndex
CREATE UNIQUE INDEX "credit_notes_account_id_sequenced_credit_note_number_key" ON "credit_notes"("account_id", "sequenced_credit_note_number");

-- AddForeignKey
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_refund_id_fkey" FOREIGN KEY ("refund_id") REFERENCES "payment_refunds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_subscriber_id_fkey" FOREIGN KEY ("subscriber_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_note_counters" ADD CONSTRAINT "credit_note_counters_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
