/**
 * What keeps this process's caches true to what other instances commit (./process-cache.ts): a
 * subscriber to the deployment's cache channel on the database listener (server/db/listener.ts).
 * On each notification the database sends at a commit, the topics it names are cleared and the
 * built responses it names dropped (./response-cache.ts), this process's own commits included.
 *
 * While the listener's PostgreSQL connection is down, caches are off (every read goes to the
 * database); once it listens again every cache starts empty, since notifications sent in between
 * are lost. On PGlite, one process holds the database and hears its notifications from the
 * database itself (listenToPglite), as the statement that commits returns.
 */
import type { Database } from "../db/client";
import { pgliteListener, type NoticeListener } from "../db/listener";
import { afterEveryCommit } from "../db/transaction";
import { log } from "../log";
import { cacheChannel, ownWritesHeard, setCacheMode } from "./process-cache";
import { applyNotice } from "./response-cache";

export type CacheListener = { stop: () => Promise<void>; connected: () => boolean };

/** Subscribe the caches to `listener`'s cache channel (a PostgreSQL listener: caches answer while it hears). */
export function startCacheListener(listener: NoticeListener): CacheListener {
  let heard = false;
  let lostOnce = false;
  setCacheMode("off");
  // A transaction answers once this listener heard what it committed (nothing while it is down).
  afterEveryCommit(ownWritesHeard);
  const unsubscribe = listener.subscribe(cacheChannel(listener.schema), {
    notice: applyNotice,
    hearing(hearing) {
      if (hearing === heard) return;
      heard = hearing;
      if (!hearing) {
        log.warn("cache invalidation: the listener lost PostgreSQL; caches are off until it is back");
        lostOnce = true;
        return setCacheMode("off");
      }
      // Caches were off (and empty) while nobody listened: what was announced then is lost.
      setCacheMode("listening");
      if (lostOnce) log.info("cache invalidation: the listener is back; caches are on");
    },
  });
  return {
    connected: () => listener.hearing(),
    stop: async () => {
      await unsubscribe();
      heard = false;
      setCacheMode("off");
    },
  };
}

/**
 * Hear the notifications of an embedded PGlite database as the listener hears PostgreSQL's;
 * nothing to do on PostgreSQL.
 */
export async function listenToPglite(database: Database): Promise<void> {
  if (!database.adapter.pglite) return;
  const listener = await pgliteListener(database);
  await new Promise<void>((resolve) => {
    listener.subscribe(cacheChannel(listener.schema), {
      notice: applyNotice,
      hearing: (hearing) => hearing && resolve(),
    });
  });
}
