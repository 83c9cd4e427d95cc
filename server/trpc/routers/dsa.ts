/**
 * dsa.* – the EU Digital Services Act's notice and action for comments, for owners and moderators
 * (docs/privacy.md, "Illegal-content notices"): the notices' queue, the decision with its statement
 * of reasons, the decision on an appeal, and the transparency report (each step audited).
 */
import { z } from "zod";

import { decideDsaAppeal, decideDsaNotice } from "../../engagement/dsa/decisions";
import {
  ZDsaDecideAppealInput,
  ZDsaDecideInput,
  ZDsaListInput,
  ZDsaReport,
  ZDsaReportInput,
} from "../../engagement/dsa/dsa.schema";
import { listDsaNotices } from "../../engagement/dsa/queue";
import { dsaTransparencyReport } from "../../engagement/dsa/transparency";
import { adminProcedure, createTRPCRouter } from "../trpc";

const moderatorProcedure = adminProcedure(["MODERATOR"]);

export const dsaRouter = createTRPCRouter({
  /** Open notices oldest first; decided ones, or those with an appeal waiting, newest decision first. */
  notices: moderatorProcedure
    .input(ZDsaListInput)
    .query(({ ctx, input }) => listDsaNotices(ctx.db, { actor: ctx.actor, input })),

  /** Decide a notice with its statement of reasons (409 when decided already). */
  decide: moderatorProcedure
    .input(ZDsaDecideInput)
    .output(z.object({ noticeId: z.number().int(), decidedAt: z.string() }))
    .mutation(({ ctx, input }) => decideDsaNotice(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** Decide a submitted appeal: uphold or reverse, with reasons (409 when decided already). */
  decideAppeal: moderatorProcedure
    .input(ZDsaDecideAppealInput)
    .output(z.object({ appealId: z.number().int(), outcome: z.string() }))
    .mutation(({ ctx, input }) => decideDsaAppeal(ctx.db, { actor: ctx.actor, input, now: new Date() })),

  /** The transparency report for a period of days on the account's clocks (audited). */
  report: moderatorProcedure
    .input(ZDsaReportInput)
    .output(ZDsaReport)
    .query(({ ctx, input }) =>
      dsaTransparencyReport(ctx.db, { actor: ctx.actor, input, format: "view", now: new Date() }),
    ),
});
