import { afterEach, describe, expect, it } from "vitest";

import { JOBS } from "../background/job-list";
import { PURGE_EVERY_MS } from "../background/purge";
import { getDb } from "../db";
import { withTransaction } from "../db/transaction";
import { queueEmail } from "../mail/outbox";
import { recordingTransport, testJobDeps } from "../testing/jobs";
import { fakeClock, startReceiver, type Receiver } from "../testing/webhook-receiver";
import { emitWebhookEvent } from "../webhooks/deliveries";
import { claimJobs } from "./engine";
import { LocalRunner } from "./local-runner";
import { setJobNotifier, type QueuedJob } from "./queue";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

async function scenario(behaviour: Parameters<typeof startReceiver>[0]) {
  const db = await getDb();
  const receiver: Receiver = await startReceiver(behaviour);
  cleanup.push(() => receiver.close());
  const account = await db.account.create({
    data: { slug: `r${Date.now()}`, name: "Gazette", jwtSecret: "x".repeat(32) },
  });
  await db.webhookEndpoint.create({
    data: { accountId: account.id, kind: "CONTENT", url: receiver.url, events: ["story-publish"] },
  });
  return { db, receiver, account };
}

/** A runner told about new jobs the way the server's is (the job notifier), polling rarely. */
function startRunner(deps = testJobDeps()) {
  const runner = new LocalRunner({ getDb, jobs: JOBS, deps, pollIntervalMs: 60_000 });
  setJobNotifier(() => runner.wake());
  runner.start();
  cleanup.push(async () => {
    setJobNotifier(undefined);
    await runner.stop();
  });
  return runner;
}

