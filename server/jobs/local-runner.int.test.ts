import { afterEach, describe, expect, it } from "vitest";

import { getDb } from "../db";
import { queueEmail } from "../mail/outbox";
import { fakeClock, startReceiver, type Receiver } from "../testing/webhook-receiver";
import { emitWebhookEvent } from "../webhooks/deliveries";
import { sendWebhookRequest } from "../webhooks/transport";
import { LocalRunner } from "./local-runner";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

async function scenario(behaviour: Parameters<typeof startReceiver>[0]) {
  const db = await getDb();
  const receiver: Receiver = await startReceiver(behaviour);
  cleanup.push(() => receiver.close());
  const account = await db.account.create({ data: { slug: `r${Date.now()}`, name: "Gazette", jwtSecret: "x".repeat(32) } });
  await db.webhookEndpoint.create({ data: { accountId: account.id, kind: "CONTENT", url: receiver.url, events: ["story-publish"] } });
  return { db, receiver, account };
}

describe("local runner (no Inngest configured)", () => {
  it("delivers everything due, retrying on the schedule of the shared domain functions", async () => {
    const { db, receiver, account } = await scenario((n) => ({ status: n % 2 === 0 ? 500 : 200 }));
    const clock = fakeClock();
    const runner = new LocalRunner({ getDb, send: sendWebhookRequest, clock, allowPrivate: true, pollIntervalMs: 60_000, concurrency: 4, retentionDays: 30 });
    for (let i = 0; i < 3; i++) {
      await emitWebhookEvent(db, { accountId: account.id, kind: "CONTENT", name: "story-publish", data: { i }, occurredAt: clock() });
    }
    await runner.tick();
    // One request answered 200 at once; the others are waiting 10 s for their retry.
    expect(await db.webhookDelivery.count({ where: { status: "PENDING" } })).toBeGreaterThan(0);
    for (let round = 0; round < 4 && (await db.webhookDelivery.count({ where: { status: "PENDING" } })) > 0; round++) {
      clock.advance(10_000);
      await runner.tick();
    }
    expect(await db.webhookDelivery.count({ where: { status: "SUCCEEDED" } })).toBe(3);
    const events = new Set(receiver.requests.filter((_, n) => n % 2 === 1).map((r) => r.headers["x-masthead-event-id"]));
    expect(events.size).toBe(3);
  });

  it("wakes at once when new deliveries are handed to it", async () => {
    const { db, receiver, account } = await scenario(() => ({ status: 200 }));
    const runner = new LocalRunner({ getDb, send: sendWebhookRequest, allowPrivate: true, pollIntervalMs: 60_000, concurrency: 4, retentionDays: 30 });
    runner.start();
    cleanup.push(() => runner.stop());
    await new Promise((resolve) => setTimeout(resolve, 200)); // the first (empty) pass
    await emitWebhookEvent(db, { accountId: account.id, kind: "CONTENT", name: "story-publish", data: {}, occurredAt: new Date() });
    runner.wake();
    for (let i = 0; i < 100 && receiver.requests.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.requests).toHaveLength(1);
  });

  it("sends mail left pending in the outbox (a lost hand-off) on its next pass", async () => {
    const db = await getDb();
    const account = await db.account.create({ data: { slug: `m${Date.now()}`, name: "Gazette", jwtSecret: "x".repeat(32) } });
    await queueEmail(db, { accountId: account.id, to: "reader@example.com", subject: "Reset", text: "Link", kind: "member.password_reset", now: new Date() });
    const runner = new LocalRunner({ getDb, send: sendWebhookRequest, allowPrivate: true, pollIntervalMs: 60_000, concurrency: 4, retentionDays: 30 });
    await runner.tick();
    const mail = await db.outgoingEmail.findFirstOrThrow({ where: { accountId: account.id } });
    expect(mail.status).toBe("SENT");
    expect(mail.sentAt).not.toBeNull();
  });
});
