-- A trial's subscription records what each period costs, not the checkout's authorization.
-- Checkout used to store the authorization (5 currency units, the attempt's amount) as the
-- subscription's payment_amount_cents; the first charge at the trial's end, the renewals, the
-- self-service page, the dunning e-mail and the reports read it. Such rows get the period's price
-- their checkout froze: the attempt's terms.total_cents (the plan's price after coupon and tax, what
-- checkout now stores). Only rows that still hold the authorization are touched: recurring, with a
-- trial, made by a checkout whose terms name a trial, whose amount and currency are the attempt's,
-- and whose frozen total differs. Payments and invoices already made are history and stay.
-- One statement: server/subscriptions/trial-period-amount.int.test.ts runs it again on test rows.
UPDATE "subscriptions" s
SET "payment_amount_cents" = (a."terms"->>'total_cents')::integer,
    "updated_at" = CURRENT_TIMESTAMP
FROM "subscription_attempts" a
WHERE a."id" = s."subscription_attempt_id"
  AND s."recurring"
  AND s."trial_ends_at" IS NOT NULL
  AND jsonb_typeof(a."terms"->'trial') = 'object'
  AND jsonb_typeof(a."terms"->'total_cents') = 'number'
  AND (a."terms"->>'total_cents') ~ '^[0-9]{1,9}$'
  AND s."payment_amount_cents" = a."amount_cents"
  AND s."payment_amount_currency" = a."currency"
  AND (a."terms"->>'total_cents')::integer <> s."payment_amount_cents";
