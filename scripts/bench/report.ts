/**
 * The bench's table: each scenario's CPU per request (app + database) against its floor measured
 * in the same run, the ratio, the budget (docs/performance.md, decision 0058) and a pass/fail mark,
 * with its p95 and the instances' resident memory.
 *
 * Floors:
 * - an answer built afresh: the empty route handler's CPU + its SQL replayed alone + its answer
 *   serialised again (scripts/bench/floor.ts);
 * - an answer from the response cache, and search built afresh: the empty route handler's CPU
 *   (search: its p95 against the empty handler's p95 as well).
 */
import type { Memory } from "./app";
import type { SqlFloor } from "./floor";
import type { Result } from "./load";

/** Built afresh: within this multiple of the floor, unless listed in AFRESH_TIMES_FLOOR. */
const READ_TIMES_FLOOR = 1.3;
/** The engagement scenarios that write or read many rows: their multiple of the floor. */
const AFRESH_TIMES_FLOOR = new Map<string, number>([
  ["comment counts (100 pages), uncached", 1.5],
  ["comment list (2,000 comments), uncached", 1.5],
  ["comment create", 1.5],
]);
/** Search built afresh: its CPU and its p95 within this multiple of the empty handler's. */
const SEARCH = "search, uncached";
const SEARCH_TIMES_EMPTY = 3;
/** An answer served from the response cache: CPU within this multiple of the empty handler's. */
const CACHED_TIMES_EMPTY = 1.25;
/** Memory flat: resident memory after the last scenario within this fraction over the warmed-up figure. */
const MEMORY_GROWTH = 0.1;

export type Floor = { sql?: SqlFloor; jsonMs?: number; error?: string };
export type Row = Result & { afresh: boolean; baseline: boolean; floor?: Floor };

const cpuOf = (r: Result) => r.cpu.app + r.cpu.db;
const mark = (ok: boolean) => (ok ? "✓" : "✗");
const times = (n: number) => `${n.toFixed(2)}×`;

type Judged = { floorMs?: number; parts?: string; ratio?: string; budget?: string; ok?: boolean };

/** A row's floor, its ratio to it, its budget and whether it meets it (nothing for the baselines). */
function judge(row: Row, empty: Result | undefined): Judged {
  if (row.baseline || !empty) return {};
  const emptyCpu = cpuOf(empty);
  if (!row.afresh) {
    const ratio = cpuOf(row) / emptyCpu;
    return {
      floorMs: emptyCpu,
      parts: "empty handler",
      ratio: times(ratio),
      budget: `≤ ${CACHED_TIMES_EMPTY}× empty`,
      ok: ratio <= CACHED_TIMES_EMPTY,
    };
  }
  if (row.name === SEARCH) {
    const ratio = cpuOf(row) / emptyCpu;
    const p95Ratio = row.p95 / empty.p95;
    return {
      floorMs: emptyCpu,
      parts: `empty handler (p95 ${empty.p95.toFixed(1)} ms)`,
      ratio: `${times(ratio)}, p95 ${times(p95Ratio)}`,
      budget: `≤ ${SEARCH_TIMES_EMPTY}× empty, p95 too`,
      ok: ratio <= SEARCH_TIMES_EMPTY && p95Ratio <= SEARCH_TIMES_EMPTY,
    };
  }
  const limit = AFRESH_TIMES_FLOOR.get(row.name) ?? READ_TIMES_FLOOR;
  const { sql, jsonMs, error } = row.floor ?? {};
  if (!sql || jsonMs === undefined)
    return { budget: `≤ ${limit}× floor`, parts: error ? `no floor: ${error}` : "no floor (--no-floors)" };
  const sqlMs = sql.dbMs + sql.clientMs;
  const floorMs = emptyCpu + sqlMs + jsonMs;
  const ratio = cpuOf(row) / floorMs;
  return {
    floorMs,
    parts: `${emptyCpu.toFixed(2)} empty + ${sqlMs.toFixed(2)} SQL (${sql.statements} statements) + ${jsonMs.toFixed(3)} JSON`,
    ratio: times(ratio),
    budget: `≤ ${limit}× floor`,
    ok: ratio <= limit,
  };
}

/** Print the table; true when every budget is met and nothing failed. */
export function printReport(rows: readonly Row[], context: { title: string; warmed: Memory; probed: Memory }): boolean {
  const empty = rows.find((r) => r.name === "empty handler");
  let allMet = true;
  const judged = rows.map((r) => ({ row: r, ...judge(r, empty) }));
  const cells = judged.map(({ row: r, floorMs, ratio, budget, ok }) => {
    if (ok === false || r.errors > 0) allMet = false;
    return [
      r.name,
      cpuOf(r).toFixed(2),
      floorMs === undefined ? "" : floorMs.toFixed(2),
      ratio ?? "",
      budget ?? "",
      ok === undefined ? "" : mark(ok),
      r.p95.toFixed(1),
      r.rssMb.toFixed(0),
      r.errors
        ? `${r.errors} (${[...r.statuses]
            .filter(([s]) => s >= 400)
            .map(([s, n]) => `${s}×${n}`)
            .join(" ")})`
        : "0",
    ];
  });
  const header = ["scenario", "CPU ms/req", "floor ms", "ratio", "budget", "", "p95 ms", "RSS MB", "errors"];
  const widths = header.map((h, c) => Math.max(h.length, ...cells.map((row) => row[c]!.length)));
  const line = (row: string[]) =>
    row.map((cell, c) => (c === 0 || c === 4 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ");
  const memory = (m: Memory) =>
    `RSS ${m.rssMb.toFixed(0)} MB, heap ${m.heapMb.toFixed(0)} MB, response cache ${m.cacheMb.toFixed(1)} MB`;
  console.log(
    `\nMemory after one request of each scenario: ${memory(context.probed)}; after the warm-up: ${memory(context.warmed)}.`,
  );
  console.log(`${context.title}:`);
  console.log(line(header));
  console.log(widths.map((w) => "─".repeat(w)).join("  "));
  for (const row of cells) console.log(line(row));

  const last = rows.at(-1);
  if (last) {
    const flat = last.rssMb <= context.warmed.rssMb * (1 + MEMORY_GROWTH);
    if (!flat) allMet = false;
    console.log(
      `Memory flat: RSS ${context.warmed.rssMb.toFixed(0)} MB after the warm-up, ${last.rssMb.toFixed(0)} MB after ` +
        `the last scenario ${mark(flat)} (budget: at most ${MEMORY_GROWTH * 100}% more).`,
    );
  }
  console.log("\nFloors of the answers built afresh (CPU ms a request):");
  for (const { row, parts } of judged) if (row.afresh && parts) console.log(`  ${row.name}: ${parts}`);
  console.log(`
CPU ms/req: CPU time per request of the app's processes and of its PostgreSQL backends (from /proc);
', uncached': the same requests with Cache-Control: no-cache, built afresh every time; the others are
  answered from the response cache (their warm-up sends each request they go round once first);
floor: built afresh, the empty route handler's CPU + the statements one request ran, replayed alone
  through pg (PostgreSQL's CPU + this process's) + the same answer serialised again (JSON.stringify);
  from the response cache, and for search, the empty route handler's CPU.
Budgets: built afresh ≤ ${READ_TIMES_FLOOR}× the floor (comment counts, the comment list and comment create
  ≤ 1.5×); from the response cache ≤ ${CACHED_TIMES_EMPTY}× the empty handler; search built afresh ≤ ${SEARCH_TIMES_EMPTY}× the empty
  handler's CPU and p95. RSS: the instances' resident memory after the scenario.`);
  return allMet;
}
