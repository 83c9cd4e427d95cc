/** newsletters.* – newsletters and their subscribers (docs/newsletters.md): owners, editors and revenue staff. */
import { z } from "zod";

import {
  archiveNewsletter,
  createNewsletter,
  getNewsletter,
  listNewsletters,
  listSubscribers,
  updateNewsletter,
} from "../../newsletters/newsletters";
import {
  ZAddSubscriberInput,
  ZArchiveNewsletterInput,
  ZListSubscribersInput,
  ZNewsletterId,
  ZNewsletterInput,
  ZNewsletterView,
  ZStaffUnsubscribeInput,
  ZSubscriberPage,
  ZUpdateNewsletterInput,
} from "../../newsletters/newsletters.schema";
import { addSubscriberByStaff, unsubscribeByStaff } from "../../newsletters/subscriptions";
import { getPublisher } from "../../publishing/publisher";
import { adminProcedure, appUrl, createTRPCRouter } from "../trpc";

/** Who manages newsletters (OWNER always may); contributors and moderators may not. */
const NEWSLETTER_ROLES = ["EDITOR", "REVENUE"] as const;
const staff = adminProcedure(NEWSLETTER_ROLES);

const ZPlanOption = z.object({ id: z.number(), title: z.string() });
const ZCollectionOption = z.object({ id: z.number(), name: z.string() });

export const newslettersRouter = createTRPCRouter({
  list: staff
    .input(z.object({ includeArchived: z.boolean().default(true) }).default({ includeArchived: true }))
    .output(z.array(ZNewsletterView))
    .query(({ ctx, input }) => listNewsletters(ctx.db, { actor: ctx.actor, includeArchived: input.includeArchived })),
  get: staff
    .input(z.object({ id: ZNewsletterId }))
    .output(ZNewsletterView)
    .query(({ ctx, input }) => getNewsletter(ctx.db, { actor: ctx.actor, id: input.id })),
  /**
   * The plans and collections the form offers (the account's own), and whether the site URL is
   * set (digests are not sent without it: ../../newsletters/digest.ts).
   */
  options: staff
    .input(z.void())
    .output(z.object({ plans: z.array(ZPlanOption), collections: z.array(ZCollectionOption), siteUrlSet: z.boolean() }))
    .query(async ({ ctx }) => {
      const accountId = ctx.actor.accountId;
      const [plans, collections, publisher] = await Promise.all([
        ctx.db.subscriptionPlan.findMany({
          where: { accountId },
          select: { id: true, title: true },
          orderBy: { id: "asc" },
        }),
        ctx.db.collection.findMany({
          where: { accountId, deletedAt: null },
          select: { id: true, name: true },
          orderBy: { name: "asc" },
          take: 500,
        }),
        getPublisher(ctx.db, accountId, { appUrl: appUrl() }),
      ]);
      return { plans, collections, siteUrlSet: publisher.siteUrlSet };
    }),
  create: staff
    .input(ZNewsletterInput)
    .output(ZNewsletterView)
    .mutation(({ ctx, input }) => createNewsletter(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  update: staff
    .input(ZUpdateNewsletterInput)
    .output(ZNewsletterView)
    .mutation(({ ctx, input }) =>
      updateNewsletter(ctx.db, { actor: ctx.actor, id: input.id, input: input.newsletter, now: new Date() }),
    ),
  archive: staff
    .input(ZArchiveNewsletterInput)
    .output(ZNewsletterView)
    .mutation(({ ctx, input }) => archiveNewsletter(ctx.db, { actor: ctx.actor, ...input, now: new Date() })),
  subscribers: staff
    .input(ZListSubscribersInput)
    .output(ZSubscriberPage)
    .query(({ ctx, input }) => listSubscribers(ctx.db, { actor: ctx.actor, ...input })),
  addSubscriber: staff
    .input(ZAddSubscriberInput)
    .output(
      z.object({
        subscriptionId: z.number(),
        status: z.enum(["PENDING", "ACTIVE", "UNSUBSCRIBED"]),
        mailed: z.boolean(),
      }),
    )
    .mutation(({ ctx, input }) => addSubscriberByStaff(ctx.db, { actor: ctx.actor, input, now: new Date() })),
  unsubscribe: staff
    .input(ZStaffUnsubscribeInput)
    .output(z.void())
    .mutation(({ ctx, input }) => unsubscribeByStaff(ctx.db, { actor: ctx.actor, ...input, now: new Date() })),
});