describe("local runner (no Inngest configured)", () => {
  it("delivers everything due, retrying on the schedule of the shared domain functions", async () => {
    const { db, receiver, account } = await scenario((n) => ({ status: n % 2 === 0 ? 500 : 200 }));
    const clock = fakeClock();
    const runner = new LocalRunner({ getDb, jobs: JOBS, deps: testJobDeps({ clock }), pollIntervalMs: 60_000 });
    for (let i = 0; i < 3; i++) {
      await emitWebhookEvent(db, {
        accountId: account.id,
        kind: "CONTENT",
        name: "story-publish",
        data: { i },
        occurredAt: clock(),
      });
    }
    await runner.tick();
    // One request answered 200 at once; the others are waiting 10 s for their retry.
    expect(await db.webhookDelivery.count({ where: { status: "PENDING" } })).toBeGreaterThan(0);
    for (let round = 0; round < 4 && (await db.webhookDelivery.count({ where: { status: "PENDING" } })) > 0; round++) {
      clock.advance(10_000);
      await runner.tick();
    }
    expect(await db.webhookDelivery.count({ where: { status: "SUCCEEDED" } })).toBe(3);
    const events = new Set(
      receiver.requests.filter((_, n) => n % 2 === 1).map((r) => r.headers["x-masthead-event-id"]),
    );
    expect(events.size).toBe(3);
  });

  it("is woken by the commit that queues work, not before it and not by the next poll", async () => {
    const { db, receiver, account } = await scenario(() => ({ status: 200 }));
    const told: QueuedJob[][] = [];
    const runner = new LocalRunner({ getDb, jobs: JOBS, deps: testJobDeps(), pollIntervalMs: 60_000 });
    setJobNotifier((jobs) => {
      // (The runner's own recurring jobs are told about too; this test watches the deliveries.)
      if (jobs.some((job) => job.name === "webhook.deliver")) told.push(jobs);
      runner.wake();
    });
    runner.start();
    cleanup.push(async () => {
      setJobNotifier(undefined);
      await runner.stop();
    });
    await new Promise((resolve) => setTimeout(resolve, 200)); // the first (empty) pass
    await withTransaction(db, async (tx) => {
      for (let i = 0; i < 2; i++) {
        await emitWebhookEvent(tx, {
          accountId: account.id,
          kind: "CONTENT",
          name: "story-publish",
          data: { i },
          occurredAt: new Date(),
        });
      }
      // Queued, not committed: nobody has been told yet.
      expect(told).toHaveLength(0);
    });
    // Told once, after the commit, about both jobs of the transaction.
    expect(told).toHaveLength(1);
    expect(told[0]!.map((job) => job.name)).toEqual(["webhook.deliver", "webhook.deliver"]);
    for (let i = 0; i < 100 && receiver.requests.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(receiver.requests).toHaveLength(2);
  });

  it("tells nobody about work from a transaction that rolled back", async () => {
    const { db, account } = await scenario(() => ({ status: 200 }));
    const told: QueuedJob[][] = [];
    setJobNotifier((jobs) => void told.push(jobs));
    cleanup.push(() => setJobNotifier(undefined));
    await expect(
      withTransaction(db, async (tx) => {
        await emitWebhookEvent(tx, {
          accountId: account.id,
          kind: "CONTENT",
          name: "story-publish",
          data: {},
          occurredAt: new Date(),
        });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(told).toHaveLength(0);
    expect(await db.job.count()).toBe(0);
  });

  it("sends queued mail at once, and mail whose hand-off was lost on its next pass", async () => {
    const db = await getDb();
    const account = await db.account.create({
      data: { slug: `m${Date.now()}`, name: "Gazette", jwtSecret: "x".repeat(32) },
    });
    // Queued while no runner listens (a lost hand-off).
    await queueEmail(db, {
      accountId: account.id,
      to: "reader@example.com",
      subject: "Reset",
      text: "Link",
      kind: "member.password_reset",
      now: new Date(),
    });
    const mail = recordingTransport();
    startRunner(testJobDeps({ mail }));
    for (let i = 0; i < 100 && mail.sent.length < 1; i++) await new Promise((r) => setTimeout(r, 50));
    expect(mail.sent.map((m) => m.to)).toEqual(["reader@example.com"]);
    // Queued while the runner listens: sent right after the commit.
    await queueEmail(db, {
      accountId: account.id,
      to: "other@example.com",
      subject: "Reset",
      text: "Link",
      kind: "member.password_reset",
      now: new Date(),
    });
    for (let i = 0; i < 100 && mail.sent.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(mail.sent.map((m) => m.to)).toEqual(["reader@example.com", "other@example.com"]);
    // The runner marks a mail sent after the transport took it: wait for that write, not only the send.
    await expect
      .poll(
        async () => {
          const rows = await db.outgoingEmail.findMany({ where: { accountId: account.id } });
          return rows.length === 2 && rows.every((row) => row.status === "SENT" && row.sentAt && row.attempts === 1);
        },
        { timeout: 5_000 },
      )
      .toBe(true);
  });

  it("keeps the hourly purge scheduled: one pending run, the next one an hour after the last", async () => {
    const db = await getDb();
    const clock = fakeClock();
    const runner = new LocalRunner({ getDb, jobs: JOBS, deps: testJobDeps({ clock }), pollIntervalMs: 60_000 });
    await runner.tick();
    // By when each is due: the two rows can be created in the same millisecond.
    const first = await db.job.findMany({ where: { name: "maintenance.purge" }, orderBy: { runAt: "asc" } });
    expect(first.map((j) => j.status)).toEqual(["SUCCEEDED", "PENDING"]);
    expect(first[1]!.runAt.getTime()).toBe(clock().getTime() + PURGE_EVERY_MS);
    await runner.tick();
    expect(await db.job.count({ where: { name: "maintenance.purge" } })).toBe(2);
    clock.advance(PURGE_EVERY_MS);
    await runner.tick();
    expect(await db.job.count({ where: { name: "maintenance.purge", status: "SUCCEEDED" } })).toBe(2);
    expect(await db.job.count({ where: { name: "maintenance.purge", status: "PENDING" } })).toBe(1);
  });

  it("keeps long jobs (an import) in a lane of their own: the other lane never waits behind one", async () => {
    const db = await getDb();
    const account = await db.account.create({
      data: { slug: `lane${Date.now()}`, name: "Gazette", jwtSecret: "x".repeat(32) },
    });
    const now = new Date();
    const payload = (name: string) =>
      name === "import.operation"
        ? { uploadId: crypto.randomUUID(), operation: "dry-run", requestId: crypto.randomUUID(), actorId: null }
        : {};
    for (const name of ["import.operation", "mail.send"])
      await db.job.create({ data: { name, accountId: account.id, payload: payload(name), runAt: now } });
    const names = async (lane: "short" | "long") =>
      (await claimJobs(db, { jobs: JOBS, workerId: `w-${lane}`, now, limit: 10, lane })).map((row) => row.name);
    expect(await names("short")).toEqual(["mail.send"]);
    expect(await names("long")).toEqual(["import.operation"]);
  });
});
