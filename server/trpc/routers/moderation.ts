/**
 * moderation.* – comment moderation for owners and moderators: the settings, the queue, actions
 * on comments, bans and a reader's history (docs/engagement.md "Moderation").
 */
import { z } from "zod";

import { setCommentFeatured, setQuestionAnswered } from "../../engagement/comment-features";
import { ZCommentFlagResult, ZFeatureCommentInput, ZMarkAnsweredInput } from "../../engagement/comment-features.schema";
import { banReader, liftBan } from "../../engagement/moderation/bans/bans";
import {
  listModerationQueue,
  moderateComment,
  moderationQueueCounts,
  readerHistory,
} from "../../engagement/moderation/queue/queue";
import {
  ZBanInput,
  ZBanView,
  ZCommentActionInput,
  ZCommentActionResult,
  ZLiftBanInput,
  ZQueueCounts,
  ZQueueInput,
  ZQueuePage,
  ZReaderHistory,
  ZReaderHistoryInput,
  ZUndoDecisionInput,
} from "../../engagement/moderation/queue/queue.schema";
import { undoDecision } from "../../engagement/moderation/queue/undo";
import { getModerationSettings, updateModerationSettings } from "../../engagement/moderation/settings";
import {
  ZModerationSettingsView,
  ZUpdateModerationSettingsInput,
  ZUpdateModerationSettingsResult,
} from "../../engagement/moderation/settings.schema";
import { adminProcedure, createTRPCRouter } from "../trpc";

const moderatorProcedure = adminProcedure(["MODERATOR"]);

export const moderationRouter = createTRPCRouter({
  settings: moderatorProcedure
    .input(z.void())
    .output(ZModerationSettingsView)
    .query(({ ctx }) => getModerationSettings(ctx.db, { actor: ctx.actor })),

  /** Change the fields given; answers which changed (none: nothing was written). */
  updateSettings: moderatorProcedure
    .input(ZUpdateModerationSettingsInput)
    .output(ZUpdateModerationSettingsResult)
    .mutation(({ ctx, input }) => updateModerationSettings(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** One page of a view: a queue tab (pending, reported, spam, toxic) or a decided view, filtered. */
  queue: moderatorProcedure
    .input(ZQueueInput)
    .output(ZQueuePage)
    .query(({ ctx, input }) => listModerationQueue(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** How many comments each tab holds. */
  counts: moderatorProcedure
    .input(z.void())
    .output(ZQueueCounts)
    .query(({ ctx }) => moderationQueueCounts(ctx.db, { actor: ctx.actor })),

  /**
   * Approve, reject, delete, mark spam or not spam; 409 when already decided otherwise (without
   * override) or when the comment changed since `expectedVersion`.
   */
  act: moderatorProcedure
    .input(ZCommentActionInput)
    .output(ZCommentActionResult)
    .mutation(({ ctx, input }) => moderateComment(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** Take back one's own last decision on a comment (409 when it changed since). */
  undo: moderatorProcedure
    .input(ZUndoDecisionInput)
    .output(ZCommentActionResult)
    .mutation(({ ctx, input }) => undoDecision(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** Feature (pin) or unfeature a top-level comment: the widget shows featured ones first. */
  feature: moderatorProcedure
    .input(ZFeatureCommentInput)
    .output(ZCommentFlagResult)
    .mutation(({ ctx, input }) => setCommentFeatured(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** Mark a question answered (a Q&A page shows it to readers), or take the mark back. */
  markAnswered: moderatorProcedure
    .input(ZMarkAnsweredInput)
    .output(ZCommentFlagResult)
    .mutation(({ ctx, input }) => setQuestionAnswered(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  ban: moderatorProcedure
    .input(ZBanInput)
    .output(ZBanView)
    .mutation(({ ctx, input }) => banReader(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  liftBan: moderatorProcedure
    .input(ZLiftBanInput)
    .output(z.object({ lifted: z.boolean() }))
    .mutation(({ ctx, input }) => liftBan(ctx.db, { actor: ctx.actor, memberId: input.memberId, now: new Date() })),

  /** A reader's comments with their states, the reports against them and their bans. */
  history: moderatorProcedure
    .input(ZReaderHistoryInput)
    .output(ZReaderHistory)
    .query(({ ctx, input }) => readerHistory(ctx.db, { actor: ctx.actor, memberId: input.memberId, now: new Date() })),
});
