/**
 * Prometheus metrics of this process (GET /api/metrics, behind METRICS_TOKEN), with prom-client:
 * - masthead_http_requests_total{method,route,status} and
 *   masthead_http_request_duration_seconds{method,route}: every request apiRoute answers, by the
 *   route's path template (/api/v1/stories/[story-id]: the path with its parameters named, so the
 *   label set stays small whatever the URLs);
 * - masthead_jobs{name,state}: jobs pending (due now or later), overdue (due over a minute ago,
 *   held by nobody) and failed in the last 24 hours, read from the database at each scrape;
 * - masthead_webhook_deliveries{status}: deliveries in the log (pending, succeeded, failed) and
 *   masthead_webhook_attempts_total{outcome} over the retention window;
 * - masthead_response_cache_answers_total{outcome}: cached reads answered from the response cache
 *   (hit), built and kept (miss) or built and not kept (bypass: a reader's own read, no-cache);
 *   masthead_response_cache_bytes and masthead_response_cache_entries: what it holds now (bytes
 *   as counted against RESPONSE_CACHE_MB; kept values such as meters included);
 * - Node's own (event loop lag, heap, GC…) under masthead_process_ and masthead_nodejs_.
 * Each instance counts its own requests; the database figures are the same on every instance.
 */
import client from "prom-client";

import { responseCache } from "./cache/response-cache";
import type { Db } from "./db";

type Metrics = {
  registry: client.Registry;
  requests: client.Counter<"method" | "route" | "status">;
  duration: client.Histogram<"method" | "route">;
  cacheAnswers: Record<CacheOutcome, client.Counter.Internal>;
};

/** A cached read's outcome, as its X-Cache header says it (the metric's label is lower case). */
export type CacheOutcome = "HIT" | "MISS" | "BYPASS";

/** The database read at each scrape (set once the metrics route has a database to read). */
let scrapeDb: (() => Promise<Db>) | null = null;

// One registry per process, kept across module reloads (dev server, route bundles).
const globalMetrics = globalThis as typeof globalThis & { mastheadMetrics?: Metrics };

