-- Imported Stripe subscriptions on recurring plans take the recurring payment type, as Razorpay's
-- do (server/imports/readers/subscriptions.ts): Stripe's webhooks renew them once the account
-- hears from Stripe (server/subscriptions/payments/billing-source.ts).
UPDATE "subscriptions"
SET "payment_type" = 'stripe_recurring'
WHERE "created_by" = 'import' AND "recurring" = TRUE AND "payment_type" = 'stripe';

-- The gateway's own subscription of one imported (no checkout attempt): a card change at the
-- gateway replaces payment_token, so webhooks find the subscription by this column instead.
ALTER TABLE "subscriptions" ADD COLUMN "gateway_subscription_id" TEXT;
CREATE INDEX "subscriptions_account_id_gateway_subscription_id_idx" ON "subscriptions"("account_id", "gateway_subscription_id");
UPDATE "subscriptions"
SET "gateway_subscription_id" = "payment_token"
WHERE "created_by" = 'import' AND "recurring" = TRUE AND "payment_type" IN ('stripe_recurring', 'razorpay_recurring')
  AND "payment_token" IS NOT NULL;
