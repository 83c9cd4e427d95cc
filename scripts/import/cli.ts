/**
 * `npm run import -- --from <source> FILE [--account <slug>] [--actor <email>] [--dry-run]
 * [--site <label>] [--announce] [--collections <slugs>] [--newsletter <slug>] [--ghost-url <url>]
 * [--as-of <instant>]`
 * (docs/migration.md): the arguments, who acts, and the report. scripts/import.ts opens the
 * database and calls `importCommand`; tests call it with theirs.
 *
 * Exit codes: 0 when the file was read (whatever was refused or skipped: the report says what and
 * why), 1 when it cannot be read at all or the run could not go on, 2 for a wrong command line.
 * Every failure is one line, never a stack trace.
 */
import { parseArgs } from "node:util";

import { z } from "zod";

import { staffActor, systemActor, type Actor } from "../../server/auth/actor";
import type { Db } from "../../server/db/client";
import { AppError } from "../../server/errors";
import { ZGhostUrl } from "../../server/imports/content/ghost-urls";
import { displayName } from "../../server/imports/limits";
import { AS_OF_SOURCES, sourceWithOptions } from "../../server/imports/options";
import { planOptionsError, planTemplateAfterRun } from "../../server/imports/readers/command";
import { NEWSLETTER_CSV_SOURCE } from "../../server/imports/readers/newsletter-csv";
import { formatReport, type ImportReport } from "../../server/imports/report";
import { runImport } from "../../server/imports/runner";
import { importSourceNamed, importSourceNames } from "../../server/imports/sources";
import { ImportFileError } from "../../server/imports/types";

const USAGE =
  "Usage: npm run import -- --from <source> FILE [--account <slug>] [--actor <owner e-mail>] [--dry-run]\n" +
  "       [--site <label>] (the site the file's ids belong to, instead of the one the file names)\n" +
  "       [--announce] (send the webhooks and e-mails live writes send; default: quiet)\n" +
  "       [--collections home,politics] (content-api: collections to import besides those it finds)\n" +
  "       [--plans MAPPING.json] [--plans-template OUT.json] (subscriptions: the plan mapping)\n" +
  "       [--newsletter <slug>] (newsletter-csv: the newsletter of rows that name none)\n" +
  "       [--ghost-url https://old-site.example] (ghost: the old site's address, for __GHOST_URL__)\n" +
  "       [--as-of 2026-11-01T00:00:00Z] (the instant the file was exported: statuses and access as they were then)\n" +
  `Sources: ${importSourceNames()
    .map((name) => `${name} (${importSourceNamed(name)!.description})`)
    .join("; ")}`;

type ImportCommand = {
  from: string;
  file: string;
  account?: string;
  actor?: string;
  dryRun: boolean;
  site?: string;
  announce: boolean;
  collections: string[];
  plans?: string;
  plansTemplate?: string;
  newsletter?: string;
  ghostUrl?: string;
  asOf?: Date;
};

/** --as-of: an ISO 8601 instant with its zone, not in the future. */
const ZAsOf = z.iso
  .datetime({ offset: true })
  .transform((text) => new Date(text))
  .refine((at) => at.getTime() <= Date.now(), "is in the future");

function parseAsOf(text: string | undefined): { asOf?: Date } | { error: string } {
  if (text === undefined) return {};
  const parsed = ZAsOf.safeParse(text.trim());
  if (parsed.success) return { asOf: parsed.data };
  const future = parsed.error.issues.some((i) => i.message === "is in the future");
  return {
    error: future
      ? `--as-of ${text} is in the future: give the instant the file was exported.`
      : `--as-of takes an instant in ISO 8601 with its zone, e.g. 2026-11-01T00:00:00Z (not "${text}").`,
  };
}

