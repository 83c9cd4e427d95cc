/**
 * Erasure's billing steps. First of all, the reader's live subscriptions stop at their gateway
 * (server/subscriptions/recurring/gateway-sync.ts tellGateway "cancel_now", each in its own transaction on
 * the locked subscription, as a staff cancel does) and end now: a gateway that refuses or cannot be
 * reached stops the erasure before anything local is removed, with its words (the job retries).
 * Later, invoices, credit notes and payments stay as the tax law needs them, without the e-mail.
 */
import "server-only";

import { systemActor } from "../../auth/actor";
import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { Prisma } from "../../generated/prisma/client";
import { lockSubscription } from "../../subscriptions/payments/recurring-events";
import { GATEWAY_TX_TIMEOUT_MS, tellGateway } from "../../subscriptions/recurring/gateway-sync";
import { markCancelled } from "../../subscriptions/subscribers/subscriptions";
import { needsGatewayStop } from "./rules";
import { PAYMENT_LOGS, scrubTables } from "./scrub";
import type { ErasureSubject } from "./subject";

/** Stop each live subscription of the reader at its gateway, then end it now. Idempotent per subscription. */
export async function stopSubscriptions(db: Db, s: ErasureSubject): Promise<void> {
  const subs = await db.subscription.findMany({
    where: { accountId: s.accountId, memberId: s.memberId },
    select: { id: true, status: true, gatewayState: true },
    orderBy: { id: "asc" },
  });
  for (const candidate of subs) {
    if (!needsGatewayStop(candidate)) continue;
    await withTransaction(
      db,
      async (tx) => {
        const row = await lockSubscription(tx, candidate.id);
        if (!needsGatewayStop(row)) return; // another run stopped it meanwhile
        // Refused or unreachable: throws (422, 503), this transaction rolls back, the erasure stops.
        await tellGateway(tx, row, "cancel_now", { now: s.now });
        const fresh = await tx.subscription.findUniqueOrThrow({ where: { id: row.id } });
        if (fresh.status === "CANCELLED") {
          await tx.subscription.update({
            where: { id: row.id },
            data: { endTimestamp: s.now, nextPaymentDueDate: null },
          });
        } else {
          await markCancelled(tx, fresh, {
            actor: systemActor(s.accountId, "erasure"),
            via: "erasure",
            endsNow: true,
            now: s.now,
          });
        }
      },
      { timeout: GATEWAY_TX_TIMEOUT_MS },
    );
  }
}

/**
 * Kept for the tax law: invoices (number, amounts, tax lines, dates, plan, the seller, the billing
 * name as issued), credit notes and payments (amounts, gateway ids). Gone: the e-mail on invoices,
 * the reader's words (a cancellation's comment, a gift's message), subscription metadata and the
 * identity it was bought at, the reader's group memberships, gateway customer links, subscriber
 * profile (address, phone), the gifter link of gifts they paid for; logs that name them are scrubbed.
 */
export async function stripBilling(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  const mine = { accountId: s.accountId, memberId: s.memberId };
  await tx.invoice.updateMany({ where: mine, data: { subscriberEmail: null } });
  await tx.subscriptionCancellation.updateMany({ where: mine, data: { comment: null } });
  await tx.subscription.updateMany({
    where: mine,
    data: { preferredIdentity: Prisma.DbNull, customMessage: null, metadata: {}, notes: null, referrer: null },
  });
  await tx.subscription.updateMany({
    where: { accountId: s.accountId, gifterMemberId: s.memberId },
    data: { gifterMemberId: null },
  });
  await tx.subscriptionMember.deleteMany({ where: { memberId: s.memberId } });
  await tx.memberGatewayCustomer.deleteMany({ where: mine });
  await tx.subscriberProfile.deleteMany({ where: { memberId: s.memberId } });
  await scrubTables(tx, PAYMENT_LOGS, s.accountId, s.needles);
}
