/**
 * npm run bench [-- --stories 50000 --requests 3000 --connections 10 --seconds 20 --instances 1 --only access,amp]
 *
 * Benchmark of the publishing content API (reads) and the engagement API (comment counts, a
 * comment list, comment create) against the local PostgreSQL:
 *   1. DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test?schema=mh_bench, a schema of
 *      its own), migrated and seeded with the demo publisher plus N generated stories (reused
 *      when they are already there: the seed tops up) and the engagement data
 *      (server/seed/large-engagement.ts: a page with 2,000 comments, 1,000 more pages, readers,
 *      replies, reactions; what earlier runs posted is removed);
 *   2. the app built if needed and started (scripts/start.ts, `next start`) on a free port of
 *      127.0.0.1, under `flock /tmp/masthead-build.lock` since it may build;
 *   3. one request of each scenario, then a warm-up pass (--warmup requests of each scenario), the
 *      memory printed after both; then for each scenario its own warm-up, then a fixed number of
 *      requests over C keep-alive connections
 *      with a time cap, in rounds that alternate with rounds of the empty route handler
 *      (GET /api/bench/empty): requests per second, latency percentiles, CPU per request;
 *   4. a table with each figure and its ratio to the empty handler: measured first ("× empty"),
 *      and beside the scenario, round by round ("× paired empty", the median of the rounds), and
 *      the ratio of CPU per request ("CPU × empty"), the load generator's own CPU per request
 *      ("client CPU ms", with the empty handler's beside it: it shares the machine), and the
 *      resident memory of the app's processes after each scenario.
 *      The server is stopped at the end, whatever happens.
 *
 * Content reads and the engagement reads are measured twice: as readers send them (served by the
 * response cache once built, server/cache/response-cache.ts), and ", uncached": the same requests
 * with `Cache-Control: no-cache`, which builds every answer afresh.
 *
 * `--instances 2` starts two instances on the same database (the first builds, under the lock)
 * and sends each request to the next one in turn, as a load balancer would.
 *
 * The comment create scenario posts as 1,000 readers (a publisher-signed JWT each), each from an
 * address of its own (TRUST_PROXY=true and X-Forwarded-For, as behind a load balancer), with a
 * distinct body every time: the per-IP limit (30 a minute) and the 10 s duplicate window then
 * apply as they would to real readers and refuse nothing.
 *
 * The access scenarios (the web access check and AMP's amp-access, for subscription stories, by
 * subscribers and metered anonymous readers) use what `--access` seeds (server/seed/large-access.ts).
 *
 * It only talks to 127.0.0.1 (the database host must be local too) and is not part of npm test.
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";

import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { parseArgs } from "node:util";

import { SignJWT } from "jose";

const { values } = parseArgs({
  options: {
    stories: { type: "string", default: "50000" },
    requests: { type: "string", default: "3000" },
    connections: { type: "string", default: "10" },
    seconds: { type: "string", default: "20" },
    warmup: { type: "string", default: "200" },
    rounds: { type: "string", default: "6" },
    instances: { type: "string", default: "1" },
    only: { type: "string", default: "" },
  },
});
const STORIES = positive("stories", values.stories);
const REQUESTS = positive("requests", values.requests);
const CONNECTIONS = positive("connections", values.connections);
const SECONDS = positive("seconds", values.seconds);
const WARMUP = positive("warmup", values.warmup);
const ROUNDS = positive("rounds", values.rounds);
const INSTANCES = positive("instances", values.instances);
/** `--only a,b`: the scenarios whose names contain one of these (the two empty baselines always run). */
const ONLY = values.only
  .split(",")
  .map((part) => part.trim().toLowerCase())
  .filter(Boolean);
const OVERALL_LIMIT_MS = 45 * 60_000; // build + seed + runs; the bench never hangs longer

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const databaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test?schema=mh_bench";
const dbHost = new URL(databaseUrl).hostname;
if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(dbHost)) {
  console.error(`The bench only runs against a local database; DATABASE_URL points at ${dbHost}.`);
  process.exit(1);
}
const dataDir = path.join(root, ".data-bench");

