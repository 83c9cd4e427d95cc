/**
 * Runs once per integration run, before any test file: prepares a migrated database.
 * - PGlite: migrate an in-memory database and dump it; every test file starts from that dump.
 * - PostgreSQL: create a schema of this run's own (runs never collide), migrate it, drop it at the end.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";

import type { TestProject } from "vitest/node";

import { openAdapter } from "../db/adapter";
import { applyMigrations } from "../db/migrate";
import { postgresConfig, snapshotPath, TEST_DATABASE_URL, TEST_DB } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    testDb: TestDb;
    /** Keep the database open from file to file (the "shared" project: one process runs them all). */
    keepDatabase: boolean;
  }
}

type TestDb = { kind: "pglite"; snapshot: string } | { kind: "postgres"; schema: string };
type Prepared = { testDb: TestDb; teardown: () => Promise<void> };

/**
 * Each project of the integration config (vitest.integration.config.ts) calls this; the database
 * is prepared once for all of them (Prisma's migration engine must not run twice at once in one
 * process) and removed when the last project's teardown runs.
 */
// On globalThis: each project loads this file as a module of its own.
const shared = globalThis as { mastheadTestDbSetup?: { prepared: Promise<Prepared>; users: number } };

export default async function setup(project: TestProject) {
  shared.mastheadTestDbSetup ??= { prepared: prepare(), users: 0 };
  const state = shared.mastheadTestDbSetup;
  state.users += 1;
  const { testDb, teardown } = await state.prepared;
  project.provide("testDb", testDb);
  return async () => {
    state.users -= 1;
    if (state.users === 0) {
      shared.mastheadTestDbSetup = undefined;
      await teardown();
    }
  };
}

async function prepare(): Promise<Prepared> {
  const runId = `${Date.now().toString(36)}_${process.pid}_${randomBytes(3).toString("hex")}`;
  if (TEST_DB === "pglite") {
    const adapter = await openAdapter({ kind: "pglite", dir: "memory://" });
    await applyMigrations(adapter);
    // Uncompressed: each test file opens it, and unpacking a gzip costs every file a quarter second.
    const dump = await adapter.pglite!.dumpDataDir("none");
    const file = snapshotPath(runId);
    await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
    await adapter.close();
    return {
      testDb: { kind: "pglite", snapshot: file },
      teardown: async () => {
        await fs.rm(file, { force: true });
      },
    };
  }

  const schema = `mh_test_${runId}`.toLowerCase();
  let adapter;
  try {
    adapter = await openAdapter(postgresConfig(schema));
  } catch (error) {
    throw new Error(
      `Integration tests on PostgreSQL need a server at ${TEST_DATABASE_URL} (set TEST_DATABASE_URL). ` +
        `Install and start one: apt-get install postgresql && pg_ctlcluster 15 main start. Cause: ${String(error)}`,
    );
  }
  await applyMigrations(adapter);
  await adapter.close();
  return {
    testDb: { kind: "postgres", schema },
    teardown: async () => {
      const { Client } = await import("pg");
      const client = new Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}
