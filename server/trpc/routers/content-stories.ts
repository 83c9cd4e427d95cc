/**
 * stories.* – writing stories and moving them through the workflow, for editors (OWNER passes).
 * Moves, and saves of published stories, emit CONTENT webhook events (delivered after the commit).
 */
import { z } from "zod";

import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
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
import { appUrl, createTRPCRouter, editorProcedure } from "../trpc";

/**
 * A write to a story: the service gets the editor, the parsed input, the time of the request and
 * the app's URL (for the story's links in webhook events); the answer is the written story.
 */
function storyWrite<S extends z.ZodType>(
  schema: S,
  write: (
    db: Db,
    args: { actor: StaffActor; input: z.output<S>; now: Date; appUrl: string },
  ) => Promise<z.input<typeof ZStoryWriteResult>>,
) {
  return editorProcedure
    .input(schema)
    .output(ZStoryWriteResult)
    .mutation(({ ctx, input }) =>
      write(ctx.db, { actor: ctx.actor, input: input as z.output<S>, now: new Date(), appUrl: appUrl() }),
    );
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
  options: editorProcedure
    .output(ZStoryFormOptions)
    .query(({ ctx }) => listStoryFormOptions(ctx.db, { actor: ctx.actor })),

  create: storyWrite(ZCreateStoryInput, createStory),
  update: storyWrite(ZUpdateStoryInput, updateStory),
  transition: storyWrite(ZTransitionStoryInput, transitionStory),

  /** Publish an approved story at a time (the scheduler publishes it then, as Publish would). */
  schedule: storyWrite(ZScheduleStoryInput, scheduleStoryPublication),

  /** Call a scheduled publication off; the story stays approved. */
  unschedule: storyWrite(ZUnscheduleStoryInput, cancelStoryPublication),

  delete: editorProcedure
    .input(ZDeleteStoryInput)
    .output(z.object({ deleted: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await deleteStory(ctx.db, { actor: ctx.actor, id: input.id, version: input.version, now: new Date() });
      return { deleted: true as const };
    }),
});
