/**
 * Crash test for background work: the built server delivers webhooks from the database; killing it
 * with SIGKILL in the middle of retries loses nothing and sends nothing twice.
 *
 * Runs against the local PostgreSQL (the test writes events from its own process while the server
 * runs, which PGlite's one-process rule would not allow), in a schema of its own.
 */
import { expect, test } from "@playwright/test";

import { startReceiver } from "../../server/testing/webhook-receiver";
import { emitWebhookEvent } from "../../server/webhooks/deliveries";
import { specSchema, startBuiltServer, waitFor, type BuiltServer } from "./built-server";

const SCHEMA = `mh_crash_${process.pid}`;
const PORT = Number(process.env.E2E_PORT ?? 3210) + 21;
const EVENTS = 20;

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

const database = specSchema(SCHEMA);

test("deliveries survive a SIGKILL in the middle of their retries, none sent twice", async () => {
  const db = database().prisma;
  // A port that refuses connections now and will have a receiver later.
  const probe = await startReceiver();
  const receiverPort = probe.port;
  await probe.close();

  const account = await db.account.create({ data: { slug: "crash", name: "Crash", jwtSecret: "x".repeat(32) } });
  await db.webhookEndpoint.create({
    data: {
      accountId: account.id,
      kind: "CONTENT",
      url: `http://127.0.0.1:${receiverPort}/hook`,
      events: ["story-publish"],
      secret: "whsec_crash",
    },
  });

  let server: BuiltServer = await startBuiltServer({ port: PORT, schema: SCHEMA });
  try {
    for (let i = 0; i < EVENTS; i++) {
      await emitWebhookEvent(db, {
        accountId: account.id,
        kind: "CONTENT",
        name: "story-publish",
        data: { n: i },
        occurredAt: new Date(),
      });
    }
    // Every delivery has failed its first attempt and waits 10 s for the next: mid-retries.
    await waitFor(
      async () =>
        (await db.webhookDelivery.count({ where: { attemptCount: { gte: 1 } } })) === EVENTS ? true : undefined,
      30_000,
      "first attempts",
    );
    expect(await db.webhookDelivery.count({ where: { status: "PENDING" } })).toBe(EVENTS);

    await server.kill();

    // The receiver comes up while the server is down.
    const receiver = await startReceiver(() => ({ status: 200, body: "ok" }), receiverPort);
    try {
      server = await startBuiltServer({ port: PORT, schema: SCHEMA });
      await waitFor(
        async () =>
          (await db.webhookDelivery.count({ where: { status: "SUCCEEDED" } })) === EVENTS ? true : undefined,
        90_000,
        "all deliveries to succeed",
      );
      await new Promise((resolve) => setTimeout(resolve, 1500)); // anything sent twice would arrive now
      const received = receiver.requests.map((r) => String(r.headers["x-masthead-event-id"]));
      expect(received).toHaveLength(EVENTS);
      expect(new Set(received).size).toBe(EVENTS);
      const attempts = await db.webhookAttempt.groupBy({ by: ["deliveryId"], _count: { _all: true } });
      expect(attempts.every((a) => a._count._all === 2)).toBe(true);
    } finally {
      await receiver.close();
    }
  } finally {
    await server.kill();
  }
});
