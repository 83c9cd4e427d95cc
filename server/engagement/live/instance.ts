/**
 * This process's hub (./hub.ts), made on the first stream and kept on globalThis (Next.js loads a
 * module once per bundle; one hub per instance). It hears the database the process uses through
 * the instance's database listener (server/db/listener.ts): PGlite's own notices, or the LISTEN
 * connection to PostgreSQL (CACHE_LISTEN_URL when set, the database URL otherwise).
 */
import "server-only";

import { getEnv } from "../../../env.js";
import { getDatabase } from "../../db";
import { pgliteListener, sharedPostgresListener } from "../../db/listener";
import { onStop } from "../../lifecycle";
import { LiveHub } from "./hub";
import { liveSource } from "./source";

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
  const listener =
    config.kind === "pglite"
      ? await pgliteListener(database)
      : sharedPostgresListener({ url: getEnv().CACHE_LISTEN_URL ?? config.url, schema: config.schema });
  const hub = new LiveHub(database.prisma, liveSource(listener));
  onStop(() => hub.stop());
  return hub;
}
