/**
 * Which database an integration run uses. Shared by the global setup (main process) and the
 * per-file setup (worker processes).
 */
import os from "node:os";
import path from "node:path";

import pg from "pg";

import type { DatabaseConfig } from "../db/config";

export const TEST_DB = (process.env.TEST_DB ?? "pglite") as "pglite" | "postgres";
if (TEST_DB !== "pglite" && TEST_DB !== "postgres")
  throw new Error(`TEST_DB must be pglite or postgres, not ${String(TEST_DB)}`);

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** Where the global setup leaves the migrated PGlite snapshot for the workers. */
export function snapshotPath(runId: string): string {
  return path.join(os.tmpdir(), `masthead-int-${runId}.tar`);
}

export function postgresConfig(schema: string): DatabaseConfig {
  return { kind: "postgresql", url: TEST_DATABASE_URL, schema };
}

/**
 * A connection of its own to the PostgreSQL test database, on `schema`: another instance's, or
 * SQL by hand, in the tests that need one (the caller ends it).
 */
export async function connectToSchema(schema: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`SET search_path TO ${pg.escapeIdentifier(schema)}`);
  } catch (error) {
    await client.end();
    throw error;
  }
  return client;
}
