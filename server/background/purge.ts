/**
 * "maintenance.purge", hourly: delete what has outlived its use. Webhook events with their
 * deliveries and attempts, and ended jobs, after WEBHOOK_RETENTION_DAYS; dashboard sessions and
 * OAuth access tokens once they have expired (OAuth codes once their tokens have); used captchas
 * once their challenges have expired. In one transaction: a purge killed half-way deletes nothing,
 * and the next run starts over. It reaches into several areas, so it sits with the job list above them.
 */
import { purgeExpiredAdminSessions } from "../auth/admin-sessions";
import { purgeUsedCaptchas } from "../engagement/captcha";
import { defineSweepJob } from "../jobs/define";
import { purgeExpiredOAuthGrants } from "../oauth/provider";
import { purgeWebhookLogs } from "../webhooks/deliveries";

export const PURGE_EVERY_MS = 3600_000;

export const purgeJob = defineSweepJob({
  name: "maintenance.purge",
  everyMs: PURGE_EVERY_MS,
  async run(tx, _job, ctx) {
    const now = ctx.clock();
    const retentionDays = ctx.webhookRetentionDays;
    await purgeWebhookLogs(tx, { now, retentionDays });
    const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
    await tx.job.deleteMany({ where: { status: { not: "PENDING" }, completedAt: { lt: cutoff } } });
    await purgeExpiredAdminSessions(tx, { now });
    await purgeUsedCaptchas(tx, { now });
    await purgeExpiredOAuthGrants(tx, { now });
  },
});
