/**
 * What the subscription lifecycle (./lifecycle.ts) does next, and when: a pure function
 * of a subscription's stored state and the time, so the job that runs a step, the sweep that
 * finds forgotten ones and the tests all agree. docs/subscriptions.md "Lifecycle".
 */
import type { SubscriptionStatus } from "../../generated/prisma/enums";

export const DAY_MS = 86_400_000;
/** How many days before the next payment (recurring) or the end (one-time) the reminder e-mail goes. */
export const RENEWAL_REMINDER_DAYS = 7;

export type LifecycleState = {
  status: SubscriptionStatus;
  deletedAt: Date | null;
  recurring: boolean;
  endTimestamp: Date | null;
  cancelledAt: Date | null;
  nextPaymentDueDate: Date | null;
  graceEndsAt: Date | null;
  /** In grace after a failed charge: when the charge is retried next (dunning.ts); null: no retry left. */
  chargeRetryAt: Date | null;
  /** Awaiting the word of a gateway that charges periods itself, until then (the "await_gateway" step). */
  gatewayWordDueAt: Date | null;
  renewalReminderSentAt: Date | null;
};

type LifecycleStepKind =
  /** Send the renewal reminder of this period (once: renewal_reminder_sent_date). */
  | "remind"
  /** Charge the period due at next_payment_due_date through the adapter (first charge at trial end). */
  | "charge"
  /** The paid period ended without a payment: the grace period starts (recurring, not cancelled). */
  | "enter_grace"
  /**
   * The paid period ended and its gateway charges periods itself (it reports the renewal a while
   * after the end): the reader keeps reading, told nothing, until the gateway's word is due; no word
   * by then, the grace period starts (enter_grace at gateway_word_due_at).
   */
  | "await_gateway"
  /** In grace after a failed charge: charge the unpaid period again (the plan's retry schedule). */
  | "retry_charge"
  /** The end (or the grace period's end) passed: status expired. */
  | "expire";

export type LifecycleStep = { kind: LifecycleStepKind; at: Date };

/** Step order when two are due at the same instant: a reminder, then the charge, then the end. */
const ORDER: Record<LifecycleStepKind, number> = {
  remind: 0,
  charge: 1,
  retry_charge: 1,
  await_gateway: 2,
  enter_grace: 2,
  expire: 3,
};

/** What the end of a paid period brings: the grace period, the gateway's word first, or the end. */
function endStep(renews: boolean, opts: { chargeable: boolean; gatewayWordWithinMs?: number }): LifecycleStepKind {
  if (!renews) return "expire";
  return !opts.chargeable && (opts.gatewayWordWithinMs ?? 0) > 0 ? "await_gateway" : "enter_grace";
}

/** When the reminder of the current period is due: before the next payment (recurring) or the end. */
function reminderTarget(s: LifecycleState): Date | null {
  return s.recurring ? (s.nextPaymentDueDate ?? s.endTimestamp) : s.endTimestamp;
}

/**
 * The subscription's next lifecycle step (due now or later), or null when nothing is ever due
 * again (expired, failed, pending its payment, deleted, or no end). `chargeable`: its adapter
 * charges periods itself (chargeRecurring); otherwise the gateway's webhook (or nobody) pays them.
 * `billedElsewhere` (../payments/billing-source.ts): a system Masthead cannot charge or hear from takes its payments (an imported
 * subscription): no reminder, no charge, no grace period or dunning; it ends, quietly, at its end.
 * `gatewayWordWithinMs`: the subscription's gateway charges periods itself and reports a renewal
 * within this long after the period's end (../payments/adapter.ts renewalReportedWithinMs).
 */
export function nextLifecycleStep(
  s: LifecycleState,
  now: Date,
  opts: { chargeable: boolean; billedElsewhere?: boolean; gatewayWordWithinMs?: number },
): LifecycleStep | null {
  if (s.deletedAt || (s.status !== "ACTIVE" && s.status !== "CANCELLED")) return null;
  if (opts.billedElsewhere) {
    const end = s.graceEndsAt !== null && s.status === "ACTIVE" ? s.graceEndsAt : s.endTimestamp;
    return end ? { kind: "expire", at: end } : null;
  }
  const live = s.status === "ACTIVE" && s.cancelledAt === null;
  const steps: LifecycleStep[] = [];
  if (s.gatewayWordDueAt !== null && s.status === "ACTIVE") {
    // Awaiting the gateway's word on the ended period: the grace period starts if none came.
    return live ? { kind: "enter_grace", at: s.gatewayWordDueAt } : { kind: "expire", at: s.gatewayWordDueAt };
  }
  if (s.graceEndsAt !== null && s.status === "ACTIVE") {
    steps.push({ kind: "expire", at: s.graceEndsAt });
    // A retry due before the grace period's end (a retry at the very end would come too late).
    if (live && s.recurring && opts.chargeable && s.chargeRetryAt && s.chargeRetryAt < s.graceEndsAt)
      steps.push({ kind: "retry_charge", at: s.chargeRetryAt });
  } else {
    if (s.recurring && live && opts.chargeable && s.nextPaymentDueDate)
      steps.push({ kind: "charge", at: s.nextPaymentDueDate });
    if (s.endTimestamp) steps.push({ kind: endStep(s.recurring && live, opts), at: s.endTimestamp });
    const target = reminderTarget(s);
    if (live && target && now.getTime() < target.getTime()) {
      const at = new Date(target.getTime() - RENEWAL_REMINDER_DAYS * DAY_MS);
      const sent = s.renewalReminderSentAt !== null && s.renewalReminderSentAt.getTime() >= at.getTime();
      if (!sent) steps.push({ kind: "remind", at });
    }
  }
  steps.sort((a, b) => a.at.getTime() - b.at.getTime() || ORDER[a.kind] - ORDER[b.kind]);
  return steps[0] ?? null;
}
