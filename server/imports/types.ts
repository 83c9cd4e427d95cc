/**
 * The vocabulary of imports (docs/migration.md), shared by the runner and every source.
 *
 * - A **source** reads one kind of export file ("disqus", "wxr-comments"; later WXR posts, Ghost
 *   JSON, readers and subscriptions CSVs). `prepare` reads the file once to check it and to index
 *   what later items need (ids, parents), in bounded memory: it never keeps the file's content.
 *   `items` then streams the file again and yields its **items** in the order they must be applied.
 * - An **item** is one thing of the file (a thread, a comment, a row) of a **kind** ("page",
 *   "comment"…), named by the source's own id. It is **planned** (`plan`: reads only) and, unless
 *   the run is a dry run, **applied** in a transaction with the other items of its batch: a plan
 *   says create, update, skip or refuse, with a reason for the last two.
 * - What an applied item created is **recorded** (import_records: account, source, kind, source
 *   id → the Masthead row) in the same transaction, so a second run finds it and changes nothing,
 *   and a run killed mid-way resumes where it stopped.
 * - A **problem** is something wrong with the file itself rather than with an item (a truncated
 *   end, an element out of place): one line each in the report.
 */
import type { Actor } from "../auth/actor";
import type { Db, TransactionClient } from "../db/client";
import type { Publisher } from "../publishing/publisher";

/** What happens to an item, or to a row it touches. */
export type ImportAction = "create" | "update" | "skip" | "refuse";
export const IMPORT_ACTIONS: readonly ImportAction[] = ["create", "update", "skip", "refuse"];

/** One item of a file. `label` names it for a person reading the report ("post 123 on …"). */
export type ImportItem = { kind: string; sourceId: string; label: string };

/** A row an item's plan touches besides its own (a page, a member): counted under its kind. */
export type PlanEffect = { kind: string; action: "create" | "update"; label: string };

/** A mapping a later item will look up (a page, a member, a comment replied to). */
export type Mapping = { kind: string; sourceId: string };

/**
 * What an item comes to. `reason` says why (a skip, a refusal) or what (a create, an update: the
 * dry run prints it). `apply` writes it in the batch's transaction (a skip may still record the
 * row it matched); `remember` is what later items look up, remembered once applied (or, in a dry
 * run, as if applied).
 */
export type ItemPlan = {
  action: ImportAction;
  reason: string;
  effects?: PlanEffect[];
  remember?: Mapping[];
  apply?: (tx: TransactionClient) => Promise<void>;
  /**
   * Counted in the report under `name` once the item is (the threads that went to stories, per
   * how they were matched); `line`, when set, is listed too (the first few).
   */
  tally?: { name: string; line?: string };
};

/** The file to import. */
export type ImportFile = { path: string; name: string };

/** A file that cannot be read at all (the CLI's one non-zero exit). */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportFileError";
  }
}

/** Thrown by a run's `afterItem` hook to stop it as a kill would (tests of resuming). */
export class ImportAborted extends Error {
  constructor(message = "import stopped") {
    super(message);
    this.name = "ImportAborted";
  }
}

/**
 * A site as a record scope: a URL's host (lower case, without "www.") and path (without a trailing
 * slash): "https://www.Old-Blog.example.org/blog/" → "old-blog.example.org/blog". A label that is
 * not a URL is kept as written, trimmed and lower-cased. At most 200 characters.
 */
export function siteScope(value: string | null | undefined): string {
  const text = (value ?? "").trim();
  if (!text) return "";
  try {
    const url = new URL(text);
    if (url.protocol === "http:" || url.protocol === "https:") {
      const host = url.host.toLowerCase().replace(/^www\./, "");
      return `${host}${url.pathname.replace(/\/+$/, "")}`.slice(0, 200);
    }
  } catch {
    // not a URL: a label
  }
  return text.toLowerCase().slice(0, 200);
}

/** A problem of the file: where (line, or a name) and what. */
export type FileProblem = { where: string; message: string };

