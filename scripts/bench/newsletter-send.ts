/**
 * npm run bench:newsletter [-- --readers 10000 --workers 1 --concurrency 32 --per-second 0]
 *
 * A story sent as a newsletter to N subscribed readers (docs/performance.md "Newsletters"): seeds
 * the readers in a fresh account (batched SQL), sends the story through the send runner the
 * "newsletter.send" job runs (server/newsletters/send-runner.ts) to a local SMTP server
 * (server/testing/smtp-server.ts, on a thread of its own: ./newsletter-sink.ts), and checks every
 * mail as it arrives: one per reader, to that reader, with the reader's own signed one-click
 * unsubscribe header and link and every link redirected through a valid per-delivery, per-URL MAC.
 * Prints the time, mails per second, the process's processor time a mail (sender, SMTP server and
 * checks together, both threads), its peak resident size and the rows written.
 *
 * --per-second: the throttle (NEWSLETTER_MAX_PER_SECOND); 0, the default here, sends unthrottled to
 * measure the sender itself. --workers: senders working the same send at once (instances).
 * --concurrency: SMTP handoffs in flight per worker (over the transport's pooled connections).
 * Database: DATABASE_URL (a schema of its own, dropped at the end) or an in-memory PGlite.
 */
import "../lib/require-supported-node";

import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";

import { openDatabase } from "../../server/db/client";
import type { DatabaseConfig } from "../../server/db/config";
import { applyMigrations } from "../../server/db/migrate";
import { smtpTransport, type MailTransport } from "../../server/mail/transport";
import { createSend, storyDedupeKey } from "../../server/newsletters/send";
import { runSendSlice } from "../../server/newsletters/send-runner";
import { noThrottle, storeThrottle } from "../../server/newsletters/throttle";
import { MemoryRateLimitStore } from "../../server/rate-limit";
import type { CheckedMail, SinkMessage } from "./newsletter-sink";

const { values } = parseArgs({
  options: {
    readers: { type: "string", default: "10000" },
    workers: { type: "string", default: "1" },
    "per-second": { type: "string", default: "0" },
    concurrency: { type: "string", default: "32" },
  },
});
const READERS = Number(values.readers);
const WORKERS = Number(values.workers);
const PER_SECOND = Number(values["per-second"]);
const CONCURRENCY = Number(values.concurrency);
const APP = "https://app.bench.test";
const SEED_BATCH = 5000;

const config: DatabaseConfig = process.env.DATABASE_URL
  ? { kind: "postgresql", url: process.env.DATABASE_URL, schema: `mh_bench_newsletter_${process.pid}` }
  : { kind: "pglite", dir: "memory://" };
const database = await openDatabase(config);
const db = database.prisma;
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);

const failures: string[] = [];
let mail: MailTransport | undefined;
let sink: Awaited<ReturnType<typeof startSink>> | undefined;

