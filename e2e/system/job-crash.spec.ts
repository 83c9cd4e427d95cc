/**
 * Crash test for a transactional job (scheduled publishing, server/publishing/editorial/
 * scheduling.ts): the server is killed with SIGKILL while the job's transaction is half-way (it is
 * held up on a row lock this test takes), and the job then runs on the restarted server and
 * publishes the story exactly once: one status change, one story-publish event, one audit entry.
 */
import { expect, test } from "@playwright/test";

import { holdScheduledStoryJob, specSchema, startBuiltServer, waitFor, type BuiltServer } from "./built-server";

const SCHEMA = `mh_jobcrash_${process.pid}`;
const PORT = Number(process.env.E2E_PORT ?? 3210) + 22;

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

const database = specSchema(SCHEMA);

test("a scheduled publication killed mid-transaction publishes exactly once after the restart", async () => {
  const db = database().prisma;
  const account = await db.account.create({ data: { slug: "jobcrash", name: "Crash", jwtSecret: "x".repeat(32) } });
  await db.webhookEndpoint.create({
    data: { accountId: account.id, kind: "CONTENT", url: "http://127.0.0.1:9/hook", events: ["story-publish"] },
  });
  // An approved story scheduled for now with its job (the scheduling service is tested on its own;
  // this test's subject is the job under a crash), and the story's row held: the job's transaction
  // will wait on it in the middle of publishing.
  const { story, blocker } = await holdScheduledStoryJob(db, {
    schema: SCHEMA,
    accountId: account.id,
    headline: "Scheduled through a crash",
  });

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