/** The command line, or the one line saying what is wrong with it. */
export function parseImportArgs(argv: string[]): { command: ImportCommand } | { error: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        from: { type: "string" },
        account: { type: "string" },
        actor: { type: "string" },
        "dry-run": { type: "boolean", default: false },
        site: { type: "string" },
        announce: { type: "boolean", default: false },
        collections: { type: "string" },
        plans: { type: "string" },
        "plans-template": { type: "string" },
        newsletter: { type: "string" },
        "ghost-url": { type: "string" },
        "as-of": { type: "string" },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    return { error: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { error: "" };
  if (!values.from) return { error: "Say which system the file comes from: --from <source>." };
  if (!importSourceNamed(values.from)) {
    return { error: `Unknown source "${values.from}": use one of ${importSourceNames().join(", ")}.` };
  }
  if (positionals.length !== 1) return { error: "Give exactly one FILE to import." };
  if (values.site !== undefined && !/^[\w.:/-]{1,200}$/.test(values.site.trim())) {
    return { error: "--site is a site's URL or a label of letters, digits, dots, dashes and slashes." };
  }
  const collections = (values.collections ?? "")
    .split(",")
    .map((slug) => slug.trim())
    .filter(Boolean);
  if (collections.length > 0 && values.from !== "content-api") {
    return { error: "--collections is for --from content-api (the collections of the site it reads)." };
  }
  if (collections.some((slug) => !/^[\w-]{1,200}$/.test(slug))) {
    return { error: "--collections takes collection slugs separated by commas: --collections home,politics." };
  }
  if (values.newsletter !== undefined && values.from !== NEWSLETTER_CSV_SOURCE) {
    return { error: `--newsletter is for --from ${NEWSLETTER_CSV_SOURCE} (the newsletter of rows that name none).` };
  }
  if (values.newsletter !== undefined && !/^[\w-]{1,200}$/.test(values.newsletter.trim())) {
    return { error: "--newsletter takes a newsletter's slug: --newsletter morning-briefing." };
  }
  const ghostUrl = ghostUrlOption(values["ghost-url"], values.from);
  if (ghostUrl && "error" in ghostUrl) return ghostUrl;
  const asOf = parseAsOf(values["as-of"]);
  if ("error" in asOf) return { error: asOf.error };
  if (asOf.asOf && !AS_OF_SOURCES.includes(values.from)) {
    return { error: `--as-of is for the readers' files: --from ${AS_OF_SOURCES.join(", ")}.` };
  }
  const command: ImportCommand = {
    from: values.from,
    file: positionals[0]!,
    account: values.account,
    actor: values.actor?.trim().toLowerCase(),
    dryRun: values["dry-run"],
    site: values.site?.trim(),
    announce: values.announce,
    collections,
    plans: values.plans,
    plansTemplate: values["plans-template"],
    newsletter: values.newsletter?.trim(),
    ghostUrl: ghostUrl?.url,
    asOf: asOf.asOf,
  };
  const planError = planOptionsError(command);
  return planError ? { error: planError } : { command };
}

/** --ghost-url: an http(s) address, for --from ghost only (zod: ZGhostUrl); undefined when not given. */
function ghostUrlOption(value: string | undefined, from: string): { url: string } | { error: string } | undefined {
  if (value === undefined) return undefined;
  if (from !== "ghost") return { error: "--ghost-url is for --from ghost (the old Ghost site's address)." };
  const parsed = ZGhostUrl.safeParse(value);
  return parsed.success ? { url: parsed.data } : { error: parsed.error.issues[0]!.message };
}

/** The account to import into and who acts (an owner by e-mail, or the system). */
async function accountAndActor(db: Db, command: ImportCommand): Promise<{ accountId: number; actor: Actor }> {
  let accountId: number | undefined;
  if (command.account) {
    const account = await db.account.findUnique({ where: { slug: command.account }, select: { id: true } });
    if (!account) throw new AppError("NOT_FOUND", `No account has the slug "${command.account}".`);
    accountId = account.id;
  }
  if (command.actor) {
    const user = await db.adminUser.findUnique({ where: { email: command.actor } });
    if (!user || user.disabledAt)
      throw new AppError("NOT_FOUND", `No active dashboard user has the e-mail ${command.actor}.`);
    if (accountId !== undefined && user.accountId !== accountId) {
      throw new AppError("FORBIDDEN", `${command.actor} is not a user of the account "${command.account}".`);
    }
    if (!user.roles.includes("OWNER"))
      throw new AppError("FORBIDDEN", `${command.actor} is not an owner: only owners import.`);
    return {
      accountId: user.accountId,
      actor: staffActor({ id: user.id, accountId: user.accountId, roles: user.roles }),
    };
  }
  if (accountId === undefined) {
    const accounts = await db.account.findMany({ select: { id: true, slug: true }, orderBy: { id: "asc" }, take: 21 });
    if (accounts.length !== 1) {
      const slugs = accounts.map((a) => a.slug).join(", ") || "none exists yet";
      throw new AppError("BAD_REQUEST", `Say which account to import into: --account <slug> (${slugs}).`);
    }
    accountId = accounts[0]!.id;
  }
  return { accountId, actor: systemActor(accountId, "import") };
}

type CommandIo = {
  out: (text: string) => void;
  err: (text: string) => void;
  signal?: AbortSignal;
  /** Tests: stop as a kill would. */
  afterItem?: (applied: number) => void;
};

/** Run the command; the exit code (see the file's comment). */
export async function importCommand(
  db: Db,
  argv: string[],
  io: CommandIo,
): Promise<{ code: number; report?: ImportReport }> {
  const parsed = parseImportArgs(argv);
  if ("error" in parsed) {
    if (parsed.error) io.err(parsed.error);
    io.err(USAGE);
    return { code: 2 };
  }
  const { command } = parsed;
  try {
    const { accountId, actor } = await accountAndActor(db, command);
    let lastProgress = Date.now();
    const template = planTemplateAfterRun(command);
    const report = await runImport(db, {
      source: sourceWithOptions(command.from, { ...command, onPlans: template?.onPlans })!,
      file: { path: command.file, name: displayName(command.file) },
      accountId,
      actor,
      dryRun: command.dryRun,
      site: command.site,
      announce: command.announce,
      asOf: command.asOf,
      signal: io.signal,
      afterItem: io.afterItem,
      onProgress: (done, total) => {
        if (Date.now() - lastProgress < 5_000) return;
        lastProgress = Date.now();
        io.err(`… ${done.toLocaleString("en")} of ${total.toLocaleString("en")} items`);
      },
    });
    if (command.asOf) io.out(`As of ${command.asOf.toISOString()} (--as-of): statuses and access as they were then.`);
    io.out(formatReport(report));
    await template?.afterRun(db, accountId, io.out);
    return { code: report.status === "failed" ? 1 : 0, report };
  } catch (error) {
    if (error instanceof ImportFileError || error instanceof AppError) {
      io.err(error.message);
      return { code: 1 };
    }
    throw error;
  }
}
