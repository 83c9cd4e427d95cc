/**
 * Per test file: open this run's database as the process-wide database (server/db), so route
 * handlers and services under test use it exactly as the app does, and empty it before each test.
 */
import fs from "node:fs/promises";

import { afterAll, beforeEach, inject } from "vitest";

import { listenToPglite } from "../cache/listener";
import { clearAllCaches, setCacheMode } from "../cache/process-cache";
import { openDatabase, type Database } from "../db/client";
import { resetDatabase } from "./reset-database";
import { postgresConfig } from "./test-database";

const testDb = inject("testDb");

const database: Database =
  testDb.kind === "pglite"
    ? await openDatabase(
        { kind: "pglite", dir: "memory://" },
        { pgliteSnapshot: new Blob([await fs.readFile(testDb.snapshot)]) },
      )
    : await openDatabase(postgresConfig(testDb.schema));

(globalThis as unknown as { mastheadDb?: Promise<Database> }).mastheadDb = Promise.resolve(database);
// The test process is the only one writing to its database, as a PGlite server is: its caches
// hear about every change it commits (and, on PGlite, the database's own notices).
await listenToPglite(database);
setCacheMode("local");

beforeEach(async () => {
  await resetDatabase(database);
  clearAllCaches();
  // Rate-limit counts in memory (RATE_LIMIT_STORE=memory) start again with each test, as the
  // database's do.
  (globalThis as { mastheadRateLimitStore?: unknown }).mastheadRateLimitStore = undefined;
});

afterAll(async () => {
  await database.close();
});
