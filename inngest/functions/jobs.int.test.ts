import { InngestTestEngine } from "@inngest/test";
import { afterEach, describe, expect, it, vi } from "vitest";

import { purgeJob } from "@/server/background/purge";
import { getDb } from "@/server/db";
import { enqueueJob } from "@/server/jobs/queue";
import { startReceiver, type Receiver } from "@/server/testing/webhook-receiver";
import { deliverWebhookJob, emitWebhookEvent } from "@/server/webhooks/deliveries";

import { jobFunction } from "./run-job";
import { sweepJobs } from "./sweep-jobs";

const receivers: Receiver[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function setup(behaviour: Parameters<typeof startReceiver>[0]) {
  const db = await getDb();
  const r = await startReceiver(behaviour);
  receivers.push(r);
  const account = await db.account.create({
    data: { slug: `i${Date.now()}`, name: "Gazette", jwtSecret: "x".repeat(32) },
  });
  await db.webhookEndpoint.create({
    data: { accountId: account.id, kind: "CONTENT", url: r.url, events: ["story-publish"], secret: "whsec_t" },
  });
  const { deliveryIds } = await emitWebhookEvent(db, {
    accountId: account.id,
    kind: "CONTENT",
    name: "story-publish",
    data: { story: { id: "s1" } },
    occurredAt: new Date(),
  });
  const deliveryId = deliveryIds[0]!;
  const job = await db.job.findFirstOrThrow({ where: { payload: { path: ["deliveryId"], equals: deliveryId } } });
  return { db, r, deliveryId, jobId: job.id };
}

/** Each mocked sleep moves the (faked) wall clock 10 s, as the real step.sleepUntil would wait. */
const sleeps = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `wait-${i + 1}`,
    handler: () => {
      vi.setSystemTime(new Date(Date.now() + 10_000));
      return null;
    },
  }));

const queued = (jobId: string): [{ name: string; data: { jobId: string } }] => [
  { name: "masthead/job.webhook.deliver", data: { jobId } },
];

describe("Inngest function job-webhook-deliver", () => {
  it("makes each attempt its own step and sleeps between them until the receiver accepts", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T12:00:00Z") });
    const { db, r, deliveryId, jobId } = await setup((n) => ({ status: n < 2 ? 500 : 200 }));
    const t = new InngestTestEngine({ function: jobFunction(deliverWebhookJob) });
    const { result, ctx } = await t.execute({ events: queued(jobId), steps: sleeps(5) });
    expect(result).toEqual({ state: "succeeded" });
    expect(vi.mocked(ctx.step.run).mock.calls.map((call) => call[0])).toEqual(["attempt-1", "attempt-2", "attempt-3"]);
    expect(vi.mocked(ctx.step.sleepUntil).mock.calls.map((call) => call[0])).toEqual(["wait-1", "wait-2"]);
    expect(r.requests).toHaveLength(3);
    const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(delivery).toMatchObject({ status: "SUCCEEDED", attemptCount: 3 });
  });

  it("runs one attempt when executed up to its first step", async () => {
    const { r, jobId } = await setup(() => ({ status: 204 }));
    const t = new InngestTestEngine({ function: jobFunction(deliverWebhookJob) });
    const { result } = await t.executeStep("attempt-1", { events: queued(jobId) });
    expect(result).toEqual({ state: "succeeded" });
    expect(r.requests).toHaveLength(1);
  });

  it("stops after the last attempt and leaves the delivery failed", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T12:00:00Z") });
    const { db, r, deliveryId, jobId } = await setup(() => ({ status: 503 }));
    const t = new InngestTestEngine({ function: jobFunction(deliverWebhookJob) });
    const { result } = await t.execute({ events: queued(jobId), steps: sleeps(5) });
    // The job did its work (four attempts, as the policy says); the delivery is what failed.
    expect(result).toEqual({ state: "succeeded" });
    expect(r.requests).toHaveLength(4);
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status).toBe("FAILED");
  });

  it("does nothing when another run already finished the job (a repeated event)", async () => {
    const { r, jobId } = await setup(() => ({ status: 200 }));
    const t = new InngestTestEngine({ function: jobFunction(deliverWebhookJob) });
    await t.execute({ events: queued(jobId) });
    const again = await new InngestTestEngine({ function: jobFunction(deliverWebhookJob) }).execute({
      events: queued(jobId),
    });
    expect(again.result).toEqual({ state: "succeeded" });
    expect(r.requests).toHaveLength(1);
  });
});

describe("Inngest function sweep-jobs", () => {
  it("schedules the recurring jobs, runs overdue jobs that no run holds, and leaves fresh ones to their runs", async () => {
    const { db, r, jobId } = await setup(() => ({ status: 200 }));
    const sweep = () =>
      new InngestTestEngine({ function: sweepJobs }).execute({
        events: [{ name: "inngest/scheduled.timer", data: { cron: "* * * * *" } }],
      });
    const fresh = await sweep();
    expect(fresh.result).toMatchObject({ claimed: 0 });
    expect(await db.job.count({ where: { name: "maintenance.purge", status: "PENDING" } })).toBe(1);
    await db.job.update({ where: { id: jobId }, data: { runAt: new Date(Date.now() - 5 * 60_000) } });
    const overdue = await sweep();
    expect(overdue.result).toMatchObject({ claimed: 1 });
    expect(r.requests).toHaveLength(1);
  });
});

describe("Inngest function job-maintenance-purge", () => {
  it("purges webhook logs past the retention, and schedules its next run", async () => {
    const { db } = await setup(() => ({ status: 200 }));
    await db.webhookDelivery.updateMany({ data: { status: "SUCCEEDED" } });
    await db.webhookEvent.updateMany({ data: { createdAt: new Date(Date.now() - 31 * 86_400_000) } });
    const { id } = await enqueueJob(db, purgeJob, {}, { key: "every:maintenance.purge" });
    const t = new InngestTestEngine({ function: jobFunction(purgeJob) });
    const { result } = await t.execute({
      events: [{ name: "masthead/job.maintenance.purge", data: { jobId: id } }] as [{ name: string; data: object }],
    });
    expect(result).toEqual({ state: "succeeded" });
    expect(await db.webhookEvent.count()).toBe(0);
    const next = await db.job.findFirstOrThrow({ where: { name: "maintenance.purge", status: "PENDING" } });
    expect(next.runAt.getTime()).toBeGreaterThan(Date.now() + 59 * 60_000);
  });
});
