/**
 * What a run did, or would do in a dry run: counts per kind and action, the first lines of each
 * action (with the reason of every skip and refusal), the file's problems and the notes. Pure:
 * the runner adds to it, the CLI prints it (`formatReport`), the run record keeps its counts.
 */
import { nullPrototypeRecord, type NullPrototypeRecord } from "@/server/own-keys";

import { IMPORT_ACTIONS, type FileProblem, type ImportAction } from "./types";

/** Lines kept per action (the counts are always whole). */
const REPORT_LINES_PER_ACTION = 20;
/** Notes and problems kept (each counted beyond that). */
const MAX_NOTES = 50;

/** `href`: where staff open what the item became (a real run's created, updated or matched rows of a kind that has a page). */
type ReportLine = { kind: string; sourceId: string | null; label: string; reason: string; href?: string | null };

/** The dashboard page of an imported row, by kind; kinds without a page of their own are absent. */
const ITEM_PAGES = new Map<string, (id: string) => string>([
  ["story", (id) => `/admin/content/stories/${encodeURIComponent(id)}`],
  ["collection", (id) => `/admin/content/collections/${encodeURIComponent(id)}`],
  ["member", (id) => `/admin/engagement/community?q=${encodeURIComponent(`#${id}`)}`],
]);

/** The absolute dashboard URL of the row `targetId` of `kind`, or null when that kind has no page. */
export function importedItemLink(appUrl: string, kind: string, targetId: string): string | null {
  const page = ITEM_PAGES.get(kind);
  return page ? `${appUrl.replace(/\/+$/, "")}${page(targetId)}` : null;
}

export type ImportReport = {
  source: string;
  file: string;
  digest: string;
  account: string;
  dryRun: boolean;
  /** The site the file's ids belong to (import_records.site); "" when none. */
  site: string;
  /** Webhooks and e-mails sent as for live writes (--announce); false: quiet. */
  announce: boolean;
  runId: string | null;
  /** completed, interrupted (the operator stopped it), failed; a dry run: completed. */
  status: "completed" | "interrupted" | "failed";
  kinds: NullPrototypeRecord<Record<ImportAction, number>>;
  lines: Record<ImportAction, ReportLine[]>;
  problems: FileProblem[];
  problemCount: number;
  notes: string[];
  noteCount: number;
  /** What sources count beyond items (ItemPlan.tally), by name: the count and the first lines. */
  tallies: NullPrototypeRecord<{ count: number; lines: string[] }>;
  error: string | null;
  seconds: number;
};

export function newReport(args: {
  source: string;
  kinds: readonly string[];
  file: string;
  digest: string;
  account: string;
  dryRun: boolean;
  site?: string;
  announce?: boolean;
}): ImportReport {
  const kinds: ImportReport["kinds"] = nullPrototypeRecord();
  for (const kind of args.kinds) kinds[kind] = { create: 0, update: 0, skip: 0, refuse: 0 };
  return {
    source: args.source,
    file: args.file,
    digest: args.digest,
    account: args.account,
    dryRun: args.dryRun,
    site: args.site ?? "",
    announce: args.announce ?? false,
    runId: null,
    status: "completed",
    kinds,
    lines: { create: [], update: [], skip: [], refuse: [] },
    problems: [],
    problemCount: 0,
    notes: [],
    noteCount: 0,
    tallies: nullPrototypeRecord(),
    error: null,
    seconds: 0,
  };
}

/** Count one item (or a row it touched) under `action`, keeping its line while there is room. */
export function countAction(report: ImportReport, action: ImportAction, line: ReportLine): void {
  const counts = (report.kinds[line.kind] ??= { create: 0, update: 0, skip: 0, refuse: 0 });
  counts[action]++;
  const kept = report.lines[action];
  if (kept.length < REPORT_LINES_PER_ACTION) kept.push(line);
}

export function addProblem(report: ImportReport, problem: FileProblem): void {
  report.problemCount++;
  if (report.problems.length < MAX_NOTES) report.problems.push(problem);
}

export function addNote(report: ImportReport, note: string): void {
  report.noteCount++;
  if (report.notes.length < MAX_NOTES) report.notes.push(note);
}

/** Count one under `name` (ItemPlan.tally), keeping `line` while there is room. */
export function addTally(report: ImportReport, name: string, line?: string): void {
  const tally = (report.tallies[name] ??= { count: 0, lines: [] });
  tally.count++;
  if (line !== undefined && tally.lines.length < REPORT_LINES_PER_ACTION) tally.lines.push(line);
}

/** The counts a run record keeps. */
export function reportCounts(report: ImportReport) {
  return { kinds: report.kinds, problems: report.problemCount, notes: report.noteCount };
}

const HEADINGS: Record<ImportAction, [string, string]> = {
  create: ["Would create", "Created"],
  update: ["Would update", "Updated"],
  skip: ["Would skip", "Skipped"],
  refuse: ["Would refuse", "Refused"],
};

/** The report as the CLI prints it. */
export function formatReport(report: ImportReport): string {
  const out: string[] = [];
  const mode = report.dryRun ? "DRY RUN: nothing was changed" : `run ${report.runId ?? "-"}`;
  out.push(`Import from ${report.source}: ${report.file} into account ${report.account} (${mode})`);
  out.push(`File SHA-256 ${report.digest}; ${report.seconds.toFixed(1)} s; ${report.status}`);
  out.push(
    `Site ${report.site ? `"${report.site}"` : "(none)"}; ` +
      (report.announce
        ? "announced: webhooks and e-mails are sent as for live writes"
        : "quiet: no webhook and no e-mail is sent (--announce to send them)"),
  );
  if (report.error) out.push(`Stopped: ${report.error}`);
  out.push("");
  const width = Math.max(8, ...Object.keys(report.kinds).map((k) => k.length));
  out.push(`${"".padEnd(width)}  ${IMPORT_ACTIONS.map((a) => a.padStart(7)).join(" ")}`);
  for (const [kind, counts] of Object.entries(report.kinds)) {
    out.push(`${kind.padEnd(width)}  ${IMPORT_ACTIONS.map((a) => String(counts[a]).padStart(7)).join(" ")}`);
  }
  for (const action of IMPORT_ACTIONS) {
    const total = Object.values(report.kinds).reduce((n, counts) => n + counts[action], 0);
    if (total === 0) continue;
    const lines = report.lines[action];
    out.push(
      "",
      `${HEADINGS[action][report.dryRun ? 0 : 1]} (${total}${total > lines.length ? `, first ${lines.length}` : ""}):`,
    );
    for (const line of lines)
      out.push(`  ${line.kind} ${line.label}: ${line.reason}${line.href ? ` <${line.href}>` : ""}`);
  }
  const tallies = Object.entries(report.tallies);
  if (tallies.length > 0) out.push("");
  for (const [name, tally] of tallies) {
    const more = tally.count > tally.lines.length && tally.lines.length > 0 ? `, first ${tally.lines.length}` : "";
    out.push(`${name}: ${tally.count}${more}`);
    for (const line of tally.lines) out.push(`  ${line}`);
  }
  if (report.problemCount > 0) {
    const more = report.problemCount > report.problems.length ? `, first ${report.problems.length}` : "";
    out.push("", `Problems in the file (${report.problemCount}${more}):`);
    for (const p of report.problems) out.push(`  ${p.where}: ${p.message}`);
  }
  if (report.noteCount > 0) {
    const more = report.noteCount > report.notes.length ? `, first ${report.notes.length}` : "";
    out.push("", `Notes (${report.noteCount}${more}):`);
    for (const n of report.notes) out.push(`  ${n}`);
  }
  return out.join("\n");
}
