/**
 * Tests of what instances keep in memory hear the database's notices as an instance does: on
 * PostgreSQL through a cache listener on the test schema's channel (started here, waited for), on
 * PGlite from the database itself (the test setup's "local" mode). Call from beforeAll; stop it
 * in afterAll with `stopTestCacheListener`.
 */
import { startCacheListener, type CacheListener } from "../cache/listener";
import { cacheChannel, cacheState, setCacheMode } from "../cache/process-cache";
import { getDatabase } from "../db";
import { TEST_DATABASE_URL } from "./test-database";

let listener: CacheListener | undefined;

/** On PostgreSQL, listen for the notices of this run's schema (nothing to start on PGlite). */
export async function startTestCacheListener(): Promise<void> {
  if (process.env.TEST_DB !== "postgres") return;
  const database = await getDatabase();
  if (database.config.kind !== "postgresql") throw new Error("PostgreSQL expected");
  listener = startCacheListener({ url: TEST_DATABASE_URL, channel: cacheChannel(database.config.schema) });
  for (let waited = 0; cacheState().mode !== "listening"; waited += 50) {
    if (waited > 10_000) throw new Error("the cache listener did not connect");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Stop the listener, and leave the process as the test setup had it ("local"). */
export async function stopTestCacheListener(): Promise<void> {
  await listener?.stop();
  listener = undefined;
  setCacheMode("local");
}
