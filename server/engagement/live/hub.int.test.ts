/**
 * Live threads (./hub.ts): one hub per instance fans a page's changes out to every open stream
 * of the page, as the database announces them at commit (PGlite's own notices; on PostgreSQL a
 * LISTEN connection per hub); a stream catches up from a cursor; the bounds refuse with 503 and
 * Retry-After; an aborted stream is let go; a held or hidden comment is only ever named as
 * removed, and a held comment's own changes not at all.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";

import { getDatabase, getDb } from "@/server/db";
import type { Database } from "@/server/db/client";
import { pgliteListener, postgresListener, type NoticeListener } from "@/server/db/listener";
import { AppError } from "@/server/errors";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { SseReader, type SseMessage } from "@/server/testing/sse-reader";
import { TEST_DATABASE_URL, TEST_DB } from "@/server/testing/test-database";

import { POST as CREATE } from "../../../app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments.json/route";
import { POST as HIDE } from "../../../app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments/[comment_id]/hide/route";
import { LiveHub, type LiveLimits } from "./hub";
import type { TLiveChange, TLiveState } from "./live.schema";
import { liveSource, type LiveSource } from "./source";

const PAGE = "https://news.example.com/live/a-story";
const ADA = { id: "reader-ada", name: "Ada" };

const hubs: LiveHub[] = [];
const listeners: NoticeListener[] = [];
const readers: SseReader[] = [];
afterEach(async () => {
  for (const reader of readers.splice(0)) await reader.cancel();
  for (const hub of hubs.splice(0)) await hub.stop();
  for (const listener of listeners.splice(0)) await listener.stop();
});

/** A source as an instance has one: PGlite's notices, or a LISTEN connection of its own. */
async function sourceFor(database: Database, name = "masthead-live-test"): Promise<LiveSource> {
  if (database.config.kind === "pglite") return liveSource(await pgliteListener(database));
  const listener = postgresListener({ url: TEST_DATABASE_URL, schema: database.config.schema, name });
  listeners.push(listener);
  return liveSource(listener);
}

async function newHub(limits: Partial<LiveLimits> = {}, name?: string): Promise<LiveHub> {
  const database = await getDatabase();
  const hub = new LiveHub(database.prisma, await sourceFor(database, name), limits);
  hubs.push(hub);
  return hub;
}