/** The SMTP sink on its thread (./newsletter-sink.ts): its port, and `close()` for every mail it checked. */
async function startSink(accountId: number) {
  // A thread does not take this process's TypeScript loader (tsx): it registers it, then loads the sink.
  const entry = new URL("./newsletter-sink.ts", import.meta.url).href;
  const thread = new Worker(
    `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true, workerData: { accountId } },
  );
  const checked: CheckedMail[] = [];
  let closed: Promise<CheckedMail[]> | undefined;
  const port = await new Promise<number>((resolve, reject) => {
    thread.once("error", reject);
    thread.on("message", (message: SinkMessage) => {
      if (message.type === "ready") resolve(message.port);
      else if (message.type === "checked") checked.push(...message.mails);
    });
  });
  return {
    port,
    close: () =>
      (closed ??= new Promise<CheckedMail[]>((resolve, reject) => {
        thread.once("error", reject);
        thread.on("message", (message: SinkMessage) => {
          if (message.type === "closed") void thread.terminate().then(() => resolve(checked));
        });
        thread.postMessage({ type: "close" });
      })),
  };
}
const fail = (what: string) => {
  if (failures.length < 20) failures.push(what);
};

try {
  await applyMigrations(database.adapter);
  const account = await db.account.create({
    data: { slug: "bench", name: "The Bench Gazette", domain: "news.bench.test", jwtSecret: "x".repeat(32) },
  });
  await db.publisherConfig.create({
    data: { accountId: account.id, siteUrl: "https://news.bench.test", cdnImage: "images.bench.test" },
  });
  const newsletter = await db.newsletter.create({
    data: {
      accountId: account.id,
      slug: "daily",
      name: "The Daily",
      senderName: "The Bench Gazette",
      senderEmail: "daily@bench.test",
      design: { accentColor: "#aa0000", footer: "1 Bench Street, Springfield" },
      trackClicks: true,
      trackOpens: true,
    },
  });
  const paragraph = (i: number) =>
    `<p>Paragraph ${i} of an ordinary story, with <a href="https://example.org/source/${i}">a source</a> and <strong>some emphasis</strong>.</p>`;
  const element = (type: string, fields: Record<string, unknown>) => ({
    id: crypto.randomUUID(),
    type,
    subtype: null,
    metadata: {},
    ...fields,
  });
  const story = await db.story.create({
    data: {
      accountId: account.id,
      headline: "The council votes on the budget",
      slug: "council-budget",
      status: "PUBLISHED",
      publishedAt: new Date(),
      cards: [
        {
          id: crypto.randomUUID(),
          status: "draft",
          version: 1,
          metadata: {},
          "story-elements": [
            ...Array.from({ length: 8 }, (_, i) => element("text", { text: paragraph(i) })),
            element("image", { "image-s3-key": "1/2026/budget.jpg", "image-metadata": { width: 1600, height: 900 } }),
            element("blockquote", { text: "We had no choice.", metadata: { attribution: "The mayor" } }),
            element("youtube-video", { "video-id": "dQw4w9WgXcQ", title: "The vote" }),
          ],
        },
      ],
    },
  });

  // Readers: members and subscriptions, SEED_BATCH a statement.
  const seedStart = performance.now();
  for (let from = 1; from <= READERS; from += SEED_BATCH) {
    const to = Math.min(READERS, from + SEED_BATCH - 1);
    await db.$executeRaw`
      WITH m AS (
        INSERT INTO members (account_id, name, email, password_hash, email_verified, created_at, updated_at)
        SELECT ${account.id}, 'Reader ' || i, 'reader' || i || '@bench.test', '!no-password', true, now(), now()
          FROM generate_series(${from}::int, ${to}::int) AS i
        RETURNING id)
      INSERT INTO newsletter_subscriptions (account_id, newsletter_id, member_id, status, consented_at, consent_source, created_at, updated_at)
      SELECT ${account.id}, ${newsletter.id}, m.id, 'active', now(), 'bench', now(), now() FROM m`;
  }
  const seedSeconds = (performance.now() - seedStart) / 1000;

  const stats = async () =>
    config.kind === "postgresql"
      ? (
          await db.$queryRawUnsafe<{ ins: bigint; upd: bigint }[]>(
            `SELECT coalesce(sum(n_tup_ins), 0) AS ins, coalesce(sum(n_tup_upd), 0) AS upd FROM pg_stat_user_tables
              WHERE schemaname = $1 AND relname IN ('newsletter_deliveries', 'newsletter_sends', 'email_suppressions', 'jobs')`,
            config.schema,
          )
        )[0]!
      : null;
  if (config.kind === "postgresql") await new Promise((r) => setTimeout(r, 11_000));
  const before = await stats();

  sink = await startSink(account.id);
  const sinkPort = sink.port;

  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const { send } = await createSend(db, {
    accountId: account.id,
    newsletterId: newsletter.id,
    kind: "story",
    dedupeKey: storyDedupeKey(story.id),
    subject: story.headline,
    storyId: story.id,
    scheduledAt: new Date(),
    now: new Date(),
  });
  const transport = smtpTransport({
    url: `smtp://bench:bench@127.0.0.1:${sinkPort}`,
    from: "Masthead <mail@bench.test>",
  });
  mail = transport;
  const throttle = PER_SECOND > 0 ? storeThrottle(new MemoryRateLimitStore(), PER_SECOND) : noThrottle;
  const worker = async () => {
    for (;;) {
      const result = await runSendSlice(db, {
        sendId: send.id,
        clock: () => new Date(),
        mail: transport,
        appUrl: APP,
        throttle,
        budgetMs: 2000,
        concurrency: CONCURRENCY,
        batchSize: 200,
      });
      if (result.state === "done") return;
      if (result.state === "continue" && result.at.getTime() > Date.now())
        await new Promise((r) => setTimeout(r, Math.min(200, result.at.getTime() - Date.now())));
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  const seconds = (performance.now() - started) / 1000;
  const checked = await sink.close();
  const cpu = process.cpuUsage(cpuBefore);
  // Each mail's tokens name its recipient's delivery.
  const deliveryOf = new Map(
    (await db.newsletterDelivery.findMany({ where: { sendId: send.id }, select: { id: true, email: true } })).map(
      (d) => [d.email, String(d.id)],
    ),
  );
  const seen = new Map<string, number>();
  for (const { to, ids, problems } of checked) {
    seen.set(to, (seen.get(to) ?? 0) + 1);
    for (const problem of problems) fail(`${to}: ${problem}`);
    if (ids.some((id) => id !== deliveryOf.get(to))) fail(`${to}: a link names another delivery`);
  }
  const cpuPerMail = (cpu.user + cpu.system) / 1000 / READERS;

  // PostgreSQL publishes a connection's table statistics when it has been idle 10 s at most.
  if (config.kind === "postgresql") await new Promise((r) => setTimeout(r, 11_000));
  const after = await stats();
  const sent = await db.newsletterDelivery.count({ where: { sendId: send.id, status: "SENT" } });
  const twice = [...seen.values()].filter((n) => n > 1).length;
  if (seen.size !== READERS) fail(`${seen.size} of ${READERS} readers got the mail`);
  if (twice) fail(`${twice} readers got it more than once`);
  if (sent !== READERS) fail(`${sent} deliveries SENT, not ${READERS}`);

  console.log(`database   ${config.kind === "pglite" ? "PGlite (in memory, in this process)" : "PostgreSQL"}`);
  console.log(`readers    ${READERS.toLocaleString("en")} (seeded in ${seedSeconds.toFixed(1)} s)`);
  console.log(
    `workers    ${WORKERS}, ${CONCURRENCY} handoffs in flight each, throttle ${PER_SECOND > 0 ? `${PER_SECOND}/s` : "off"}`,
  );
  console.log(
    `send       ${seconds.toFixed(1)} s, ${Math.round(READERS / seconds)} mails/s, peak RSS ${(peak / 1e6).toFixed(0)} MB (sender and SMTP server)`,
  );
  console.log(
    `cpu        ${cpuPerMail.toFixed(2)} ms a mail in this process (sender, SMTP server and the checks): ${Math.round(1000 / cpuPerMail)} mails per second of one core`,
  );
  if (before && after)
    console.log(
      `rows       ${Number(after.ins) - Number(before.ins)} inserted, ${Number(after.upd) - Number(before.upd)} updated in the send's tables (pg_stat_user_tables: deliveries, sends, suppressions, jobs)`,
    );
  else console.log(`rows       ${READERS} deliveries inserted, each updated 2 to 3 times (claim, handoff, sent)`);
  console.log(
    `checked    ${seen.size.toLocaleString("en")} mails: each reader once, own unsubscribe header and link, every link signed`,
  );
  if (failures.length) {
    console.error(`FAILED:\n  ${failures.join("\n  ")}`);
    process.exitCode = 1;
  }
} finally {
  clearInterval(sampler);
  mail?.close?.();
  await sink?.close();
  if (config.kind === "postgresql") await db.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${config.schema}" CASCADE`);
  await database.close();
}
