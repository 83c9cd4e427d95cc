/**
 * The load generator: node:http with keep-alive, at most CONNECTIONS connections to each instance.
 * Not fetch: fetch inflates every gzipped answer, and on a machine the app shares that is the
 * client's CPU taken from the app. Like wrk or autocannon, `send` reads every byte of the answer as
 * it came (gzip when the app sent it so: it asks for it as browsers do) and inflates nothing.
 */
import http from "node:http";

import type pg from "pg";

import { reportedMemory, type Memory } from "./app";
import { CONNECTIONS, REQUESTS, SECONDS, WARMUP } from "./options";
import { cpuSince, residentMegabytes, sampleCpu } from "./processes";

/** One request of a scenario: a GET of the path unless `init` says otherwise. */
export type Call = { path: string; init?: { method?: string; headers?: Record<string, string>; body?: string } };

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/** An answer once all of it is read: its status (`ok` for a 2xx) and X-Cache (HIT, MISS, BYPASS). */
export type Answer = { status: number; ok: boolean; cache?: string };

export function send(url: string, init: Call["init"] = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { accept: "application/json", "accept-encoding": "gzip", ...init.headers };
    const request = http.request(url, { method: init.method ?? "GET", headers, agent }, (response) => {
      const status = response.statusCode ?? 0;
      const cache = response.headers["x-cache"];
      response.on("end", () =>
        resolve({ status, ok: status >= 200 && status <= 299, cache: typeof cache === "string" ? cache : undefined }),
      );
      response.on("error", reject);
      response.resume();
    });
    request.on("error", reject);
    request.end(init.body);
  });
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export type Loaded = {
  latencies: number[];
  statuses: Map<number, number>;
  errors: number;
  seconds: number;
};

/**
 * `count` requests over CONNECTIONS concurrent loops, stopping at the time cap; with several
 * instances each request goes to the next one in turn (as a round-robin load balancer would).
 * `seen` hears of each answer: when it was sent (performance.now()), how long it took, X-Cache.
 */
export async function load(
  bases: readonly string[],
  nextCall: () => Call,
  count: number,
  capMs: number,
  seen?: (sentAt: number, ms: number, cache: string | undefined) => void,
): Promise<Loaded> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let errors = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + capMs;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (issued < count && performance.now() < deadline) {
        const base = bases[issued % bases.length]!;
        issued++;
        const call = nextCall();
        const t0 = performance.now();
        let cache: string | undefined;
        try {
          const answer = await send(base + call.path, call.init);
          cache = answer.cache;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (!answer.ok) errors++;
        } catch {
          errors++;
        }
        const ms = performance.now() - t0;
        latencies.push(ms);
        seen?.(t0, ms, cache);
      }
    }),
  );
  return { latencies, statuses, errors, seconds: (performance.now() - started) / 1000 };
}

/** CPU ms per request: the app's processes, its PostgreSQL backends, and this load generator. */
type Cpu = { app: number; db: number; client: number };

export type Result = Memory & {
  name: string;
  requests: number;
  errors: number;
  statuses: Map<number, number>;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  cpu: Cpu;
  /** The share of the run's answers that said X-Cache: HIT. */
  hitShare: number;
};

/**
 * A scenario: WARMUP requests (at least `warmup`), then REQUESTS (at most SECONDS), its CPU read
 * around them.
 */
export async function measure(
  bases: readonly string[],
  client: pg.Client,
  name: string,
  calls: () => Call,
  warmup = 0,
): Promise<Result> {
  await load(bases, calls, Math.max(WARMUP, warmup), 60_000);
  const before = await sampleCpu(client);
  const own = process.cpuUsage();
  let hits = 0;
  const run = await load(bases, calls, REQUESTS, SECONDS * 1000, (_, __, cache) => {
    if (cache === "HIT") hits++;
  });
  const mine = process.cpuUsage(own);
  const used = await cpuSince(client, before);
  const n = Math.max(1, run.latencies.length);
  const sorted = [...run.latencies].sort((a, b) => a - b);
  return {
    name,
    rssMb: residentMegabytes(),
    ...(await reportedMemory(bases)),
    requests: run.latencies.length,
    errors: run.errors,
    statuses: run.statuses,
    rps: run.latencies.length / run.seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    cpu: { app: used.app / n, db: used.db / n, client: (mine.user + mine.system) / 1000 / n },
    hitShare: hits / n,
  };
}
