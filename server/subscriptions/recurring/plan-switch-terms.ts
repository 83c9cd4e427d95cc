/**
 * What a plan switch's preview freezes (SwitchTerms; a recurring subscription's part beside it),
 * what the preview (plan-switch.ts) and the switch (plan-switch-apply.ts) both check, and how a
 * payment adapter takes a recurring switch: plan-switch-recurring.ts decides and applies it,
 * plan-switch-gateway.ts makes it on a gateway that charges by itself.
 */
import { AppError } from "../../errors";
import type { PaymentAdapter } from "../payments/adapter";
import { chargesOnRequest } from "../payments/billing-source";
import type { SwitchType } from "./plan-switch-proration";

/** Why a recurring switch waits for the next charge instead of applying now. */
export type ScheduledReason = "proration_off" | "gateway_charges" | "gateway_credit" | "not_charged" | "trial";

/** What a recurring switch's preview freezes beside the common terms (SwitchTerms). */
export type RecurringSwitchTerms =
  | {
      mode: "scheduled";
      apply_at: string | null;
      reason: ScheduledReason;
      /** The gateway charges by itself: its subscription is moved to the new plan from the next cycle at the confirm. */
      gateway?: "next_period";
    }
  | {
      mode: "now";
      /** Charged through the gateway's own proration, computed at this instant (Unix seconds). */
      gateway?: { proration_date: number };
      /** The end of the period the credit was computed on (the next charge date at the preview). */
      period_end: string;
      credit_cents: number;
      /** The new plan's price for the rest of the period (the full price when the cycle resets). */
      rest_cents: number;
      charge_cents: number;
      /** Added to the subscription's credit balance (a downgrade). */
      carry_cents: number;
      /** The cycle resets (another billing interval): a new period starts at the switch. */
      resets_cycle: boolean;
      /** When the next renewal charge falls (the period end, or the new period's end). */
      next_charge_at: string;
    };

/** Whether the adapter's gateway charges by itself and prorates a plan change now itself (Stripe). */
export const gatewayProrates = (adapter: PaymentAdapter | null): boolean =>
  !chargesOnRequest(adapter) &&
  adapter?.planChangeTimings?.includes("now") === true &&
  adapter.quotePlanChange !== undefined &&
  adapter.changePlan !== undefined;

export const unprocessable = (field: string, issue: string, message?: string) =>
  new AppError("UNPROCESSABLE", message ?? `${field} ${issue}.`, { details: [{ field, issue }] });

/** What a switch preview freezes (subscription_attempts.terms). */
export type SwitchTerms = {
  v: 2;
  kind: "plan_switch";
  member_id: number;
  subscription_id: number;
  from_plan_id: number;
  to_plan_id: number;
  switch_type: SwitchType;
  mode: "now" | "scheduled";
  apply_at: string | null;
  currency: string;
  price_cents: number;
  credit_cents: number;
  /** What the reader pays at the switch; null for a scheduled recurring switch (the next charge pays). */
  charge_cents: number | null;
  payment_type: string;
  /** A recurring subscription's switch: applied now (prorated) or scheduled, and why. */
  recurring?: RecurringSwitchTerms;
};

/** The body field that carries the attempt token. */
export const TOKEN_FIELD = "attempt_token";

/** Whether the subscription may switch now (422 naming why not). */
export function assertSwitchable(
  sub: {
    status: string;
    planId: number | null;
    subscriptionType: string;
    endTimestamp: Date | null;
    startTimestamp: Date;
  },
  now: Date,
) {
  if (sub.planId === null || sub.subscriptionType === "DYNAMIC_ASSET" || sub.subscriptionType === "CAMPAIGN")
    throw unprocessable("subscription", "has no plans to switch to", "Only plan subscriptions switch plans.");
  if (sub.status !== "ACTIVE" || (sub.endTimestamp !== null && sub.endTimestamp <= now))
    throw unprocessable(
      "subscription",
      "is not active",
      "Only an active subscription switches plans (a cancelled, pending or ended one does not).",
    );
}
