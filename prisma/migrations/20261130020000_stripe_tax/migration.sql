-- Stripe Tax on an account's Stripe gateway (off by default): the checkout's tax is Stripe's Tax
-- Calculation instead of the account's tax rules; prices include it where the account says so
-- (server/subscriptions/payments/stripe-tax.ts).
ALTER TABLE "payment_gateways" ADD COLUMN "stripe_tax" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "payment_gateways" ADD COLUMN "stripe_tax_inclusive" BOOLEAN NOT NULL DEFAULT false;
