-- A subscription its gateway charges by itself (Razorpay, Stripe): the state its gateway
-- subscription was last told by Masthead or reported by the gateway (active, cancelling, paused,
-- ended), and when; a gateway event older than that is stale (server/subscriptions/gateway-sync.ts).
ALTER TABLE "subscriptions" ADD COLUMN "gateway_state" TEXT;
ALTER TABLE "subscriptions" ADD COLUMN "gateway_state_at" TIMESTAMPTZ(3);
