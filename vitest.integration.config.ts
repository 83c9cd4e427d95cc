// Integration tests: route handlers, tRPC and services against a real database.
// TEST_DB=pglite (default) or TEST_DB=postgres (TEST_DATABASE_URL, default the local server's
// database `test`, in a schema of its own per run). Files run one at a time, each test on a clean database.
//
// Two projects, one after the other. "shared": the files run in one process that keeps its loaded
// modules from file to file (isolate: false): loading the app's modules for each of a hundred
// files was a third of the run. "isolated": the files that replace a module with vi.mock, which
// only works in a fresh process (found by reading the files, so a new one lands there by itself).
import fs from "node:fs";
import path from "node:path";

import { defineConfig } from "vitest/config";

import unit from "./vitest.config";

const SKIP = new Set(["node_modules", ".next", ".git", "e2e", "generated", ".data", ".data-e2e"]);
function integrationFiles(dir: string, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) integrationFiles(full, found);
    else if (entry.name.endsWith(".int.test.ts")) found.push(full);
  }
  return found;
}
const EXCLUDE = ["node_modules/**", ".next/**", "e2e/**"];
const root = import.meta.dirname;
const files = integrationFiles(root).map((file) => ({
  name: path.relative(root, file).split(path.sep).join("/"),
  mocks: /\bvi\.(mock|doMock)\(/.test(fs.readFileSync(file, "utf8")),
}));
const mocking = files.filter((f) => f.mocks).map((f) => f.name);
const notMocking = files.filter((f) => !f.mocks).map((f) => f.name);

export default defineConfig({
  // The same imports as the unit tests ("@/…", the server-only stub).
  resolve: unit.resolve,
  test: {
    include: ["**/*.int.test.ts"],
    exclude: EXCLUDE,
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    globalSetup: ["server/testing/global-setup.integration.ts"],
    setupFiles: ["server/testing/setup.integration.ts"],
    // Test receivers (and login providers) listen on 127.0.0.1, which is refused unless an operator allows it.
    // The response cache is off (RESPONSE_CACHE_MB=0): tests write their fixtures straight into the
    // database, past the services whose events purge it. The tests about it turn it on
    // (server/testing/response-cache.ts).
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      SOCIAL_LOGIN_ALLOW_PRIVATE_URLS: "true",
      LOG_LEVEL: "silent",
      RESPONSE_CACHE_MB: "0",
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          isolate: false,
          exclude: [...EXCLUDE, ...mocking],
          sequence: { groupOrder: 0 },
          provide: { keepDatabase: true },
        },
      },
      {
        extends: true,
        // (A project's include adds to the one above: the others are left out instead.)
        test: {
          name: "isolated",
          exclude: [...EXCLUDE, ...notMocking],
          sequence: { groupOrder: 1 },
          provide: { keepDatabase: false },
        },
      },
    ],
  },
});
