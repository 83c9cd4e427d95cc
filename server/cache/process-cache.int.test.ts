/**
 * Process caches and their invalidation (./process-cache.ts, ./listener.ts): cleared when a write
 * to what they keep commits (not before, not on a rollback), whoever writes, off while nothing
 * would tell this process about changes, and, on PostgreSQL, cleared by what another instance
 * commits (a second connection stands for it), with the listener (the test setup's, as an
 * instance's) coming back after its connection is killed.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";

import { getDatabase, getDb } from "../db";
import { withTransaction } from "../db/transaction";
import { restoreTestCaches } from "../testing/cache-listener";
import { enableResponseCache } from "../testing/response-cache";
import { connectToSchema, TEST_DATABASE_URL } from "../testing/test-database";
import { cacheState, ownWritesHeard, ProcessCache, setCacheMode } from "./process-cache";
import { responseCache } from "./response-cache";

const cache = new ProcessCache<string, number>("publisher", { ttlMs: 60_000, maxEntries: 3 });

afterEach(restoreTestCaches);

describe("process caches", () => {
  it("keep entries for their TTL, bounded in size", () => {
    cache.set("a", 1, 1_000);
    expect(cache.get("a", 1_500)).toBe(1);
    expect(cache.get("a", 61_001)).toBeUndefined();
    for (const key of ["a", "b", "c", "d", "e"]) cache.set(key, 1, 2_000);
    expect(cache.size).toBeLessThanOrEqual(3);
    expect(cache.get("e", 2_000)).toBe(1);
  });

  it("are cleared once a transaction that writes what they keep commits, and not on a rollback", async () => {
    const db = await getDb();
    const account = await db.account.create({ data: { slug: "cleared", name: "Cleared", jwtSecret: "s".repeat(32) } });
    await ownWritesHeard(db);
    cache.set("host", 7);
    await expect(
      withTransaction(db, async (tx) => {
        await tx.account.update({ where: { id: account.id }, data: { name: "Renamed" } });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(cache.get("host")).toBe(7);

    await withTransaction(db, async (tx) => {
      await tx.account.update({ where: { id: account.id }, data: { name: "Renamed" } });
      // Still there until the commit: a read in between would refill from the old rows.
      expect(cache.get("host")).toBe(7);
    });
    expect(cache.get("host")).toBeUndefined();

    // A write by hand, outside any service, is announced as well.
    cache.set("host", 8);
    await db.$executeRaw`UPDATE publisher_configs SET updated_at = now() WHERE account_id = ${account.id}`;
    await db.$executeRaw`UPDATE accounts SET name = 'By hand' WHERE id = ${account.id}`;
    await ownWritesHeard(db);
    expect(cache.get("host")).toBeUndefined();
  });

  it("load a value once and keep it, but not one read while the cache was cleared", async () => {
    let reads = 0;
    const read = () => Promise.resolve(++reads);
    expect(await cache.load("loaded", read)).toBe(1);
    expect(await cache.load("loaded", read)).toBe(1);
    expect(reads).toBe(1);
    cache.clear();
    // A change clears the cache while the value is being read: that value may predate it.
    expect(
      await cache.load("loaded", async () => {
        const value = await read();
        cache.clear();
        return value;
      }),
    ).toBe(2);
    expect(cache.get("loaded")).toBeUndefined();
    expect(await cache.load("loaded", read)).toBe(3);
    expect(await cache.load("loaded", read)).toBe(3);
  });

  it("answer nothing while nothing tells this process about changes", async () => {
    cache.set("host", 7);
    setCacheMode("off");
    expect(cache.get("host")).toBeUndefined();
    cache.set("host", 8);
    await restoreTestCaches();
    expect(cache.get("host")).toBeUndefined();
  });
});

describe.runIf(process.env.TEST_DB === "postgres")("the PostgreSQL listener", () => {
  enableResponseCache();

  async function listen() {
    const database = await getDatabase();
    if (database.config.kind !== "postgresql") throw new Error("PostgreSQL only");
    expect(cacheState().mode).toBe("listening");
    // What the test's setup wrote is heard before the test keeps anything.
    await ownWritesHeard(await getDb());
    return { schema: database.config.schema };
  }

  /** Another instance: its own connection, committing a change that invalidates "publisher". */
  async function otherInstance(schema: string, commit: boolean, notice: object = { topics: ["publisher"] }) {
    const client = await connectToSchema(schema);
    try {
      await client.query("BEGIN");
      await client.query(`SELECT pg_notify(left('masthead_cache_' || current_schema(), 63), $1)`, [
        JSON.stringify(notice),
      ]);
      await client.query(commit ? "COMMIT" : "ROLLBACK");
    } finally {
      await client.end();
    }
  }

  it("clears what another instance's commit changed, and nothing on its rollback", async () => {
    const { schema } = await listen();
    cache.set("host", 7);
    await otherInstance(schema, false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(cache.get("host")).toBe(7);

    await otherInstance(schema, true);
    await expect.poll(() => cache.get("host"), { timeout: 5_000 }).toBeUndefined();
  });

  it("drops the built responses another instance's commit purges, by key and by account", async () => {
    const { schema } = await listen();
    const responses = responseCache();
    const built = (body: string, tags: string[]) => ({
      body: Buffer.from(body),
      contentType: "text/plain",
      etag: body,
      tags,
      headers: {},
    });
    const keptText = (key: string) => {
      const kept = responses.get(key);
      return kept && Buffer.from(kept.body).toString();
    };
    responses.set("7 /a", 7, responses.generation(), built("a", ["s/1", "stories"]));
    responses.set("7 /b", 7, responses.generation(), built("b", ["config"]));
    responses.set("8 /a", 8, responses.generation(), built("a", ["stories"]));
    await otherInstance(schema, false, { topics: [], purges: [{ account: 7, tags: ["stories"] }] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(keptText("7 /a")).toBe("a");

    await otherInstance(schema, true, { topics: [], purges: [{ account: 7, tags: ["stories"] }] });
    await expect.poll(() => responses.get("7 /a"), { timeout: 5_000 }).toBeUndefined();
    expect(keptText("7 /b")).toBe("b");
    expect(keptText("8 /a")).toBe("a");
    await otherInstance(schema, true, { topics: [], purges: [{ account: 8, tags: null }] });
    await expect.poll(() => responses.get("8 /a"), { timeout: 5_000 }).toBeUndefined();
    expect(keptText("7 /b")).toBe("b");
  });

  it("turns caches off when its connection dies, and on again (empty) once it is back", async () => {
    await listen();
    cache.set("host", 7);
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
        [`masthead-cache-listener:${cacheState().instanceId}`],
      );
      expect(rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await expect.poll(() => cacheState().mode, { timeout: 5_000 }).toBe("off");
    expect(cache.get("host")).toBeUndefined();
    await expect.poll(() => cacheState().mode, { timeout: 10_000 }).toBe("listening");
    expect(cache.get("host")).toBeUndefined();
    cache.set("host", 9);
    expect(cache.get("host")).toBe(9);
  });
});
