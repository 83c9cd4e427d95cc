/**
 * Where a hub hears the live notices: on PostgreSQL one connection of its own per instance,
 * LISTENing on the deployment's live channel (reconnecting with backoff; while it is down the hub
 * reads the table instead: ./hub.ts); on PGlite, the database itself, which one process holds.
 * Behind a pooler in transaction mode LISTEN does not work: CACHE_LISTEN_URL names the database
 * directly, as for the cache listener (server/cache/listener.ts).
 */
import "server-only";

import pg from "pg";

import type { Database } from "../../db/client";
import { log } from "../../log";
import { LIVE_CHANNEL_SQL } from "./events";

export type LiveSource = {
  /** Hear notices (`onNotice`), and whether nothing is missed (`onHearing(false)`: notices may be lost). */
  start(handlers: { onNotice: (payload: string | undefined) => void; onHearing: (hearing: boolean) => void }): void;
  stop(): Promise<void>;
};

const MAX_BACKOFF_MS = 30_000;

/** A PostgreSQL connection that LISTENs on `channel`. */
export function postgresLiveSource(args: { url: string; channel: string; name?: string }): LiveSource {
  let client: pg.Client | undefined;
  let stopped = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let handlers: Parameters<LiveSource["start"]>[0] | undefined;

  const retire = (old: pg.Client | undefined) => {
    if (!old) return Promise.resolve();
    old.removeAllListeners();
    old.on("error", () => undefined);
    return old.end().catch(() => undefined);
  };

  const lost = (error?: Error) => {
    if (failures === 0)
      log.warn("live threads: the listener lost PostgreSQL; reading events instead", { error: error?.message });
    handlers?.onHearing(false);
    void retire(client);
    client = undefined;
    if (stopped) return;
    failures++;
    timer = setTimeout(() => void connect(), Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(failures - 1, 6)));
    timer.unref();
  };

  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: args.url, application_name: args.name ?? "masthead-live" });
    client = next;
    next.on("error", (error) => {
      if (client === next) lost(error);
    });
    next.on("end", () => {
      if (client === next) lost();
    });
    next.on("notification", (message) => {
      if (message.channel === args.channel) handlers?.onNotice(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(args.channel)}`);
      if (client !== next || stopped) return;
      if (failures > 0) log.info("live threads: the listener is back");
      failures = 0;
      handlers?.onHearing(true);
    } catch (error) {
      if (client === next) lost(error instanceof Error ? error : new Error(String(error)));
    }
  };

  return {
    start(next) {
      handlers = next;
      handlers.onHearing(false);
      void connect();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const last = client;
      client = undefined;
      await retire(last);
    },
  };
}

/** An embedded PGlite database's own notices (heard as the committing statement returns). */
export function pgliteLiveSource(database: Database): LiveSource {
  let unlisten: (() => Promise<void>) | undefined;
  let stopped = false;
  return {
    start(handlers) {
      const pglite = database.adapter.pglite;
      if (!pglite) throw new Error("pgliteLiveSource: not a PGlite database");
      handlers.onHearing(false);
      void (async () => {
        const { rows } = await pglite.query<{ channel: string }>(`SELECT ${LIVE_CHANNEL_SQL} AS channel`);
        const stop = await pglite.listen(rows[0]!.channel, (payload) => handlers.onNotice(payload));
        if (stopped) return void stop();
        unlisten = stop;
        handlers.onHearing(true);
      })().catch((error: unknown) => log.error("live threads: PGlite's notices cannot be heard", { error }));
    },
    async stop() {
      stopped = true;
      await unlisten?.();
    },
  };
}
