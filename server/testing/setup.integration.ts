/**
 * Per test file: open this run's database (or keep the one open) as the process-wide database (server/db), so route
 * handlers and services under test use it exactly as the app does, and empty it before each test.
 */
import fs from "node:fs/promises";

import { afterAll, beforeEach, inject } from "vitest";

import { listenToPglite } from "../cache/listener";
import { clearAllCaches } from "../cache/process-cache";
import { openDatabase, type Database } from "../db/client";
import { listenToTestDatabase, stopListeningToTestDatabase } from "./cache-listener";
import { resetDatabase } from "./reset-database";
import { postgresConfig } from "./test-database";

const testDb = inject("testDb");

/**
 * In the "shared" project one process runs file after file (vitest.integration.config.ts): on
 * PGlite the database opened for the first is kept for the next (opening it from the dump cost
 * every file about a second), and resetDatabase empties what each test wrote. On PostgreSQL
 * (cheap to open) each file has its own connections, closed after it, so that a transaction a
 * file left open cannot hold locks into the next one (a backup test's DROP SCHEMA waited on
 * one). In the "isolated" project each file has a process and a database of its own.
 */
const keep = inject("keepDatabase") && testDb.kind === "pglite";
const kept = globalThis as unknown as { mastheadTestDatabase?: Database };
const database: Database = kept.mastheadTestDatabase ?? (await open());
if (keep) kept.mastheadTestDatabase = database;

async function open(): Promise<Database> {
  const opened =
    testDb.kind === "pglite"
      ? await openDatabase(
          { kind: "pglite", dir: "memory://" },
          { pgliteSnapshot: new Blob([await fs.readFile(testDb.snapshot)]) },
        )
      : await openDatabase(postgresConfig(testDb.schema));
  // On PGlite the database tells this process what each commit changed, as it tells the app.
  await listenToPglite(opened);
  return opened;
}

(globalThis as unknown as { mastheadDb?: Promise<Database> }).mastheadDb = Promise.resolve(database);
// Caches answer as in the app: on PostgreSQL while this file's listener hears the schema's notices.
await listenToTestDatabase(database);

beforeEach(async () => {
  await resetDatabase(database);
  clearAllCaches();
  // Rate-limit counts in memory (RATE_LIMIT_STORE=memory) start again with each test, as the
  // database's do.
  (globalThis as { mastheadRateLimitStore?: unknown }).mastheadRateLimitStore = undefined;
});

afterAll(async () => {
  await stopListeningToTestDatabase();
  if (!keep) await database.close();
});
