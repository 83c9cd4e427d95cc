import { describe, expect, it } from "vitest";

import { playwrightCounts, vitestCounts } from "./test-reports";

describe("the runners' reports npm test sums up", () => {
  it("names each failed Vitest test by file and full name, and a file that failed with no test failing", () => {
    const counts = vitestCounts(
      {
        numPassedTests: 3,
        numFailedTests: 1,
        numPendingTests: 2,
        numTodoTests: 1,
        testResults: [
          {
            name: "/repo/server/a.int.test.ts",
            status: "failed",
            assertionResults: [
              { fullName: "imports router stops a running import", title: "stops a running import", status: "failed" },
              { fullName: "imports router lists", title: "lists", status: "passed" },
            ],
          },
          { name: "/repo/server/b.int.test.ts", status: "failed", assertionResults: [] },
          {
            name: "/repo/server/c.int.test.ts",
            status: "passed",
            assertionResults: [{ title: "x", status: "skipped" }],
          },
        ],
      },
      "/repo",
    );
    expect(counts).toEqual({
      passed: 3,
      failed: 1,
      skipped: 3,
      failures: [
        "server/a.int.test.ts › imports router stops a running import",
        "server/b.int.test.ts (the file failed: its output says why)",
      ],
    });
  });

  it("names each unexpected Playwright test with its place and describe titles; flaky ones count as passed", () => {
    const counts = playwrightCounts(
      {
        config: { rootDir: "/repo/e2e" },
        stats: { expected: 5, unexpected: 1, flaky: 1, skipped: 0 },
        suites: [
          {
            title: "admin/story.spec.ts",
            specs: [{ title: "opens", file: "admin/story.spec.ts", line: 48, tests: [{ status: "expected" }] }],
            suites: [
              {
                title: "on a phone",
                specs: [
                  { title: "saves", file: "admin/story.spec.ts", line: 90, tests: [{ status: "unexpected" }] },
                  { title: "retried", file: "admin/story.spec.ts", line: 99, tests: [{ status: "flaky" }] },
                ],
              },
            ],
          },
        ],
      },
      "/repo",
    );
    expect(counts).toEqual({
      passed: 6,
      failed: 1,
      skipped: 0,
      failures: ["e2e/admin/story.spec.ts:90 › on a phone › saves"],
    });
  });
});
