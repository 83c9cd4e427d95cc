/**
 * Checkout's part of offers: the preview checks the offer a reader subscribes with
 * (`subscription.offer_id`, and `subscription.exposure_id` when the offer was an arm of a test)
 * and freezes it in the attempt's terms; the create records the subscription as the offer's
 * conversion (offer_conversions, one row per subscription) in its transaction. The exposure id
 * is the one the offer endpoint handed this reader (a random uuid): it names the reader's arm.
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { planIdsOf } from "./offers";

export type FrozenOffer = { offer_id: number; exposure_id: string | null };

const unprocessable = (field: string, issue: string) =>
  new AppError("UNPROCESSABLE", `${field} ${issue}.`, { details: [{ field, issue }] });

/** The offer a preview names, checked against the plan bought; null when none is named. */
export async function checkoutOffer(
  db: Db,
  args: { accountId: number; planId: number; offerId: number | null; exposureId: string | null },
): Promise<FrozenOffer | null> {
  if (args.offerId === null) {
    if (args.exposureId !== null) throw unprocessable("subscription.offer_id", "is required with exposure_id");
    return null;
  }
  const offer = await db.offer.findFirst({
    where: { id: args.offerId, accountId: args.accountId, archivedAt: null },
    select: { id: true, planIds: true },
  });
  if (!offer) throw unprocessable("subscription.offer_id", "is not an offer of this publisher");
  if (!planIdsOf(offer.planIds).includes(args.planId))
    throw unprocessable("subscription.offer_id", "does not offer this plan");
  if (args.exposureId === null) return { offer_id: offer.id, exposure_id: null };
  const exposure = await db.experimentExposure.findUnique({
    where: { id: args.exposureId },
    select: { offerId: true, experiment: { select: { accountId: true, status: true } } },
  });
  if (!exposure || exposure.experiment.accountId !== args.accountId)
    throw unprocessable("subscription.exposure_id", "is not an exposure of this publisher's tests");
  if (exposure.experiment.status !== "running")
    throw unprocessable("subscription.exposure_id", "is of a test that has stopped");
  if (exposure.offerId !== offer.id) throw unprocessable("subscription.exposure_id", "is of another offer");
  return { offer_id: offer.id, exposure_id: args.exposureId };
}

/** The create's record of a subscription started from an offer (in the create's transaction). */
export async function recordOfferConversion(
  tx: Db,
  args: { accountId: number; subscriptionId: number; offer: FrozenOffer | null | undefined },
): Promise<void> {
  if (!args.offer) return;
  await tx.offerConversion.create({
    data: {
      accountId: args.accountId,
      subscriptionId: args.subscriptionId,
      offerId: args.offer.offer_id,
      exposureId: args.offer.exposure_id,
    },
  });
}
