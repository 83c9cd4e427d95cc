/**
 * Crash test for background work: the built server delivers webhooks from the database; killing it
 * with SIGKILL in the middle of retries loses nothing and sends nothing twice.
 *
 * Runs against the local PostgreSQL (the test writes events from its own process while the server
 * runs, which PGlite's one-process rule would not allow), in a schema of its own.
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

import { expect, test } from "@playwright/test";

import { openDatabase, type Database } from "../../server/db/client";
import { applyMigrations } from "../../server/db/migrate";
import { emitWebhookEvent } from "../../server/webhooks/deliveries";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const SCHEMA = `mh_crash_${process.pid}`;
const PORT = 3231;
const EVENTS = 20;

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

let database: Database;
test.beforeAll(async () => {
  database = await openDatabase({ kind: "postgresql", url: DATABASE_URL, schema: SCHEMA });
  await applyMigrations(database.adapter.factory);
});
test.afterAll(async () => {
  await database.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
  await database.close();
});

function startServer(): ChildProcess {
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(PORT), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL,
      DATABASE_SCHEMA: SCHEMA,
      AUTH_SECRET: "crash-test-secret-crash-test-secret-0000",
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      JOBS_POLL_INTERVAL_MS: "200",
      INNGEST_EVENT_KEY: "",
      INNGEST_BASE_URL: "",
      INNGEST_DEV: "",
    },
    stdio: "ignore",
  });
  return child;
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test("deliveries survive a SIGKILL in the middle of their retries, none sent twice", async () => {
  const db = database.prisma;
  // A port that refuses connections now and will have a receiver later.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const receiverPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));

  const account = await db.account.create({ data: { slug: "crash", name: "Crash", jwtSecret: "x".repeat(32) } });
  await db.webhookEndpoint.create({
    data: { accountId: account.id, kind: "CONTENT", url: `http://127.0.0.1:${receiverPort}/hook`, events: ["story-publish"], secret: "whsec_crash" },
  });

  let server = startServer();
  try {
    await waitFor(async () => ((await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok ? true : undefined), 60_000, "the server");
    for (let i = 0; i < EVENTS; i++) {
      await emitWebhookEvent(db, { accountId: account.id, kind: "CONTENT", name: "story-publish", data: { n: i }, occurredAt: new Date() });
    }
    // Every delivery has failed its first attempt and waits 10 s for the next: mid-retries.
    await waitFor(async () => ((await db.webhookDelivery.count({ where: { attemptCount: { gte: 1 } } })) === EVENTS ? true : undefined), 30_000, "first attempts");
    expect(await db.webhookDelivery.count({ where: { status: "PENDING" } })).toBe(EVENTS);

    server.kill("SIGKILL");
    await new Promise((resolve) => server.once("exit", resolve));

    // The receiver comes up while the server is down.
    const received: string[] = [];
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received.push(String(req.headers["x-masthead-event-id"]));
        res.writeHead(200);
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(receiverPort, "127.0.0.1", resolve));
    try {
      server = startServer();
      await waitFor(async () => ((await db.webhookDelivery.count({ where: { status: "SUCCEEDED" } })) === EVENTS ? true : undefined), 90_000, "all deliveries to succeed");
      await new Promise((resolve) => setTimeout(resolve, 1500)); // anything sent twice would arrive now
      expect(received).toHaveLength(EVENTS);
      expect(new Set(received).size).toBe(EVENTS);
      const attempts = await db.webhookAttempt.groupBy({ by: ["deliveryId"], _count: { _all: true } });
      expect(attempts.every((a) => a._count._all === 2)).toBe(true);
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  } finally {
    server.kill("SIGKILL");
  }
});
