/**
 * npm run bench:webhooks [-- --events 5000 --concurrency 16]
 *
 * Queues N webhook events for one endpoint on a local receiver (127.0.0.1) and delivers them with
 * the job engine both engines use (runDueJobs: claim, sign, POST, record),
 * then prints deliveries per second next to a baseline measured in the same run against the same
 * receiver: a plain loop of fetch calls with the same concurrency (no database, no signing). The
 * ratio is the figure to watch; absolute numbers depend on the machine.
 *
 * Database: DATABASE_URL (a schema of its own, dropped at the end) or an in-memory PGlite.
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";

import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";

import { JOBS } from "../server/background/job-list";
import { jobDepsFromEnv } from "../server/background/start";
import { openDatabase } from "../server/db/client";
import type { DatabaseConfig } from "../server/db/config";
import { applyMigrations } from "../server/db/migrate";
import { withTransaction } from "../server/db/transaction";
import { runDueJobs } from "../server/jobs/engine";
import { emitWebhookEvent } from "../server/webhooks/deliveries";

const { values } = parseArgs({
  options: { events: { type: "string", default: "5000" }, concurrency: { type: "string", default: "16" } },
});
const N = Number(values.events);
const C = Number(values.concurrency);

// ─── The receiver: answers 200 at once, counts what it gets ──────────────────────────────────
let received = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    received++;
    res.writeHead(200, { "Content-Type": "text/plain" });
    res.end("ok");
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

// ─── Baseline: a plain loop of fetch calls, C at a time ──────────────────────────────────────
async function fetchLoop(count: number): Promise<number> {
  const body = JSON.stringify({
    v1: { event: { id: 1, name: "story-publish", time: Date.now() }, data: { story: { headline: "x".repeat(200) } } },
  });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next++ < count) {
        const response = await fetch(url, { method: "POST", body, headers: { "Content-Type": "application/json" } });
        await response.text();
      }
    }),
  );
  return performance.now() - started;
}

// ─── Masthead: queue N events, deliver them ──────────────────────────────────────────────────
const config: DatabaseConfig = process.env.DATABASE_URL
  ? { kind: "postgresql", url: process.env.DATABASE_URL, schema: `mh_bench_${process.pid}` }
  : { kind: "pglite", dir: "memory://" };
const database = await openDatabase(config);
const db = database.prisma;
try {
  await applyMigrations(database.adapter);
  const account = await db.account.create({ data: { slug: "bench", name: "Bench", jwtSecret: "x".repeat(32) } });
  await db.webhookEndpoint.create({
    data: { accountId: account.id, kind: "CONTENT", url, events: ["story-publish"], secret: "whsec_bench" },
  });

  await fetchLoop(Math.min(500, N)); // warm up connections and the JIT
  const baselineMs = await fetchLoop(N);

  const queueStarted = performance.now();
  const now = new Date();
  for (let i = 0; i < N; i += 500) {
    await withTransaction(db, async (tx) => {
      for (let j = i; j < Math.min(i + 500, N); j++) {
        await emitWebhookEvent(tx, {
          accountId: account.id,
          kind: "CONTENT",
          name: "story-publish",
          data: { story: { n: j, headline: "x".repeat(200) } },
          occurredAt: now,
        });
      }
    });
  }
  const queueMs = performance.now() - queueStarted;

  received = 0;
  const deliverStarted = performance.now();
  const deps = { ...jobDepsFromEnv(), allowPrivateUrls: true, webhookConcurrency: C };
  await runDueJobs(db, { jobs: JOBS, deps, workerId: "bench", limit: C * 8, maxBatches: Number.MAX_SAFE_INTEGER });
  const deliverMs = performance.now() - deliverStarted;
  const succeeded = await db.webhookDelivery.count({ where: { status: "SUCCEEDED" } });

  const baselineRate = (N / baselineMs) * 1000;
  const rate = (succeeded / deliverMs) * 1000;
  console.log(`database            ${config.kind}`);
  console.log(`events              ${N} (concurrency ${C})`);
  console.log(
    `queued in           ${(queueMs / 1000).toFixed(2)} s (${Math.round((N / queueMs) * 1000)} events/s, outbox writes)`,
  );
  console.log(`baseline fetch loop ${Math.round(baselineRate)} requests/s`);
  console.log(
    `masthead deliveries ${Math.round(rate)} deliveries/s (${succeeded} succeeded, receiver got ${received})`,
  );
  console.log(`ratio to baseline   ${(rate / baselineRate).toFixed(2)}`);
  if (succeeded !== N || received !== N) process.exitCode = 1;
} finally {
  if (config.kind === "postgresql") await db.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${config.schema}" CASCADE`);
  await database.close();
  server.close();
}
