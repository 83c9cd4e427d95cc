/**
 * pageRules.* – each page's comment rules (open, pre-moderation, closed; slow mode), for owners
 * and moderators (docs/engagement.md "Rules before publishing").
 */
import { z } from "zod";

import { listPageRules, setPageRules } from "../../engagement/moderation/rules/page-rules";
import {
  ZPageRulesList,
  ZSetPageRulesInput,
  ZSetPageRulesResult,
} from "../../engagement/moderation/rules/page-rules.schema";
import { adminProcedure, createTRPCRouter } from "../trpc";

const moderatorProcedure = adminProcedure(["MODERATOR"]);

export const pageRulesRouter = createTRPCRouter({
  /** The pages whose rules differ from the default. */
  list: moderatorProcedure
    .input(z.void())
    .output(ZPageRulesList)
    .query(({ ctx }) => listPageRules(ctx.db, { actor: ctx.actor })),

  /** Set one page's rules (audited); answers whether they changed. */
  set: moderatorProcedure
    .input(ZSetPageRulesInput)
    .output(ZSetPageRulesResult)
    .mutation(({ ctx, input }) => setPageRules(ctx.db, { actor: ctx.actor, input, now: new Date() })),
});
