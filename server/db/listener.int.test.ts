/**
 * The database listener (./listener.ts): subscribers hear their own channel's notices, each told
 * when it hears; one PostgreSQL connection serves every channel, reconnects when it is ended and
 * LISTENs again on every channel; an unsubscribed part hears nothing more. On PGlite, the
 * database's own notices.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";

import { getDatabase } from "@/server/db";
import { TEST_DATABASE_URL, TEST_DB } from "@/server/testing/test-database";

import type { Database } from "./client";
import { pgliteListener, postgresListener, type NoticeListener } from "./listener";

const NAME = "masthead-listener-test";
const started: NoticeListener[] = [];
afterEach(async () => {
  for (const listener of started.splice(0)) await listener.stop();
});

async function listenerFor(database: Database): Promise<NoticeListener> {
  if (database.config.kind === "pglite") return pgliteListener(database);
  const listener = postgresListener({ url: TEST_DATABASE_URL, schema: database.config.schema, name: NAME });
  started.push(listener);
  return listener;
}

/** A subscriber that keeps what it hears and whether it hears. */
function recorder() {
  const heard: (string | undefined)[] = [];
  const states: boolean[] = [];
  return {
    heard,
    states,
    hearing: () => states.at(-1) === true,
    subscriber: {
      notice: (payload: string | undefined) => void heard.push(payload),
      hearing: (h: boolean) => void states.push(h),
    },
  };
}

async function notify(database: Database, channel: string, payload: string): Promise<void> {
  await database.prisma.$executeRawUnsafe("SELECT pg_notify($1, $2)", channel, payload);
}

describe("the database listener", () => {
  it("hands each channel's notices to its subscribers, and nothing once unsubscribed", async () => {
    const database = await getDatabase();
    const listener = await listenerFor(database);
    const a = recorder();
    const b = recorder();
    const c = recorder();
    const channelA = `test_a_${listener.schema}`.slice(0, 63);
    const channelB = `test_b_${listener.schema}`.slice(0, 63);
    const stopA = listener.subscribe(channelA, a.subscriber);
    listener.subscribe(channelB, b.subscriber);
    listener.subscribe(channelA, c.subscriber);
    expect(a.states[0]).toBe(false);
    await expect.poll(() => a.hearing() && b.hearing() && c.hearing(), { timeout: 10_000 }).toBe(true);

    await notify(database, channelA, "one");
    await notify(database, channelB, "two");
    await expect.poll(() => [a.heard, b.heard, c.heard], { timeout: 5_000 }).toEqual([["one"], ["two"], ["one"]]);

    await stopA();
    await notify(database, channelA, "three");
    await expect.poll(() => c.heard, { timeout: 5_000 }).toEqual(["one", "three"]);
    expect(a.heard).toEqual(["one"]);
  });

  it.runIf(TEST_DB === "postgres")(
    "serves every channel from one connection, and LISTENs on each again after it was ended",
    async () => {
      const database = await getDatabase();
      const listener = await listenerFor(database);
      const a = recorder();
      const b = recorder();
      const channelA = `test_a_${listener.schema}`.slice(0, 63);
      const channelB = `test_b_${listener.schema}`.slice(0, 63);
      listener.subscribe(channelA, a.subscriber);
      await expect.poll(() => a.hearing(), { timeout: 10_000 }).toBe(true);
      // Subscribed while connected: LISTENed on the open connection.
      listener.subscribe(channelB, b.subscriber);
      await expect.poll(() => b.hearing(), { timeout: 10_000 }).toBe(true);

      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      try {
        const connections = await admin.query("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [NAME]);
        expect(connections.rowCount).toBe(1);
        await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [NAME]);
      } finally {
        await admin.end();
      }
      await expect.poll(() => a.hearing() || b.hearing(), { timeout: 5_000 }).toBe(false);
      expect(listener.hearing()).toBe(false);
      await expect.poll(() => a.hearing() && b.hearing(), { timeout: 10_000 }).toBe(true);

      await notify(database, channelA, "after");
      await notify(database, channelB, "after");
      await expect.poll(() => [a.heard, b.heard], { timeout: 5_000 }).toEqual([["after"], ["after"]]);
    },
  );
});
