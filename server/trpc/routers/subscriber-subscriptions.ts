/**
 * subscriberSubscriptions.* – the account's subscriptions for revenue staff (REVENUE; OWNER
 * passes): list and one with its payments and timeline; cancel, extend, pause and give (each audited).
 */
import { z } from "zod";

import { getAccountTimeZone } from "../../accounts/time-zone";
import { pauseSubscriptionForStaff } from "../../subscriptions/recurring/staff-pause";
import {
  ZListSubscriptionsInput,
  ZStaffExtendInput,
  ZStaffPauseInput,
  ZSubscriptionIdInput,
} from "../../subscriptions/subscribers/subscription-actions.schema";
import { cancelSubscription, extendSubscription } from "../../subscriptions/subscribers/subscriptions";
import {
  getSubscriptionForAdmin,
  grantSubscription,
  listSubscriptionsForAdmin,
} from "../../subscriptions/subscribers/subscriptions-admin";
import { adminProcedure, createTRPCRouter } from "../trpc";

const revenue = adminProcedure(["REVENUE"]);
const now = () => new Date();

export const subscriberSubscriptionsRouter = createTRPCRouter({
  /** Newest first; q searches the subscriber's e-mail, name and identities; status and plan filter. */
  list: revenue
    .input(ZListSubscriptionsInput)
    .query(({ ctx, input }) => listSubscriptionsForAdmin(ctx.db, { actor: ctx.actor, input, now: now() })),

  /** One subscription of the account (NOT_FOUND for another account's), its payments and timeline. */
  get: revenue
    .input(ZSubscriptionIdInput)
    .query(({ ctx, input }) => getSubscriptionForAdmin(ctx.db, { actor: ctx.actor, id: input.id, now: now() })),

  /** Cancel at period end (idempotent). */
  cancel: revenue.input(ZSubscriptionIdInput).mutation(({ ctx, input }) =>
    cancelSubscription(ctx.db, {
      accountId: ctx.actor.accountId,
      caller: { via: "dashboard", actor: ctx.actor },
      id: input.id,
      now: now(),
    }),
  ),

  /** Move the end of a one-time subscription to the end of a day of the account's zone, or remove it. */
  extend: revenue.input(ZStaffExtendInput).mutation(async ({ ctx, input }) =>
    extendSubscription(ctx.db, {
      accountId: ctx.actor.accountId,
      caller: { via: "dashboard", actor: ctx.actor },
      id: input.id,
      extendTo: input.extendTo,
      now: now(),
      zone: await getAccountTimeZone(ctx.db, ctx.actor.accountId),
    }),
  ),

  /** Pause a live recurring subscription for 1 to 12 of its periods (staff-pause.ts). */
  pause: revenue
    .input(ZStaffPauseInput)
    .mutation(({ ctx, input }) => pauseSubscriptionForStaff(ctx.db, { actor: ctx.actor, input, now: now() })),

  /** A complimentary subscription to a plan for the reader with this e-mail (created when new). */
  grant: revenue
    .input(z.object({ email: z.email().max(254), planId: z.number().int().positive() }))
    .mutation(({ ctx, input }) => grantSubscription(ctx.db, { actor: ctx.actor, input, now: now() })),
});
