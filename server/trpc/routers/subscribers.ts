/** subscribers.* – the account's subscribers (its members) with identities and metadata, for revenue staff. */
import { z } from "zod";

import { AppError } from "../../errors";
import { searchSubscribers } from "../../subscriptions/subscribers/subscriber-list";
import { loadSubscriber } from "../../subscriptions/subscribers/subscribers";
import {
  ZSearchSubscribersInput,
  ZSubscriberRow,
  ZSubscriberWire,
} from "../../subscriptions/subscribers/subscribers.schema";
import { adminProcedure, createTRPCRouter } from "../trpc";

const revenueProcedure = adminProcedure(["REVENUE"]);

export const subscribersRouter = createTRPCRouter({
  /** Paying subscribers (or every member) whose e-mail, name or an identity contains `q`, newest first. */
  search: revenueProcedure
    .input(ZSearchSubscribersInput)
    .output(z.array(ZSubscriberRow))
    .query(({ ctx, input }) =>
      searchSubscribers(ctx.db, { accountId: ctx.actor.accountId, now: new Date(), ...input }),
    ),

  /** One subscriber of the account (NOT_FOUND for another account's). */
  get: revenueProcedure
    .input(z.object({ id: z.number().int().min(1).max(2147483647) }))
    .output(ZSubscriberWire)
    .query(async ({ ctx, input }) => {
      const subscriber = await loadSubscriber(ctx.db, ctx.actor.accountId, input.id);
      if (!subscriber) throw new AppError("NOT_FOUND", "No such subscriber.");
      return subscriber;
    }),
});
