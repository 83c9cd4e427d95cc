/**
 * Live threads under load (docs/performance.md "Live threads"): against a running server (or
 * several behind one database), open N server-sent events streams on one page, post comments,
 * and print when each stream heard each comment (p50/p95 after its POST was sent), the resident
 * memory and CPU of each instance's processes (from /proc: the server must run on this machine)
 * before the streams, with them open and idle, and after the comments. Not part of `npm test`.
 *
 *   node --import tsx scripts/bench/live.ts --url http://127.0.0.1:3000 --pid 12345 \
 *     --account 1 --secret "<the account's publisher JWT secret>" [--page https://…/story]
 *     [--streams 2000] [--comments 20] [--interval 500] [--idle 20]
 *
 * `--url` and `--pid` take a comma-separated list (one per instance; the streams are spread over
 * the instances in turn, the comments posted through the first). `--pid`: the instance's server
 * process; its children are counted with it. Instead of `--account`/`--secret`,
 * `--database-url postgres://…?schema=…` and `--slug demo` read them from the database.
 * The readers who post come from addresses of their own (X-Forwarded-For): run the server with
 * TRUST_PROXY=true so that rate limits do not refuse them, on a publication that does not hold
 * new comments for moderators (a held comment is never announced).
 */
import fs from "node:fs";
import http from "node:http";
import { parseArgs } from "node:util";

import { SignJWT } from "jose";
import pg from "pg";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:3000" },
    pid: { type: "string", default: "" },
    account: { type: "string" },
    secret: { type: "string" },
    "database-url": { type: "string" },
    slug: { type: "string", default: "demo" },
    page: { type: "string" },
    streams: { type: "string", default: "2000" },
    comments: { type: "string", default: "20" },
    interval: { type: "string", default: "500" },
    idle: { type: "string", default: "20" },
  },
});

const urls = values.url.split(",").map((u) => u.replace(/\/$/, ""));
const pids = values.pid.split(",").filter(Boolean).map(Number);
const STREAMS = Number(values.streams);
const COMMENTS = Number(values.comments);
const INTERVAL_MS = Number(values.interval);
const IDLE_S = Number(values.idle);

// ─── 1. The account and the page ────────────────────────────────────────────────────────────
async function accountAndSecret(): Promise<{ accountId: number; secret: string; site: string | null }> {
  if (values.account && values.secret) return { accountId: Number(values.account), secret: values.secret, site: null };
  const raw = values["database-url"];
  if (!raw) throw new Error("Give --account and --secret, or --database-url (and --slug).");
  const url = new URL(raw);
  const schema = url.searchParams.get("schema") ?? "public";
  url.searchParams.delete("schema");
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`SET search_path TO ${pg.escapeIdentifier(schema)}`);
    const { rows } = await client.query<{ id: number; jwt_secret: string; site_url: string | null }>(
      `SELECT a.id, a.jwt_secret, c.site_url FROM accounts a LEFT JOIN publisher_configs c ON c.account_id = a.id
       WHERE a.slug = $1`,
      [values.slug],
    );
    if (!rows[0]) throw new Error(`No account with slug ${values.slug}.`);
    return { accountId: rows[0].id, secret: rows[0].jwt_secret, site: rows[0].site_url };
  } finally {
    await client.end();
  }
}

const pageIdOf = (url: string) => Buffer.from(encodeURIComponent(url), "utf8").toString("base64");

// ─── 2. The instances' processes: resident memory and CPU from /proc ─────────────────────────
function tree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(text.slice(text.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // ended meanwhile
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!) ?? []));
  return out;
}

function usage(root: number): { rssMb: number; cpuMs: number } {
  let rss = 0;
  let cpu = 0;
  for (const pid of tree(root)) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1)!.split(" ");
      cpu += (Number(stat[11]) + Number(stat[12])) * 10;
    } catch {
      // ended meanwhile
    }
  }
  return { rssMb: Math.round(rss), cpuMs: cpu };
}

const snapshot = () => pids.map((pid) => ({ pid, ...usage(pid) }));

// ─── 3. The streams ──────────────────────────────────────────────────────────────────────────
type Stream = { heard: Map<number, number>; request: http.ClientRequest };
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

