/**
 * community.* – the Community page for owners and moderators: find any reader of the account, a
 * reader's card, and warn, suspend, ban, lift or reject their pending comments
 * (docs/engagement.md "Community").
 */
import { z } from "zod";

import {
  ZBanForGoodInput,
  ZLiftInput,
  ZNoticeView,
  ZReaderCard,
  ZReaderCardInput,
  ZReaderPage,
  ZReaderSearchInput,
  ZRejectCommentsInput,
  ZRejectCommentsResult,
  ZSanctionResult,
  ZSuspendInput,
  ZWarnInput,
} from "../../engagement/community/community.schema";
import { readerCard, searchReaders } from "../../engagement/community/readers";
import {
  banReaderForGood,
  liftReaderBan,
  rejectReaderComments,
  suspendReader,
  warnReader,
} from "../../engagement/community/sanctions";
import { adminProcedure, createTRPCRouter } from "../trpc";

const moderatorProcedure = adminProcedure(["MODERATOR"]);

export const communityRouter = createTRPCRouter({
  /** One page of the account's readers matching the search and filters, newest first. */
  readers: moderatorProcedure
    .input(ZReaderSearchInput)
    .output(ZReaderPage)
    .query(({ ctx, input }) => searchReaders(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** A reader's card: counts, standing, history, decisions on their comments, notices sent to them. */
  reader: moderatorProcedure
    .input(ZReaderCardInput)
    .output(ZReaderCard)
    .query(({ ctx, input }) => readerCard(ctx.db, { actor: ctx.actor, memberId: input.memberId, now: new Date() })),

  /** Warn a reader with a message the comment widget shows them once. */
  warn: moderatorProcedure
    .input(ZWarnInput)
    .output(ZNoticeView)
    .mutation(({ ctx, input }) => warnReader(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** Suspend a reader until a time; optionally reject their pending comments with it. */
  suspend: moderatorProcedure
    .input(ZSuspendInput)
    .output(ZSanctionResult)
    .mutation(({ ctx, input }) => suspendReader(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** Ban a reader for good; optionally reject their pending comments with it. */
  ban: moderatorProcedure
    .input(ZBanForGoodInput)
    .output(ZSanctionResult)
    .mutation(({ ctx, input }) => banReaderForGood(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** Lift a ban or suspension; without one, nothing changes. */
  lift: moderatorProcedure
    .input(ZLiftInput)
    .output(z.object({ lifted: z.boolean() }))
    .mutation(({ ctx, input }) =>
      liftReaderBan(ctx.db, { actor: ctx.actor, memberId: input.memberId, now: new Date() }),
    ),

  /** Reject the reader's pending comments (scope `pending`) or all of them (`all`), in one transaction. */
  rejectComments: moderatorProcedure
    .input(ZRejectCommentsInput)
    .output(ZRejectCommentsResult)
    .mutation(({ ctx, input }) => rejectReaderComments(ctx.db, { actor: ctx.actor, input, now: new Date() })),
});
