/**
 * newsletterSends.* – sending stories as newsletters (the story editor's Newsletter panel) and the
 * sends list, for editors (OWNER passes). docs/newsletters.md "Sending".
 */
import { z } from "zod";

import { withTransaction } from "../../db/transaction";
import {
  cancelSend,
  listSends,
  newsletterChoices,
  previewSend,
  requireSiteUrl,
  sendStory,
  testSend,
} from "../../newsletters/send";
import {
  SEND_STATUSES,
  ZListSendsInput,
  ZNewsletterChoices,
  ZPreviewSendInput,
  ZPublishAndSendInput,
  ZSendIdInput,
  ZSendPage,
  ZStorySendInput,
  ZTestSendInput,
} from "../../newsletters/send.schema";
import { moveStory } from "../../publishing/editorial/stories/moves";
import { adminProcedure, appUrl, createTRPCRouter, editorProcedure } from "../trpc";

/** Who sees newsletters (the dashboard's Newsletters area): editors and revenue staff. */
const newsletterStaffProcedure = adminProcedure(["EDITOR", "REVENUE"]);

const ZSendResult = z.object({
  sends: z.array(z.object({ id: z.number(), newsletterId: z.number(), status: z.string(), created: z.boolean() })),
});

export const newsletterSendsRouter = createTRPCRouter({
  /** The account's newsletters, each with how many readers it would reach now (the confirmation's count). */
  choices: newsletterStaffProcedure
    .input(z.void())
    .output(ZNewsletterChoices)
    .query(({ ctx }) => newsletterChoices(ctx.db, { accountId: ctx.actor.accountId, now: new Date() })),

  /** Sends, newest first (of a newsletter, or of a story, when given). */
  list: newsletterStaffProcedure
    .input(ZListSendsInput)
    .output(ZSendPage)
    .query(({ ctx, input }) => listSends(ctx.db, { accountId: ctx.actor.accountId, ...input })),

  /** Send a published story to newsletters; a second request answers the first send of each. */
  send: editorProcedure
    .input(ZStorySendInput)
    .output(ZSendResult)
    .mutation(({ ctx, input }) =>
      sendStory(ctx.db, {
        accountId: ctx.actor.accountId,
        ...input,
        createdBy: ctx.actor.id,
        appUrl: appUrl(),
        now: new Date(),
      }),
    ),

  /** Publish the story and send it, in one transaction: both happen, or neither. */
  publishAndSend: editorProcedure
    .input(ZPublishAndSendInput)
    .output(ZSendResult)
    .mutation(async ({ ctx, input }) => {
      const now = new Date();
      // Refused before publishing: neither happens while the mail's links would lead nowhere.
      await requireSiteUrl(ctx.db, ctx.actor.accountId, appUrl());
      return withTransaction(ctx.db, async (tx) => {
        await moveStory(tx, {
          actor: ctx.actor,
          id: input.storyId,
          version: input.version,
          action: "publish",
          now,
          appUrl: appUrl(),
        });
        return sendStory(tx, {
          accountId: ctx.actor.accountId,
          storyId: input.storyId,
          newsletterIds: input.newsletterIds,
          subject: input.subject,
          createdBy: ctx.actor.id,
          appUrl: appUrl(),
          now,
        });
      });
    }),

  /** The story as the newsletter would mail it, to up to five addresses now, "[Test]" in the subject. */
  test: editorProcedure
    .input(ZTestSendInput)
    .output(z.object({ queued: z.number() }))
    .mutation(({ ctx, input }) =>
      testSend(ctx.db, { accountId: ctx.actor.accountId, ...input, appUrl: appUrl(), now: new Date() }),
    ),

  /** The mail as readers get it (subject and HTML), before sending; whether the site URL is set. */
  preview: editorProcedure
    .input(ZPreviewSendInput)
    .output(z.object({ subject: z.string(), html: z.string(), siteUrlSet: z.boolean() }))
    .query(({ ctx, input }) => previewSend(ctx.db, { accountId: ctx.actor.accountId, ...input, appUrl: appUrl() })),

  /** Stop a queued or running send. */
  cancel: editorProcedure
    .input(ZSendIdInput)
    .output(z.object({ status: z.enum(SEND_STATUSES) }))
    .mutation(({ ctx, input }) =>
      cancelSend(ctx.db, { accountId: ctx.actor.accountId, sendId: input.sendId, now: new Date() }),
    ),
});
