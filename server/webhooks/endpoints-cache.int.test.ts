/**
 * The endpoints events are sent to, kept in every instance's memory (deliveries.ts
 * activeEndpointsOf): an emit answered from memory reads no endpoint (the tests count it), and
 * every change is seen by the next emit: the dashboard's own changes at their commit in this
 * process; any other write (another instance, a job, SQL by hand) through the database's trigger,
 * which reaches this process through the cache listener on PostgreSQL (a second connection stands
 * for another instance) and through the database itself on PGlite.
 */
import { describe, expect, it } from "vitest";

import { staffActor, type Actor } from "../auth/actor";
import { getDatabase, getDb } from "../db";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { createTestStaff } from "../testing/staff";
import { connectToSchema } from "../testing/test-database";
import { emitWebhookEvent } from "./deliveries";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  setWebhookEndpointActive,
  updateWebhookEndpoint,
} from "./endpoints";

const onPostgres = process.env.TEST_DB === "postgres";

async function owner(): Promise<Actor> {
  return staffActor((await createTestStaff(await getDb(), { roles: ["OWNER"] })).user);
}

/** `db`, counting the reads of webhook endpoints. */
function counting(db: Db) {
  let reads = 0;
  const counted = new Proxy(db, {
    get(target, property, receiver) {
      if (property === "webhookEndpoint") reads++;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return { db: counted, reads: () => reads };
}

/**
 * The account's endpoints are kept now: an emit reads none. On PostgreSQL the notice of a write
 * just made comes back through the listener a moment after its commit and drops what was kept
 * meanwhile (as it should): wait until emits settle.
 */
async function expectKept(db: Db, accountId: number, endpointIds: string[]) {
  await expect
    .poll(
      async () => {
        const counted = counting(db);
        expect(await publishGoesTo(counted.db, accountId)).toEqual(endpointIds);
        return counted.reads();
      },
      { timeout: 5_000, message: "answered from memory" },
    )
    .toBe(0);
}

/** The endpoints a story-publish event of the account goes to. */
async function publishGoesTo(db: Db, accountId: number): Promise<string[]> {
  const { deliveryIds } = await emitWebhookEvent(db, {
    accountId,
    kind: "CONTENT",
    name: "story-publish",
    data: { story: { id: "s1" } },
    occurredAt: new Date(),
  });
  const deliveries = await (
    await getDb()
  ).webhookDelivery.findMany({
    where: { id: { in: deliveryIds } },
    select: { endpointId: true },
  });
  return deliveries.map((d) => d.endpointId).sort();
}

const allow = { allowPrivate: true };
const input = (url: string, events = ["story-publish"]) => ({
  kind: "CONTENT" as const,
  url,
  events,
  withSecret: true,
});

describe("the endpoints events are sent to", () => {
  it("are read once, then kept: later emits read none and still go to them", async () => {
    const me = await owner();
    const db = await getDb();
    const { endpoint } = await createWebhookEndpoint(db, { actor: me, input: input("http://127.0.0.1:9/a"), ...allow });
    await expectKept(db, me.accountId, [endpoint.id]);
    const again = counting(db);
    expect(await publishGoesTo(again.db, me.accountId)).toEqual([endpoint.id]);
    expect(await publishGoesTo(again.db, me.accountId)).toEqual([endpoint.id]);
    expect(again.reads()).toBe(0);
  });

  it("see every change made in the dashboard at its commit: create, events, disable, enable, delete", async () => {
    const me = await owner();
    const db = await getDb();
    const a = (await createWebhookEndpoint(db, { actor: me, input: input("http://127.0.0.1:9/a"), ...allow })).endpoint;
    expect(await publishGoesTo(db, me.accountId)).toEqual([a.id]);

    const b = (await createWebhookEndpoint(db, { actor: me, input: input("http://127.0.0.1:9/b"), ...allow })).endpoint;
    expect(await publishGoesTo(db, me.accountId)).toEqual([a.id, b.id].sort());

    await updateWebhookEndpoint(db, { actor: me, input: { id: b.id, events: ["story-update"] }, ...allow });
    expect(await publishGoesTo(db, me.accountId)).toEqual([a.id]);

    await setWebhookEndpointActive(db, { actor: me, id: a.id, active: false, now: new Date() });
    expect(await publishGoesTo(db, me.accountId)).toEqual([]);

    await setWebhookEndpointActive(db, { actor: me, id: a.id, active: true, now: new Date() });
    expect(await publishGoesTo(db, me.accountId)).toEqual([a.id]);

    await deleteWebhookEndpoint(db, { actor: me, id: a.id });
    expect(await publishGoesTo(db, me.accountId)).toEqual([]);
  });

  it("see a write by another connection once it commits (the database announces it), not on its rollback", async () => {
    const me = await owner();
    const db = await getDb();
    const { endpoint } = await createWebhookEndpoint(db, { actor: me, input: input("http://127.0.0.1:9/a"), ...allow });
    await expectKept(db, me.accountId, [endpoint.id]);

    /** Another instance (or SQL by hand) disabling the endpoint: the row only. */
    const elsewhere = async (commit: boolean) => {
      const sql = "UPDATE webhook_endpoints SET active = false WHERE id = $1::uuid";
      if (!onPostgres) {
        // PGlite: one process holds the database; a transaction of its own stands for the other writer.
        await withTransaction(db, async (tx) => {
          await tx.$executeRawUnsafe(sql, endpoint.id);
          if (!commit) throw new Error("rolled back");
        }).catch((error: unknown) => {
          if (commit) throw error;
        });
        return;
      }
      const { schema } = (await getDatabase()).config as { schema: string };
      const client = await connectToSchema(schema);
      try {
        await client.query("BEGIN");
        await client.query(sql, [endpoint.id]);
        await client.query(commit ? "COMMIT" : "ROLLBACK");
      } finally {
        await client.end();
      }
    };

    await elsewhere(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const kept = counting(db);
    expect(await publishGoesTo(kept.db, me.accountId)).toEqual([endpoint.id]);
    expect(kept.reads()).toBe(0);

    await elsewhere(true);
    await expect.poll(() => publishGoesTo(db, me.accountId), { timeout: 5_000 }).toEqual([]);
  });
});
