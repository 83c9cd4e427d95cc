/**
 * newsletterStats.* – what the newsroom measures of its newsletters (server/newsletters/stats*.ts;
 * docs/newsletters.md "Measuring"): one newsletter's sends of a range with their total and its
 * subscribers by day, and one send. The staff who manage newsletters (editors, revenue; OWNER passes).
 */
import { getNewsletterStats, getSendStats } from "../../newsletters/stats-queries";
import { ZNewsletterStatsInput, ZSendStatsInput } from "../../newsletters/stats.schema";
import { adminProcedure, createTRPCRouter } from "../trpc";

const staff = adminProcedure(["EDITOR", "REVENUE"]);

export const newsletterStatsRouter = createTRPCRouter({
  /** A newsletter's sends in the range (days on the account's clocks), their total, its subscribers by day. */
  newsletter: staff
    .input(ZNewsletterStatsInput)
    .query(({ ctx, input }) => getNewsletterStats(ctx.db, { accountId: ctx.actor.accountId, ...input })),

  /** One send's numbers. */
  send: staff
    .input(ZSendStatsInput)
    .query(({ ctx, input }) => getSendStats(ctx.db, { accountId: ctx.actor.accountId, sendId: input.sendId })),
});
