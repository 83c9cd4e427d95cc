/**
 * storyConversions.* – which stories convert (docs/subscriptions.md "Which stories convert"):
 * the Conversions page (REVENUE; OWNER passes) and the story editor's panel (editors too: the
 * figures of a story name no reader).
 */
import { oneStoryConversions, storyConversions } from "../../subscriptions/reports/conversion-load";
import { ZConversionsInput, ZStoryConversionsInput } from "../../subscriptions/reports/conversions.schema";
import { adminProcedure, createTRPCRouter } from "../trpc";

export const storyConversionsRouter = createTRPCRouter({
  /** The range's figures per day of the account's zone and per story, section, author or tag. */
  report: adminProcedure(["REVENUE"])
    .input(ZConversionsInput)
    .query(({ ctx, input }) => storyConversions(ctx.db, { accountId: ctx.actor.accountId, input })),

  /** One story's figures (the last 30 days unless a range is given). */
  story: adminProcedure(["REVENUE", "EDITOR"])
    .input(ZStoryConversionsInput)
    .query(({ ctx, input }) =>
      oneStoryConversions(ctx.db, { accountId: ctx.actor.accountId, ...input, now: new Date() }),
    ),
});
