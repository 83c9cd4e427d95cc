/**
 * The process-wide database: one Prisma Client, opened lazily from the environment and kept on
 * globalThis so Next.js dev reloads do not open a second PGlite on the same folder.
 */
import "server-only";

import { openDatabase, type Database } from "./client";
import { databaseConfigFromEnv } from "./config";

export type { Db, Database } from "./client";

const globalForDb = globalThis as unknown as { mastheadDb?: Promise<Database> };

export function getDatabase(): Promise<Database> {
  globalForDb.mastheadDb ??= openDatabase(databaseConfigFromEnv()).catch((error: unknown) => {
    globalForDb.mastheadDb = undefined;
    throw error;
  });
  return globalForDb.mastheadDb;
}

/** The Prisma Client of this process. */
export async function getDb() {
  return (await getDatabase()).prisma;
}
