/**
 * How this process hears about changes other processes commit (called once, from
 * instrumentation.ts): see ./process-cache.ts.
 * - PGlite: one process holds the database and hears its notices (./listener.ts listenToPglite)
 *   once the process database opens.
 * - PostgreSQL on a server: the caches subscribe to the instance's database listener
 *   (server/db/listener.ts); every transaction waits, after its commit, until the listener heard
 *   it (ownWritesHeard).
 * - PostgreSQL on Vercel: no connection outlives a request there, so caches stay off.
 */
import { getEnv } from "../../env.js";
import { whenDatabaseOpens } from "../db";
import { databaseConfigFromEnv } from "../db/config";
import { sharedPostgresListener } from "../db/listener";
import { onStop } from "../lifecycle";
import { listenToPglite, startCacheListener, type CacheListener } from "./listener";
import { setCacheMode } from "./process-cache";

const globalForListener = globalThis as unknown as {
  mastheadCacheListener?: CacheListener;
  mastheadPgliteHeard?: boolean;
};

export function startCacheInvalidation(env = getEnv()): void {
  const config = databaseConfigFromEnv(env);
  if (config.kind === "pglite") {
    if (!globalForListener.mastheadPgliteHeard) whenDatabaseOpens(listenToPglite);
    globalForListener.mastheadPgliteHeard = true;
    return setCacheMode("local");
  }
  if (env.VERCEL) return setCacheMode("off");
  if (globalForListener.mastheadCacheListener) return;
  const listener = startCacheListener(
    sharedPostgresListener({ url: env.CACHE_LISTEN_URL ?? config.url, schema: config.schema }),
  );
  globalForListener.mastheadCacheListener = listener;
  onStop(listener.stop);
}
