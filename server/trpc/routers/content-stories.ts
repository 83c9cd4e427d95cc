/**
 * stories.* – writing stories and moving them through the workflow, for editors (OWNER passes).
 * Moves, and saves of published stories, emit CONTENT webhook events (delivered after the commit).
 */
import { z } from "zod";

import type { StaffActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { createPreviewLink } from "../../publishing/editorial/preview";
import { getRevision, listRevisions } from "../../publishing/editorial/revisions";
import {
  ZPreviewLink,
  ZPreviewLinkInput,
  ZRestoreRevisionInput,
  ZRevisionInput,
  ZRevisionListInput,
  ZRevisionPage,
  ZRevisionView,
} from "../../publishing/editorial/revisions.schema";
import { cancelStoryPublication, scheduleStoryPublication } from "../../publishing/editorial/scheduling";
import {
  ZCreateStoryInput,
  ZDeleteStoryInput,
  ZReturnNote,
  ZReturnNoteInput,
  ZScheduleStoryInput,
  ZStoryEditorView,
  ZStoryEntityChoices,
  ZStoryEntitySearchInput,
  ZStoryFormOptions,
  ZStoryPage,
  ZStoryWriteResult,
  ZTransitionStoryInput,
  ZUnscheduleStoryInput,
  ZUpdateStoryInput,
} from "../../publishing/editorial/stories.schema";
import { deleteStory, transitionStory } from "../../publishing/editorial/stories/moves";
import { getStory, listStoryFormOptions, searchStoryEntities } from "../../publishing/editorial/stories/read";
import { createStory, restoreRevision, updateStory } from "../../publishing/editorial/stories/write";
import {
  bulkStories,
  getDailyActivity,
  getEditorOverview,
  listStories,
} from "../../publishing/editorial/story-finding";
import {
  ZBulkStoriesInput,
  ZBulkStoriesResult,
  ZDailyActivity,
  ZEditorOverview,
  ZListStoriesInput,
} from "../../publishing/editorial/story-finding.schema";
import { getReturnNote } from "../../publishing/editorial/story-return-notes";
import { adminProcedure, appUrl, createTRPCRouter, editorProcedure } from "../trpc";

/**
 * Editors, and contributors (who write and submit their own drafts: the services refuse them the
 * rest, ../../publishing/editorial/authorship.ts). Bulk actions stay with editors.
 */
const writerProcedure = adminProcedure(["EDITOR", "CONTRIBUTOR"]);

/**
 * A write to a story: the service gets the writer, the parsed input, the time of the request and
 * the app's URL (for the story's links in webhook events); the answer is the written story.
 */
function storyWrite<S extends z.ZodType>(
  schema: S,
  write: (
    db: Db,
    args: { actor: StaffActor; input: z.output<S>; now: Date; appUrl: string },
  ) => Promise<z.input<typeof ZStoryWriteResult>>,
) {
  return writerProcedure
    .input(schema)
    .output(ZStoryWriteResult)
    .mutation(({ ctx, input }) =>
      write(ctx.db, { actor: ctx.actor, input: input as z.output<S>, now: new Date(), appUrl: appUrl() }),
    );
}

export const storiesRouter = createTRPCRouter({
  list: writerProcedure
    .input(ZListStoriesInput)
    .output(ZStoryPage)
    .query(({ ctx, input }) => listStories(ctx.db, { actor: ctx.actor, ...input })),

  /**
   * One action on up to 100 stories (submit, publish, retract, add to a collection, delete drafts),
   * each through the single-story service: per-story results, ok or refused with the reason.
   */
  bulk: editorProcedure
    .input(ZBulkStoriesInput)
    .output(ZBulkStoriesResult)
    .mutation(({ ctx, input }) => bulkStories(ctx.db, { actor: ctx.actor, input, now: new Date(), appUrl: appUrl() })),

  /** The overview's cards: awaiting approval, scheduled, published today (the account's day), my drafts. */
  overview: writerProcedure
    .output(ZEditorOverview)
    .query(({ ctx }) => getEditorOverview(ctx.db, { actor: ctx.actor, now: new Date() })),

  /** Stories first published and votes cast per day of the account's zone, the last 30 days. */
  activity: writerProcedure
    .output(ZDailyActivity)
    .query(({ ctx }) => getDailyActivity(ctx.db, { actor: ctx.actor, now: new Date() })),

  get: writerProcedure
    .input(z.object({ id: z.uuid() }))
    .output(ZStoryEditorView)
    .query(({ ctx, input }) => getStory(ctx.db, { actor: ctx.actor, id: input.id, appUrl: appUrl() })),

  /** Sections, authors and tags for the story form. */
  options: writerProcedure
    .output(ZStoryFormOptions)
    .query(({ ctx }) => listStoryFormOptions(ctx.db, { actor: ctx.actor, appUrl: appUrl() })),

  /** The account's entities whose name contains the words typed, for the story's entity picker. */
  entities: writerProcedure
    .input(ZStoryEntitySearchInput)
    .output(ZStoryEntityChoices)
    .query(({ ctx, input }) => searchStoryEntities(ctx.db, { actor: ctx.actor, ...input })),

  /** The story's revisions, newest first (one per save; an editor's autosaves within 10 minutes share one). */
  revisions: writerProcedure
    .input(ZRevisionListInput)
    .output(ZRevisionPage)
    .query(({ ctx, input }) => listRevisions(ctx.db, { actor: ctx.actor, ...input })),

  /** One revision with everything it saved. */
  revision: writerProcedure
    .input(ZRevisionInput)
    .output(ZRevisionView)
    .query(({ ctx, input }) => getRevision(ctx.db, { actor: ctx.actor, ...input })),

  /** Save a revision's content on top of the current version (which the caller must have: CONFLICT otherwise). */
  restoreRevision: storyWrite(ZRestoreRevisionInput, restoreRevision),

  /** The note left for the writer with the story's move back to draft, while it is a draft (null: none). */
  returnNote: writerProcedure
    .input(ZReturnNoteInput)
    .output(ZReturnNote.nullable())
    .query(({ ctx, input }) => getReturnNote(ctx.db, { actor: ctx.actor, storyId: input.storyId })),

  /** A private link to the story's current saved state (plain and AMP), working for 24 hours. */
  previewLink: writerProcedure
    .input(ZPreviewLinkInput)
    .output(ZPreviewLink)
    .mutation(({ ctx, input }) =>
      createPreviewLink(ctx.db, { actor: ctx.actor, storyId: input.storyId, now: new Date(), appUrl: appUrl() }),
    ),

  create: storyWrite(ZCreateStoryInput, createStory),
  update: storyWrite(ZUpdateStoryInput, updateStory),
  transition: storyWrite(ZTransitionStoryInput, transitionStory),

  /** Publish an approved story at a time (the scheduler publishes it then, as Publish would). */
  schedule: storyWrite(ZScheduleStoryInput, scheduleStoryPublication),

  /** Call a scheduled publication off; the story stays approved. */
  unschedule: storyWrite(ZUnscheduleStoryInput, cancelStoryPublication),

  delete: writerProcedure
    .input(ZDeleteStoryInput)
    .output(z.object({ deleted: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await deleteStory(ctx.db, { actor: ctx.actor, id: input.id, version: input.version, now: new Date() });
      return { deleted: true as const };
    }),
});
