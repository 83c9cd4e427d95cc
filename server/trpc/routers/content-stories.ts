/**
 * stories.* – writing stories and moving them through the workflow, for editors (OWNER passes).
 * Moves, and saves of published stories, emit CONTENT webhook events: their deliveries are handed
 * to the background engine after the commit.
 */
import { z } from "zod";

import { getEnv } from "../../../env.js";
import { dispatchDeliveries } from "../../jobs/background";
import { createStory, deleteStory, getStory, listStories, listStoryFormOptions, transitionStory, updateStory, type StoryWriteOutcome } from "../../publishing/editorial/stories";
import {
  ZCreateStoryInput,
  ZDeleteStoryInput,
  ZListStoriesInput,
  ZStoryEditorView,
  ZStoryFormOptions,
  ZStoryPage,
  ZStoryWriteResult,
  ZTransitionStoryInput,
  ZUpdateStoryInput,
} from "../../publishing/editorial/stories.schema";
import { adminProcedure, createTRPCRouter } from "../trpc";

const editorProcedure = adminProcedure(["EDITOR"]);
const appUrl = () => getEnv().APP_URL;

/** After the commit: start the deliveries, answer with the story and the event name. */
async function dispatched(outcome: StoryWriteOutcome) {
  await dispatchDeliveries(outcome.deliveryIds);
  return { story: outcome.story, event: outcome.event };
}

export const storiesRouter = createTRPCRouter({
  list: editorProcedure
    .input(ZListStoriesInput)
    .output(ZStoryPage)
    .query(({ ctx, input }) => listStories(ctx.db, { actor: ctx.actor, ...input })),

  get: editorProcedure
    .input(z.object({ id: z.uuid() }))
    .output(ZStoryEditorView)
    .query(({ ctx, input }) => getStory(ctx.db, { actor: ctx.actor, id: input.id, appUrl: appUrl() })),

  /** Sections, authors and tags for the story form. */
  options: editorProcedure.output(ZStoryFormOptions).query(({ ctx }) => listStoryFormOptions(ctx.db, { actor: ctx.actor })),

  create: editorProcedure
    .input(ZCreateStoryInput)
    .output(ZStoryWriteResult)
    .mutation(async ({ ctx, input }) => dispatched(await createStory(ctx.db, { actor: ctx.actor, input, now: new Date(), appUrl: appUrl() }))),

  update: editorProcedure
    .input(ZUpdateStoryInput)
    .output(ZStoryWriteResult)
    .mutation(async ({ ctx, input }) => dispatched(await updateStory(ctx.db, { actor: ctx.actor, input, now: new Date(), appUrl: appUrl() }))),

  transition: editorProcedure
    .input(ZTransitionStoryInput)
    .output(ZStoryWriteResult)
    .mutation(async ({ ctx, input }) => dispatched(await transitionStory(ctx.db, { actor: ctx.actor, input, now: new Date(), appUrl: appUrl() }))),

  delete: editorProcedure
    .input(ZDeleteStoryInput)
    .output(z.object({ deleted: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await deleteStory(ctx.db, { actor: ctx.actor, id: input.id, version: input.version, now: new Date() });
      return { deleted: true as const };
    }),
});
