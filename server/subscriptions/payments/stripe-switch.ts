/**
 * Plan switches of `stripe_recurring` subscriptions (docs/subscriptions.md "Stripe"): Stripe
 * charges them by itself, so a switch changes the Stripe subscription's item to the target plan's
 * price (its `stripe_price_id`, checked against the price, or `price_data` on the plan's product,
 * as checkout makes the item: ./stripe-checkout.ts `stripeItemFor`).
 *
 * - Next period (proration off, a trial, or a downgrade): `subscriptions.update` with
 *   `proration_behavior: none`: nothing is charged now, Stripe's next invoice charges the new price.
 *   Another billing interval would make Stripe start a new period and charge it at once, so that
 *   switch is refused (planChangeRefusal).
 * - Now, with Stripe's own proration: at the preview, `invoices.createPreview` with the item
 *   change, `proration_behavior: always_invoice` and a `proration_date` (frozen in the switch's
 *   attempt) says what Stripe will charge: the unused time on the old price credited, the rest of
 *   the period on the new one charged, to the second. At the switch, the same preview again
 *   (idempotent on the attempt) must still be that amount; then `subscriptions.update` with the same
 *   `proration_date`, `proration_behavior: always_invoice` and `payment_behavior:
 *   pending_if_incomplete`: Stripe invoices the proration and charges the default card, and
 *   changes the subscription only if that payment succeeds. A declined payment leaves a pending
 *   update; its open invoice is voided (which discards the update, as Stripe does itself when the
 *   update expires) and the switch fails with Stripe's reason. The paid invoice must be the amount
 *   previewed. Every call carries an idempotency key of the attempt, so a repeated switch (a retry
 *   after a crash) gets Stripe's first answers and changes nothing twice.
 */
import "server-only";

import type Stripe from "stripe";

import type { DurationUnit } from "../../generated/prisma/enums";
import {
  PaymentAdapterError,
  type GatewayCredentials,
  type GatewayPlanChange,
  type GatewayPlanChanges,
  type GatewayPlanChangeTiming,
  type GatewayProration,
  type PaymentIntent,
} from "./adapter";
import { stripeItemFor, stripeProductFor } from "./stripe-checkout";
import { stripeIdOf as idOf, stripeCall } from "./stripe-client";

/** What the Stripe adapter lends: its client and its credentials check. */
type StripeSwitchDeps = {
  client: (creds: GatewayCredentials) => Stripe;
  needCredentials: (creds: GatewayCredentials | null) => GatewayCredentials;
};

const INTERVALS: Partial<Record<DurationUnit, string>> = { DAYS: "day", WEEKS: "week", MONTHS: "month", YEARS: "year" };
const atSeconds = (s: number | null | undefined) => (Number.isInteger(s) ? new Date(s! * 1000) : null);

const sameInterval = (a: { length: number; unit: DurationUnit }, b: { length: number; unit: DurationUnit }) =>
  a.length === b.length && a.unit === b.unit;

/** The refusal of a switch that waits for the next charge but changes the billing interval. */
const NEW_INTERVAL_AT_ONCE =
  "Stripe starts a new billing period at once when the billing interval changes, charging the new plan in full now: this switch cannot wait for the period's end on Stripe.";

type SwitchTarget = Awaited<ReturnType<typeof targetOf>>;

/** The Stripe subscription, its one item, and the item the target plan makes. */
async function targetOf(deps: StripeSwitchDeps, stripe: Stripe, change: GatewayPlanChange) {
  const id = change.gatewayReference;
  if (!id?.startsWith("sub_"))
    throw new PaymentAdapterError("This subscription has no Stripe subscription.", "invalid");
  const sub = await stripeCall(() => stripe.subscriptions.retrieve(id));
  if (sub.status !== "active" && sub.status !== "trialing")
    throw new PaymentAdapterError(`Stripe reports this subscription as ${sub.status}: its plan cannot change now.`);
  const current = sub.items.data.length === 1 ? sub.items.data[0]! : null;
  if (!current) throw new PaymentAdapterError("The Stripe subscription does not have exactly one item.", "invalid");
  const intent: PaymentIntent = {
    accountId: change.accountId,
    attemptId: change.attemptId,
    amountCents: change.priceCents,
    periodCents: change.priceCents,
    currency: change.currency,
    recurring: true,
    period: change.period,
    plan: change.plan,
    subscriber: { id: null, name: null, email: null, phone: null },
  };
  const { item } = await stripeItemFor(stripe, intent, () => stripeProductFor(stripe, intent));
  return { sub, current, item: { id: current.id, ...item } };
}

/** Stripe's preview of the switch's proration invoice at `prorationDate`, in the contract's figures. */
async function quote(
  stripe: Stripe,
  target: SwitchTarget,
  change: GatewayPlanChange,
  prorationDate: number,
  idempotencyKey?: string,
): Promise<GatewayProration> {
  const preview = await stripeCall(() =>
    stripe.invoices.createPreview(
      {
        subscription: target.sub.id,
        subscription_details: {
          items: [target.item],
          proration_behavior: "always_invoice",
          proration_date: prorationDate,
        },
      },
      idempotencyKey ? { idempotencyKey } : undefined,
    ),
  );
  if (preview.currency !== change.currency.toLowerCase())
    throw new PaymentAdapterError("Stripe would charge this switch in another currency.", "invalid");
  const lines = preview.lines.data;
  const credit = lines.filter((l) => l.amount < 0).reduce((sum, l) => sum - l.amount, 0);
  const rest = lines.filter((l) => l.amount > 0).reduce((sum, l) => sum + l.amount, 0);
  const recurring = target.current.price.recurring;
  const resetsCycle =
    !recurring ||
    recurring.interval !== INTERVALS[change.period.unit] ||
    recurring.interval_count !== change.period.length;
  // The new period's line when the cycle resets (not a proration); else the period stays.
  const newPeriod = lines.find((l) => l.amount > 0 && !l.parent?.subscription_item_details?.proration);
  const nextChargeAt = resetsCycle ? atSeconds(newPeriod?.period.end) : atSeconds(target.current.current_period_end);
  return {
    prorationDate,
    amountCents: preview.total < 0 ? preview.total : preview.amount_due,
    creditCents: credit,
    restCents: rest,
    resetsCycle,
    nextChargeAt,
  };
}

