/**
 * The bench's table: per scenario its CPU per request (app + database), latency, throughput, its
 * floor when built afresh, and the budget of docs/performance.md beside it with a pass/fail mark.
 */
import type { Memory } from "./app";
import type { SqlFloor } from "./floor";
import type { Result } from "./load";

/** Budgets for answers built afresh: CPU ms per request (app + database) and, for search, p95 ms. */
const AFRESH_BUDGETS: Record<string, { cpu: number; p95?: number }> = {
  "story by slug, uncached": { cpu: 1.0 },
  "stories list, uncached": { cpu: 3.0 },
  "collection (home), uncached": { cpu: 2.5 },
  "bulk request, uncached": { cpu: 5 },
  "related stories, uncached": { cpu: 2.0 },
  "search, uncached": { cpu: 4, p95: 40 },
  "comment list (2,000 comments), uncached": { cpu: 2.0 },
  "comment counts (100 pages), uncached": { cpu: 1.2 },
  "comment create": { cpu: 1.8 },
  "access decision": { cpu: 0.9 },
};
/** An answer served from the response cache: CPU within this multiple of the empty handler's. */
const CACHED_TIMES_EMPTY = 1.25;
/** Memory flat: resident memory after the last scenario within this fraction over the warmed-up figure. */
const MEMORY_GROWTH = 0.1;

export type Floor = { sql?: SqlFloor; jsonMs?: number; error?: string };
export type Row = Result & { afresh: boolean; baseline: boolean; floor?: Floor };

const cpuOf = (r: Result) => r.cpu.app + r.cpu.db;
const mark = (ok: boolean) => (ok ? "✓" : "✗");

/** The budget of a row, as text, and whether the row meets it (undefined: no budget). */
function budget(row: Row, emptyCpu: number | undefined): [string, boolean | undefined] {
  if (row.baseline) return ["", undefined];
  if (!row.afresh) {
    if (emptyCpu === undefined) return ["", undefined];
    const limit = emptyCpu * CACHED_TIMES_EMPTY;
    return [`≤ ${limit.toFixed(2)} (${CACHED_TIMES_EMPTY}× empty)`, cpuOf(row) <= limit];
  }
  const b = AFRESH_BUDGETS[row.name];
  if (!b) return ["", undefined];
  const ok = cpuOf(row) <= b.cpu && (b.p95 === undefined || row.p95 <= b.p95);
  return [`≤ ${b.cpu}${b.p95 ? `, p95 ≤ ${b.p95}` : ""}`, ok];
}

export function printReport(rows: readonly Row[], context: { title: string; warmed: Memory; probed: Memory }): boolean {
  const empty = rows.find((r) => r.name === "empty handler");
  const emptyCpu = empty ? cpuOf(empty) : undefined;
  let allMet = true;
  const cells = rows.map((r) => {
    const [text, ok] = budget(r, emptyCpu);
    if (ok === false || r.errors > 0) allMet = false;
    const f = r.floor;
    const sql = f?.sql ? `${(f.sql.dbMs + f.sql.clientMs).toFixed(2)} (${f.sql.statements} st.)` : f?.error ? "–" : "";
    return [
      r.name,
      `${r.cpu.app.toFixed(2)}+${r.cpu.db.toFixed(2)}`,
      cpuOf(r).toFixed(2),
      r.cpu.client.toFixed(2),
      r.p50.toFixed(1),
      r.p95.toFixed(1),
      r.p99.toFixed(1),
      r.rps.toFixed(0),
      r.afresh || r.baseline ? "" : `${(100 * r.hitShare).toFixed(0)}%`,
      sql,
      f?.sql ? f.sql.wallMs.toFixed(2) : "",
      f?.jsonMs !== undefined ? f.jsonMs.toFixed(3) : "",
      text,
      ok === undefined ? "" : mark(ok),
      r.rssMb.toFixed(0),
      r.errors
        ? `${r.errors} (${[...r.statuses]
            .filter(([s]) => s >= 400)
            .map(([s, n]) => `${s}×${n}`)
            .join(" ")})`
        : "0",
    ];
  });
  const header = [
    "scenario",
    "CPU ms app+db",
    "= ms",
    "client ms",
    "p50 ms",
    "p95 ms",
    "p99 ms",
    "req/s",
    "HIT",
    "floor SQL ms",
    "SQL wall ms",
    "floor JSON ms",
    "budget ms",
    "",
    "RSS MB",
    "errors",
  ];
  const widths = header.map((h, c) => Math.max(h.length, ...cells.map((row) => row[c]!.length)));
  const line = (row: string[]) =>
    row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ");
  const memory = (m: Memory) =>
    `RSS ${m.rssMb.toFixed(0)} MB, heap ${m.heapMb.toFixed(0)} MB, response cache ${m.cacheMb.toFixed(1)} MB`;
  console.log(
    `\nMemory after one request of each scenario: ${memory(context.probed)}; after the warm-up: ${memory(context.warmed)}.`,
  );
  console.log(`${context.title}:`);
  console.log(line(header));
  console.log(widths.map((w) => "─".repeat(w)).join("  "));
  for (const row of cells) console.log(line(row));
  for (const r of rows.filter((row) => row.floor?.error)) console.log(`  floor of ${r.name}: ${r.floor!.error}`);

  const last = rows.at(-1);
  if (last) {
    const flat = last.rssMb <= context.warmed.rssMb * (1 + MEMORY_GROWTH);
    if (!flat) allMet = false;
    console.log(
      `Memory flat: RSS ${context.warmed.rssMb.toFixed(0)} MB after the warm-up, ${last.rssMb.toFixed(0)} MB after ` +
        `the last scenario ${mark(flat)} (budget: at most ${MEMORY_GROWTH * 100}% more).`,
    );
  }
  console.log(`
CPU ms app+db: CPU time per request of the app's processes and of its PostgreSQL backends (from /proc),
  "= ms" their sum, the figure the budgets bound; client ms: the load generator's own CPU per request;
', uncached': the same requests with Cache-Control: no-cache, built afresh every time;
HIT: the share of a cached scenario's answers served from the response cache (its warm-up sends each
  request it goes round once first);
floor SQL ms: the statements one request ran, replayed alone through pg (PostgreSQL's CPU + this
  process's, per replay), with their count; SQL wall ms: the replay's time; floor JSON ms: the same
  answer serialised again (JSON.stringify). Budgets: cached answers within
  ${CACHED_TIMES_EMPTY}× the empty handler's CPU; answers built afresh as listed.`);
  return allMet;
}
