/**
 * Integration tests hear the database's notices as an instance does (server/cache/process-cache.ts):
 * on PostgreSQL through a cache listener on the test schema's channel, started for each test file
 * by the setup (./setup.integration.ts) and waited for; on PGlite from the database itself.
 */
import { startCacheListener, type CacheListener } from "../cache/listener";
import { cacheState, setCacheMode } from "../cache/process-cache";
import type { Database } from "../db/client";
import { postgresListener, type NoticeListener } from "../db/listener";
import { TEST_DATABASE_URL } from "./test-database";

let connection: NoticeListener | undefined;
let listener: CacheListener | undefined;

async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 10_000) throw new Error(`${what} did not happen in 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Listen as an instance does: a listener on PostgreSQL (waited for), "local" on PGlite. */
export async function listenToTestDatabase(database: Database): Promise<void> {
  if (database.config.kind !== "postgresql") return setCacheMode("local");
  // Named as the instance's listener is in the process-cache tests, which end its connection.
  connection ??= postgresListener({
    url: TEST_DATABASE_URL,
    schema: database.config.schema,
    name: `masthead-cache-listener:${cacheState().instanceId}`,
  });
  listener ??= startCacheListener(connection);
  await until(() => cacheState().mode === "listening", "the cache listener's connection");
}

export async function stopListeningToTestDatabase(): Promise<void> {
  await listener?.stop();
  await connection?.stop();
  listener = undefined;
  connection = undefined;
}

/** After a test turned caches off: back as the setup had them (on PostgreSQL, once the listener is connected). */
export async function restoreTestCaches(): Promise<void> {
  if (!listener) return setCacheMode("local");
  const running = listener;
  await until(() => running.connected(), "the cache listener's reconnection");
  setCacheMode("listening");
}
