/**
 * npm test: every check the project has, in one command (CI runs exactly this).
 *
 * The longest chain starts at once, and beside it two lanes of the other steps, each lane one
 * step after another (LANES); a step also waits for the ones it needs (`after`):
 *
 *   build ──> browser tests (Playwright)              the longest chain, at normal priority
 *   lane 1:   integration tests on PGlite → lint → formatting → API reference
 *   lane 2:   integration tests on PostgreSQL → unit tests → type check (after the build: it reads
 *             .next/types) → webhooks, newsletter and content benches (the content bench after the build)
 *
 * Two cores hold all of it. Everything off the longest chain runs under `nice -n 19`, so it takes
 * the cores the build and the browser tests leave and the browser tests keep close to the pace
 * they have alone (docs/decisions/0018). Two lanes keep both cores busy once the browser tests
 * end; all the steps at once gave each a sliver of what the browser tests leave, and tests with a
 * time limit in the integration suites ran out of it (docs/decisions/0030). The build skips
 * Next.js's own type check (NEXT_BUILD_SKIP_TYPECHECK): the type check step is the same check.
 * Side by side, a step's output is printed whole when it ends.
 *
 * Prerequisites come first (scripts/lib/test-prerequisites.ts): PostgreSQL, Redis and Chromium
 * are installed, started and given the test database when this machine lacks them, one line each;
 * one that cannot be made ready fails with the command to run. Nothing is skipped silently. Every
 * step runs even when an earlier one failed, so one run shows every problem; the exit code is
 * non-zero if any step failed. The summary names each failed test under its step (the end of
 * a long log is often all a CI page keeps); the last line counts tests across runners.
 *
 * Flags: --only=unit,int-pglite,… runs a subset; --skip=e2e leaves steps out (say so when you do).
 * Arguments that are not flags (test files, name filters) go to the selected test runners, e.g.
 * `npx tsx scripts/test-all.ts --only=int-pglite server/auth/admin-sessions.int.test.ts`.
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { DEBIAN_CHROMIUM, ensureTestPrerequisites } from "./lib/test-prerequisites";
import { playwrightCounts, vitestCounts, type Counts } from "./lib/test-reports";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-test-"));

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const CHROMIUM = process.env.CHROMIUM_PATH ?? DEBIAN_CHROMIUM;

/** `url` with Prisma's `?schema=` set. */
function withSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("schema", schema);
  return parsed.toString();
}

type Step = {
  id: string;
  title: string;
  command: string[];
  env?: Record<string, string>;
  report?: string;
  parse?: (file: string) => Counts;
  /** A test runner: takes the command line's test files and filters. */
  runner?: boolean;
  /** Steps this one waits for (when selected). */
  after?: string[];
  /** On the longest chain (build, browser tests): at normal priority; the others run under `nice -n 19`. */
  critical?: boolean;
};

