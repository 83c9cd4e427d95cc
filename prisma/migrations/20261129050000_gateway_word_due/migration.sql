-- A gateway that charges periods itself (Razorpay, Stripe) reports a renewal some time after the
-- period's end. Until its word is due the reader keeps reading and is told nothing
-- (server/subscriptions/lifecycle-steps.ts "await_gateway"); then, unpaid, the grace period starts.
ALTER TABLE "subscriptions" ADD COLUMN "gateway_word_due_at" TIMESTAMPTZ(3);
