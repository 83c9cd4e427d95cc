// Webhook deliveries end to end (claim, send, record, retry, give up) against a real receiver:
// one file over 500 lines because every case shares the receiver and the delivery helpers at its top.
import net from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { JOBS } from "@/server/background/job-list";

import { getDb } from "../db";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import type { JobDeps } from "../jobs/define";
import { claimJobs, runDueJobs, runJobById } from "../jobs/engine";
import { findJob, testJobDeps } from "../testing/jobs";
import { fakeClock, startReceiver, type Receiver } from "../testing/webhook-receiver";
import { emitWebhookEvent, LEASE_MS, purgeWebhookLogs, redeliver, sendTestEvent } from "./deliveries";
import { verifyQtSignature, verifyStandardSignature } from "./signing";
import { sendWebhookRequest } from "./transport";

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

async function account() {
  const db = await getDb();
  return db.account.create({
    data: { slug: `a${Math.random().toString(36).slice(2, 8)}`, name: "Gazette", jwtSecret: "x".repeat(32) },
  });
}

async function endpoint(
  accountId: number,
  url: string,
  opts: { kind?: "CONTENT" | "SUBSCRIPTION"; secret?: string | null; events?: string[] } = {},
) {
  const db = await getDb();
  return db.webhookEndpoint.create({
    data: {
      accountId,
      kind: opts.kind ?? "CONTENT",
      url,
      events: opts.events ?? ["story-publish"],
      secret: opts.secret === undefined ? "whsec_test" : opts.secret,
    },
  });
}

const story = {
  story: { id: "7d2b", headline: "Council votes", sections: [{ id: 3, name: "Politics", "parent-id": 1 }] },
};

/** A story-publish event on the account (data: the story above unless given), through the outbox. */
function emitStoryPublish(db: Db, accountId: number, occurredAt: Date, data: unknown = story) {
  return emitWebhookEvent(db, { accountId, kind: "CONTENT", name: "story-publish", data, occurredAt });
}

/** A subscription.created event on the account. */
function emitSubscriptionCreated(db: Db, accountId: number, occurredAt: Date, data: unknown = {}) {
  return emitWebhookEvent(db, { accountId, kind: "SUBSCRIPTION", name: "subscription.created", data, occurredAt });
}

/** What one run of a delivery's job did, in the delivery's terms. */
type AttemptOutcome =
  | { outcome: "succeeded"; statusCode: number | null; attempt: number }
  | { outcome: "retrying"; attempt: number; nextAttemptAt: string; statusCode: number | null; error: string | null }
  | { outcome: "failed"; attempt: number; statusCode: number | null; error: string | null }
  | { outcome: "skipped"; reason: string; nextAttemptAt?: string };

/** Run the delivery's job once through the engine (as either engine would), if it is due and free. */
async function attempt(
  deliveryId: string,
  clock: () => Date,
  workerId = "test",
  deps: Partial<JobDeps> = {},
): Promise<AttemptOutcome> {
  const db = await getDb();
  const before = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
  const job = await findJob(db, "webhook.deliver", "deliveryId", deliveryId);
  const state = await runJobById(db, { jobs: JOBS, jobId: job.id, deps: testJobDeps({ clock, ...deps }), workerId });
  const after = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
  if (after.attemptCount === before.attemptCount) {
    if (before.status !== "PENDING") return { outcome: "skipped", reason: `already ${before.status.toLowerCase()}` };
    if (state.state === "held") return { outcome: "skipped", reason: "leased by another worker" };
    return { outcome: "skipped", reason: "not due", nextAttemptAt: after.nextAttemptAt.toISOString() };
  }
  const base = { attempt: after.attemptCount, statusCode: after.lastStatusCode };
  if (after.status === "SUCCEEDED") return { outcome: "succeeded", ...base };
  if (after.status === "FAILED") return { outcome: "failed", ...base, error: after.lastError };
  return { outcome: "retrying", ...base, nextAttemptAt: after.nextAttemptAt.toISOString(), error: after.lastError };
}

