/**
 * Bounce and complaint reports from the mail provider (`POST /api/v1/newsletters/bounces`, with the
 * account's server key): each address is suppressed (./suppression.ts: its subscriptions end, with
 * source "bounce" or "complaint"), and the latest newsletter delivery to it, when there is one, is
 * marked BOUNCED with `bouncedAt` (kept at the first report's time). Idempotent: a report sent
 * twice changes nothing more.
 */
import "server-only";

import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import type { TBounceReportInput } from "./subscriptions.schema";
import { suppress } from "./suppression";

type BounceReportResult = {
  /** Reports taken (one per address: a repeated address counts once, the strongest type wins). */
  addresses: number;
  unsubscribed: number;
  deliveriesMarked: number;
};

export async function recordBounceReports(
  db: Db,
  args: { accountId: number; input: TBounceReportInput; now: Date },
): Promise<BounceReportResult> {
  const byEmail = new Map<string, TBounceReportInput["bounces"][number]>();
  for (const report of args.input.bounces) {
    const seen = byEmail.get(report.email);
    if (!seen || (seen.type === "bounce" && report.type === "complaint")) byEmail.set(report.email, report);
  }
  let unsubscribed = 0;
  let deliveriesMarked = 0;
  for (const report of byEmail.values()) {
    await withTransaction(db, async (tx) => {
      const done = await suppress(tx, {
        accountId: args.accountId,
        email: report.email,
        reason: report.type,
        detail: report.detail ?? null,
        now: args.now,
      });
      unsubscribed += done.unsubscribed;
      const latest = await tx.newsletterDelivery.findFirst({
        where: { accountId: args.accountId, email: report.email },
        orderBy: { id: "desc" },
        select: { id: true, bouncedAt: true },
      });
      if (latest && !latest.bouncedAt) {
        await tx.newsletterDelivery.update({
          where: { id: latest.id },
          data: { status: "BOUNCED", bouncedAt: args.now },
        });
        deliveriesMarked += 1;
      }
    });
  }
  return { addresses: byEmail.size, unsubscribed, deliveriesMarked };
}
