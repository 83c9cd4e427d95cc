/**
 * The self-service page's way to change the card of a subscription whose gateway hosts that page
 * itself (docs/subscriptions.md "Self-service page", Payment method): Razorpay takes a new card on
 * its hosted subscription page, so the page links there (`hostedPaymentMethodUpdate`), and the
 * gateway's webhook later reports the new card (../payments/recurring-events.ts
 * settlePaymentMethodUpdate). Gateways whose adapter checks a new method itself
 * (`updatePaymentMethod`) take it on the page's own form (./self-service.ts).
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import type { Subscription } from "../../generated/prisma/client";
import { PaymentAdapterError, type PaymentAdapter } from "../payments/adapter";
import { gatewaySubscriptionOf } from "../payments/billing-source";
import { credentialsFor } from "../payments/credentials";
import { paymentAdapterFor } from "../payments/registry";
import { notFoundSubscription } from "../subscribers/subscription-view";

/** How the page lets the reader change the payment method: its own form, the gateway's page, or not at all. */
type PaymentMethodUpdateWay = { kind: "form" } | { kind: "hosted"; provider_name: string; href: string } | null;

const hostedPaymentMethodHref = (subscriptionId: number) =>
  `/api/member/subscriptions/${subscriptionId}/payment-method/hosted`;

/**
 * The gateway's own page first where it has one (Razorpay's subscription page, Stripe's Customer
 * Portal): the page's form takes only what a gateway without a page of its own checks itself; a
 * card never passes through Masthead's page for a gateway that hosts its own.
 */
export function paymentMethodUpdateWay(adapter: PaymentAdapter | null, subscriptionId: number): PaymentMethodUpdateWay {
  if (adapter?.hostedPaymentMethodUpdate)
    return {
      kind: "hosted",
      provider_name: adapter.displayName ?? adapter.provider ?? "your payment provider",
      href: hostedPaymentMethodHref(subscriptionId),
    };
  if (adapter?.updatePaymentMethod) return { kind: "form" };
  return null;
}

const refuse = (issue: string, message: string) =>
  new AppError("UNPROCESSABLE", message, { details: [{ field: "subscription", issue }] });

/**
 * The adapter that changes the payment method of `sub` the given way (the page's form or the
 * gateway's hosted page). 422 (field "subscription") when the subscription is not recurring, has
 * ended (expired, failed, or past its end with no grace period), or its gateway has no such way.
 */
export function paymentMethodChanger<Way extends "updatePaymentMethod" | "hostedPaymentMethodUpdate">(
  sub: Pick<Subscription, "recurring" | "status" | "endTimestamp" | "graceEndsAt" | "paymentType">,
  now: Date,
  way: Way,
): PaymentAdapter & Required<Pick<PaymentAdapter, Way>> {
  if (!sub.recurring) throw refuse("is not recurring", "Only a recurring subscription keeps a payment method.");
  if (
    sub.status === "EXPIRED" ||
    sub.status === "FAILED" ||
    (sub.endTimestamp && sub.endTimestamp <= now && !sub.graceEndsAt)
  )
    throw refuse("has ended", "This subscription has ended.");
  const adapter = paymentAdapterFor(sub.paymentType);
  if (!adapter?.[way])
    throw refuse(
      `is paid with ${sub.paymentType}`,
      "The payment method of this subscription cannot be changed here; contact the publication.",
    );
  return adapter as PaymentAdapter & Required<Pick<PaymentAdapter, Way>>;
}

/**
 * Where the reader changes the card of a recurring subscription on its gateway's hosted page
 * → {url}. 422 when the subscription is not recurring, has ended, or its gateway has no such
 * page (manual, sponsored; the adapter's reason otherwise); 503 when the gateway cannot be reached.
 */
export async function hostedPaymentMethodLink(
  db: Db,
  args: { accountId: number; memberId: number; subscriptionId: number; now: Date },
): Promise<{ url: string }> {
  const sub = await db.subscription.findFirst({
    where: { id: args.subscriptionId, accountId: args.accountId, memberId: args.memberId, deletedAt: null },
    include: { attempt: { select: { externalReferenceId: true } } },
  });
  if (!sub) throw notFoundSubscription();
  const adapter = paymentMethodChanger(sub, args.now, "hostedPaymentMethodUpdate");
  const creds = await credentialsFor(db, args.accountId, adapter);
  try {
    return await adapter.hostedPaymentMethodUpdate(creds, {
      accountId: args.accountId,
      subscriptionId: sub.id,
      gatewayReference: gatewaySubscriptionOf(sub),
      currentPaymentToken: sub.paymentToken,
    });
  } catch (error) {
    if (error instanceof PaymentAdapterError) {
      if (error.kind === "unavailable")
        throw new AppError("SERVICE_UNAVAILABLE", "The payment gateway could not be reached; try again.");
      throw refuse(error.message, `The card cannot be changed at the gateway: ${error.message}`);
    }
    throw error;
  }
}
