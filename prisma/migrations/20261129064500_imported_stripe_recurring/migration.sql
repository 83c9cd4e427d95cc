-- Imported Stripe subscriptions on recurring plans take the recurring payment type, as Razorpay's
-- do (server/imports/readers/subscriptions.ts): Stripe's webhooks renew them once the account
-- hears from Stripe (server/subscriptions/payments/billing-source.ts).
UPDATE "subscriptions"
SET "payment_type" = 'stripe_recurring'
WHERE "created_by" = 'import' AND "recurring" = TRUE AND "payment_type" = 'stripe';