function positive(name: string, raw: string | undefined): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} takes a positive whole number.`);
    process.exit(1);
  }
  return n;
}

function log(message: string) {
  console.log(`[bench] ${message}`);
}

const servers: ChildProcess[] = [];
function stopServer() {
  for (const server of servers) {
    if (server.pid && server.exitCode === null) {
      try {
        process.kill(-server.pid, "SIGTERM"); // the flock, start.ts and next start: one process group
      } catch {
        // already gone
      }
    }
  }
}

type ProcessStat = { pid: string; name: string; fields: string[]; app: boolean };

/**
 * Every process now running, from /proc/<pid>/stat: its pid, command name and the fields after the
 * command's closing parenthesis (state(0) ppid pgrp … utime(11) stime(12) cutime cstime), and
 * whether it belongs to the app (the instances' process groups).
 */
function processes(): ProcessStat[] {
  const found: ProcessStat[] = [];
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      found.push({ pid, name, fields, app: servers.some((server) => server.pid === Number(fields[2])) });
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

/** Resident memory of every process of the app's instances (their process groups), in MB. */
function residentMegabytes(): number {
  let kb = 0;
  for (const { pid } of processes().filter((p) => p.app)) {
    try {
      const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
      if (rss) kb += Number(rss[1]);
    } catch {
      // the process ended meanwhile
    }
  }
  return kb / 1024;
}
/**
 * The instances' live heap (`masthead_nodejs_heap_size_used_bytes`) and response cache
 * (`masthead_response_cache_bytes`), summed, MB: what the resident size is made of. NaN when an
 * instance does not answer.
 */
async function reportedMemory(bases: readonly string[]): Promise<{ heapMb: number; cacheMb: number }> {
  let heap = 0;
  let cache = 0;
  for (const base of bases) {
    try {
      const response = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
      const text = await response.text();
      const value = (name: string) => Number(new RegExp(`^${name} ([\\d.e+]+)$`, "m").exec(text)?.[1] ?? NaN);
      heap += value("masthead_nodejs_heap_size_used_bytes");
      cache += value("masthead_response_cache_bytes");
    } catch {
      return { heapMb: NaN, cacheMb: NaN };
    }
  }
  return { heapMb: heap / 1024 / 1024, cacheMb: cache / 1024 / 1024 };
}

const overall = setTimeout(() => {
  console.error(`[bench] still running after ${OVERALL_LIMIT_MS / 60_000} minutes: giving up.`);
  stopServer();
  process.exit(1);
}, OVERALL_LIMIT_MS);
overall.unref();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopServer();
    process.exit(130);
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: "inherit" });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`)),
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

// ─── Load generator ──────────────────────────────────────────────────────────────────────────

/** One request of a scenario: a GET of the path unless `init` says otherwise. */
type Call = { path: string; init?: { method?: string; headers?: Record<string, string>; body?: string } };

/**
 * The load generator's connections: node:http with keep-alive, at most CONNECTIONS to each
 * instance. Not fetch: fetch inflates every gzipped answer, and on a machine the app shares that
 * is the client's CPU taken from the app (a bulk answer cost the client twice what an empty one
 * did). Like wrk or autocannon, `send` reads every byte of the answer as it came (gzip when the
 * app sent it so: it asks for it as browsers do) and inflates nothing.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/** The answer's status once all of it is read; `ok` for a 2xx. */
function send(url: string, init: Call["init"] = {}): Promise<{ status: number; ok: boolean }> {
  return new Promise((resolve, reject) => {
    const headers = { accept: "application/json", "accept-encoding": "gzip", ...init.headers };
    const request = http.request(url, { method: init.method ?? "GET", headers, agent }, (response) => {
      const status = response.statusCode ?? 0;
      response.on("end", () => resolve({ status, ok: status >= 200 && status <= 299 }));
      response.on("error", reject);
      response.resume();
    });
    request.on("error", reject);
    request.end(init.body);
  });
}

type Result = {
  name: string;
  /** Resident memory of the app's processes after the scenario, MB. */
  rssMb: number;
  /** What the instances report after it (GET /api/metrics), MB: V8's live heap and the response cache. */
  heapMb: number;
  cacheMb: number;
  path: string;
  requests: number;
  errors: number;
  statuses: Map<number, number>;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** Median over the rounds of this scenario's requests/s ÷ the empty handler's in the same round. */
  paired: number;
  /**
   * CPU time per request, ms, over the scenario's rounds: the app's processes, PostgreSQL's (local)
   * and this process's, the load generator (`send`). The client shares the machine with the app
   * and the database, so a scenario whose answers cost it more (a large body to read) leaves the
   * app less of the machine than the empty handler does.
   */
  cpu: Cpu;
  /** The same for the empty handler's rounds beside it. */
  emptyCpu: Cpu;
};