/** Why a payment Stripe declined was declined: its PaymentIntent's last error, in Stripe's words. */
async function declineReason(stripe: Stripe, invoice: Stripe.Invoice | null): Promise<string> {
  const payment = invoice?.payments?.data.find((p) => p.is_default) ?? invoice?.payments?.data[0];
  const piId = idOf(payment?.payment.payment_intent);
  const pi = piId ? await stripeCall(() => stripe.paymentIntents.retrieve(piId)) : null;
  return pi?.last_payment_error?.message ?? "Stripe could not charge the card.";
}

/** Switch now at the frozen proration date: Stripe invoices the difference and must have been paid exactly it. */
async function changePlanNow(
  stripe: Stripe,
  target: SwitchTarget,
  change: GatewayPlanChange,
  timing: Extract<GatewayPlanChangeTiming, { when: "now" }>,
  key: string,
): ReturnType<NonNullable<GatewayPlanChanges["changePlan"]>> {
  // Stripe's answer at the frozen proration date, again: still what the reader was shown?
  const check = await quote(stripe, target, change, timing.prorationDate, `masthead-switch-check-${change.attemptId}`);
  if (check.amountCents !== timing.expectedCents)
    return {
      status: "failed",
      reason: `Stripe would now charge ${check.amountCents} instead of the ${timing.expectedCents} previewed (the subscription changed at Stripe since). Nothing was charged; preview the switch again.`,
    };
  const updated = await stripeCall(() =>
    stripe.subscriptions.update(
      target.sub.id,
      {
        items: [target.item],
        proration_behavior: "always_invoice",
        proration_date: timing.prorationDate,
        payment_behavior: "pending_if_incomplete",
        expand: ["latest_invoice.payments"],
      },
      { idempotencyKey: key },
    ),
  );
  const invoice = updated.latest_invoice as Stripe.Invoice | null;
  if (updated.pending_update) {
    const reason = await declineReason(stripe, invoice);
    // The update waits for a payment: voided, it is discarded and nothing is charged later.
    const open = invoice?.id ? await stripeCall(() => stripe.invoices.retrieve(invoice.id)) : null;
    if (open?.status === "open")
      await stripeCall(() => stripe.invoices.voidInvoice(open.id, {}, { idempotencyKey: `${key}-void` }));
    return { status: "failed", reason };
  }
  if (
    !invoice?.id ||
    invoice.billing_reason !== "subscription_update" ||
    invoice.status !== "paid" ||
    invoice.amount_paid !== Math.max(0, timing.expectedCents)
  )
    return {
      status: "failed",
      reason: `Stripe's invoice for the switch (${invoice?.id ?? "none"}, ${invoice?.amount_paid ?? 0} paid) is not the ${timing.expectedCents} previewed.`,
    };
  const item = updated.items.data[0];
  return {
    status: "changed",
    charge:
      invoice.amount_paid > 0
        ? {
            externalPaymentId: invoice.id,
            amountCents: invoice.amount_paid,
            details: { stripe_invoice_id: invoice.id, stripe_subscription_id: updated.id, status: updated.status },
          }
        : null,
    nextChargeAt: atSeconds(item?.current_period_end),
  };
}

export function stripePlanChanges(deps: StripeSwitchDeps): GatewayPlanChanges {
  return {
    planChangeTimings: ["next_period", "now"],

    planChangeRefusal(change, when) {
      if (when === "next_period" && !sameInterval(change.fromPeriod, change.period)) return NEW_INTERVAL_AT_ONCE;
      if (change.period.unit === "LIFETIME") return "A Stripe subscription needs the plan's billing period.";
      return null;
    },

    async quotePlanChange(credentials, change, prorationDate) {
      const stripe = deps.client(deps.needCredentials(credentials));
      return quote(stripe, await targetOf(deps, stripe, change), change, prorationDate);
    },

    async changePlan(credentials, change, timing) {
      const stripe = deps.client(deps.needCredentials(credentials));
      const target = await targetOf(deps, stripe, change);
      const key = `masthead-switch-${change.attemptId}`;
      if (timing.when === "next_period") {
        if (!sameInterval(change.fromPeriod, change.period))
          throw new PaymentAdapterError(NEW_INTERVAL_AT_ONCE, "invalid");
        const updated = await stripeCall(() =>
          stripe.subscriptions.update(
            target.sub.id,
            { items: [target.item], proration_behavior: "none" },
            { idempotencyKey: key },
          ),
        );
        return { status: "changed", charge: null, nextChargeAt: atSeconds(updated.items.data[0]?.current_period_end) };
      }
      return changePlanNow(stripe, target, change, timing, key);
    },
  };
}
