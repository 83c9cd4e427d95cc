/**
 * Renewals (interface-spec §4.2 `…/subscriptions/<id>/renewals.json`, rule 3; docs/subscriptions.md
 * "Renewals"): a subscriber buys the same plan again. Checkout's own pieces do the work: the terms
 * are computed as a preview computes them (computeTerms: price in the currency, coupon, tax), the
 * payment is verified by the payment type's adapter and the subscription is written by
 * createSubscription, from an attempt this call makes itself.
 *
 * - Only a renewable subscription: not on a recurring plan (those renew by charging, 422), not
 *   pending or failed, not pay per asset, not one that never ends.
 * - The new subscription starts now, or when the renewed one ends if that is still ahead.
 * - metadata, when omitted, is copied from the renewed subscription.
 * - Idempotent on payment_token: the attempt's id is derived from (account, subscription,
 *   payment_type, payment_token), so the same renewal repeated (also in parallel) claims one attempt
 *   and makes one subscription; the repeats answer it (created false).
 * - Webhooks: subscription.created, subscription.renewed and (when paid) subscription.activated.
 */
import "server-only";

import { createHash } from "node:crypto";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { ATTEMPT_TTL_MS, signAttemptToken } from "../checkout/attempt-token";
import type { CheckoutWho } from "../checkout/buyer";
import { createSubscription } from "../checkout/create";
import type { CheckoutRequest } from "../checkout/request";
import { computeTerms } from "../checkout/terms";
import { resolveSubscriber } from "../subscribers/subscribers";
import { grantsAccess } from "../subscribers/subscription-state";
import { notFoundSubscription } from "../subscribers/subscription-view";
import type { TRenewalBody } from "./renewals.schema";

const unprocessable = (field: string, issue: string, message?: string) =>
  new AppError("UNPROCESSABLE", message ?? `${field} ${issue}.`, { details: [{ field, issue }] });

/** A UUID (v4 layout) derived from the renewal's identity: the same renewal, the same attempt. */
function renewalAttemptId(parts: {
  accountId: number;
  subscriptionId: number;
  paymentType: string;
  paymentToken: string;
}): string {
  const h = createHash("sha256")
    .update(`renewal\n${parts.accountId}\n${parts.subscriptionId}\n${parts.paymentType}\n${parts.paymentToken}`)
    .digest("hex");
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The checkout request a renewal amounts to: the renewed subscription's plan, no trial. */
function renewalRequest(body: TRenewalBody, planId: number, storedMetadata: unknown): CheckoutRequest {
  const s = body.subscription;
  const { payment_type, amount_cents, amount_currency, payment_token, ...extra } = s.payment;
  const metadata =
    s.metadata ??
    (storedMetadata && typeof storedMetadata === "object" && !Array.isArray(storedMetadata)
      ? (storedMetadata as CheckoutRequest["metadata"])
      : null);
  return {
    dynamic: false,
    subscriptionType: undefined,
    gift: null,
    planId,
    couponCode: s.coupon_code || null,
    payment: { payment_type, amount_cents, amount_currency, payment_token, extra },
    metadata,
    notes: null,
    trial: { trial_period: false, trial_period_length: undefined, trial_period_unit: undefined },
    dynamicAssets: undefined,
    campaignId: null,
    offer: { offerId: null, exposureId: null },
    attemptToken: null,
    alternate: null,
    name: null,
  };
}

/**
 * Renew the subscriber's subscription `subscriptionId`. Answers `{subscription, created}` like
 * createSubscription: created false when this renewal (same payment_token) was already made.
 */
export async function renewSubscription(
  db: Db,
  args: {
    accountId: number;
    who: Extract<CheckoutWho, { channel: "server" }>;
    subscriptionId: number;
    body: TRenewalBody;
    now: Date;
  },
) {
  const { accountId, who, subscriptionId, body, now } = args;
  const member = await resolveSubscriber(db, {
    accountId,
    ...who.at,
    alternate_provider: who.alternate?.provider,
    alternate_identity: who.alternate?.identity,
  });
  if (!member) throw new AppError("NOT_FOUND", "No subscriber has this identity.");
  const current = await db.subscription.findFirst({
    where: { id: subscriptionId, accountId, memberId: member.id, deletedAt: null },
  });
  if (!current) throw notFoundSubscription();
  if (current.recurring)
    throw unprocessable(
      "subscription",
      "is on a recurring plan",
      "Subscriptions on recurring plans are not renewable: they renew by themselves at each period's end.",
    );
  if (current.status === "PENDING" || current.status === "FAILED")
    throw unprocessable(
      "subscription",
      `is ${current.status.toLowerCase()}`,
      `A ${current.status.toLowerCase()} subscription is not renewable.`,
    );
  if (current.planId === null)
    throw unprocessable("subscription", "is pay per asset", "A pay-per-asset purchase is not renewable: buy it again.");
  if (current.endTimestamp === null)
    throw unprocessable("subscription", "never ends", "This subscription never ends: there is nothing to renew.");

  const req = renewalRequest(body, current.planId, current.metadata);
  const paymentToken = body.subscription.payment.payment_token;
  const attemptId = renewalAttemptId({
    accountId,
    subscriptionId,
    paymentType: req.payment.payment_type,
    paymentToken,
  });

  // The same renewal again: answer what was made (createSubscription does, from the used attempt).
  const existing = await db.subscriptionAttempt.findUnique({ where: { id: attemptId }, select: { usedAt: true } });
  if (!existing?.usedAt) {
    const { terms } = await computeTerms(db, { accountId, who, req, member, now });
    const stillActive =
      grantsAccess(current, now) && current.endTimestamp !== null && current.endTimestamp.getTime() > now.getTime();
    terms.renewal_of = {
      subscription_id: current.id,
      starts_at: (stillActive ? current.endTimestamp : now).toISOString(),
    };
    const data = {
      terms: terms as unknown as Prisma.InputJsonObject,
      paymentType: terms.payment_type,
      amountCents: terms.amount_cents,
      currency: terms.currency,
      // A gateway payment names the order it paid (payment.external_reference_id), as a preview's would.
      externalReferenceId: body.subscription.payment.external_reference_id ?? null,
      expiresAt: new Date(now.getTime() + ATTEMPT_TTL_MS),
    };
    if (!existing) {
      // Concurrent renewals: one row is inserted, the others skip it and share it.
      await db.subscriptionAttempt.createMany({
        data: [{ id: attemptId, accountId, memberId: member.id, createdAt: now, ...data }],
        skipDuplicates: true,
      });
    } else {
      // An earlier try of this renewal failed (e.g. the payment was refused): refresh its terms.
      await db.subscriptionAttempt.updateMany({ where: { id: attemptId, usedAt: null }, data });
    }
  }
  return createSubscription(db, {
    accountId,
    who,
    req: { ...req, attemptToken: signAttemptToken(attemptId) },
    now,
  });
}
