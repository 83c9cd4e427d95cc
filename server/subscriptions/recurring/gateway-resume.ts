/**
 * "subscription.gateway_resume": a pause ended (../self-service/retention-offers.ts endRetentionOffer woke the
 * subscription) and the gateway that charges it by itself must collect again. Stripe was told
 * when to (`pause_collection.resumes_at`) and is found already collecting; Razorpay pauses until
 * told, so it is told now (`resumeCollection`). Outside work: done at least once (the adapter
 * finds an already resumed subscription done), retried while the gateway cannot be reached; the
 * gateway state is recorded "active" once it answered. Refused for good: the audit row
 * `subscription.gateway_resume_failed` says why (the renewal then never comes, and the lifecycle's
 * grace period asks the reader to pay).
 */
import "server-only";

import { z } from "zod";

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import { defineJob } from "../../jobs/define";
import { log } from "../../log";
import { PaymentAdapterError } from "../payments/adapter";
import { gatewayCredentialsFor } from "../payments/credentials";
import { gatewayChargedBy, recordGatewayState } from "./gateway-sync";

type Resumed = { subscriptionId: number; at: string } | null;

export const gatewayResumeJob = defineJob<{ subscriptionId: number }, Resumed>({
  name: "subscription.gateway_resume",
  kind: "external",
  payload: z.object({ subscriptionId: z.number().int().positive() }),
  maxAttempts: 8,
  async perform(db, jobs, ctx) {
    const performed = [];
    for (const job of jobs) {
      const sub = await db.subscription.findUnique({ where: { id: job.payload.subscriptionId } });
      // Woken and not ended by the gateway meanwhile: anything else has nothing to resume.
      const charged =
        sub && sub.status === "ACTIVE" && sub.gatewayState === "paused" ? await gatewayChargedBy(db, sub) : null;
      if (!sub || !charged) {
        performed.push({ job, result: { status: "done" as const }, data: null });
        continue;
      }
      const creds = charged.adapter.provider
        ? await gatewayCredentialsFor(db, sub.accountId, charged.adapter.provider, { includeDisabled: true })
        : null;
      try {
        await charged.controls.resumeCollection(creds, {
          accountId: sub.accountId,
          subscriptionId: sub.id,
          gatewayReference: charged.reference,
          idempotencyKey: `masthead-resume-${sub.id}-${sub.updatedAt.getTime()}`,
        });
        performed.push({
          job,
          result: { status: "done" as const },
          data: { subscriptionId: sub.id, at: ctx.clock().toISOString() },
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.warn("gateway resume failed", { subscription: sub.id, error: message });
        const permanent = error instanceof PaymentAdapterError && error.kind !== "unavailable";
        performed.push({ job, result: { status: "error" as const, error: message, permanent } });
      }
    }
    return performed;
  },
  async record(tx, performed) {
    for (const p of performed)
      if (p.data) await recordGatewayState(tx, p.data.subscriptionId, "active", new Date(p.data.at));
  },
  async onFailed(tx, job, error, ctx) {
    const sub = await tx.subscription.findUnique({ where: { id: job.payload.subscriptionId } });
    if (!sub) return;
    await recordAudit(tx, {
      actor: systemActor(sub.accountId, "payment_gateway"),
      action: "subscription.gateway_resume_failed",
      targetType: "subscription",
      targetId: sub.id,
      metadata: { payment_type: sub.paymentType, error: error.slice(0, 500) },
      now: ctx.clock(),
    });
  },
});
