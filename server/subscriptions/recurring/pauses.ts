/**
 * Which subscriptions are paused now, and until when: the one source every view reads (the
 * dashboard's lists and detail, the reader's self-service page). A pause (the retention offer's,
 * outcome "offer_accepted", or staff's, outcome "paused"; ../self-service/retention-offers.ts, staff-pause.ts) is
 * kept on the subscription's latest cancellation row that was not undone; it is open until the job
 * wakes the subscription (`resumed_at`). Meanwhile the subscription is stored `cancelled` (then
 * `expired` once its paid period is over): ../subscribers/subscription-status.schema.ts words it "Paused".
 */
import "server-only";

import type { Db } from "../../db/client";
import type { AppliedOffer } from "../self-service/retention-offers";

const PAUSABLE_OUTCOMES = ["offer_accepted", "paused"];

/** The subscriptions among `subscriptions` that are paused, with when each resumes (ISO). */
export async function pausedUntilOf(
  db: Db,
  subscriptions: readonly { id: number; status: string }[],
): Promise<Map<number, string>> {
  const held = subscriptions.filter(
    (s) => s.status.toLowerCase() === "cancelled" || s.status.toLowerCase() === "expired",
  );
  if (held.length === 0) return new Map();
  const rows = await db.subscriptionCancellation.findMany({
    where: { subscriptionId: { in: held.map((s) => s.id) }, undoneAt: null },
    orderBy: { id: "desc" },
    select: { subscriptionId: true, outcome: true, offer: true },
  });
  return openPauses(rows);
}

/**
 * The ids of the account's subscriptions that are paused now (for the dashboard's status filter:
 * `paused`, and `cancelled`/`expired` without them).
 */
export async function pausedSubscriptionIds(db: Db, accountId: number): Promise<number[]> {
  const rows = await db.subscriptionCancellation.findMany({
    where: {
      accountId,
      undoneAt: null,
      subscription: { deletedAt: null, status: { in: ["CANCELLED", "EXPIRED"] } },
    },
    orderBy: { id: "desc" },
    select: { subscriptionId: true, outcome: true, offer: true },
  });
  return [...openPauses(rows).keys()];
}

/** Of cancellation rows newest first, the subscriptions whose latest row holds an open pause. */
function openPauses(rows: readonly { subscriptionId: number; outcome: string; offer: unknown }[]) {
  const paused = new Map<number, string>();
  const latest = new Map<number, (typeof rows)[number]>();
  for (const row of rows) if (!latest.has(row.subscriptionId)) latest.set(row.subscriptionId, row);
  for (const [subscriptionId, row] of latest) {
    const offer = row.offer as AppliedOffer | null;
    if (PAUSABLE_OUTCOMES.includes(row.outcome) && offer?.kind === "pause" && !offer.resumed_at)
      paused.set(subscriptionId, offer.until);
  }
  return paused;
}