/** The attempt sent nothing (the URL was refused before sending) and the delivery will be retried. */
function expectNotSent(outcome: AttemptOutcome, error: RegExp) {
  expect(outcome).toMatchObject({ outcome: "retrying", statusCode: null });
  expect((outcome as { error: string }).error).toMatch(error);
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("webhook deliveries against a real receiver", () => {
  it("sends the spec body with a signature that verifies with the secret", async () => {
    const db = await getDb();
    const r = await receiver();
    const a = await account();
    await endpoint(a.id, r.url, { secret: "whsec_test" });
    const clock = fakeClock();
    const { eventId, deliveryIds } = await emitStoryPublish(db, a.id, clock());
    expect(deliveryIds).toHaveLength(1);

    const outcome = await attempt(deliveryIds[0]!, clock);
    expect(outcome).toMatchObject({ outcome: "succeeded", statusCode: 200, attempt: 1 });
    const [req] = r.requests;
    expect(JSON.parse(req!.body)).toEqual({
      v1: { event: { id: Number(eventId), name: "story-publish", time: clock().getTime() }, data: story },
    });
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(verifyQtSignature(req!.body, "whsec_test", String(req!.headers["x-qt-signature"]))).toBe(true);
    expect(
      verifyStandardSignature(
        {
          id: String(req!.headers["webhook-id"]),
          timestamp: String(req!.headers["webhook-timestamp"]),
          signature: String(req!.headers["webhook-signature"]),
          body: req!.body,
          secret: "whsec_test",
        },
        clock(),
      ),
    ).toBe(true);
    expect(req!.headers["x-masthead-event-id"]).toBe(String(eventId));

    const delivery = await db.webhookDelivery.findUniqueOrThrow({
      where: { id: deliveryIds[0]! },
      include: { attempts: true },
    });
    expect(delivery.status).toBe("SUCCEEDED");
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ statusCode: 200, succeeded: true, responseExcerpt: "ok" });
  });

  it("sends an empty X-Qt-Signature when the webhook has no secret", async () => {
    const db = await getDb();
    const r = await receiver();
    const a = await account();
    await endpoint(a.id, r.url, { secret: null });
    const clock = fakeClock();
    const { deliveryIds } = await emitStoryPublish(db, a.id, clock());
    await attempt(deliveryIds[0]!, clock);
    expect(r.requests[0]!.headers["x-qt-signature"]).toBe("");
    expect(r.requests[0]!.headers["webhook-signature"]).toBeUndefined();
  });

  it("only delivers to active endpoints subscribed to the event", async () => {
    const db = await getDb();
    const r = await receiver();
    const a = await account();
    await endpoint(a.id, r.url, { events: ["story-publish"] });
    await endpoint(a.id, r.url, { events: ["story-submit"] });
    const off = await endpoint(a.id, r.url, { events: ["story-publish"] });
    await db.webhookEndpoint.update({ where: { id: off.id }, data: { active: false } });
    const other = await account();
    await endpoint(other.id, r.url, { events: ["story-publish"] });
    const { deliveryIds } = await emitStoryPublish(db, a.id, new Date());
    expect(deliveryIds).toHaveLength(1);
  });

  it("writes nothing when the causing transaction rolls back (outbox)", async () => {
    const db = await getDb();
    const a = await account();
    await endpoint(a.id, "http://127.0.0.1:9/hook");
    await expect(
      withTransaction(db, async (tx) => {
        await emitStoryPublish(tx, a.id, new Date());
        throw new Error("the story change failed");
      }),
    ).rejects.toThrow("the story change failed");
    expect(await db.webhookEvent.count()).toBe(0);
    expect(await db.webhookDelivery.count()).toBe(0);
    expect(await db.job.count()).toBe(0);
  });

  it("retries a receiver answering 500 twice then 200: exactly 3 attempts, 10 s apart", async () => {
    const db = await getDb();
    const r = await receiver((n) => ({ status: n < 2 ? 500 : 200 }));
    const a = await account();
    await endpoint(a.id, r.url);
    const clock = fakeClock();
    const { deliveryIds } = await emitStoryPublish(db, a.id, clock());
    const id = deliveryIds[0]!;

    const first = await attempt(id, clock);
    expect(first).toMatchObject({ outcome: "retrying", attempt: 1, statusCode: 500 });
    expect(new Date((first as { nextAttemptAt: string }).nextAttemptAt).getTime() - clock().getTime()).toBe(10_000);
    expect(await attempt(id, clock)).toMatchObject({ outcome: "skipped", reason: "not due" });
    clock.advance(10_000);
    expect(await attempt(id, clock)).toMatchObject({ outcome: "retrying", attempt: 2 });
    clock.advance(10_000);
    expect(await attempt(id, clock)).toMatchObject({ outcome: "succeeded", attempt: 3 });
    clock.advance(10_000);
    expect(await attempt(id, clock)).toMatchObject({ outcome: "skipped", reason: "already succeeded" });

    expect(r.requests).toHaveLength(3);
    const attempts = await db.webhookAttempt.findMany({ where: { deliveryId: id }, orderBy: { number: "asc" } });
    expect(attempts.map((x) => [x.number, x.statusCode, x.succeeded])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, true],
    ]);
  });

  it("gives a receiver that never answers 4 attempts, each cut at the 3 s timeout, then fails the delivery", async () => {
    const db = await getDb();
    const r = await receiver(() => "hang");
    const a = await account();
    await endpoint(a.id, r.url);
    const clock = fakeClock();
    const { deliveryIds } = await emitStoryPublish(db, a.id, clock());
    const id = deliveryIds[0]!;
    const outcomes: AttemptOutcome[] = [];
    for (let i = 0; i < 4; i++) {
      outcomes.push(await attempt(id, clock));
      clock.advance(10_000);
    }
    expect(outcomes.map((o) => o.outcome)).toEqual(["retrying", "retrying", "retrying", "failed"]);
    expect(r.requests).toHaveLength(4);
    const attempts = await db.webhookAttempt.findMany({ where: { deliveryId: id } });
    for (const x of attempts) {
      expect(x.statusCode).toBeNull();
      expect(x.error).toMatch(/no response within 3000 ms/);
      expect(x.durationMs).toBeGreaterThanOrEqual(2900);
      expect(x.durationMs).toBeLessThan(4500);
    }
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id } })).status).toBe("FAILED");
  }, 40_000);

  it("cuts a connection that never completes at the 3 s connect timeout", async () => {
    // A TCP listener that never speaks TLS: the connection opens but never becomes usable.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const result = await sendWebhookRequest({
        url: `https://127.0.0.1:${port}/hook`,
        body: "{}",
        headers: {},
        connectTimeoutMs: 3000,
        responseTimeoutMs: 3000,
        allowPrivate: true,
      });
      expect(result.statusCode).toBeNull();
      expect(result.error).toMatch(/could not connect within 3000 ms/);
      expect(result.durationMs).toBeGreaterThanOrEqual(2900);
    } finally {
      silent.close();
    }
  }, 10_000);

  it("counts a 302 as a failure and does not follow it", async () => {
    const db = await getDb();
    const r = await receiver((_n, req) =>
      req.path === "/hook" ? { status: 302, headers: { Location: "/elsewhere" } } : { status: 200 },
    );
    const a = await account();
    await endpoint(a.id, r.url);
    const clock = fakeClock();
    const { deliveryIds } = await emitStoryPublish(db, a.id, clock());
    expect(await attempt(deliveryIds[0]!, clock)).toMatchObject({
      outcome: "retrying",
      statusCode: 302,
      error: "HTTP 302",
    });
    expect(r.requests.map((x) => x.path)).toEqual(["/hook"]);
  });

  it("refuses private addresses at delivery time unless allowed", async () => {
    const db = await getDb();
    const r = await receiver();
    const a = await account();
    await endpoint(a.id, r.url);
    const clock = fakeClock();
    const { deliveryIds } = await emitStoryPublish(db, a.id, clock());
    const outcome = await attempt(deliveryIds[0]!, clock, "t", { allowPrivateUrls: false });
    expectNotSent(outcome, /private or reserved/);
    expect(r.requests).toHaveLength(0);
  });

  it("refuses a delivery to a private address in IPv6 notation: nothing reaches the loopback receiver", async () => {
    const db = await getDb();
    const r = await receiver();
    const a = await account();
    // Rows written before the configuration check was fixed: the receiver on 127.0.0.1, spelled
    // as IPv4-mapped and IPv4-compatible IPv6, and a localhost name.
    const spellings = [
      r.url.replace("127.0.0.1", "[::ffff:127.0.0.1]"),
      r.url.replace("127.0.0.1", "[::ffff:7f00:1]"),
      r.url.replace("127.0.0.1", "[::127.0.0.1]"),
      r.url.replace("127.0.0.1", "app.localhost"),
      r.url.replace("127.0.0.1", "2130706433"),
    ];
    for (const url of spellings) await endpoint(a.id, url);
    const clock = fakeClock();
    const { deliveryIds } = await emitStoryPublish(db, a.id, clock());
    expect(deliveryIds).toHaveLength(spellings.length);
    for (const deliveryId of deliveryIds) {
      const outcome = await attempt(deliveryId, clock, "t", { allowPrivateUrls: false });
      expectNotSent(outcome, /private or reserved/);
    }
    expect(r.requests).toHaveLength(0);
  });

  it("does not send to a stored URL the parser would rewrite (CR, LF, TAB, credentials)", async () => {
    const db = await getDb();
    const r = await receiver();
    const a = await account();
    for (const url of [
      `${r.url}\r\nX-Injected: 1`,
      r.url.replace("/hook", "/ho\tok"),
      r.url.replace("http://", "http://u:p@"),
    ])
      await endpoint(a.id, url);
    const clock = fakeClock();
    const { deliveryIds } = await emitStoryPublish(db, a.id, clock());
    for (const deliveryId of deliveryIds) {
      const outcome = await attempt(deliveryId, clock);
      expectNotSent(outcome, /^invalid URL/);
    }
    expect(r.requests).toHaveLength(0);
  });

  it("deactivates a subscription endpoint after 24 hours of failures", async () => {
    const db = await getDb();
    const r = await receiver(() => ({ status: 503 }));
    const a = await account();
    const ep = await endpoint(a.id, r.url, { kind: "SUBSCRIPTION", events: ["subscription.created"] });
    const clock = fakeClock();
    const start = clock().getTime();
    // Events keep coming; every attempt fails. Drive each due attempt as time passes.
    let deactivatedAt: number | null = null;
    for (let hour = 0; hour <= 26 && deactivatedAt === null; hour++) {
      clock.set(new Date(start + hour * 3600_000));
      await emitSubscriptionCreated(db, a.id, clock(), { subscription: { id: hour } });
      await runDueJobs(db, { jobs: JOBS, deps: testJobDeps({ clock }), workerId: "w" });
      const current = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } });
      if (!current.active) deactivatedAt = clock().getTime();
      else if (hour < 24) expect(current.failingSince?.getTime()).toBe(start);
    }
    expect(deactivatedAt).toBe(start + 24 * 3600_000);
    const disabled = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } });
    expect(disabled.disabledReason).toBe("failing");
    // New events no longer go to it.
    const { deliveryIds } = await emitSubscriptionCreated(db, a.id, clock());
    expect(deliveryIds).toHaveLength(0);
  }, 60_000);

  it("never deactivates a subscription endpoint that succeeds in between", async () => {
    const db = await getDb();
    let healthy = false;
    const r = await receiver(() => ({ status: healthy ? 200 : 500 }));
    const a = await account();
    const ep = await endpoint(a.id, r.url, { kind: "SUBSCRIPTION", events: ["subscription.created"] });
    const clock = fakeClock();
    const { deliveryIds } = await emitSubscriptionCreated(db, a.id, clock());
    await attempt(deliveryIds[0]!, clock, "w");
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } })).failingSince).not.toBeNull();
    healthy = true;
    clock.advance(10_000);
    await attempt(deliveryIds[0]!, clock, "w");
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } })).failingSince).toBeNull();
  });

  it("sends one attempt once when several workers race for it", async () => {
    const db = await getDb();
    const r = await receiver();
    const a = await account();
    await endpoint(a.id, r.url);
    const clock = fakeClock();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      ids.push(...(await emitStoryPublish(db, a.id, clock(), { i })).deliveryIds);
    }
    // Two claimers at once get disjoint sets.
    const [x, y] = (
      await Promise.all([
        claimJobs(db, { jobs: JOBS, workerId: "x", now: clock(), limit: 15 }),
        claimJobs(db, { jobs: JOBS, workerId: "y", now: clock(), limit: 15 }),
      ])
    ).map((rows) => rows.map((row) => row.id));
    expect(x!.filter((id) => y!.includes(id))).toEqual([]);
    expect(new Set([...x!, ...y!]).size).toBe(20);
    // Those leases lapse (their workers died); every worker then tries every delivery at once:
    // only the one that takes the lease sends.
    clock.advance(LEASE_MS + 1);
    // Sixty runs at once on a loaded machine can stall the event loop past the content connect
    // timeout (3 s); that would record a timed-out attempt instead of a send. The race is what is
    // under test here, so these sends get time enough.
    const patient: Partial<JobDeps> = {
      sendWebhook: (request) => sendWebhookRequest({ ...request, connectTimeoutMs: 60_000, responseTimeoutMs: 60_000 }),
    };
    await Promise.all(ids.flatMap((id) => ["x", "y", "z"].map((w) => attempt(id, clock, w, patient))));
    const settled = await db.webhookDelivery.findMany({
      where: { id: { in: ids } },
      select: { status: true, lastError: true },
    });
    expect(settled.filter((d) => d.status !== "SUCCEEDED")).toEqual([]);
    // The truth is the database and the receiver: one attempt recorded and one request sent per
    // delivery. (A racing caller's own outcome is inferred from counts read around its run, so a
    // caller whose rival finished in between would report the rival's success as its own.)
    expect(await db.webhookAttempt.count({ where: { deliveryId: { in: ids } } })).toBe(20);
    expect(r.requests).toHaveLength(20);
  });

  it("records a batch in one go, except deliveries whose lease another worker took meanwhile", async () => {
    const db = await getDb();
    const a = await account();
    await endpoint(a.id, "http://127.0.0.1:9/hook");
    const clock = fakeClock();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(...(await emitStoryPublish(db, a.id, clock(), { i })).deliveryIds);
    const stolen = ids[2]!;
    const stolenJob = await findJob(db, "webhook.deliver", "deliveryId", stolen);
    // A sender that, while the batch is in flight, lets another worker take over one lease.
    const send: typeof sendWebhookRequest = async () => {
      await db.job.update({ where: { id: stolenJob.id }, data: { lockedBy: "intruder" } });
      return { statusCode: 200, error: null, excerpt: "ok", durationMs: 1 };
    };
    const result = await runDueJobs(db, {
      jobs: JOBS,
      deps: testJobDeps({ clock, sendWebhook: send, webhookConcurrency: 3 }),
      workerId: "batch",
      limit: 10,
      maxBatches: 1,
    });
    expect(result.claimed).toBe(5);
    const rows = await db.webhookDelivery.findMany({ include: { attempts: true } });
    for (const row of rows) {
      if (row.id === stolen) expect(row).toMatchObject({ status: "PENDING", attemptCount: 0, attempts: [] });
      else expect(row).toMatchObject({ status: "SUCCEEDED", attemptCount: 1 });
    }
    expect(await db.job.findUniqueOrThrow({ where: { id: stolenJob.id } })).toMatchObject({
      status: "PENDING",
      lockedBy: "intruder",
    });
    expect(await db.job.count({ where: { status: "SUCCEEDED" } })).toBe(4);
  });

  it("sends a test event and redelivers a failed delivery as a new delivery", async () => {
    const db = await getDb();
    const r = await receiver((n) => ({ status: n === 0 ? 400 : 200 }));
    const a = await account();
    const ep = await endpoint(a.id, r.url);
    const clock = fakeClock();
    const test = await sendTestEvent(db, { accountId: a.id, endpointId: ep.id, now: clock() });
    expect(await attempt(test.deliveryId, clock)).toMatchObject({ outcome: "retrying", statusCode: 400 });
    await expect(redeliver(db, { accountId: a.id, deliveryId: test.deliveryId, now: clock() })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await db.webhookDelivery.update({ where: { id: test.deliveryId }, data: { status: "FAILED" } });
    const other = await account();
    await expect(
      redeliver(db, { accountId: other.id, deliveryId: test.deliveryId, now: clock() }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    const again = await redeliver(db, { accountId: a.id, deliveryId: test.deliveryId, now: clock() });
    expect(await attempt(again.deliveryId, clock)).toMatchObject({ outcome: "succeeded" });
    expect(JSON.parse(r.requests[1]!.body)).toMatchObject({ v1: { event: { name: "webhook-test" } } });

    // A disabled endpoint is sent neither a test event nor a redelivery, and nothing is queued.
    await db.webhookEndpoint.update({ where: { id: ep.id }, data: { active: false } });
    const before = { deliveries: await db.webhookDelivery.count(), events: await db.webhookEvent.count() };
    await expect(sendTestEvent(db, { accountId: a.id, endpointId: ep.id, now: clock() })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await expect(redeliver(db, { accountId: a.id, deliveryId: again.deliveryId, now: clock() })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect({ deliveries: await db.webhookDelivery.count(), events: await db.webhookEvent.count() }).toEqual(before);
  });

  it("purges logs older than 30 days, keeping newer ones and anything pending", async () => {
    const db = await getDb();
    const a = await account();
    const ep = await endpoint(a.id, "http://127.0.0.1:9/hook");
    const now = new Date("2026-11-22T12:00:00Z");
    const make = async (ageDays: number, status: "SUCCEEDED" | "PENDING") => {
      const created = new Date(now.getTime() - ageDays * 86_400_000);
      const ev = await db.webhookEvent.create({
        data: {
          accountId: a.id,
          kind: "CONTENT",
          name: "story-publish",
          payload: {},
          occurredAt: created,
          createdAt: created,
        },
      });
      const d = await db.webhookDelivery.create({
        data: { eventId: ev.id, endpointId: ep.id, status, createdAt: created },
      });
      await db.webhookAttempt.create({
        data: { deliveryId: d.id, number: 1, startedAt: created, durationMs: 5, statusCode: 200, succeeded: true },
      });
      return ev.id;
    };
    const old = await make(31, "SUCCEEDED");
    const recent = await make(29, "SUCCEEDED");
    const oldPending = await make(31, "PENDING");
    expect(await purgeWebhookLogs(db, { now, retentionDays: 30 })).toEqual({ events: 1 });
    const left = (await db.webhookEvent.findMany()).map((e) => e.id);
    expect(left.sort()).toEqual([recent, oldPending].sort());
    expect(left).not.toContain(old);
    expect(await db.webhookAttempt.count()).toBe(2);
  });
});