function metrics(): Metrics {
  if (globalMetrics.mastheadMetrics) return globalMetrics.mastheadMetrics;
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "masthead_" });
  const requests = new client.Counter({
    name: "masthead_http_requests_total",
    help: "Requests answered, by method, route template and status code.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: "masthead_http_request_duration_seconds",
    help: "Time to answer a request, by method and route template.",
    labelNames: ["method", "route"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const cacheAnswers = new client.Counter({
    name: "masthead_response_cache_answers_total",
    help: "Cached reads by outcome: hit (answered from the response cache), miss (built and kept), bypass (built, not kept).",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  new client.Gauge({
    name: "masthead_response_cache_bytes",
    help: "Bytes the response cache holds, as counted against RESPONSE_CACHE_MB.",
    registers: [registry],
    collect() {
      this.set(responseCache().usedBytes);
    },
  });
  new client.Gauge({
    name: "masthead_response_cache_entries",
    help: "Entries the response cache holds (answers and kept values).",
    registers: [registry],
    collect() {
      this.set(responseCache().size);
    },
  });
  databaseGauge(
    registry,
    {
      name: "masthead_jobs",
      help: "Background jobs by name and state: pending, overdue (due over a minute ago and held by nobody), failed_24h.",
      labelNames: ["name", "state"] as const,
    },
    async (gauge, db) => {
      const now = new Date();
      const rows = await db.$queryRaw<{ name: string; state: string; n: bigint }[]>`
        SELECT name, 'pending' AS state, count(*) AS n FROM jobs WHERE status = 'pending' GROUP BY name
        UNION ALL
        SELECT name, 'overdue', count(*) FROM jobs
          WHERE status = 'pending' AND run_at <= ${new Date(now.getTime() - 60_000)}
            AND (locked_until IS NULL OR locked_until < ${now}) GROUP BY name
        UNION ALL
        SELECT name, 'failed_24h', count(*) FROM jobs
          WHERE status = 'failed' AND completed_at >= ${new Date(now.getTime() - 86_400_000)} GROUP BY name`;
      for (const row of rows) gauge.set({ name: row.name, state: row.state }, Number(row.n));
    },
  );
  databaseGauge(
    registry,
    {
      name: "masthead_webhook_deliveries",
      help: "Webhook deliveries in the log (kept WEBHOOK_RETENTION_DAYS), by status.",
      labelNames: ["status"] as const,
    },
    async (gauge, db) => {
      const rows = await db.webhookDelivery.groupBy({ by: ["status"], _count: { _all: true } });
      for (const status of ["PENDING", "SUCCEEDED", "FAILED"] as const) {
        const row = rows.find((r) => r.status === status);
        gauge.set({ status: status.toLowerCase() }, row?._count._all ?? 0);
      }
    },
  );
  databaseGauge(
    registry,
    {
      name: "masthead_webhook_attempts",
      help: "Webhook delivery attempts in the log, by outcome (succeeded, failed).",
      labelNames: ["outcome"] as const,
    },
    async (gauge, db) => {
      const rows = await db.webhookAttempt.groupBy({ by: ["succeeded"], _count: { _all: true } });
      gauge.set({ outcome: "succeeded" }, rows.find((r) => r.succeeded)?._count._all ?? 0);
      gauge.set({ outcome: "failed" }, rows.find((r) => !r.succeeded)?._count._all ?? 0);
    },
  );
  globalMetrics.mastheadMetrics = {
    registry,
    requests,
    duration,
    // Bound once: counting an answer is on every cached read's path.
    cacheAnswers: {
      HIT: cacheAnswers.labels("hit"),
      MISS: cacheAnswers.labels("miss"),
      BYPASS: cacheAnswers.labels("bypass"),
    },
  };
  return globalMetrics.mastheadMetrics;
}

/**
 * A gauge read from the database at each scrape (no series until the metrics route has set the
 * database): `read` sets its values afresh each time.
 */
function databaseGauge<L extends string>(
  registry: client.Registry,
  options: { name: string; help: string; labelNames: readonly L[] },
  read: (gauge: client.Gauge<L>, db: Db) => Promise<void>,
): void {
  new client.Gauge({
    ...options,
    registers: [registry],
    async collect() {
      this.reset();
      if (!scrapeDb) return;
      await read(this, await scrapeDb());
    },
  });
}

/**
 * The route template of a request: its path with each parameter's value replaced by the
 * parameter's name (/api/v1/stories/abc → /api/v1/stories/[story-id]; a catch-all's segments
 * become one [...name]). Parameters are matched from the end, where a route's dynamic segments are.
 */
export function routeTemplate(pathname: string, params: Record<string, unknown> | undefined): string {
  const segments = pathname.split("/").map(decodeSafe);
  for (const [name, value] of Object.entries(params ?? {})) {
    const values = (Array.isArray(value) ? value : [value]).map(String);
    if (values.length === 0) continue;
    for (let start = segments.length - values.length; start > 0; start--) {
      if (values.every((v, j) => segments[start + j] === v)) {
        segments.splice(start, values.length, Array.isArray(value) ? `[...${name}]` : `[${name}]`);
        break;
      }
    }
  }
  return segments.join("/");
}

function decodeSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Count one answered request. */
export function recordRequest(args: { method: string; route: string; status: number; seconds: number }): void {
  const { requests, duration } = metrics();
  requests.inc({ method: args.method, route: args.route, status: String(args.status) });
  duration.observe({ method: args.method, route: args.route }, args.seconds);
}

/** A cached read's outcome (server/http/content-cache.ts cachedRead). */
export function recordCacheAnswer(outcome: CacheOutcome): void {
  metrics().cacheAnswers[outcome].inc();
}

/** The text a Prometheus scrape reads, with the database figures read now. */
export async function metricsText(openDb: () => Promise<Db>): Promise<{ contentType: string; body: string }> {
  scrapeDb = openDb;
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
