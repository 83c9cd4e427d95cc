/**
 * This process's hub (./hub.ts), made on the first stream and kept on globalThis (Next.js loads a
 * module once per bundle; one hub, one listener per instance). It hears the database the process
 * uses: PGlite's own notices, or a LISTEN connection to PostgreSQL (CACHE_LISTEN_URL when set,
 * the database URL otherwise).
 */
import "server-only";

import { getEnv } from "../../../env.js";
import { getDatabase } from "../../db";
import { onStop } from "../../lifecycle";
import { liveChannel } from "./events";
import { LiveHub } from "./hub";
import { pgliteLiveSource, postgresLiveSource } from "./source";

const globalForLive = globalThis as unknown as { mastheadLiveHub?: Promise<LiveHub> };

export function liveHub(): Promise<LiveHub> {
  globalForLive.mastheadLiveHub ??= makeHub().catch((error: unknown) => {
    globalForLive.mastheadLiveHub = undefined;
    throw error;
  });
  return globalForLive.mastheadLiveHub;
}

async function makeHub(): Promise<LiveHub> {
  const database = await getDatabase();
  const config = database.config;
  const source =
    config.kind === "pglite"
      ? pgliteLiveSource(database)
      : postgresLiveSource({
          url: getEnv().CACHE_LISTEN_URL ?? config.url,
          channel: liveChannel(config.schema),
          name: `masthead-live:${process.pid}`,
        });
  const hub = new LiveHub(database.prisma, source);
  onStop(() => hub.stop());
  return hub;
}
