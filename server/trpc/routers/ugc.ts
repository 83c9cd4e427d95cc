/** ugc.* – readers' contributions through the UGC form, reviewed by moderators and editors (owners too). */
import { z } from "zod";

import { countUgc, decideUgc, listUgcForReview, listUgcTopicTypes } from "../../engagement/ugc";
import {
  ZDecideUgcInput,
  ZDecideUgcResult,
  ZListUgcInput,
  ZUgcCounts,
  ZUgcPage,
  ZUgcTopicTypes,
} from "../../engagement/ugc.schema";
import { adminProcedure, createTRPCRouter } from "../trpc";

const reviewerProcedure = adminProcedure(["MODERATOR", "EDITOR"]);

export const ugcRouter = createTRPCRouter({
  /** One page of submissions, newest first, by status and topic type; `nextCursor` fetches older ones. */
  list: reviewerProcedure
    .input(ZListUgcInput)
    .output(ZUgcPage)
    .query(({ ctx, input }) => listUgcForReview(ctx.db, { actor: ctx.actor, ...input })),

  /** How many are pending, approved and rejected. */
  counts: reviewerProcedure
    .input(z.void())
    .output(ZUgcCounts)
    .query(({ ctx }) => countUgc(ctx.db, { actor: ctx.actor })),

  /** The topic types in use, for the filter. */
  topicTypes: reviewerProcedure
    .input(z.void())
    .output(ZUgcTopicTypes)
    .query(({ ctx }) => listUgcTopicTypes(ctx.db, { actor: ctx.actor })),

  /** Approve or reject (or change the decision); audited. */
  decide: reviewerProcedure
    .input(ZDecideUgcInput)
    .output(ZDecideUgcResult)
    .mutation(({ ctx, input }) => decideUgc(ctx.db, { actor: ctx.actor, input, now: new Date() })),
});