/**
 * The run as a source sees it: the account, the clock, and the mappings of what earlier items
 * created (import_records, with what this run did so far).
 */
/** MappingStore.recordMany's options: `skipDuplicates` leaves a mapping the site has as it is. */
export type RecordManyOptions = { skipDuplicates?: boolean };

export type ImportContext = {
  accountId: number;
  publisher: Publisher;
  source: string;
  actor: Actor;
  dryRun: boolean;
  /**
   * The site the source's ids belong to (import_records.site): the file's own (a WordPress
   * export's blog URL, a content API's base URL), or the operator's --site; "" when unknown.
   */
  site: string;
  /**
   * Tell the world as a live write would (--announce): the stories' publish webhooks, the
   * comment notification e-mails. Off by default: an import is quiet.
   */
  announce: boolean;
  now: Date;
  /** The run's id (null in a dry run, which records nothing). */
  runId: string | null;
  /**
   * The Masthead id `kind`/`sourceId` became, or null: this run's and earlier runs'. In a dry run,
   * what an earlier plan would have created answers DRY_RUN_ID (mappings.ts).
   */
  lookup: (db: Db, mapping: Mapping) => Promise<string | null>;
  /**
   * Record what an item created or matched (import_records) in its transaction, and remember it
   * for later items once the transaction commits.
   */
  record: (
    tx: TransactionClient,
    row: Mapping & { targetId: string | number; created: boolean; sourceParentId?: string | null },
  ) => Promise<void>;
  /** Read in one statement the mappings of `sourceIds` of `kind` (a batch's prefetch). */
  preload: (db: Db, kind: string, sourceIds: readonly string[]) => Promise<void>;
  /** The same for many rows, in one statement. */
  recordMany: (
    tx: TransactionClient,
    rows: (Mapping & { targetId: string | number; created: boolean; sourceParentId?: string | null })[],
    options?: RecordManyOptions,
  ) => Promise<void>;
  /** A note for the report: a choice made on the operator's behalf (an e-mail taken in lower case). */
  note: (message: string) => void;
};

/** What `prepare` found: the file's digest, its problems, and how to stream its items. */
export type PreparedSource<I extends ImportItem = ImportItem> = {
  /** SHA-256 of the file's bytes, hex. */
  digest: string;
  /** How many items `items` will yield (for progress). */
  itemCount: number;
  /** The site the file's ids belong to, normalised (siteScope), when the file says. */
  site?: string;
  problems: FileProblem[];
  items(): AsyncIterable<I>;
  // Methods (not function properties), so that a source of its own item type is an ImportSource.
  plan(db: Db, item: I, ctx: ImportContext): Promise<ItemPlan>;
  /**
   * Write what the batch's items left for the end (rows written together, in one statement), in
   * the batch's transaction, after its last item; `discard` forgets them when it rolls back.
   */
  flush?(tx: TransactionClient, ctx: ImportContext): Promise<void>;
  discard?(): void;
  /** Read in one statement what a batch of items will look up (optional: plans look up one by one otherwise). */
  prefetch?(db: Db, items: readonly I[], ctx: ImportContext): Promise<void>;
};

/** What a source knows of the account when it reads the file: its public site URL, when set in Settings. */
export type PrepareAccount = { siteUrl: string | null };

/** One source format. */
export type ImportSource<I extends ImportItem = ImportItem> = {
  name: string;
  /** One line for `--help` and the report. */
  description: string;
  /** The kinds it yields or touches, in the report's order. */
  kinds: readonly string[];
  /**
   * Why the dashboard cannot run it (its export is a folder, or it needs a mapping the operator
   * reviews first): it is imported with `npm run import` only, and this says to an owner, in plain
   * words (no commands), what to do instead. Unset: the dashboard runs it too.
   */
  commandLineOnly?: string;
  /** Read the file once; ImportFileError when it cannot be read at all. */
  prepare(file: ImportFile, account?: PrepareAccount): Promise<PreparedSource<I>>;
};
