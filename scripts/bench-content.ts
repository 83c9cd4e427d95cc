/**
 * npm run bench [-- --stories 50000 --requests 3000 --connections 10 --seconds 20 --warmup 200
 *                   --instances 1 --only access,amp --no-floors]
 *
 * Benchmark of the publishing content API (reads), the engagement API (comment counts, a comment
 * list, comment create) and the access checks against the local PostgreSQL, each stated as a ratio
 * to its own floor measured in the same run, against the budgets of docs/performance.md
 * (scripts/bench/report.ts):
 *   1. DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test?schema=mh_bench, a schema of
 *      its own), migrated and seeded with the demo publisher, N generated stories and the
 *      engagement and access data (topped up when already there; earlier runs' comments removed);
 *   2. the floors (scripts/bench/floor.ts): a capture instance of the app, talking to PostgreSQL
 *      through a recording proxy, answers one request of each scenario built afresh; its
 *      statements are replayed alone through pg and its answer serialised again;
 *   3. the measured instances (scripts/start.ts, `next start`, building first when the sources
 *      changed, under `flock /tmp/masthead-build.lock`) on free ports of 127.0.0.1;
 *   4. one request of each scenario, a warm-up of --warmup requests of each, then for each
 *      scenario its own warm-up and --requests requests over --connections keep-alive connections
 *      (at most --seconds): CPU per request of the app and of its PostgreSQL backends, p50/p95/p99,
 *      requests per second, resident memory;
 *   5. the purge under load (scripts/bench/purge.ts): the home collection read by --connections
 *      while it is purged every quarter second: builds per purge, p95 against the steady p95;
 *   6. one table: per scenario its CPU per request, its floor (the empty route handler + its SQL
 *      replayed alone + its answer serialised; the empty handler for answers from the response
 *      cache and for search), the ratio, the budget with a pass/fail mark, p95 and resident
 *      memory. The exit code is non-zero when a scenario fails to answer, not when a budget is missed.
 * The instances are stopped at the end, whatever happens.
 *
 * `--instances 2` starts two instances on the same database and sends each request to the next
 * one in turn, as a load balancer would. It only talks to 127.0.0.1 (the database must be local).
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";

import { freePort, reportedMemory, seed, startInstance, stopInstances } from "./bench/app";
import { benchClient, jsonFloor, sqlFloor, wireCapture, type Statement } from "./bench/floor";
import { load, measure, send } from "./bench/load";
import {
  CONNECTIONS,
  databaseUrl,
  dbHost,
  FLOORS,
  INSTANCES,
  log,
  ONLY,
  OVERALL_LIMIT_MS,
  REQUESTS,
  STORIES,
  WARMUP,
} from "./bench/options";
import { residentMegabytes } from "./bench/processes";
import { printPurgeReport, purgeUnderLoad, type PurgeResult } from "./bench/purge";
import { printReport, type Floor, type Row } from "./bench/report";
import { scenarios as allScenarios, baselines, type Scenario } from "./bench/scenarios";

const overall = setTimeout(() => {
  console.error(`[bench] still running after ${OVERALL_LIMIT_MS / 60_000} minutes: giving up.`);
  stopInstances();
  process.exit(1);
}, OVERALL_LIMIT_MS);
overall.unref();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopInstances();
    process.exit(130);
  });
}

const chosen = (list: Scenario[]) =>
  list.filter((s) => ONLY.length === 0 || ONLY.some((part) => s.name.toLowerCase().includes(part)));

/**
 * The floors of the scenarios built afresh, from a capture instance on `port` (see floor.ts): of
 * each, three requests, the third recorded (the first ones fill the in-process caches a steady
 * run has warm), with a short wait after it for what the request does once answered.
 */
