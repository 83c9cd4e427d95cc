-- Complete invoices: the seller's legal name, postal address and tax id (set per account, frozen
-- onto each invoice at issue) and the service period each invoice pays for.
CREATE TABLE "invoice_sellers" (
    "account_id" INTEGER NOT NULL,
    "legal_name" TEXT NOT NULL DEFAULT '',
    "address" TEXT NOT NULL DEFAULT '',
    "tax_id" TEXT NOT NULL DEFAULT '',
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "invoice_sellers_pkey" PRIMARY KEY ("account_id")
);

ALTER TABLE "invoice_sellers" ADD CONSTRAINT "invoice_sellers_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "invoices" ADD COLUMN "seller_address" TEXT,
ADD COLUMN "seller_tax_id" TEXT,
ADD COLUMN "period_start" TIMESTAMPTZ(3),
ADD COLUMN "period_end" TIMESTAMPTZ(3);

-- Invoices issued before: the period their payment recorded (a recurring charge), else their
-- subscription's start and end.
UPDATE "invoices" i SET
  "period_start" = COALESCE((p."details"->'recurring_charge'->>'period_start')::timestamptz, s."start_timestamp"),
  "period_end" = CASE WHEN p."details" ? 'recurring_charge'
                      THEN (p."details"->'recurring_charge'->>'period_end')::timestamptz
                      ELSE s."end_timestamp" END
FROM "payments" p, "subscriptions" s
WHERE p."id" = i."payment_id" AND s."id" = i."subscription_id";
