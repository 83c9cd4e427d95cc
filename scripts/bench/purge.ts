/**
 * The purge under load: while CONNECTIONS connections read the home collection (served from the
 * response cache), the collection is purged again and again, as publishing a story into it
 * purges it on every instance: the notice the publishing instance sends on the deployment's
 * channel, sent here by the bench every PURGE_EVERY_MS. What it shows:
 *   - builds per purge and instance: the answer is built once per instance after each purge
 *     (concurrent misses wait for that one build), budget 1;
 *   - the readers' p95 in the PURGE_WINDOW_MS after each purge against the steady p95 (the same
 *     reads with no purge), budget 3x.
 */
import type pg from "pg";

import { load, percentile, send, type Call } from "./load";
import { log, REQUESTS, SECONDS } from "./options";

const PURGE_EVERY_MS = 250;
const PURGE_WINDOW_MS = 100;
const MIN_PURGES = 10;
/** Budgets of docs/performance.md. */
const PURGE_BUDGETS = { buildsPerPurge: 1, p95Ratio: 3 };

export type PurgeResult = {
  purges: number;
  buildsPerPurge: number;
  steadyP95: number;
  purgeP95: number;
  requests: number;
  errors: number;
};

const HOME: Call = { path: "/api/v1/collections/home" };

export async function purgeUnderLoad(bases: readonly string[], client: pg.Client): Promise<PurgeResult> {
  // What to purge: the collection's own key, as its answer names it, of the demo account.
  const first = await fetch(bases[0]! + HOME.path);
  const key = (first.headers.get("cache-tag") ?? "").split(",").find((tag) => /^c\/\d+$/.test(tag));
  await first.arrayBuffer();
  if (!key) throw new Error("the home collection's answer names no c/<id> purge key");
  const { rows } = await client.query<{ account: number }>(`SELECT id AS account FROM accounts ORDER BY id LIMIT 1`);
  const { account } = rows[0]!;
  for (const base of bases) await send(base + HOME.path);

  log(`purge under load: steady, ${REQUESTS} reads of the home collection…`);
  const steady = await load(bases, () => HOME, REQUESTS, SECONDS * 1000);

  log(`purge under load: the same reads, the collection purged every ${PURGE_EVERY_MS} ms…`);
  const purgedAt: number[] = [];
  const answers: { sentAt: number; ms: number; cache: string | undefined }[] = [];
  let running = true;
  const purging = (async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, PURGE_EVERY_MS));
      if (!running) break;
      purgedAt.push(performance.now());
      // What a publish that changes the collection announces (the database's one announcing function).
      await client.query("SELECT masthead_announce(NULL, $1, ARRAY[$2])", [account, key]);
    }
  })();
  // As long as the steady reads took, and long enough for MIN_PURGES purges.
  const lasting = Math.min(SECONDS * 1000, Math.max(steady.seconds * 1000, (MIN_PURGES + 0.5) * PURGE_EVERY_MS));
  const loaded = await load(
    bases,
    () => HOME,
    Number.MAX_SAFE_INTEGER,
    lasting,
    (sentAt, ms, cache) => answers.push({ sentAt, ms, cache }),
  );
  running = false;
  await purging;

  const builds = answers.filter((a) => a.cache === "MISS").length;
  const afterPurge = answers
    .filter((a) => purgedAt.some((at) => a.sentAt >= at && a.sentAt < at + PURGE_WINDOW_MS))
    .map((a) => a.ms)
    .sort((x, y) => x - y);
  return {
    purges: purgedAt.length,
    buildsPerPurge: builds / Math.max(1, purgedAt.length * bases.length),
    steadyP95: percentile(
      [...steady.latencies].sort((x, y) => x - y),
      95,
    ),
    purgeP95: percentile(afterPurge, 95),
    requests: loaded.latencies.length,
    errors: loaded.errors + steady.errors,
  };
}

export function printPurgeReport(result: PurgeResult): boolean {
  const ratio = result.purgeP95 / result.steadyP95;
  const builds = result.buildsPerPurge <= PURGE_BUDGETS.buildsPerPurge;
  const latency = ratio <= PURGE_BUDGETS.p95Ratio;
  const mark = (ok: boolean) => (ok ? "✓" : "✗");
  console.log(
    `\nPurge under load (home collection, ${result.purges} purges over ${result.requests} reads, ${result.errors} errors):\n` +
      `  builds per purge and instance ${result.buildsPerPurge.toFixed(2)} (budget ≤ ${PURGE_BUDGETS.buildsPerPurge}) ${mark(builds)}\n` +
      `  p95 within ${PURGE_WINDOW_MS} ms of a purge ${result.purgeP95.toFixed(1)} ms, steady ${result.steadyP95.toFixed(1)} ms: ` +
      `${ratio.toFixed(2)}x (budget ≤ ${PURGE_BUDGETS.p95Ratio}x) ${mark(latency)}`,
  );
  return builds && latency;
}
