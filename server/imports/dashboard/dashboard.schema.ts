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

import { ZGhostUrl } from "../content/ghost-urls";
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

/** One old plan of the file and the account's plan it becomes (null: not decided yet, its rows are refused). */
const ZPlanChoice = z.object({
  old: z.string().trim().min(1, "An old plan is named.").max(500),
  plan: z.number().int().positive().nullable(),
});

/**
 * The options of an upload, the command line's flags of the same names (docs/migration.md): each
 * is for the sources the flag is for (server/imports/options.ts says which), checked on upload.
 */
export const ZImportOptions = z.object({
  /** --site: the site the file's ids belong to, instead of the one the file names. */
  site: z
    .string()
    .trim()
    .regex(/^[\w.:/-]{1,200}$/, "The site is a site's URL or a label of letters, digits, dots, dashes and slashes.")
    .optional(),
  /** --announce: send the webhooks and e-mails live writes send (default: quiet). */
  announce: z.boolean().default(false),
  /** --ghost-url: the old Ghost site's address, which __GHOST_URL__ stands for. */
  ghostUrl: ZGhostUrl.optional(),
  /** --as-of: the instant the file was exported (ISO 8601 with its zone). */
  asOf: z.iso
    .datetime({ offset: true, error: "The export's instant is ISO 8601 with its zone, e.g. 2026-11-01T00:00:00Z." })
    .optional(),
  /** --newsletter: the newsletter of rows that name none. */
  newsletter: z
    .string()
    .trim()
    .regex(/^[\w-]{1,200}$/, "The newsletter is named by its slug.")
    .optional(),
  /** --plans: each old plan of the file → one of the account's plans. */
  plans: z.array(ZPlanChoice).max(500, "At most 500 old plans are mapped.").optional(),
});
export type TImportOptions = z.infer<typeof ZImportOptions>;

/** A query string's yes (announce=1). */
const ZQueryFlag = z
  .enum(["1", "0", "true", "false"], { error: "is 1 or 0" })
  .transform((v) => v === "1" || v === "true");

/** POST /api/admin/imports?source=…&name=…[&site=…&announce=1&ghost-url=…&as-of=…&newsletter=…] (the body is the file's bytes). */
export const ZImportUploadQuery = z.object({
  source: ZImportSourceName,
  name: ZImportFileName,
  site: ZImportOptions.shape.site,
  announce: ZQueryFlag.optional(),
  "ghost-url": ZImportOptions.shape.ghostUrl,
  "as-of": ZImportOptions.shape.asOf,
  newsletter: ZImportOptions.shape.newsletter,
});

/** Set the plan mapping of an uploaded file and check it again (a new dry run). */
export const ZSetPlanMappingInput = z.object({
  uploadId: z.uuid("An upload id is a UUID."),
  plans: z.array(ZPlanChoice).min(1, "Map at least one old plan.").max(500),
});

/** One of the account's plans an old plan can become. */
export const ZPlanOption = z.object({ id: z.number().int(), label: z.string() });

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
  // The old plans (or Ghost tiers of complimentary members) the file names, with their rows: what
  // the plan mapping maps. Reports of other sources, and older ones: none.
  oldPlans: z.array(z.object({ plan: z.string(), rows: z.number().int() })).default([]),
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
  /** The options it takes (ZImportOptions's, as the query string names them): site, announce, ghost-url, as-of, newsletter, plans. */
  options: z.array(z.string()),
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
  /** The options it was uploaded with (and the plan mapping set since). */
  options: ZImportOptions,
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
