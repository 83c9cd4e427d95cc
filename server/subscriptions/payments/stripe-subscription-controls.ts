/**
 * What Masthead tells Stripe when a `stripe_recurring` subscription is cancelled, taken back,
 * paused or resumed in Masthead (docs/subscriptions.md, "Stripe"), through the official SDK:
 *
 * - cancel at period end: `subscriptions.update {cancel_at_period_end: true}` (in a trial: at the
 *   trial's end, Stripe's current period);
 * - undo: `subscriptions.update {cancel_at_period_end: false}`;
 * - cancel now: `subscriptions.cancel` (a subscription never paid);
 * - pause: `subscriptions.update {pause_collection: {behavior: "void", resumes_at}}`: Stripe keeps
 *   its billing periods and voids their invoices until `resumes_at`;
 * - resume: `subscriptions.update {pause_collection: ""}`.
 *
 * Each reads the subscription first: already as wanted is done (no write); a write carries the
 * change's idempotency key, so a repeat after a crash gets Stripe's first answer again. A
 * subscription Stripe has ended refuses every change but a cancel ("declined").
 */
import "server-only";

import type Stripe from "stripe";

import {
  PaymentAdapterError,
  type GatewayCredentials,
  type GatewaySubscriptionChange,
  type GatewaySubscriptionControls,
} from "./adapter";
import { stripeCall } from "./stripe-client";

const ENDED = new Set(["canceled", "incomplete_expired"]);

export function stripeSubscriptionControls(
  clientFor: (creds: GatewayCredentials | null) => Stripe,
): GatewaySubscriptionControls {
  async function current(creds: GatewayCredentials | null, change: GatewaySubscriptionChange) {
    const stripe = clientFor(creds);
    if (!/^sub_[A-Za-z0-9]+$/.test(change.gatewayReference))
      throw new PaymentAdapterError("This subscription has no Stripe subscription.", "declined");
    const sub = await stripeCall(() => stripe.subscriptions.retrieve(change.gatewayReference));
    return { stripe, sub };
  }

  function refuseEnded(sub: Stripe.Subscription, what: string) {
    if (ENDED.has(sub.status))
      throw new PaymentAdapterError(
        `Stripe has ended this subscription (${sub.status}): it cannot ${what}.`,
        "declined",
      );
  }

  const update = (stripe: Stripe, change: GatewaySubscriptionChange, params: Stripe.SubscriptionUpdateParams) =>
    stripeCall(() =>
      stripe.subscriptions.update(change.gatewayReference, params, { idempotencyKey: change.idempotencyKey }),
    );

  return {
    async cancelAtPeriodEnd(creds, change) {
      const { stripe, sub } = await current(creds, change);
      if (ENDED.has(sub.status) || sub.cancel_at_period_end) return;
      await update(stripe, change, { cancel_at_period_end: true });
    },

    async undoCancelAtPeriodEnd(creds, change) {
      const { stripe, sub } = await current(creds, change);
      refuseEnded(sub, "be taken back");
      if (!sub.cancel_at_period_end && sub.cancel_at === null) return;
      await update(stripe, change, { cancel_at_period_end: false });
    },

    async cancelNow(creds, change) {
      const { stripe, sub } = await current(creds, change);
      if (ENDED.has(sub.status)) return;
      await stripeCall(() =>
        stripe.subscriptions.cancel(change.gatewayReference, {}, { idempotencyKey: change.idempotencyKey }),
      );
    },

    async pauseCollection(creds, change) {
      const { stripe, sub } = await current(creds, change);
      refuseEnded(sub, "be paused");
      const resumesAt = Math.floor(change.resumesAt.getTime() / 1000);
      if (sub.pause_collection?.behavior === "void" && sub.pause_collection.resumes_at === resumesAt) return;
      await update(stripe, change, { pause_collection: { behavior: "void", resumes_at: resumesAt } });
    },

    async resumeCollection(creds, change) {
      const { stripe, sub } = await current(creds, change);
      refuseEnded(sub, "resume");
      if (sub.pause_collection === null) return;
      await update(stripe, change, { pause_collection: "" });
    },
  };
}