/** Stream `n`, from an address of its own (the server bounds the streams of one address). */
function openStream(base: string, path: string, n: number): Promise<Stream | "refused"> {
  return new Promise((resolve, reject) => {
    const heard = new Map<number, number>();
    const headers = { accept: "text/event-stream", "x-forwarded-for": `10.78.${(n >> 8) & 255}.${n & 255}` };
    const request = http.get(`${base}${path}`, { agent, headers }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return resolve("refused");
      }
      res.setEncoding("utf8");
      let buffer = "";
      let ready = false;
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith("event: ready") && !ready) {
            ready = true;
            resolve({ heard, request });
          } else if (block.startsWith("event: change")) {
            const data = /\ndata: (.*)/.exec(block)?.[1];
            const change = JSON.parse(data ?? "{}") as { created?: number[] };
            for (const id of change.created ?? []) if (!heard.has(id)) heard.set(id, performance.now());
          }
        }
      });
    });
    request.on("error", reject);
  });
}

// ─── 4. The run ──────────────────────────────────────────────────────────────────────────────
function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

async function main() {
  const { accountId, secret, site } = await accountAndSecret();
  const page = values.page ?? `${site ?? "https://example.com"}/bench/live-${Date.now()}`;
  const path = `/api/v1/accounts/${accountId}/pages/${pageIdOf(page)}`;
  const key = new TextEncoder().encode(secret);
  const post = async (n: number) => {
    const jwt = await new SignJWT({ id: `bench-live-${n % 1000}`, name: `Live reader ${n % 1000}` })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(key);
    const res = await fetch(`${urls[0]}${path}/comments.json`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `10.77.${(n >> 8) & 255}.${n & 255}` },
      body: JSON.stringify({ comment: { body: { ops: [{ insert: `Live bench ${Date.now()} #${n}\n` }] } }, jwt }),
    });
    if (res.status !== 201) throw new Error(`POST comments.json answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { comment: { id: number; is_published: boolean } }).comment;
  };

  // The page exists once someone commented on it.
  await post(0);
  const before = snapshot();
  console.log(`[live] page ${page} (account ${accountId}); ${STREAMS} streams over ${urls.length} instance(s)`);

  const opening = performance.now();
  const opened = await Promise.all(
    Array.from({ length: STREAMS }, (_, i) => openStream(urls[i % urls.length]!, `${path}/comments.events`, i)),
  );
  const streams = opened.filter((s): s is Stream => s !== "refused");
  console.log(
    `[live] ${streams.length} streams open (${STREAMS - streams.length} refused) in ${Math.round(performance.now() - opening)} ms`,
  );

  const openedUsage = snapshot();
  await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
  const idle = snapshot();

  const sent = new Map<number, number>();
  for (let n = 1; n <= COMMENTS; n++) {
    const at = performance.now();
    const comment = await post(n);
    if (comment.is_published) sent.set(comment.id, at);
    else console.warn(`[live] comment ${comment.id} was held: never announced`);
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
  }
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const after = snapshot();

  const latencies: number[] = [];
  let missing = 0;
  for (const stream of streams) {
    for (const [id, at] of sent) {
      const heardAt = stream.heard.get(id);
      if (heardAt === undefined) missing++;
      else latencies.push(heardAt - at);
    }
  }
  latencies.sort((a, b) => a - b);
  console.log(
    `[live] deliveries ${latencies.length} of ${streams.length * sent.size} (${missing} missing); latency after the POST was sent: ` +
      `p50 ${Math.round(percentile(latencies, 50))} ms, p95 ${Math.round(percentile(latencies, 95))} ms, max ${Math.round(latencies.at(-1) ?? NaN)} ms`,
  );
  for (const [i, pid] of pids.entries()) {
    const [b, o, d, a] = [before[i]!, openedUsage[i]!, idle[i]!, after[i]!];
    console.log(
      `[live] instance pid ${pid}: RSS ${b.rssMb} MB before, ${o.rssMb} MB with the streams open, ${a.rssMb} MB after the comments; ` +
        `CPU ${d.cpuMs - o.cpuMs} ms over ${IDLE_S} s idle (heartbeats), ${a.cpuMs - d.cpuMs} ms for ${sent.size} comments ` +
        `(${Math.round((a.cpuMs - d.cpuMs) / Math.max(1, sent.size))} ms a comment, its fan-out to every stream included)`,
    );
  }
  for (const stream of streams) stream.request.destroy();
  agent.destroy();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
