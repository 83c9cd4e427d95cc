-- A reader's customer at a payment gateway (server/subscriptions/payments/gateway-customers.ts):
-- one per account, member, provider and environment, so a reader's Stripe subscriptions and
-- payments share one Stripe customer. The unique index settles two checkouts racing to record one.
CREATE TABLE "member_gateway_customers" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "member_id" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "external_customer_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "member_gateway_customers_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "member_gateway_customers_environment_check" CHECK ("environment" IN ('live', 'sandbox'))
);
CREATE UNIQUE INDEX "member_gateway_customers_member_key" ON "member_gateway_customers"("account_id", "member_id", "provider", "environment");
CREATE INDEX "member_gateway_customers_member_id_idx" ON "member_gateway_customers"("member_id");
ALTER TABLE "member_gateway_customers" ADD CONSTRAINT "member_gateway_customers_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "member_gateway_customers" ADD CONSTRAINT "member_gateway_customers_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