/** A runner's JSON report, parsed by the step's `parse`. */
const readReport = <T>(file: string): T => JSON.parse(fs.readFileSync(file, "utf8")) as T;
const vitest = (id: string, config: string, env?: Record<string, string>): Step => ({
  id,
  title: "",
  command: [
    bin("vitest"),
    "run",
    "--config",
    config,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${path.join(reportDir, `${id}.json`)}`,
  ],
  env,
  report: path.join(reportDir, `${id}.json`),
  parse: (file) => vitestCounts(readReport(file), root),
  runner: true,
});

const steps: Step[] = [
  {
    id: "typecheck",
    title: "Type check (tsc)",
    command: [bin("tsc"), "--noEmit"],
    // It reads the route types the build writes into .next/types: not while they are written.
    after: ["build"],
  },
  {
    id: "lint",
    title: "Lint (eslint)",
    command: [bin("eslint"), "--max-warnings", "0", "."],
    // Type-aware rules over the whole project hold about 5 GB: more than Node's default heap.
    env: { NODE_OPTIONS: "--max-old-space-size=8192" },
  },
  {
    id: "format",
    title: "Formatting (prettier)",
    command: [bin("prettier"), "--check", "--log-level", "warn", "."],
  },
  {
    id: "docs",
    title: "API reference up to date",
    command: [
      process.execPath,
      "--conditions=react-server",
      "--import",
      "tsx",
      path.join(root, "scripts/docs-api.ts"),
      "--check",
    ],
  },
  { ...vitest("unit", "vitest.config.ts"), title: "Unit tests" },
  {
    ...vitest("int-pglite", "vitest.integration.config.ts", { TEST_DB: "pglite" }),
    title: "Integration tests on PGlite",
  },
  {
    ...vitest("int-postgres", "vitest.integration.config.ts", { TEST_DB: "postgres", TEST_DATABASE_URL }),
    title: "Integration tests on PostgreSQL",
  },
  {
    id: "build",
    title: "Build the app (for the browser tests)",
    command: [process.execPath, "--import", "tsx", path.join(root, "scripts/start.ts"), "--build-only"],
    env: { NEXT_BUILD_SKIP_TYPECHECK: "1" },
    critical: true,
  },
  {
    id: "bench-webhooks",
    title: "Webhooks bench, smallest form (PGlite)",
    command: [
      process.execPath,
      "--conditions=react-server",
      "--import",
      "tsx",
      path.join(root, "scripts/bench-webhooks.ts"),
      "--events",
      "50",
    ],
    env: { DATABASE_URL: "" },
  },
  {
    id: "bench-newsletter",
    title: "Newsletter send bench, smallest form (PGlite)",
    command: [
      process.execPath,
      "--conditions=react-server",
      "--import",
      "tsx",
      path.join(root, "scripts/bench/newsletter-send.ts"),
      ...["--readers", "200"],
    ],
    env: { DATABASE_URL: "" },
  },
  {
    id: "bench",
    title: "Content bench, smallest form (PostgreSQL)",
    command: [
      process.execPath,
      "--import",
      "tsx",
      path.join(root, "scripts/bench-content.ts"),
      ...["--stories", "200", "--requests", "20", "--warmup", "5", "--seconds", "5"],
    ],
    env: { DATABASE_URL: withSchema(TEST_DATABASE_URL, "mh_bench_smoke") },
    after: ["build"],
  },
  {
    id: "e2e",
    title: "Browser tests (Playwright, Chromium)",
    command: [bin("playwright"), "test"],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reportDir, "e2e.json") },
    report: path.join(reportDir, "e2e.json"),
    parse: (file) => playwrightCounts(readReport(file), root),
    runner: true,
    after: ["build"],
    critical: true,
  },
];

/**
 * The steps off the longest chain, in two lanes: a lane runs its (selected) steps one after
 * another, the integration suites first (their tests have time limits), then what has none.
 */
const LANES = [
  ["int-pglite", "lint", "format", "docs"],
  ["int-postgres", "unit", "typecheck", "bench-webhooks", "bench-newsletter", "bench"],
];

const arg = (name: string) =>
  process.argv
    .find((a) => a.startsWith(`--${name}=`))
    ?.split("=")[1]
    ?.split(",");
const only = arg("only");
const skip = arg("skip") ?? [];
const selected = steps
  .filter((s) => (!only || only.includes(s.id)) && !skip.includes(s.id))
  // The build is for the browser tests and the bench: not without them (they build for themselves when run alone).
  .filter((s, _, chosen) => s.id !== "build" || chosen.some((c) => c.id === "e2e" || c.id === "bench"));
/** Arguments that are not flags: test files or filters, passed to the selected test runners. */
const filters = process.argv.slice(2).filter((a) => !a.startsWith("--"));

// ─── Prerequisites ───────────────────────────────────────────────────────────────────────────
const needs = (test: (s: Step) => boolean) => selected.some(test);
const prerequisites = {
  postgres: needs((s) => s.id === "int-postgres" || s.id === "bench") ? TEST_DATABASE_URL : undefined,
  redis: needs((s) => s.id.startsWith("int")) ? REDIS_URL : undefined,
  chromium: needs((s) => s.id === "e2e") ? CHROMIUM : undefined,
};
if (Object.values(prerequisites).some(Boolean)) console.log("━━━ Prerequisites ━━━");
if (!(await ensureTestPrerequisites(prerequisites))) {
  console.error("\nnpm test needs these to run every test; none is skipped silently.");
  process.exit(1);
}

// ─── Run ─────────────────────────────────────────────────────────────────────────────────────
type Result = { step: Step; ok: boolean; seconds: number; cpuSeconds?: number; counts?: Counts };

/**
 * GNU time, where the machine has it (Debian's `time` package): it reports the CPU seconds (user +
 * system) of a step and the processes it waited for, so the summary shows where the cores went.
 * CI's time limit is a sum of these over two cores, not of the wall times of steps run side by side.
 */
const GNU_TIME = process.platform === "linux" && fs.existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

/**
 * One step as a child process. Alone in the run it writes to this terminal as it goes; next to
 * others its output goes to a file and is printed whole when it ends, so steps never interleave.
 */
function runStep(step: Step, alone: boolean): Promise<Result> {
  const started = Date.now();
  const own = step.runner ? [...step.command, ...filters] : step.command;
  // Beside the longest chain, the others yield the cores to it (`nice` is on every Linux and macOS).
  const niced = !alone && !step.critical && process.platform !== "win32" ? ["nice", "-n", "19", ...own] : own;
  const cpuFile = path.join(reportDir, `${step.id}.cpu`);
  const command = GNU_TIME ? [GNU_TIME, "--quiet", "--format", "%U %S", "--output", cpuFile, ...niced] : niced;
  if (alone) console.log(`\n━━━ ${step.title} ━━━`);
  const logFile = path.join(reportDir, `${step.id}.log`);
  const out = alone ? "inherit" : fs.openSync(logFile, "w");
  const child = spawn(command[0]!, command.slice(1), {
    cwd: root,
    stdio: ["ignore", out, out],
    env: { ...process.env, ...step.env, ...(alone ? {} : { FORCE_COLOR: process.env.FORCE_COLOR ?? "1" }) },
  });
  return new Promise((resolve) => {
    child.on("error", (error) => console.error(`${step.title}: ${error.message}`));
    child.on("close", (code) => {
      if (typeof out === "number") {
        fs.closeSync(out);
        console.log(`\n━━━ ${step.title} ━━━`);
        process.stdout.write(fs.readFileSync(logFile));
      }
      let counts: Counts | undefined;
      if (step.report && step.parse && fs.existsSync(step.report)) {
        try {
          counts = step.parse(step.report);
        } catch {
          counts = undefined;
        }
      }
      resolve({ step, ok: code === 0, seconds: (Date.now() - started) / 1000, cpuSeconds: cpuOf(cpuFile), counts });
    });
  });
}

/** The user + system seconds GNU time wrote for a step, if it did. */
function cpuOf(file: string): number | undefined {
  if (!fs.existsSync(file)) return undefined;
  const [user, system] = fs.readFileSync(file, "utf8").trim().split(/\s+/).slice(-2).map(Number);
  return Number.isFinite(user) && Number.isFinite(system) ? user! + system! : undefined;
}

const alone = selected.length === 1;
if (!alone) console.log(`\n(side by side: ${selected.map((s) => s.id).join(", ")})`);
const running = new Map<string, Promise<Result>>();
/** Start `step` once the steps it waits for (those selected) have ended. */
function start(step: Step): Promise<Result> {
  let pending = running.get(step.id);
  if (!pending) {
    const lane = LANES.find((ids) => ids.includes(step.id))?.filter((id) => selected.some((s) => s.id === id)) ?? [];
    const before = lane[lane.indexOf(step.id) - 1];
    const waitFor = selected.filter((other) => step.after?.includes(other.id) || other.id === before).map(start);
    pending = Promise.all(waitFor).then(() => runStep(step, alone));
    running.set(step.id, pending);
  }
  return pending;
}
const results: Result[] = await Promise.all(selected.map(start));

console.log("\n━━━ Summary ━━━");
const total = { passed: 0, failed: 0, skipped: 0 };
/** Failed tests named under their step's line: at most this many each (the step's output has all). */
const FAILURES_NAMED = 20;
for (const r of results) {
  const detail = r.counts
    ? `${r.counts.passed} passed, ${r.counts.failed} failed, ${r.counts.skipped} skipped`
    : r.ok
      ? "clean"
      : "errors";
  const cpu = r.cpuSeconds === undefined ? "" : `  (CPU ${r.cpuSeconds.toFixed(0)} s)`;
  console.log(`${r.ok ? "✓" : "✗"} ${r.step.title.padEnd(40)} ${detail.padEnd(40)} ${r.seconds.toFixed(1)} s${cpu}`);
  const failures = r.counts?.failures ?? [];
  for (const name of failures.slice(0, FAILURES_NAMED)) console.log(`    ✗ ${name}`);
  if (failures.length > FAILURES_NAMED)
    console.log(`    … and ${failures.length - FAILURES_NAMED} more (in the step's output above)`);
  if (r.counts) {
    total.passed += r.counts.passed;
    total.failed += r.counts.failed;
    total.skipped += r.counts.skipped;
  }
  // A step that failed without a failing test (crash, type or lint error) still counts as a failure.
  if (!r.ok && (!r.counts || r.counts.failed === 0)) total.failed += 1;
}
if (skip.length || only)
  console.log(
    `(steps left out on request: ${
      steps
        .filter((s) => !selected.includes(s))
        .map((s) => s.id)
        .join(", ") || "none"
    })`,
  );
fs.rmSync(reportDir, { recursive: true, force: true });
const cpuTotal = results.reduce((sum, r) => sum + (r.cpuSeconds ?? 0), 0);
if (cpuTotal > 0) console.log(`CPU, all steps: ${cpuTotal.toFixed(0)} s (${os.availableParallelism()} cores)`);
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