type Cpu = { app: number; db: number; client: number };

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * `count` requests over CONNECTIONS concurrent loops, stopping at the time cap; with several
 * instances, each request goes to the next one in turn (as a round-robin load balancer would).
 */
async function load(bases: readonly string[], nextCall: () => Call, count: number, capMs: number) {
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
        try {
          const { status, ok } = await send(base + call.path, call.init);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (!ok) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { latencies, statuses, errors, seconds };
}

/**
 * CPU time (ms) used so far by the app's processes (the instances' process groups) and by
 * PostgreSQL's (every process named postgres: the database is local), from /proc.
 */
function cpuMilliseconds(): { app: number; db: number } {
  const tick = 1000 / CLOCK_TICKS;
  let app = 0;
  let db = 0;
  for (const { name, fields, app: ofApp } of processes()) {
    const used = (Number(fields[11]) + Number(fields[12])) * tick;
    if (ofApp) app += used;
    // A backend that exits takes its CPU time to the postmaster's children's times (cutime, cstime).
    else if (name === "postgres") db += used + (Number(fields[13]) + Number(fields[14])) * tick;
  }
  return { app, db };
}
/** USER_HZ: Linux reports process times in 1/100 s on every platform Node.js runs on. */
const CLOCK_TICKS = 100;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * A scenario measured in ROUNDS rounds, each of REQUESTS/ROUNDS requests of the scenario and as
 * many of the empty handler, in alternating order (empty first in even rounds): on a shared
 * machine the speed drifts over seconds, and the ratio of neighbours in time follows it where one
 * empty measurement per scenario could not (runs of the same commit differed by 0.3 that way).
 * `paired` is the median of the rounds' ratios; the CPU figures sum the rounds.
 */
async function measure(
  bases: readonly string[],
  name: string,
  calls: () => Call,
  emptyCall: () => Call,
): Promise<Result> {
  await load(bases, calls, WARMUP, 30_000);
  await load(bases, emptyCall, WARMUP, 30_000);
  const per = Math.max(1, Math.round(REQUESTS / ROUNDS));
  const capMs = (SECONDS * 1000) / ROUNDS;
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const ratios: number[] = [];
  const total = {
    errors: 0,
    seconds: 0,
    cpu: { app: 0, db: 0, client: 0 },
    emptyCpu: { app: 0, db: 0, client: 0 },
    emptyRequests: 0,
  };
  const timed = async (call: () => Call, into: Cpu) => {
    const before = cpuMilliseconds();
    const client = process.cpuUsage();
    const result = await load(bases, call, per, capMs);
    const used = process.cpuUsage(client);
    const after = cpuMilliseconds();
    into.app += after.app - before.app;
    into.db += after.db - before.db;
    into.client += (used.user + used.system) / 1000;
    return result;
  };
  for (let round = 0; round < ROUNDS; round++) {
    let empty: Awaited<ReturnType<typeof load>> | undefined;
    if (round % 2 === 0) empty = await timed(emptyCall, total.emptyCpu);
    const mine = await timed(calls, total.cpu);
    if (round % 2 === 1) empty = await timed(emptyCall, total.emptyCpu);
    latencies.push(...mine.latencies);
    for (const [status, n] of mine.statuses) statuses.set(status, (statuses.get(status) ?? 0) + n);
    total.errors += mine.errors;
    total.seconds += mine.seconds;
    total.emptyRequests += empty!.latencies.length;
    ratios.push(mine.latencies.length / mine.seconds / (empty!.latencies.length / empty!.seconds));
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const reported = await reportedMemory(bases);
  const perRequest = (cpu: Cpu, n: number): Cpu => ({ app: cpu.app / n, db: cpu.db / n, client: cpu.client / n });
  return {
    name,
    rssMb: residentMegabytes(),
    ...reported,
    path: calls().path,
    requests: latencies.length,
    errors: total.errors,
    statuses,
    seconds: total.seconds,
    rps: latencies.length / total.seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    paired: median(ratios),
    cpu: perRequest(total.cpu, Math.max(1, latencies.length)),
    emptyCpu: perRequest(total.emptyCpu, Math.max(1, total.emptyRequests)),
  };
}

// ─── Main ────────────────────────────────────────────────────────────────────────────────────

const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
const bases = ports.map((port) => `http://127.0.0.1:${port}`);
const base = bases[0]!;
const metricsToken = `bench-${crypto.randomUUID()}`;
const envFor = (port: number): NodeJS.ProcessEnv => ({
  ...process.env,
  DATABASE_URL: databaseUrl,
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: "127.0.0.1",
  APP_URL: `http://127.0.0.1:${port}`,
  PUBLISHING_ACCOUNT: "demo",
  LOG_LEVEL: "warn",
  JOBS_LOCAL_RUNNER: "false",
  // The comment writers come from addresses of their own (X-Forwarded-For), as behind a proxy.
  TRUST_PROXY: "true",
  // The instances' own memory figures (live heap, response cache), read after each scenario.
  METRICS_TOKEN: metricsToken,
});
const env = envFor(ports[0]!);

/** Start one instance: the first under the build lock (it may build), the others once it is up. */
async function startInstance(port: number, first: boolean): Promise<void> {
  const tsx = [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/start.ts"];
  const child = first
    ? spawn("flock", ["/tmp/masthead-build.lock", process.execPath, ...tsx], {
        cwd: root,
        env: envFor(port),
        stdio: ["ignore", "inherit", "inherit"],
        detached: true,
      })
    : spawn(process.execPath, tsx, {
        cwd: root,
        env: envFor(port),
        stdio: ["ignore", "inherit", "inherit"],
        detached: true,
      });
  servers.push(child);
  const exited = new Promise<never>((_, reject) =>
    child.on("exit", (code) => reject(new Error(`the app on port ${port} exited (${code}) before it was ready`))),
  );
  await Promise.race([waitForHealth(child, `http://127.0.0.1:${port}`, 30 * 60_000), exited]);
  exited.catch(() => undefined);
}

try {
  log(`database: ${databaseUrl.replace(/\/\/[^@]*@/, "//…@")}`);
  log(`seeding the demo publisher, ${STORIES} generated stories and the engagement data (reused when present)…`);
  const seedStarted = Date.now();
  await run(
    process.execPath,
    [
      path.join(root, "node_modules/tsx/dist/cli.mjs"),
      "scripts/db-seed.ts",
      "--stories",
      String(STORIES),
      "--engagement",
      "--access",
    ],
    env,
  );
  log(`seed ready in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);

  log(`starting the app on ${base} (builds first if the sources changed; waits for /tmp/masthead-build.lock)…`);
  await startInstance(ports[0]!, true);
  for (const port of ports.slice(1)) {
    log(`starting another instance on http://127.0.0.1:${port}…`);
    await startInstance(port, false);
  }
  log(INSTANCES > 1 ? `${INSTANCES} instances are ready; requests go to each in turn` : "app is ready");

  const slugs = Array.from(
    { length: 1000 },
    () => `bench/story-${String(1 + Math.floor(Math.random() * STORIES)).padStart(6, "0")}`,
  );
  // Story ids for related stories: looked up once, by slug.
  const storyIds: string[] = [];
  for (const slug of slugs.slice(0, 100)) {
    const response = await fetch(`${base}/api/v1/stories-by-slug?slug=${encodeURIComponent(slug)}&fields=id`);
    if (response.ok) storyIds.push(((await response.json()) as { story: { id: string } }).story.id);
  }
  // A bulk request as front pages make it: the home collection and two story lists in one GET.
  const bulk = await fetch(`${base}/api/v1/bulk-request`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      requests: {
        home: { _type: "collection", slug: "home", limit: 10 },
        latest: { _type: "stories", limit: 10 },
        more: { _type: "stories", limit: 5, offset: 10 },
      },
    }),
  });
  const bulkPath = bulk.headers.get("location") ?? "/api/v1/bulk-request/none";
  const words = ["climate", "election", "market", "football", "festival", "budget"];
  let i = 0;
  const get = (path: string): Call => ({ path });
  /** The same request, asking to be built afresh (Cache-Control: no-cache): the uncached path. */
  const uncached = (call: Call): Call => ({
    path: call.path,
    init: { ...call.init, headers: { accept: "application/json", ...call.init?.headers, "cache-control": "no-cache" } },
  });
  const content: { name: string; call: () => Call }[] = [
    { name: "stories list", call: () => get("/api/v1/stories?limit=20") },
    {
      name: "story by slug",
      call: () => get(`/api/v1/stories-by-slug?slug=${encodeURIComponent(slugs[i++ % slugs.length]!)}`),
    },
    { name: "collection (home)", call: () => get("/api/v1/collections/home") },
    { name: "bulk request", call: () => get(bulkPath) },
    ...(storyIds.length
      ? [
          {
            name: "related stories",
            call: () => get(`/api/v1/stories/${storyIds[i++ % storyIds.length]}/related-stories`),
          },
        ]
      : []),
    { name: "config", call: () => get("/api/v1/config") },
    { name: "search", call: () => get(`/api/v1/search?q=${words[i++ % words.length]}&limit=20`) },
  ];
  const engagement = await engagementScenarios();
  const all: { name: string; call: () => Call }[] = [
    { name: "empty handler", call: () => get("/api/bench/empty") },
    // What every API route costs before its own work: a dynamic path through apiRoute, answering {}.
    { name: "empty apiRoute, dynamic path", call: () => get(`/api/bench/empty/${i++ % 1000}`) },
    ...content,
    ...content.map((scenario) => ({ name: `${scenario.name}, uncached`, call: () => uncached(scenario.call()) })),
    ...engagement,
    ...engagement
      .filter((scenario) => scenario.name !== "comment create")
      .map((scenario) => ({ name: `${scenario.name}, uncached`, call: () => uncached(scenario.call()) })),
    ...(await accessScenarios()),
  ];
  const scenarios = all.filter(
    (scenario, n) => n <= 1 || ONLY.length === 0 || ONLY.some((part) => scenario.name.toLowerCase().includes(part)),
  );

  // One request of each scenario by each instance before any is measured: every route's code is
  // loaded (Next.js loads a route's bundle on its first request) before the first memory figure,
  // so the RSS column shows what load does to memory, not what loading code does.
  const answering: typeof scenarios = [];
  for (const scenario of scenarios) {
    let status = 0;
    for (const instance of bases) {
      const first = scenario.call();
      const probe = await send(instance + first.path, first.init);
      if (!probe.ok) status = probe.status;
    }
    if (status) log(`${scenario.name}: answers ${status}; skipped`);
    else answering.push(scenario);
  }
  const memory = (m: { rssMb: number; heapMb: number; cacheMb: number }) =>
    `RSS ${m.rssMb.toFixed(0)} MB, heap ${m.heapMb.toFixed(0)} MB, response cache ${m.cacheMb.toFixed(1)} MB`;
  const probed = { rssMb: residentMegabytes(), ...(await reportedMemory(bases)) };
  log(`after one request of each scenario: ${memory(probed)}`);
  // Then WARMUP requests of each scenario, before the first is measured: the caches fill to what
  // the run puts in them (each is bounded) and V8 sizes its heap for the largest answers built
  // afresh, so the RSS column shows what load does to memory from then on, not what the first use
  // of each path does. Both figures are printed.
  log(`warming up: ${WARMUP} requests of each scenario…`);
  for (const scenario of answering) await load(bases, scenario.call, WARMUP, 30_000);
  const warmed = { rssMb: residentMegabytes(), ...(await reportedMemory(bases)) };

  const results: Result[] = [];
  const emptyCall = scenarios[0]!.call;
  for (const scenario of answering) {
    log(
      `${scenario.name}: ${REQUESTS} requests in ${ROUNDS} rounds beside the empty handler, ${CONNECTIONS} connections…`,
    );
    results.push(await measure(bases, scenario.name, scenario.call, emptyCall));
  }

  const baseline = results.find((r) => r.name === "empty handler");
  const cpuOf = (cpu: Cpu) => cpu.app + cpu.db;
  const rows = results.map((r) => [
    r.name,
    r.rps.toFixed(0),
    baseline ? (r.rps / baseline.rps).toFixed(2) : "–",
    r.paired.toFixed(2),
    (cpuOf(r.emptyCpu) / cpuOf(r.cpu)).toFixed(2),
    `${r.cpu.app.toFixed(2)}+${r.cpu.db.toFixed(2)}`,
    `${r.cpu.client.toFixed(2)} (${r.emptyCpu.client.toFixed(2)})`,
    r.p50.toFixed(1),
    r.p95.toFixed(1),
    baseline ? (r.p95 / baseline.p95).toFixed(2) : "–",
    r.p99.toFixed(1),
    String(r.requests),
    r.rssMb.toFixed(0),
    r.heapMb.toFixed(0),
    r.cacheMb.toFixed(1),
    r.errors
      ? `${r.errors} (${[...r.statuses]
          .filter(([s]) => s >= 400)
          .map(([s, n]) => `${s}×${n}`)
          .join(" ")})`
      : "0",
  ]);
  const header = [
    "scenario",
    "req/s",
    "× empty",
    "× paired empty",
    "CPU × empty",
    "CPU ms app+db",
    "client CPU ms (empty)",
    "p50 ms",
    "p95 ms",
    "p95 × empty",
    "p99 ms",
    "requests",
    "RSS MB",
    "heap MB",
    "cache MB",
    "errors",
  ];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ");
  console.log(
    `\nMemory after one request of each scenario: ${memory(probed)}; after ${WARMUP} of each, before the first ` +
      `is measured: ${memory(warmed)}.`,
  );
  console.log(
    `Publishing read API (${STORIES} generated stories), engagement API (a page of 2,000 comments, ` +
      `1,000 more pages) and access checks, ${CONNECTIONS} connections, ` +
      `${INSTANCES === 1 ? "one instance" : `${INSTANCES} instances`}, PostgreSQL at ${dbHost}:`,
  );
  console.log(line(header));
  console.log(widths.map((w) => "─".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
  console.log("\n× empty: requests per second as a fraction of the empty route handler in this run (aims: 0.8 for");
  console.log(
    "content reads, comment counts and the comment list, 0.9 for the access checks, 0.3 for comment create);",
  );
  console.log(
    `× paired empty: the same ratio to the empty handler measured beside it, in ${ROUNDS} alternating rounds (the median`,
  );
  console.log("of the rounds' ratios: the fair one on a shared machine, whose speed drifts over a run);");
  console.log("CPU ms app+db: CPU time per request of the app's processes and of PostgreSQL's (from /proc);");
  console.log("client CPU ms (empty): the load generator's own CPU per request, and in brackets the empty handler's");
  console.log("beside it (node:http, reading answers as sent, inflating none; on the same machine, a scenario whose");
  console.log("answers cost it more, e.g. large bodies, leaves the app less of the machine);");
  console.log("CPU × empty: the empty handler's CPU per request (its rounds beside the scenario) ÷ this one's;");
  console.log("empty apiRoute, dynamic path: what every API route costs before its own work (a second baseline);");
  console.log("p95 × empty: the p95 latency as a multiple of the empty handler's;");
  console.log("', uncached': the same requests with Cache-Control: no-cache, built afresh every time;");
  console.log("RSS MB: resident memory of the app's processes after the scenario (flat from first to last);");
  console.log(
    "heap MB, cache MB: what the instances report then (/api/metrics): V8's heap in use (live data and garbage not",
  );
  console.log("yet collected) and the response cache's bodies (bounded by RESPONSE_CACHE_MB).");
} catch (error) {
  console.error(`[bench] ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  stopServer();
  clearTimeout(overall);
}
// Nothing may keep the bench alive once it has printed (keep-alive sockets, a pending poll).
process.exit();

/**
 * The engagement scenarios, from what the seed wrote (DATA_DIR/bench-engagement.json, and the
 * account's shared JWT key in demo-credentials.json).
 */
async function engagementScenarios(): Promise<{ name: string; call: () => Call }[]> {
  const seeded = JSON.parse(fs.readFileSync(path.join(dataDir, "bench-engagement.json"), "utf8")) as {
    accountId: number;
    bigPage: string;
    countPages: string[];
    writerIds: string[];
  };
  const { jwtSecret } = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8")) as {
    jwtSecret: string;
  };
  // The spec's page id: base64 of encodeURIComponent(url) (server/engagement/pages.ts encodePageId).
  const pageId = (url: string) => Buffer.from(encodeURIComponent(url), "utf8").toString("base64");
  const pages = `/api/v1/accounts/${seeded.accountId}/pages`;
  const key = new TextEncoder().encode(jwtSecret);
  const writers = await Promise.all(
    seeded.writerIds.map(async (id, n) => ({
      // The name the seed gave the writer (server/seed/large-engagement.ts): a returning reader.
      jwt: await new SignJWT({ id, name: `Writer ${n + 1}` })
        .setProtectedHeader({ alg: "HS256" })
        .setIssuedAt()
        .setExpirationTime("2h")
        .sign(key),
      ip: `10.77.${Math.floor(n / 250)}.${(n % 250) + 1}`,
    })),
  );
  // Ten sets of 100 pages, picked at random once (a front page asks for the pages it lists).
  const countQueries = Array.from({ length: 10 }, () => {
    const ids = Array.from(
      { length: 100 },
      () => seeded.countPages[Math.floor(Math.random() * seeded.countPages.length)]!,
    ).map(pageId);
    return `${pages}?page_ids=${encodeURIComponent(ids.join(","))}`;
  });
  const bigList = `${pages}/${encodeURIComponent(pageId(seeded.bigPage))}/comments.json`;
  const sentences = [
    "I read this twice and the second half makes a fair point about the costs.",
    "Thanks for covering the meeting; the council should publish the figures.",
    "Not sure about the timetable, but the plan itself sounds reasonable.",
    "Our street was mentioned in the report and nobody told us beforehand.",
  ];
  let c = 0;
  let p = 0;
  let w = 0;
  return [
    { name: "comment counts (100 pages)", call: () => ({ path: countQueries[c++ % countQueries.length]! }) },
    { name: "comment list (2,000 comments)", call: () => ({ path: bigList }) },
    {
      name: "comment create",
      call: () => {
        const n = w++;
        const writer = writers[n % writers.length]!;
        const page = seeded.countPages[(p++ * 7) % seeded.countPages.length]!;
        return {
          path: `${pages}/${encodeURIComponent(pageId(page))}/comments.json`,
          init: {
            method: "POST",
            headers: { accept: "application/json", "content-type": "application/json", "x-forwarded-for": writer.ip },
            body: JSON.stringify({
              comment: { body: { ops: [{ insert: `${sentences[n % sentences.length]} (${n})` }] } },
              jwt: writer.jwt,
            }),
          },
        };
      },
    },
  ];
}

/**
 * The access scenarios (server/seed/large-access.ts: DATA_DIR/bench-access.json): the web access
 * check and AMP's authorization for subscription stories, as the paywall asks them on each page
 * view. "access decision": one in two calls by a subscriber (its publisher-signed JWT), the others
 * by an anonymous reader with a meter history; "amp-access": anonymous AMP readers. Neither
 * counts (AMP counts on pingback), so every run measures the same data.
 */
async function accessScenarios(): Promise<{ name: string; call: () => Call }[]> {
  const seeded = JSON.parse(fs.readFileSync(path.join(dataDir, "bench-access.json"), "utf8")) as {
    storyIds: string[];
    subscriberIds: string[];
    anonymousIds: string[];
  };
  const { jwtSecret, accountKey } = JSON.parse(
    fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8"),
  ) as { jwtSecret: string; accountKey: string };
  if (seeded.storyIds.length === 0) return [];
  const key = new TextEncoder().encode(jwtSecret);
  const jwts = await Promise.all(
    seeded.subscriberIds
      .slice(0, 200)
      .map((id) =>
        new SignJWT({ id, name: id })
          .setProtectedHeader({ alg: "HS256" })
          .setIssuedAt()
          .setExpirationTime("2h")
          .sign(key),
      ),
  );
  let a = 0;
  let m = 0;
  const story = (n: number) => seeded.storyIds[(n * 13) % seeded.storyIds.length]!;
  const anon = (n: number) => seeded.anonymousIds[(n * 7) % seeded.anonymousIds.length]!;
  return [
    {
      name: "access decision",
      call: () => {
        const n = a++;
        const base = `/api/access/v1/stories/${story(n)}/access?key=${accountKey}`;
        return { path: n % 2 ? `${base}&accesstype_jwt=${jwts[n % jwts.length]}` : `${base}&readerId=${anon(n)}` };
      },
    },
    {
      name: "amp-access",
      call: () => {
        const n = m++;
        return {
          path: `/api/access/v1/stories/${story(n)}/amp-access?key=${accountKey}&accesstype_integration_id=1&readerId=${anon(n)}`,
        };
      },
    },
  ];
}

async function waitForHealth(server: ChildProcess, url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && server.exitCode === null && server.signalCode === null) {
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`the app did not answer /api/health within ${timeoutMs / 60_000} minutes`);
}
