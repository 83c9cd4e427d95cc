/**
 * npm test: every check the project has, in one command (CI runs exactly this).
 *
 *   typecheck → lint → unit → integration on PGlite → integration on PostgreSQL → Playwright
 *
 * Prerequisites are checked first and a missing one fails with the line that installs it; nothing
 * is skipped silently. Every step runs even when an earlier one failed, so one run shows every
 * problem; the exit code is non-zero if any step failed. The last line counts tests across runners.
 *
 * Flags: --only=unit,int-pglite,… runs a subset; --skip=e2e leaves steps out (say so when you do).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-test-"));

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

type Counts = { passed: number; failed: number; skipped: number };
type Step = { id: string; title: string; command: string[]; env?: Record<string, string>; report?: string; parse?: (file: string) => Counts };

const vitestCounts = (file: string): Counts => {
  const data = JSON.parse(fs.readFileSync(file, "utf8")) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
  return { passed: data.numPassedTests, failed: data.numFailedTests, skipped: data.numPendingTests + data.numTodoTests };
};
const playwrightCounts = (file: string): Counts => {
  const data = JSON.parse(fs.readFileSync(file, "utf8")) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
  return { passed: data.stats.expected + data.stats.flaky, failed: data.stats.unexpected, skipped: data.stats.skipped };
};
const vitest = (id: string, config: string, env?: Record<string, string>): Step => ({
  id,
  title: "",
  command: [bin("vitest"), "run", "--config", config, "--reporter=default", "--reporter=json", `--outputFile.json=${path.join(reportDir, `${id}.json`)}`],
  env,
  report: path.join(reportDir, `${id}.json`),
  parse: vitestCounts,
});

const steps: Step[] = [
  { id: "typecheck", title: "Type check (tsc)", command: [bin("tsc"), "--noEmit"] },
  { id: "lint", title: "Lint (eslint)", command: [bin("eslint"), "--max-warnings", "0", "."] },
  {
    id: "docs",
    title: "API reference up to date",
    command: [process.execPath, "--conditions=react-server", "--import", "tsx", path.join(root, "scripts/docs-api.ts"), "--check"],
  },
  { ...vitest("unit", "vitest.config.ts"), title: "Unit tests" },
  { ...vitest("int-pglite", "vitest.integration.config.ts", { TEST_DB: "pglite" }), title: "Integration tests on PGlite" },
  { ...vitest("int-postgres", "vitest.integration.config.ts", { TEST_DB: "postgres", TEST_DATABASE_URL }), title: "Integration tests on PostgreSQL" },
  {
    id: "e2e",
    title: "Browser tests (Playwright, Chromium)",
    command: [bin("playwright"), "test"],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reportDir, "e2e.json") },
    report: path.join(reportDir, "e2e.json"),
    parse: playwrightCounts,
  },
];

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1]?.split(",");
const only = arg("only");
const skip = arg("skip") ?? [];
const selected = steps.filter((s) => (!only || only.includes(s.id)) && !skip.includes(s.id));

// ─── Prerequisites ───────────────────────────────────────────────────────────────────────────
const problems: string[] = [];
if (selected.some((s) => s.id === "int-postgres")) {
  const url = new URL(TEST_DATABASE_URL);
  if (!(await canConnect(url.hostname, Number(url.port || 5432)))) {
    problems.push(
      `PostgreSQL is not reachable at ${url.hostname}:${url.port || 5432} (TEST_DATABASE_URL). ` +
        "Install and start it: apt-get install -y postgresql && pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    );
  }
}
if (selected.some((s) => s.id.startsWith("int"))) {
  const url = new URL(REDIS_URL);
  if (!(await canConnect(url.hostname, Number(url.port || 6379)))) {
    problems.push(
      `Redis is not reachable at ${url.hostname}:${url.port || 6379} (TEST_REDIS_URL; the Redis rate-limit store is tested against it). ` +
        "Install and start it: apt-get install -y redis-server && redis-server --daemonize yes --save '' --appendonly no",
    );
  }
}
if (selected.some((s) => s.id === "e2e") && !fs.existsSync(CHROMIUM)) {
  problems.push(`Chromium is missing at ${CHROMIUM} (CHROMIUM_PATH). Install Debian's: apt-get install -y chromium`);
}
if (problems.length) {
  for (const p of problems) console.error(`✗ ${p}`);
  console.error("\nnpm test needs these to run every test; none is skipped silently.");
  process.exit(1);
}

// ─── Run ─────────────────────────────────────────────────────────────────────────────────────
const results: { step: Step; ok: boolean; seconds: number; counts?: Counts }[] = [];
for (const step of selected) {
  console.log(`\n━━━ ${step.title} ━━━`);
  const started = Date.now();
  const result = spawnSync(step.command[0]!, step.command.slice(1), {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...step.env },
  });
  const ok = result.status === 0;
  let counts: Counts | undefined;
  if (step.report && step.parse && fs.existsSync(step.report)) {
    try {
      counts = step.parse(step.report);
    } catch {
      counts = undefined;
    }
  }
  results.push({ step, ok, seconds: (Date.now() - started) / 1000, counts });
}

console.log("\n━━━ Summary ━━━");
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
for (const r of results) {
  const detail = r.counts ? `${r.counts.passed} passed, ${r.counts.failed} failed, ${r.counts.skipped} skipped` : r.ok ? "clean" : "errors";
  console.log(`${r.ok ? "✓" : "✗"} ${r.step.title.padEnd(40)} ${detail.padEnd(40)} ${r.seconds.toFixed(1)} s`);
  if (r.counts) {
    total.passed += r.counts.passed;
    total.failed += r.counts.failed;
    total.skipped += r.counts.skipped;
  }
  // A step that failed without a failing test (crash, type or lint error) still counts as a failure.
  if (!r.ok && (!r.counts || r.counts.failed === 0)) total.failed += 1;
}
if (skip.length || only) console.log(`(steps left out on request: ${steps.filter((s) => !selected.includes(s)).map((s) => s.id).join(", ") || "none"})`);
fs.rmSync(reportDir, { recursive: true, force: true });
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(results.every((r) => r.ok) ? 0 : 1);

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}
