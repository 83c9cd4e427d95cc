/**
 * TEST TOOL of the demo paywall (docs/subscriptions.md "Dunning"): make the signed-in demo
 * reader's renewing demo_test subscription fail its renewal now, so the grace period, the "update
 * your card" e-mail and the paywall's banner can be seen without waiting a month. Its card becomes
 * the expired test card (DEMO_EXPIRED_CARD_TOKEN: the demo_test gateway declines its charges), its
 * period ends now, and the lifecycle runs the charge at once, as it would at a real renewal: the
 * charge is declined and the subscription enters its plan's grace period with its retries. A new
 * card (the self-service page's payment method) makes the next retry succeed.
 * A Stripe subscription (stripe_recurring, the demo paywall's card form) has its period end now
 * instead: Stripe charges it, so the lifecycle waits for Stripe's word (await_gateway) and the
 * reader keeps reading; Stripe's failure (invoice.payment_failed, the fake Stripe's renew control
 * in the browser tests) then starts the grace period.
 * Only for the demo publisher's account and only while DEMO_TOOLS is on; anywhere else a 404.
 */
import "server-only";

import { getEnv } from "../../env.js";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { DEMO_EXPIRED_CARD_TOKEN, DEMO_TEST_PAYMENT_TYPE } from "../subscriptions/payments/demo-test-gateway";
import { advanceSubscription } from "../subscriptions/recurring/lifecycle";
import { loadSubscriptionWire, notFoundSubscription } from "../subscriptions/subscribers/subscription-view";

const STRIPE_RECURRING = "stripe_recurring";

export async function failDemoRenewal(
  db: Db,
  args: {
    account: { id: number; slug: string };
    memberId: number | null;
    now: Date;
    appUrl: string;
    demoTools?: boolean;
  },
) {
  const enabled = args.demoTools ?? getEnv().DEMO_TOOLS;
  if (!enabled || args.account.slug !== "demo") throw new AppError("NOT_FOUND", "There is no endpoint at this path.");
  const accountId = args.account.id;
  const { now } = args;
  const id = await withTransaction(db, async (tx) => {
    const sub = args.memberId
      ? await tx.subscription.findFirst({
          where: {
            accountId,
            memberId: args.memberId,
            status: "ACTIVE",
            cancelledAt: null,
            recurring: true,
            paymentType: { in: [DEMO_TEST_PAYMENT_TYPE, STRIPE_RECURRING] },
            graceEndsAt: null,
            deletedAt: null,
            startTimestamp: { lte: now },
          },
          orderBy: { id: "desc" },
        })
      : null;
    if (!sub) {
      throw new AppError("UNPROCESSABLE", "The reader has no renewing demo_test or Stripe subscription to fail.", {
        details: [
          { field: "accesstype_jwt", issue: "names a reader without a renewing demo_test or Stripe subscription" },
        ],
      });
    }
    await tx.subscription.update({
      where: { id: sub.id },
      data: {
        // Stripe declines its own charge; the demo gateway declines the expired test card.
        ...(sub.paymentType === DEMO_TEST_PAYMENT_TYPE ? { paymentToken: DEMO_EXPIRED_CARD_TOKEN } : {}),
        endTimestamp: now,
        nextPaymentDueDate: now,
        ...(sub.trialEndsAt && sub.trialEndsAt > now ? { trialEndsAt: now } : {}),
      },
    });
    await advanceSubscription(tx, { subscriptionId: sub.id, now, appUrl: args.appUrl });
    return sub.id;
  });
  const wire = await loadSubscriptionWire(db, { accountId, id, now });
  if (!wire) throw notFoundSubscription();
  return wire;
}
