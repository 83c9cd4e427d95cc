/**
 * The process-wide database: one Prisma Client, opened lazily from the environment and kept on
 * globalThis so Next.js dev reloads do not open a second PGlite on the same folder.
 */
import "server-only";

import { openDatabase, type Database } from "./client";
import { databaseConfigFromEnv } from "./config";

export type { Db, Database } from "./client";

type OpenHook = (database: Database) => Promise<void>;

const globalForDb = globalThis as unknown as { mastheadDb?: Promise<Database>; mastheadDbOpenHooks?: OpenHook[] };

/**
 * Run `hook` on the process database as it opens, before getDatabase hands it to anyone; a hook
 * that fails fails the open. Register before the first getDatabase (instrumentation.ts does:
 * server/cache/start.ts has PGlite's own notices heard this way).
 */
export function whenDatabaseOpens(hook: OpenHook): void {
  (globalForDb.mastheadDbOpenHooks ??= []).push(hook);
}

async function openProcessDatabase(): Promise<Database> {
  const database = await openDatabase(databaseConfigFromEnv());
  try {
    for (const hook of globalForDb.mastheadDbOpenHooks ?? []) await hook(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

export function getDatabase(): Promise<Database> {
  globalForDb.mastheadDb ??= openProcessDatabase().catch((error: unknown) => {
    globalForDb.mastheadDb = undefined;
    throw error;
  });
  return globalForDb.mastheadDb;
}

/** The Prisma Client of this process. */
export async function getDb() {
  return (await getDatabase()).prisma;
}