async function captureFloors(port: number): Promise<Map<string, Floor>> {
  const floors = new Map<string, Floor>();
  const target = new URL(databaseUrl);
  const capture = await wireCapture({ host: target.hostname, port: Number(target.port || 5432) });
  const proxied = new URL(databaseUrl);
  proxied.host = `127.0.0.1:${capture.port}`;
  log(`floors: a capture instance on http://127.0.0.1:${port}…`);
  const stop = await startInstance(port, { first: true, databaseUrl: proxied.toString() });
  const captured = new Map<string, { statements: Statement[]; answer: unknown }>();
  try {
    const base = `http://127.0.0.1:${port}`;
    for (const scenario of chosen(await allScenarios(base, STORIES)).filter((s) => s.afresh)) {
      try {
        for (let n = 0; n < 2; n++) {
          const call = scenario.call();
          await (await fetch(base + call.path, call.init)).arrayBuffer();
        }
        const call = scenario.call();
        capture.record();
        const response = await fetch(base + call.path, call.init);
        const answer: unknown = await response.json();
        await new Promise((resolve) => setTimeout(resolve, 200));
        const statements = capture.take();
        if (!response.ok) floors.set(scenario.name, { error: `the capture instance answered ${response.status}` });
        else captured.set(scenario.name, { statements, answer });
      } catch (error) {
        capture.take();
        floors.set(scenario.name, { error: error instanceof Error ? error.message : String(error) });
      }
    }
  } finally {
    stop();
    capture.close();
  }
  const client = await benchClient(databaseUrl, "masthead-bench-floor");
  try {
    for (const [name, { statements, answer }] of captured) {
      try {
        floors.set(name, { sql: await sqlFloor(client, statements), jsonMs: jsonFloor(answer) });
      } catch (error) {
        floors.set(name, { error: `replay: ${error instanceof Error ? error.message : String(error)}` });
      }
    }
  } finally {
    await client.end();
  }
  return floors;
}

try {
  const ports = await Promise.all(Array.from({ length: INSTANCES + 1 }, () => freePort()));
  const bases = ports.slice(1).map((port) => `http://127.0.0.1:${port}`);
  const base = bases[0]!;
  log(`database: ${databaseUrl.replace(/\/\/[^@]*@/, "//…@")}`);
  log(`seeding the demo publisher, ${STORIES} generated stories and the engagement data (reused when present)…`);
  const seedStarted = Date.now();
  await seed(STORIES, ports[1]!);
  log(`seed ready in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);

  const floors = FLOORS ? await captureFloors(ports[0]!) : new Map<string, Floor>();
  log(`starting the app on ${base} (builds first if the sources changed; waits for /tmp/masthead-build.lock)…`);
  await startInstance(ports[1]!, { first: true });
  for (const port of ports.slice(2)) {
    log(`starting another instance on http://127.0.0.1:${port}…`);
    await startInstance(port, { first: false });
  }
  log(INSTANCES > 1 ? `${INSTANCES} instances are ready; requests go to each in turn` : "app is ready");

  const scenarios = [...baselines(), ...chosen(await allScenarios(base, STORIES))];
  // One request of each scenario by each instance before any is measured: every route's code is
  // loaded (Next.js loads a route's bundle on its first request) before the first memory figure.
  const answering: Scenario[] = [];
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
  const probed = { rssMb: residentMegabytes(), ...(await reportedMemory(bases)) };
  // Then WARMUP requests of each scenario: the caches fill to what the run puts in them and V8
  // sizes its heap for the largest answers, so the memory figures show what load does from then on.
  log(`warming up: ${WARMUP} requests of each scenario…`);
  for (const scenario of answering) await load(bases, scenario.call, WARMUP, 30_000);
  const warmed = { rssMb: residentMegabytes(), ...(await reportedMemory(bases)) };

  const client = await benchClient(databaseUrl, "masthead-bench");
  const rows: Row[] = [];
  let purge: PurgeResult | undefined;
  try {
    for (const scenario of answering) {
      log(`${scenario.name}: ${REQUESTS} requests, ${CONNECTIONS} connections…`);
      const result = await measure(
        bases,
        client,
        scenario.name,
        scenario.call,
        scenario.afresh ? 0 : (scenario.distinct ?? 1),
      );
      const baseline = baselines().some((b) => b.name === scenario.name);
      rows.push({ ...result, afresh: scenario.afresh, baseline, floor: floors.get(scenario.name) });
    }
    if (ONLY.length === 0 || ONLY.some((part) => "purge under load".includes(part)))
      purge = await purgeUnderLoad(bases, client);
  } finally {
    await client.end();
  }
  printReport(rows, {
    title:
      `Publishing read API (${STORIES} generated stories), engagement API (a page of 2,000 comments, 1,000 more ` +
      `pages) and access checks, ${CONNECTIONS} connections, ${INSTANCES === 1 ? "one instance" : `${INSTANCES} instances`}, ` +
      `PostgreSQL at ${dbHost}`,
    probed,
    warmed,
  });
  if (purge) printPurgeReport(purge);
  if (answering.length < scenarios.length || rows.some((r) => r.errors > 0) || (purge?.errors ?? 0) > 0)
    process.exitCode = 1;
} catch (error) {
  console.error(`[bench] ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  stopInstances();
  clearTimeout(overall);
}
// Nothing may keep the bench alive once it has printed (keep-alive sockets, a pending poll).
process.exit();
