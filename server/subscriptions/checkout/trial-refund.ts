/**
 * The refund of a trial's authorization (interface-spec §4.2 rule 6; docs/subscriptions.md
 * "Trials"): checkout charges the 5-currency-unit authorization when a subscription starts with a
 * trial, and enqueues this job in the same transaction. The job refunds it through refundPayment
 * (../invoices/refunds.ts), the one refund path, staff's too: the amount is reserved on the payment, the
 * payment's adapter asked, and the refund, the payment's REFUNDED status and an audit entry (by the
 * system) written. It is an external job (the gateway call cannot be rolled back), keyed per
 * payment so it is queued once; a run after the payment was refunded changes nothing.
 */
import "server-only";

import { z } from "zod";

import { systemActor } from "../../auth/actor";
import { AppError } from "../../errors";
import { defineJob } from "../../jobs/define";
import { log } from "../../log";
import { refundPayment } from "../invoices/refunds";

export const trialRefundKey = (paymentId: number) => `payment.trial_refund:${paymentId}`;

const TRIAL_REFUND_REASON = "trial authorization";

export const trialRefundJob = defineJob<{ paymentId: number }, null>({
  name: "payment.trial_refund",
  kind: "external",
  payload: z.object({ paymentId: z.number().int().positive() }),
  maxAttempts: 8,
  async perform(db, jobs) {
    const performed = [];
    for (const job of jobs) {
      const payment = await db.payment.findUnique({
        where: { id: job.payload.paymentId },
        select: { id: true, accountId: true, status: true },
      });
      // Gone, or refunded already (a run after a crash, or staff were quicker): nothing to do.
      if (!payment || payment.status !== "CAPTURED") {
        performed.push({ job, result: { status: "done" as const }, data: null });
        continue;
      }
      try {
        await refundPayment(db, {
          actor: systemActor(payment.accountId, "trial"),
          input: { paymentId: payment.id, reason: TRIAL_REFUND_REASON },
        });
        performed.push({ job, result: { status: "done" as const }, data: null });
      } catch (error) {
        // The payment cannot be refunded here (its adapter has no refund, nothing is left): a
        // retry would not change that, so the job ends, and says why in the log.
        if (error instanceof AppError && (error.code === "UNPROCESSABLE" || error.code === "CONFLICT")) {
          log.warn("trial authorization not refunded", { payment: payment.id, reason: error.message });
          performed.push({ job, result: { status: "done" as const }, data: null });
          continue;
        }
        const message = error instanceof Error ? error.message : String(error);
        log.warn("trial authorization refund failed; retried", { payment: payment.id, error: message });
        performed.push({ job, result: { status: "error" as const, error: message } });
      }
    }
    return performed;
  },
  // refundPayment wrote everything in its own transactions.
  async record() {},
});
