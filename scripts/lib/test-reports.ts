/**
 * What npm test (scripts/test-all.ts) reads from each runner's JSON report: how many tests
 * passed, failed and were skipped, and which failed, named so that the summary at the end of a
 * long log (often all a CI page keeps) says where to look.
 */
import path from "node:path";

export type Counts = { passed: number; failed: number; skipped: number; failures: string[] };

type VitestReport = {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults?: {
    name: string;
    /** "failed" also when the file itself failed (an import, a hook) with no test failing. */
    status?: string;
    assertionResults?: { fullName?: string; title: string; status: string }[];
  }[];
};

/** Vitest's `--reporter=json` report; files are named relative to `root`. */
export function vitestCounts(report: VitestReport, root: string): Counts {
  const failures: string[] = [];
  for (const file of report.testResults ?? []) {
    const name = path.relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failed) failures.push(`${name} › ${test.fullName ?? test.title}`);
    if (file.status === "failed" && failed.length === 0)
      failures.push(`${name} (the file failed: its output says why)`);
  }
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
    failures,
  };
}

type PlaywrightSuite = {
  title?: string;
  suites?: PlaywrightSuite[];
  specs?: { title: string; file: string; line: number; tests: { status: string }[] }[];
};
type PlaywrightReport = {
  /** rootDir: the test folder, which the specs' `file` is relative to. */
  config?: { rootDir?: string };
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  suites?: PlaywrightSuite[];
};

/**
 * Playwright's JSON report (a test that failed is "unexpected"; a flaky one passed on retry);
 * files are named relative to `root`.
 */
export function playwrightCounts(report: PlaywrightReport, root: string): Counts {
  const failures: string[] = [];
  const testDir = report.config?.rootDir ?? root;
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? [])
      if (spec.tests.some((test) => test.status === "unexpected"))
        failures.push(
          `${path.relative(root, path.join(testDir, spec.file))}:${spec.line} › ${[...titles, spec.title].join(" › ")}`,
        );
    for (const child of suite.suites ?? []) walk(child, child.title ? [...titles, child.title] : titles);
  };
  // The top-level suites are the files: their titles are the file names the specs carry already.
  for (const file of report.suites ?? []) walk(file, []);
  const { stats } = report;
  return {
    passed: stats.expected + stats.flaky,
    failed: stats.unexpected,
    skipped: stats.skipped,
    failures,
  };
}
