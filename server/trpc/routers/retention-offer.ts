/** retentionOffer.* – the offer the self-service page makes a reader who cancels (docs/subscriptions.md, "Self-service page"): REVENUE staff. */
import { z } from "zod";

import {
  getRetentionOffer,
  listCancellations,
  setRetentionOffer,
} from "../../subscriptions/self-service/retention-offers";
import { ZRetentionOfferInput } from "../../subscriptions/self-service/self-service.schema";
import { adminProcedure, createTRPCRouter } from "../trpc";

const revenue = adminProcedure(["REVENUE"]);

const ZOfferView = z
  .object({
    kind: z.enum(["coupon", "pause"]),
    coupon_id: z.number().nullable(),
    periods: z.number(),
    enabled: z.boolean(),
  })
  .nullable();

const ZCancellationView = z.object({
  id: z.number(),
  subscription_id: z.number(),
  subscriber_id: z.number(),
  plan_name: z.string(),
  reason: z.string(),
  reason_label: z.string(),
  comment: z.string().nullable(),
  outcome: z.enum(["cancelled", "offer_accepted", "paused"]),
  undone: z.boolean(),
  created_at: z.string(),
});

export const retentionOfferRouter = createTRPCRouter({
  get: revenue
    .input(z.void())
    .output(ZOfferView)
    .query(({ ctx }) => getRetentionOffer(ctx.db, { actor: ctx.actor })),
  update: revenue
    .input(ZRetentionOfferInput)
    .output(ZOfferView)
    .mutation(({ ctx, input }) => setRetentionOffer(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  /** Readers' recent cancels with their reasons (newest first, at most 100). */
  cancellations: revenue
    .input(z.void())
    .output(z.array(ZCancellationView))
    .query(({ ctx }) => listCancellations(ctx.db, { actor: ctx.actor })),
});
