/**
 * The PostgreSQL listener that keeps this process's caches true to what other instances commit
 * (./process-cache.ts): one connection of its own, `LISTEN` on the deployment's channel, and on
 * each notification the database sends at a commit, the topics it names cleared and the built
 * responses it names dropped (./response-cache.ts), this process's own commits included.
 *
 * While the connection is down, caches are off (every read goes to the database) and it
 * reconnects with backoff; once it listens again every cache starts empty, since notifications
 * sent in between are lost. Behind a pooler in transaction mode (PgBouncer), LISTEN does not
 * work: point CACHE_LISTEN_URL at the database directly (docs/operations.md).
 *
 * On PGlite, one process holds the database and hears its notifications from the database
 * itself (listenToPglite), as the statement that commits returns.
 */
import pg from "pg";

import type { Database } from "../db/client";
import { afterEveryCommit } from "../db/transaction";
import { log } from "../log";
import { CACHE_CHANNEL_SQL, cacheState, ownWritesHeard, setCacheMode } from "./process-cache";
import { applyNotice } from "./response-cache";

export type CacheListener = { stop: () => Promise<void>; connected: () => boolean };

const MAX_BACKOFF_MS = 30_000;

export function startCacheListener(args: { url: string; channel: string }): CacheListener {
  let client: pg.Client | undefined;
  let stopped = false;
  let connected = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;

  /** Close a connection that is no longer this listener's, deaf to whatever it still emits. */
  const retire = (old: pg.Client | undefined) => {
    if (!old) return Promise.resolve();
    old.removeAllListeners();
    old.on("error", () => undefined);
    return old.end().catch(() => undefined);
  };

  const lost = (error?: Error) => {
    if (connected || failures === 0)
      log.warn("cache invalidation: the listener lost PostgreSQL; caches are off until it is back", {
        error: error?.message,
      });
    connected = false;
    setCacheMode("off");
    void retire(client);
    client = undefined;
    if (stopped) return;
    failures++;
    timer = setTimeout(() => void connect(), Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(failures - 1, 6)));
    timer.unref();
  };

  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({
      connectionString: args.url,
      application_name: `masthead-cache-listener:${cacheState().instanceId}`,
    });
    client = next;
    next.on("error", (error) => {
      if (client === next) lost(error);
    });
    next.on("end", () => {
      if (client === next) lost();
    });
    next.on("notification", (message) => {
      if (message.channel === args.channel) applyNotice(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(args.channel)}`);
      if (client !== next || stopped) return;
      // Caches were off (and empty) while nobody listened: what was announced then is lost.
      setCacheMode("listening");
      if (failures > 0) log.info("cache invalidation: the listener is back; caches are on");
      failures = 0;
      connected = true;
    } catch (error) {
      if (client === next) lost(error instanceof Error ? error : new Error(String(error)));
    }
  };

  setCacheMode("off");
  // A transaction answers once this listener heard what it committed (nothing while it is down).
  afterEveryCommit(ownWritesHeard);
  void connect();

  return {
    connected: () => connected,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      const last = client;
      client = undefined;
      connected = false;
      setCacheMode("off");
      await retire(last);
    },
  };
}

/**
 * Hear the notifications of an embedded PGlite database as the listener hears PostgreSQL's;
 * nothing to do on PostgreSQL.
 */
export async function listenToPglite(database: Database): Promise<void> {
  const pglite = database.adapter.pglite;
  if (!pglite) return;
  const { rows } = await pglite.query<{ channel: string }>(`SELECT ${CACHE_CHANNEL_SQL} AS channel`);
  await pglite.listen(rows[0]!.channel, applyNotice);
}
