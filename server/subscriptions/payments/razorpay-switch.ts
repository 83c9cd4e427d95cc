/**
 * Plan switches of `razorpay_recurring` subscriptions (docs/subscriptions.md "Plan switching"):
 * Razorpay charges them by itself, each cycle its plan's amount, so a switch moves the Razorpay
 * subscription to the target plan's Razorpay plan (the plan's metadata `razorpay_plan_id`):
 * `PATCH /v1/subscriptions/:id {plan_id, schedule_change_at: "cycle_end"}`
 * (https://razorpay.com/docs/api/payments/subscriptions/update-subscription/): from the next
 * cycle on, Razorpay charges the new plan. A change scheduled before (a switch replaced) is
 * cancelled first (`POST /v1/subscriptions/:id/cancel_scheduled_changes`), so one stays.
 *
 * Only that timing: Razorpay's immediate update ("now") charges or refunds by its own proration
 * and only for some payment methods, which is not Masthead's prorated switch; such a switch is
 * refused (422). Razorpay updates only `authenticated` and `active` subscriptions; a change
 * Razorpay schedules for another time than the end of Masthead's period (more than a day apart)
 * is cancelled again and refused rather than left to charge at another time than shown.
 */
import "server-only";

import { PaymentAdapterError, type GatewayPlanChanges } from "./adapter";
import type { RazorpayApi } from "./razorpay-api";
import { int, str, type Entity } from "./razorpay-events";

/** Razorpay's documented states in which a subscription can be updated. */
const UPDATABLE = new Set(["authenticated", "active"]);
/** How far Razorpay's change date may be from the end of Masthead's period. */
const SCHEDULE_TOLERANCE_MS = 24 * 60 * 60_000;

const IMMEDIATE_REFUSAL =
  "Razorpay changes a subscription's plan at once only with its own charge or refund, not Masthead's prorated switch: Razorpay subscriptions switch at the end of the period.";

const planIdOf = (metadata: Record<string, unknown> | null) => str(metadata?.razorpay_plan_id);

export function razorpayPlanChanges(deps: RazorpayApi): GatewayPlanChanges {
  const { call, errorDescription } = deps;
  const refused = (status: number, data: Entity) =>
    new PaymentAdapterError(errorDescription(data), status >= 500 ? "unavailable" : "declined");

  return {
    planChangeTimings: ["next_period"],

    planChangeRefusal(change, when) {
      if (when === "now") return IMMEDIATE_REFUSAL;
      if (!planIdOf(change.plan.metadata))
        return "This plan has no Razorpay plan: set razorpay_plan_id in the plan's metadata.";
      return null;
    },

    async changePlan(credentials, change, timing) {
      const creds = deps.needCredentials(credentials);
      if (timing.when !== "next_period") throw new PaymentAdapterError(IMMEDIATE_REFUSAL, "invalid");
      const planId = planIdOf(change.plan.metadata);
      if (!planId) throw new PaymentAdapterError("This plan has no Razorpay plan (razorpay_plan_id).", "invalid");
      const id = change.gatewayReference;
      if (!id || !/^sub_[A-Za-z0-9]+$/.test(id))
        throw new PaymentAdapterError("This subscription has no Razorpay subscription.", "invalid");
      const path = `/v1/subscriptions/${encodeURIComponent(id)}`;
      const current = await call(creds, "GET", path);
      if (current.status >= 400) throw refused(current.status, current.data);
      const state = str(current.data.status) ?? "unknown";
      if (!UPDATABLE.has(state))
        throw new PaymentAdapterError(`Razorpay reports this subscription as ${state}: its plan cannot change now.`);
      if (current.data.has_scheduled_changes === true) {
        const cancelled = await call(creds, "POST", `${path}/cancel_scheduled_changes`);
        if (cancelled.status >= 400) throw refused(cancelled.status, cancelled.data);
      }
      const updated = await call(creds, "PATCH", path, { plan_id: planId, schedule_change_at: "cycle_end" });
      if (updated.status >= 400) throw refused(updated.status, updated.data);
      const at = int(updated.data.change_scheduled_at) ?? int(updated.data.current_end);
      const atDate = at === null ? null : new Date(at * 1000);
      if (
        change.periodEnd &&
        (!atDate || Math.abs(atDate.getTime() - change.periodEnd.getTime()) > SCHEDULE_TOLERANCE_MS)
      ) {
        await call(creds, "POST", `${path}/cancel_scheduled_changes`);
        throw new PaymentAdapterError(
          `Razorpay would change the plan on ${atDate?.toISOString() ?? "an unknown date"}, not at the end of this period (${change.periodEnd.toISOString()}).`,
        );
      }
      return { status: "changed", charge: null, nextChargeAt: atDate };
    },
  };
}
