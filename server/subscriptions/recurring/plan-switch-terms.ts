/**
 * What a recurring subscription's plan switch freezes at its preview beside the common terms
 * (plan-switch.ts SwitchTerms), and how its payment adapter takes it: plan-switch-recurring.ts
 * decides and applies the switch, plan-switch-gateway.ts makes it on a gateway that charges by itself.
 */
import type { PaymentAdapter } from "../payments/adapter";
import { chargesOnRequest } from "../payments/billing-source";

/** Why a recurring switch waits for the next charge instead of applying now. */
export type ScheduledReason = "proration_off" | "gateway_charges" | "gateway_credit" | "not_charged" | "trial";

/** What a recurring switch's preview freezes beside the common terms (plan-switch.ts SwitchTerms). */
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