async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 10_000) throw new Error(`${what} did not happen in 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const id = String(account.id);
  const first = await post(id, "The first comment");
  const page = await db.page.findFirstOrThrow({ where: { accountId: account.id } });
  return { db, account, id, page, first };
}

async function post(id: string, words: string, parent?: number): Promise<{ id: number; author_id: number }> {
  const res = await call(
    CREATE,
    "POST",
    "/x",
    { account_id: id, encoded_url: pageId(PAGE) },
    {
      comment: { body: { ops: [{ insert: words }] }, ...(parent ? { parent_comment_id: parent } : {}) },
      jwt: await readerJwt(ADA),
    },
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { comment: { id: number; author_id: number } }).comment;
}

/** Open a stream and read its `ready` event. */
async function follow(
  hub: LiveHub,
  accountId: number,
  page: number,
  since: bigint | null = null,
  signal?: AbortSignal,
) {
  const reader = new SseReader(hub.open({ accountId, pageId: page, since, signal }));
  readers.push(reader);
  const ready = await reader.next();
  expect(ready.event).toBe("ready");
  await until(() => hub.stats().hearing, "the hub's listener");
  return { reader, ready: ready.data as TLiveState };
}

const change = (message: SseMessage) => {
  expect(message.event).toBe("change");
  expect(message.id).toBe((message.data as TLiveChange).cursor);
  return message.data as TLiveChange;
};

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("live threads", () => {
  it("fan one page's changes out to every open stream, through one hub", async () => {
    const { db, account, id, page, first } = await setup();
    const hub = await newHub();
    const streams = await Promise.all([1, 2, 3].map(() => follow(hub, account.id, page.id)));
    const elsewhere = await db.page.create({ data: { accountId: account.id, url: "https://news.example.com/live/b" } });
    const other = await follow(hub, account.id, elsewhere.id);
    expect(streams[0]!.ready).toMatchObject({ total_count: 1 });
    expect(streams[0]!.ready.latest_comment_at).not.toBeNull();
    expect(hub.stats()).toMatchObject({ streams: 4, pages: 2 });

    const reply = await post(id, "A reply", first.id);
    for (const { reader } of streams) {
      expect(change(await reader.next())).toMatchObject({
        created: [reply.id],
        edited: [],
        removed: [],
        total_count: 2,
      });
    }
    // Another page's stream hears nothing of it.
    await other.reader.nothingWithin(200);
  });

  it("serve 2,000 streams of one page with one read of each change", async () => {
    const { db, account, id, page } = await setup();
    let reads = 0;
    let catchUps = 0;
    const counted = db.$extends({
      query: {
        commentLiveEvent: {
          findMany({ args, query }) {
            // What a notice names (an id range); catch-ups read after a cursor.
            const range = args.where?.id as { gte?: bigint; gt?: bigint } | undefined;
            if (range?.gte !== undefined) reads++;
            if (range?.gt !== undefined) catchUps++;
            return query(args);
          },
        },
      },
    }) as unknown as typeof db;
    const database = await getDatabase();
    const hub = new LiveHub(counted, await sourceFor(database));
    hubs.push(hub);
    const streams = Array.from(
      { length: 2_000 },
      () => new SseReader(hub.open({ accountId: account.id, pageId: page.id, since: null })),
    );
    readers.push(...streams);
    let cursor = "";
    for (const reader of streams) {
      const ready = await reader.next();
      expect(ready.event).toBe("ready");
      cursor = ready.id!;
    }
    await until(() => hub.stats().hearing, "the hub's listener");
    expect(hub.stats()).toMatchObject({ streams: 2_000, pages: 1 });
    reads = 0;
    const written = await post(id, "To two thousand readers");
    for (const reader of streams) {
      expect(change(await reader.next())).toMatchObject({ created: [written.id], total_count: 2 });
    }
    expect(reads).toBe(1);

    // 500 streams reconnecting from the same cursor share one catch-up read.
    catchUps = 0;
    const back = Array.from(
      { length: 500 },
      () => new SseReader(hub.open({ accountId: account.id, pageId: page.id, since: BigInt(cursor) })),
    );
    readers.push(...back);
    for (const reader of back) {
      expect((await reader.next()).event).toBe("ready");
      expect(change(await reader.next())).toMatchObject({ created: [written.id] });
    }
    expect(catchUps).toBe(1);
  });

  it("name a held or hidden comment only as removed, and a held comment's changes not at all", async () => {
    const { db, account, id, page, first } = await setup();
    const hub = await newHub();
    const { reader } = await follow(hub, account.id, page.id);

    // A comment written held: nothing.
    const held = await db.comment.create({
      data: {
        accountId: account.id,
        pageId: page.id,
        authorId: first.author_id,
        body: { ops: [{ insert: "Held words\n" }] },
        bodyDigest: "held",
        isPublished: false,
      },
    });
    await db.comment.update({ where: { id: held.id }, data: { body: { ops: [{ insert: "Held, edited\n" }] } } });
    await reader.nothingWithin(300);

    // A shown comment held by a moderator, and one its author hides: removed, by id.
    const shown = await post(id, "Shown words");
    expect(change(await reader.next())).toMatchObject({ created: [shown.id], total_count: 2 });
    await db.comment.update({ where: { id: shown.id }, data: { isPublished: false } });
    const removed = change(await reader.next());
    expect(removed).toEqual({ cursor: removed.cursor, created: [], edited: [], removed: [shown.id], total_count: 1 });
    const hide = await call(
      HIDE,
      "POST",
      "/x",
      { account_id: id, encoded_url: pageId(PAGE), comment_id: String(first.id) },
      { jwt: await readerJwt(ADA) },
    );
    expect(hide.status).toBe(200);
    expect(change(await reader.next())).toMatchObject({ created: [], removed: [first.id], total_count: 0 });
    // An edit of a hidden comment: nothing. Approved: created.
    await db.comment.update({ where: { id: first.id }, data: { editedAt: new Date() } });
    await reader.nothingWithin(300);
    await db.comment.update({ where: { id: held.id }, data: { isPublished: true } });
    expect(change(await reader.next())).toMatchObject({ created: [held.id], total_count: 1 });
    // An edit of a shown comment: edited.
    await db.comment.update({
      where: { id: held.id },
      data: { body: { ops: [{ insert: "Now edited\n" }] }, editedAt: new Date() },
    });
    expect(change(await reader.next())).toMatchObject({ edited: [held.id], total_count: 1 });
  });

  it("catch a stream up from its cursor (Last-Event-ID), or say resync when that cannot be told", async () => {
    const { account, id, page } = await setup();
    const hub = await newHub();
    const { reader, ready } = await follow(hub, account.id, page.id);
    await reader.cancel();
    await until(() => hub.stats().streams === 0, "the stream's end");

    const a = await post(id, "Written while away");
    const b = await post(id, "Also while away");
    const back = new SseReader(hub.open({ accountId: account.id, pageId: page.id, since: BigInt(ready.cursor) }));
    readers.push(back);
    expect((await back.next()).event).toBe("ready");
    expect(change(await back.next())).toMatchObject({ created: [a.id, b.id], total_count: 3 });

    // A cursor that is not one of this page's kept events: read the list again.
    const lost = new SseReader(hub.open({ accountId: account.id, pageId: page.id, since: 987_654n }));
    readers.push(lost);
    expect((await lost.next()).event).toBe("ready");
    expect(await lost.next()).toMatchObject({ event: "resync", data: { total_count: 3 } });
  });

  it("refuse streams past the page's and the instance's bounds with 503 and Retry-After, and let go of aborted ones", async () => {
    const { db, account, page } = await setup();
    const otherPage = await db.page.create({ data: { accountId: account.id, url: "https://news.example.com/live/b" } });
    const thirdPage = await db.page.create({ data: { accountId: account.id, url: "https://news.example.com/live/c" } });
    const hub = await newHub({ perPage: 2, perInstance: 3 });
    const aborts = [new AbortController(), new AbortController()];
    await follow(hub, account.id, page.id, null, aborts[0]!.signal);
    await follow(hub, account.id, page.id, null, aborts[1]!.signal);
    const refused = (() => {
      try {
        hub.open({ accountId: account.id, pageId: page.id, since: null });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "SERVICE_UNAVAILABLE", headers: { "Retry-After": "30" } });
    await follow(hub, account.id, otherPage.id);
    expect(() => hub.open({ accountId: account.id, pageId: thirdPage.id, since: null })).toThrow(
      /as many live streams/,
    );
    expect(hub.stats()).toMatchObject({ streams: 3, pages: 2 });

    aborts[0]!.abort();
    expect(hub.stats()).toMatchObject({ streams: 2 });
    await follow(hub, account.id, thirdPage.id);
    expect(hub.stats()).toMatchObject({ streams: 3, pages: 3 });
  });

  it("bound the streams of one client address", async () => {
    const { account, page } = await setup();
    const hub = await newHub({ perClient: 2 });
    const open = (client: string) =>
      new SseReader(hub.open({ accountId: account.id, pageId: page.id, since: null, client }));
    const first = open("203.0.113.7");
    readers.push(first, open("203.0.113.7"));
    expect(() => open("203.0.113.7")).toThrow(/This address has as many live streams/);
    readers.push(open("198.51.100.1"));
    await first.cancel();
    await until(() => hub.stats().streams === 2, "the first stream's end");
    readers.push(open("203.0.113.7"));
    expect(hub.stats().streams).toBe(3);
  });

  it("send heartbeats, and end a stream whose reader does not read", async () => {
    const { account, id, page } = await setup();
    const hub = await newHub({ heartbeatMs: 50, deafPollMs: 50, maxQueued: 3 });
    const { reader } = await follow(hub, account.id, page.id);
    // A second stream nobody reads: its queue grows past the bound, and it is ended; the one
    // read meanwhile gets heartbeats and stays.
    hub.open({ accountId: account.id, pageId: page.id, since: null });
    expect(hub.stats().streams).toBe(2);
    for (let i = 0; i < 100 && hub.stats().streams > 1; i++) await reader.nothingWithin(60);
    expect(hub.stats().streams).toBe(1);
    expect(reader.comments).toBeGreaterThan(0);
    await post(id, "Still heard");
    expect(change(await reader.next())).toMatchObject({ total_count: 2 });
  });

  it.runIf(TEST_DB === "postgres")(
    "reach a stream on another instance (its own listener), and read the table while that listener is down",
    async () => {
      const { account, id, page } = await setup();
      // Two instances: each hub LISTENs on a connection of its own; the writes go through this
      // process's database, as through a third.
      const a = await newHub({ deafPollMs: 100 }, "masthead-live-test-a");
      const b = await newHub({ deafPollMs: 100 }, "masthead-live-test-b");
      const onA = await follow(a, account.id, page.id);
      const onB = await follow(b, account.id, page.id);
      const written = await post(id, "Heard everywhere");
      expect(change(await onA.reader.next())).toMatchObject({ created: [written.id], total_count: 2 });
      expect(change(await onB.reader.next())).toMatchObject({ created: [written.id], total_count: 2 });

      // B's listener connection is killed: B reads its pages' events itself until it is back.
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      try {
        await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [
          "masthead-live-test-b",
        ]);
      } finally {
        await admin.end();
      }
      await until(() => !b.stats().hearing, "B's listener loss");
      const whileDeaf = await post(id, "Written while B was deaf");
      expect(change(await onB.reader.next())).toMatchObject({ created: [whileDeaf.id], total_count: 3 });
      expect(change(await onA.reader.next())).toMatchObject({ created: [whileDeaf.id], total_count: 3 });
      await until(() => b.stats().hearing, "B's listener's return");
      const afterwards = await post(id, "Heard again");
      expect(change(await onB.reader.next())).toMatchObject({ created: [afterwards.id], total_count: 4 });
    },
  );
});
