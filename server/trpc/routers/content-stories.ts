/**
 * stories.* – writing stories and moving them through the workflow, for editors (OWNER passes).
 * Moves, and saves of published stories, emit CONTENT webhook events (delivered after the commit).
 */
import { z } from "zod";

import { getEnv } from "../../../env.js";
import { cancelStoryPublication, scheduleStoryPublication } from "../../publishing/editorial/scheduling";
import {
  createStory,
  deleteStory,
  getStory,
  listStories,
  listStoryFormOptions,
  transitionStory,
  updateStory,
} from "../../publishing/editorial/stories";
import {
  ZCreateStoryInput,
  ZDeleteStoryInput,
  ZListStoriesInput,
  ZScheduleStoryInput,
  ZStoryEditorView,
  ZStoryFormOptions,
  ZStoryPage,
  ZStoryWriteResult,
  ZTransitionStoryInput,
  ZUnscheduleStoryInput,
  ZUpdateStoryInput,
} from "../../publishing/editorial/stories.schema";
import { adminProcedure, createTRPCRouter } from "../trpc";

const editorProcedure = adminProcedure(["EDITOR"]);
const appUrl = () => getEnv().APP_URL;

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
  options: editorProcedure
    .output(ZStoryFormOptions)
    .query(({ ctx }) => listStoryFormOptions(ctx.db, { actor: ctx.actor })),

  create: editorProcedure
    .input(ZCreateStoryInput)
    .output(ZStoryWriteResult)
    .mutation(({ ctx, input }) => createStory(ctx.db, { actor: ctx.actor, input, now: new Date(), appUrl: appUrl() })),

  update: editorProcedure
    .input(ZUpdateStoryInput)
    .output(ZStoryWriteResult)
    .mutation(({ ctx, input }) => updateStory(ctx.db, { actor: ctx.actor, input, now: new Date(), appUrl: appUrl() })),

  transition: editorProcedure
    .input(ZTransitionStoryInput)
    .output(ZStoryWriteResult)
    .mutation(({ ctx, input }) =>
      transitionStory(ctx.db, { actor: ctx.actor, input, now: new Date(), appUrl: appUrl() }),
    ),

  /** Publish an approved story at a time (the scheduler publishes it then, as Publish would). */
  schedule: editorProcedure
    .input(ZScheduleStoryInput)
    .output(ZStoryWriteResult)
    .mutation(({ ctx, input }) =>
      scheduleStoryPublication(ctx.db, { actor: ctx.actor, input, now: new Date(), appUrl: appUrl() }),
    ),

  /** Call a scheduled publication off; the story stays approved. */
  unschedule: editorProcedure
    .input(ZUnscheduleStoryInput)
    .output(ZStoryWriteResult)
    .mutation(({ ctx, input }) =>
      cancelStoryPublication(ctx.db, { actor: ctx.actor, input, now: new Date(), appUrl: appUrl() }),
    ),

  delete: editorProcedure
    .input(ZDeleteStoryInput)
    .output(z.object({ deleted: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await deleteStory(ctx.db, { actor: ctx.actor, id: input.id, version: input.version, now: new Date() });
      return { deleted: true as const };
    }),
});
