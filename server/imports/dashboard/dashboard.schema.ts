/**
 * The dashboard's Import page (tRPC `imports.*`, POST /api/admin/imports): what it sends and what
 * it gets. zod only, so the page's client components may import it.
 *
 * - An **upload** is a file an owner sent, stored under IMPORT_DIR with its SHA-256. Its latest
 *   **operation** is a "dry-run" (the runner with dryRun: it changes nothing) or an "import" (a
 *   real run: an import_runs row), run as a background job; `state` is that operation's.
 * - A **run** is an import_runs row: the dashboard's and the command line's alike.
 */
import { z } from "zod";

import { IMPORT_ACTIONS, type ImportAction } from "../types";

/** A source's name as the registry (sources.ts) spells it; checked against the registry by the services. */
const ZImportSourceName = z
  .string({ error: "Choose what the file is (a source)." })
  .trim()
  .min(1, "Choose what the file is (a source).")
  .max(64);

/** The file's name as the browser gives it: kept for the report and the list of runs. */
const ZImportFileName = z
  .string({ error: "Give the file's name." })
  .trim()
  .min(1, "Give the file's name.")
  .max(255, "The file's name may be at most 255 characters.")
  .refine((name) => !/[\u0000-\u001f\\/]/.test(name), "The file's name may not hold slashes or control characters.");

/** POST /api/admin/imports?source=…&name=… (the body is the file's bytes). */
export const ZImportUploadQuery = z.object({ source: ZImportSourceName, name: ZImportFileName });

const ZImportUploadId = z.uuid("An upload id is a UUID.");

/** Start the real run of an uploaded file (Import, and Resume): `digest` is the dry run's, as the owner reviewed it. */
export const ZStartImportInput = z.object({
  uploadId: ZImportUploadId,
  digest: z.string().regex(/^[0-9a-f]{64}$/, "A SHA-256 digest is 64 hexadecimal digits."),
});
export const ZUploadInput = z.object({ uploadId: ZImportUploadId });

export const ZListImportRunsInput = z.object({ limit: z.number().int().min(1).max(100).default(20) });

const ZImportOperation = z.enum(["dry-run", "import"]);
const ZImportState = z.enum(["queued", "running", "completed", "interrupted", "failed"]);
export type TImportState = z.infer<typeof ZImportState>;

const ZActionCounts = z.object({
  create: z.number().int(),
  update: z.number().int(),
  skip: z.number().int(),
  refuse: z.number().int(),
}) satisfies z.ZodType<Record<ImportAction, number>>;

const ZReportLine = z.object({
  kind: z.string(),
  sourceId: z.string().nullable(),
  label: z.string(),
  reason: z.string(),
  // Reports stored before lines carried their row's page: none.
  href: z.string().nullable().default(null),
});

/** report.ts's ImportReport, as stored with the upload (dry run) or the run (import). */
export const ZImportReport = z.object({
  source: z.string(),
  file: z.string(),
  digest: z.string(),
  account: z.string(),
  dryRun: z.boolean(),
  // Reports stored before runs said their site and whether they announced: "" and quiet.
  site: z.string().default(""),
  announce: z.boolean().default(false),
  runId: z.string().nullable(),
  status: z.enum(["completed", "interrupted", "failed"]),
  kinds: z.record(z.string(), ZActionCounts),
  lines: z.object(
    Object.fromEntries(IMPORT_ACTIONS.map((a) => [a, z.array(ZReportLine)])) as Record<
      ImportAction,
      z.ZodArray<typeof ZReportLine>
    >,
  ),
  problems: z.array(z.object({ where: z.string(), message: z.string() })),
  problemCount: z.number().int(),
  notes: z.array(z.string()),
  noteCount: z.number().int(),
  // Reports stored before sources counted beyond items (threads per match): none.
  tallies: z.record(z.string(), z.object({ count: z.number().int(), lines: z.array(z.string()) })).default({}),
  error: z.string().nullable(),
  seconds: z.number(),
});

/** A report as the page gets it: with `text`, the report as the command line prints it (report.ts formatReport). */
const ZImportReportView = ZImportReport.extend({ text: z.string() });
export type TImportReportView = z.infer<typeof ZImportReportView>;

export const ZImportSourceView = z.object({
  name: z.string(),
  description: z.string(),
  kinds: z.array(z.string()),
  /** Why it is imported from the command line only; null: the dashboard runs it. */
  commandLineOnly: z.string().nullable(),
});

const ZProgress = z.object({
  done: z.number().int(),
  total: z.number().int(),
  /** When it last moved. */
  at: z.date(),
});

/** One run (import_runs), for the list and for an upload's real run. */
export const ZImportRunView = z.object({
  id: z.string(),
  source: z.string(),
  fileName: z.string(),
  fileDigest: z.string(),
  /** Who ran it ("the command line" when no staff user did). */
  actor: z.string().nullable(),
  /** running, completed, interrupted (stopped, or killed: a running run whose progress stopped moving), failed. */
  status: z.enum(["running", "completed", "interrupted", "failed"]),
  counts: z.record(z.string(), ZActionCounts),
  problems: z.number().int(),
  error: z.string().nullable(),
  startedAt: z.date(),
  finishedAt: z.date().nullable(),
  progress: ZProgress,
  uploadId: z.string().nullable(),
});
export type TImportRunView = z.infer<typeof ZImportRunView>;

export const ZImportUploadView = z.object({
  id: z.string(),
  source: z.string(),
  fileName: z.string(),
  fileDigest: z.string(),
  bytes: z.number().int(),
  uploadedBy: z.string().nullable(),
  createdAt: z.date(),
  operation: ZImportOperation,
  state: ZImportState,
  /** The operation under way was asked to stop. */
  cancelRequested: z.boolean(),
  /** The latest operation's progress (the dry run's, or its real run's). */
  progress: ZProgress,
  error: z.string().nullable(),
  dryReport: ZImportReportView.nullable(),
  /** The latest real run of this file, with its report once finished. */
  run: ZImportRunView.extend({ report: ZImportReportView.nullable() }).nullable(),
});
export type TImportUploadView = z.infer<typeof ZImportUploadView>;

/** What POST /api/admin/imports answers (201). */
export const ZImportUploadCreated = z.object({
  id: z.string(),
  source: z.string(),
  "file-name": z.string(),
  digest: z.string(),
  bytes: z.number().int(),
  state: ZImportState,
});
