/**
 * offers.* – paywall offers (REVENUE; OWNER passes) and their A/B tests (started and stopped by
 * owners; results read by REVENUE too). docs/subscriptions.md, "Offers and experiments".
 */
import { z } from "zod";

import {
  experimentResult,
  listExperiments,
  startExperiment,
  stopExperiment,
} from "../../subscriptions/offers/experiments";
import { archiveOffer, getOfferOrThrow, listOffers, saveOffer } from "../../subscriptions/offers/offers";
import {
  ZExperimentId,
  ZExperimentInput,
  ZOfferId,
  ZOfferInput,
  ZOfferUpdate,
} from "../../subscriptions/offers/offers.schema";
import { adminProcedure, createTRPCRouter, ownerProcedure } from "../trpc";

const revenue = adminProcedure(["REVENUE"]);

export const offersRouter = createTRPCRouter({
  list: revenue.input(z.void()).query(({ ctx }) => listOffers(ctx.db, { actor: ctx.actor })),
  get: revenue.input(ZOfferId).query(({ ctx, input }) => getOfferOrThrow(ctx.db, { actor: ctx.actor, id: input.id })),
  create: revenue
    .input(ZOfferInput)
    .mutation(({ ctx, input }) => saveOffer(ctx.db, { actor: ctx.actor, offer: input })),
  update: revenue
    .input(ZOfferUpdate)
    .mutation(({ ctx, input }) => saveOffer(ctx.db, { actor: ctx.actor, id: input.id, offer: input.offer })),
  archive: revenue
    .input(ZOfferId)
    .mutation(({ ctx, input }) => archiveOffer(ctx.db, { actor: ctx.actor, id: input.id })),
  experiments: revenue.input(z.void()).query(({ ctx }) => listExperiments(ctx.db, { actor: ctx.actor })),
  result: revenue
    .input(ZExperimentId)
    .query(({ ctx, input }) => experimentResult(ctx.db, { actor: ctx.actor, id: input.id })),
  start: ownerProcedure
    .input(ZExperimentInput)
    .mutation(({ ctx, input }) => startExperiment(ctx.db, { actor: ctx.actor, input })),
  stop: ownerProcedure
    .input(ZExperimentId)
    .mutation(({ ctx, input }) => stopExperiment(ctx.db, { actor: ctx.actor, id: input.id })),
});
