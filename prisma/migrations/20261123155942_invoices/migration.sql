-- CreateTable
CREATE TABLE "invoices" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "sequenced_invoice_number" INTEGER NOT NULL,
    "payment_id" INTEGER NOT NULL,
    "subscription_id" INTEGER NOT NULL,
    "subscriber_id" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "base_price_cents" INTEGER NOT NULL,
    "discount_cents" INTEGER NOT NULL DEFAULT 0,
    "coupon_code" TEXT,
    "discount_percentage" INTEGER,
    "net_cents" INTEGER NOT NULL,
    "tax_lines" JSONB NOT NULL DEFAULT '[]',
    "round_off_cents" INTEGER NOT NULL DEFAULT 0,
    "amount_cents" INTEGER NOT NULL,
    "external_payment_id" TEXT,
    "payment_type" TEXT NOT NULL,
    "plan_name" TEXT NOT NULL,
    "subscriber_name" TEXT,
    "subscriber_email" TEXT,
    "seller_name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_counters" (
    "account_id" INTEGER NOT NULL,
    "last_number" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "invoice_counters_pkey" PRIMARY KEY ("account_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "invoices_payment_id_key" ON "invoices"("payment_id");

-- CreateIndex
CREATE INDEX "invoices_account_id_created_at_idx" ON "invoices"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "invoices_subscription_id_idx" ON "invoices"("subscription_id");

-- CreateIndex
CREATE INDEX "invoices_subscriber_id_idx" ON "invoices"("subscriber_id");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_account_id_sequenced_invoice_number_key" ON "invoices"("account_id", "sequenced_invoice_number");

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_subscriber_id_fkey" FOREIGN KEY ("subscriber_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_counters" ADD CONSTRAINT "invoice_counters_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
