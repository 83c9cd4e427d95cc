/** imports.* – the dashboard's Import page, for owners: sources, an upload's dry run and import, the runs. */
import { z } from "zod";

import {
  ZImportRunView,
  ZImportSourceView,
  ZImportUploadView,
  ZListImportRunsInput,
  ZPlanOption,
  ZSetPlanMappingInput,
  ZStartImportInput,
  ZUploadInput,
} from "../../imports/dashboard/dashboard.schema";
import {
  cancelImport,
  getImportUpload,
  getLatestImportUpload,
  listImportRuns,
  listImportSources,
  startImport,
} from "../../imports/dashboard/operations";
import { listPlanChoices, setPlanMapping } from "../../imports/dashboard/plan-mapping";
import { createTRPCRouter, ownerProcedure } from "../trpc";

export const importsRouter = createTRPCRouter({
  /** What can be imported: every source of the registry, with its description. */
  sources: ownerProcedure
    .input(z.void())
    .output(z.array(ZImportSourceView))
    .query(() => listImportSources()),

  /** One upload: its operation's state and progress, the dry run's report, its latest run. */
  upload: ownerProcedure
    .input(ZUploadInput)
    .output(ZImportUploadView)
    .query(({ ctx, input }) =>
      getImportUpload(ctx.db, { actor: ctx.actor, uploadId: input.uploadId, now: new Date() }),
    ),

  /** The account's latest upload, or null: what the page shows when it opens. */
  latest: ownerProcedure
    .input(z.void())
    .output(ZImportUploadView.nullable())
    .query(({ ctx }) => getLatestImportUpload(ctx.db, { actor: ctx.actor, now: new Date() })),

  /** Import the file whose dry run the owner reviewed (also: Resume an interrupted import). 409 when another is under way. */
  start: ownerProcedure
    .input(ZStartImportInput)
    .output(ZImportUploadView)
    .mutation(({ ctx, input }) => startImport(ctx.db, { actor: ctx.actor, ...input, now: new Date() })),

  /** The account's plans an old plan of a subscriptions or Ghost members file can become. */
  planChoices: ownerProcedure
    .input(z.void())
    .output(z.array(ZPlanOption))
    .query(({ ctx }) => listPlanChoices(ctx.db, { actor: ctx.actor })),

  /** Map the file's old plans onto the account's and check it again (a new dry run). */
  setPlanMapping: ownerProcedure
    .input(ZSetPlanMappingInput)
    .output(ZImportUploadView)
    .mutation(({ ctx, input }) => setPlanMapping(ctx.db, { actor: ctx.actor, ...input, now: new Date() })),

  /** Stop the upload's operation after the batch in flight (or before it starts). */
  cancel: ownerProcedure
    .input(ZUploadInput)
    .output(ZImportUploadView)
    .mutation(({ ctx, input }) =>
      cancelImport(ctx.db, { actor: ctx.actor, uploadId: input.uploadId, now: new Date() }),
    ),

  /** The account's runs, newest first (the dashboard's and the command line's). */
  runs: ownerProcedure
    .input(ZListImportRunsInput)
    .output(z.array(ZImportRunView))
    .query(({ ctx, input }) => listImportRuns(ctx.db, { actor: ctx.actor, limit: input.limit, now: new Date() })),
});
