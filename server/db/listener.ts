/**
 * The one place this process hears the database's notifications (pg_notify at commit). Parts
 * subscribe by channel: the caches (server/cache/listener.ts) and the live threads
 * (server/engagement/live/source.ts).
 *
 * - PostgreSQL (postgresListener): one connection of its own, `LISTEN` on every channel someone
 *   subscribed to, reconnecting with backoff. Notifications sent while it is down are lost, so
 *   each subscriber is told when it stops and starts hearing (`hearing`). Behind a pooler in
 *   transaction mode (PgBouncer) LISTEN does not work: CACHE_LISTEN_URL names the database
 *   directly (docs/operations.md). An instance shares one (sharedPostgresListener).
 * - PGlite (pgliteListener): one process holds the database and hears its notices from the
 *   database itself, as the statement that commits returns.
 */
import pg from "pg";

import { onStop } from "../lifecycle";
import { log } from "../log";
import type { Database } from "./client";

type NoticeSubscriber = {
  notice(payload: string | undefined): void;
  /** false: notices may be lost from now on; true: every notice is heard again. */
  hearing?(hearing: boolean): void;
};

export type NoticeListener = {
  /** The database schema whose channels this listener hears (channels are named after it). */
  readonly schema: string;
  /** Hear `channel`; `hearing(false)` at once, `hearing(true)` once listening. Returns the unsubscribe. */
  subscribe(channel: string, subscriber: NoticeSubscriber): () => Promise<void>;
  /** Whether the listener hears its channels now. */
  hearing(): boolean;
  stop(): Promise<void>;
};

const MAX_BACKOFF_MS = 30_000;

/** Subscribers by channel, with their dispatch. */
class Channels {
  readonly byChannel = new Map<string, Set<NoticeSubscriber>>();

  add(channel: string, subscriber: NoticeSubscriber): void {
    const subscribers = this.byChannel.get(channel);
    if (subscribers) subscribers.add(subscriber);
    else this.byChannel.set(channel, new Set([subscriber]));
  }

  remove(channel: string, subscriber: NoticeSubscriber): boolean {
    const subscribers = this.byChannel.get(channel);
    if (!subscribers?.delete(subscriber) || subscribers.size > 0) return false;
    this.byChannel.delete(channel);
    return true;
  }

  notice(channel: string, payload: string | undefined): void {
    for (const subscriber of this.byChannel.get(channel) ?? []) subscriber.notice(payload);
  }

  hearing(hearing: boolean): void {
    for (const subscribers of this.byChannel.values())
      for (const subscriber of subscribers) subscriber.hearing?.(hearing);
  }
}

/** A PostgreSQL connection of its own (named `name` in pg_stat_activity) LISTENing on the subscribed channels. */
export function postgresListener(args: { url: string; schema: string; name: string }): NoticeListener {
  const channels = new Channels();
  let client: pg.Client | undefined;
  /** Channels LISTENed on `client`. */
  let listening = new Set<string>();
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
      log.warn("database listener: lost PostgreSQL; reconnecting", { name: args.name, error: error?.message });
    connected = false;
    channels.hearing(false);
    void retire(client);
    client = undefined;
    if (stopped) return;
    failures++;
    timer = setTimeout(() => void connect(), Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(failures - 1, 6)));
    timer.unref();
  };

  const listen = async (on: pg.Client, channel: string) => {
    listening.add(channel);
    await on.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
  };

  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: args.url, application_name: args.name });
    client = next;
    listening = new Set();
    next.on("error", (error) => {
      if (client === next) lost(error);
    });
    next.on("end", () => {
      if (client === next) lost();
    });
    next.on("notification", (message) => channels.notice(message.channel, message.payload));
    try {
      await next.connect();
      // A Map's iteration reaches the channels subscribed while it runs: none is left out.
      for (const channel of channels.byChannel.keys()) await listen(next, channel);
      if (client !== next || stopped) return;
      if (failures > 0) log.info("database listener: PostgreSQL is back", { name: args.name });
      failures = 0;
      connected = true;
      channels.hearing(true);
    } catch (error) {
      if (client === next) lost(error instanceof Error ? error : new Error(String(error)));
    }
  };

  void connect();

  return {
    schema: args.schema,
    hearing: () => connected,
    subscribe(channel, subscriber) {
      channels.add(channel, subscriber);
      subscriber.hearing?.(false);
      const on = client;
      if (connected && on) {
        if (!listening.has(channel))
          listen(on, channel).then(
            () => client === on && connected && subscriber.hearing?.(true),
            (error: unknown) => client === on && lost(error instanceof Error ? error : new Error(String(error))),
          );
        else subscriber.hearing?.(true);
      }
      return async () => {
        if (!channels.remove(channel, subscriber) || !connected || !client || !listening.delete(channel)) return;
        await client.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
      };
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      const last = client;
      client = undefined;
      connected = false;
      channels.hearing(false);
      await retire(last);
    },
  };
}

const globalForListeners = globalThis as unknown as { mastheadListeners?: Map<string, NoticeListener> };

/**
 * This instance's PostgreSQL listener for `url` and `schema`: one connection however many parts
 * subscribe, started on first use, stopped with the process (server/lifecycle.ts). On globalThis:
 * Next.js loads a module once per bundle.
 */
export function sharedPostgresListener(args: { url: string; schema: string }): NoticeListener {
  const listeners = (globalForListeners.mastheadListeners ??= new Map<string, NoticeListener>());
  const key = `${args.schema} ${args.url}`;
  let listener = listeners.get(key);
  if (!listener) {
    listener = postgresListener({ ...args, name: `masthead-listener:${process.pid}` });
    listeners.set(key, listener);
    const started = listener;
    onStop(() => started.stop());
  }
  return listener;
}

const pgliteListeners = new WeakMap<Database, Promise<NoticeListener>>();

/** An embedded PGlite database's own notices (one listener per database). */
export function pgliteListener(database: Database): Promise<NoticeListener> {
  let listener = pgliteListeners.get(database);
  if (!listener) {
    listener = openPgliteListener(database);
    pgliteListeners.set(database, listener);
  }
  return listener;
}

async function openPgliteListener(database: Database): Promise<NoticeListener> {
  const pglite = database.adapter.pglite;
  if (!pglite) throw new Error("pgliteListener: not a PGlite database");
  const { rows } = await pglite.query<{ schema: string }>("SELECT current_schema() AS schema");
  return {
    schema: rows[0]!.schema,
    hearing: () => true,
    subscribe(channel, subscriber) {
      subscriber.hearing?.(false);
      let stopped = false;
      const unlisten = pglite
        .listen(channel, (payload) => subscriber.notice(payload))
        .then(
          (stop) => {
            if (!stopped) subscriber.hearing?.(true);
            return stop;
          },
          (error: unknown) => {
            log.error("database listener: PGlite's notices cannot be heard", { channel, error });
            return async () => undefined;
          },
        );
      return async () => {
        stopped = true;
        await (
          await unlisten
        )();
      };
    },
    stop: async () => undefined,
  };
}
