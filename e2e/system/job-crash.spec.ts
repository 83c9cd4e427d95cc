/**
 * Crash test for a transactional job (scheduled publishing, server/publishing/editorial/
 * scheduling.ts): the server is killed with SIGKILL while the job's transaction is half-way (it is
 * held up on a row lock this test takes), and the job then runs on the restarted server and
 * publishes the story exactly once: one status change, one story-publish event, one audit entry.
 */
import { expect, test } from "@playwright/test";
import pg from "pg";

import { insertStory } from "../../server/testing/publishing-factories";
import { DATABASE_URL, openSchema, startBuiltServer, waitFor, type BuiltServer } from "./built-server";

const SCHEMA = `mh_jobcrash_${process.pid}`;
const PORT = Number(process.env.E2E_PORT ?? 3210) + 22;

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

let database: Awaited<ReturnType<typeof openSchema>>;
test.beforeAll(async () => {
  database = await openSchema(SCHEMA);
});
test.afterAll(async () => {
  await database.drop();
});

test("a scheduled publication killed mid-transaction publishes exactly once after the restart", async () => {
  const db = database.prisma;
  const account = await db.account.create({ data: { slug: "jobcrash", name: "Crash", jwtSecret: "x".repeat(32) } });
  await db.webhookEndpoint.create({
    data: { accountId: account.id, kind: "CONTENT", url: "http://127.0.0.1:9/hook", events: ["story-publish"] },
  });
  // An approved story scheduled for now, as scheduleStoryPublication leaves it (the scheduling
  // service is tested on its own; this test's subject is the job under a crash). Written
  // directly: Playwright cannot load the dashboard's server-only modules.
  const publishAt = new Date();
  const story = await insertStory(db, account.id, { headline: "Scheduled through a crash", status: "APPROVED" });
  await db.story.update({ where: { id: story.id }, data: { publishAt } });
  await db.job.create({
    data: {
      name: "story.publish",
      key: `story.publish:${story.id}`,
      accountId: account.id,
      payload: { storyId: story.id, publishAt: publishAt.toISOString() },
      runAt: publishAt,
    },
  });

  // Hold the story's row: the job's transaction will wait on it in the middle of publishing.
  const blocker = new pg.Client({ connectionString: DATABASE_URL });
  await blocker.connect();
  await blocker.query(`SET search_path TO "${SCHEMA}"`);
  await blocker.query("BEGIN");
  await blocker.query("SELECT id FROM stories WHERE id = $1 FOR UPDATE", [story.id]);

  let server: BuiltServer = await startBuiltServer({ port: PORT, schema: SCHEMA });
  try {
    // The server claimed the job, and its transaction now waits for the row this test holds.
    await waitFor(
      async () => {
        const job = await db.job.findFirst({ where: { name: "story.publish", lockedBy: { not: null } } });
        if (!job) return undefined;
        const waiting = await blocker.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        );
        return waiting.rows[0]!.n > 0 ? job : undefined;
      },
      30_000,
      "the job to be held up mid-transaction",
    );
    await server.kill();
    await blocker.query("ROLLBACK");

    // Nothing of the killed run committed.
    expect((await db.story.findUniqueOrThrow({ where: { id: story.id } })).status).toBe("APPROVED");
    expect(await db.webhookEvent.count({ where: { name: "story-publish" } })).toBe(0);
    expect(await db.job.findFirstOrThrow({ where: { name: "story.publish" } })).toMatchObject({
      status: "PENDING",
      attempts: 1,
    });

    // A new process takes the job up once the dead worker's lease (15 s) has run out.
    server = await startBuiltServer({ port: PORT, schema: SCHEMA });
    await waitFor(
      async () => (await db.job.findFirst({ where: { name: "story.publish", status: "SUCCEEDED" } })) ?? undefined,
      60_000,
      "the job to succeed",
    );
    const published = await db.story.findUniqueOrThrow({ where: { id: story.id } });
    expect(published).toMatchObject({ status: "PUBLISHED", publishAt: null });
    expect(await db.webhookEvent.count({ where: { name: "story-publish" } })).toBe(1);
    expect(await db.auditLog.count({ where: { action: "story.publish", targetId: story.id } })).toBe(1);
    expect(await db.job.findFirstOrThrow({ where: { name: "story.publish" } })).toMatchObject({
      status: "SUCCEEDED",
      attempts: 2,
    });
  } finally {
    await blocker.end().catch(() => undefined);
    await server.kill();
  }
});
