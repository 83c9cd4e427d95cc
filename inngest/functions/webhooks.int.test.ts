import { InngestTestEngine } from "@inngest/test";
import { afterEach, describe, expect, it, vi } from "vitest";

import { getDb } from "@/server/db";
import { emitWebhookEvent } from "@/server/webhooks/deliveries";
import { startReceiver, type Receiver } from "@/server/testing/webhook-receiver";

import { deliverWebhook } from "./deliver-webhook";
import { purgeWebhookLogsFunction } from "./purge-webhook-logs";
import { sweepWebhooks } from "./sweep-webhooks";

const receivers: Receiver[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function setup(behaviour: Parameters<typeof startReceiver>[0]) {
  const db = await getDb();
  const r = await startReceiver(behaviour);
  receivers.push(r);
  const account = await db.account.create({ data: { slug: `i${Date.now()}`, name: "Gazette", jwtSecret: "x".repeat(32) } });
  await db.webhookEndpoint.create({ data: { accountId: account.id, kind: "CONTENT", url: r.url, events: ["story-publish"], secret: "whsec_t" } });
  const { deliveryIds } = await emitWebhookEvent(db, { accountId: account.id, kind: "CONTENT", name: "story-publish", data: { story: { id: "s1" } }, occurredAt: new Date() });
  return { db, r, deliveryId: deliveryIds[0]! };
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

describe("Inngest function deliver-webhook", () => {
  it("makes each attempt its own step and sleeps between them until the receiver accepts", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T12:00:00Z") });
    const { db, r, deliveryId } = await setup((n) => ({ status: n < 2 ? 500 : 200 }));
    const t = new InngestTestEngine({ function: deliverWebhook });
    const { result, ctx } = await t.execute({
      events: [{ name: "masthead/webhook.delivery.requested", data: { deliveryId } }],
      steps: sleeps(5),
    });
    expect(result).toMatchObject({ outcome: "succeeded", attempt: 3 });
    expect(vi.mocked(ctx.step.run).mock.calls.map((call) => call[0])).toEqual(["attempt-1", "attempt-2", "attempt-3"]);
    expect(vi.mocked(ctx.step.sleepUntil).mock.calls.map((call) => call[0])).toEqual(["wait-1", "wait-2"]);
    expect(r.requests).toHaveLength(3);
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status).toBe("SUCCEEDED");
  });

  it("runs one attempt when executed up to its first step", async () => {
    const { r, deliveryId } = await setup(() => ({ status: 204 }));
    const t = new InngestTestEngine({ function: deliverWebhook });
    const { result } = await t.executeStep("attempt-1", { events: [{ name: "masthead/webhook.delivery.requested", data: { deliveryId } }] });
    expect(result).toMatchObject({ outcome: "succeeded", statusCode: 204 });
    expect(r.requests).toHaveLength(1);
  });

  it("stops after the last attempt and leaves the delivery failed", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T12:00:00Z") });
    const { db, r, deliveryId } = await setup(() => ({ status: 503 }));
    const t = new InngestTestEngine({ function: deliverWebhook });
    const { result } = await t.execute({ events: [{ name: "masthead/webhook.delivery.requested", data: { deliveryId } }], steps: sleeps(5) });
    expect(result).toMatchObject({ outcome: "failed", attempt: 4 });
    expect(r.requests).toHaveLength(4);
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status).toBe("FAILED");
  });
});

describe("Inngest function sweep-webhooks", () => {
  it("attempts overdue deliveries that no run holds, and leaves fresh ones to their runs", async () => {
    const { db, r, deliveryId } = await setup(() => ({ status: 200 }));
    const fresh = await new InngestTestEngine({ function: sweepWebhooks }).execute({ events: [{ name: "inngest/scheduled.timer", data: { cron: "* * * * *" } }] });
    expect(fresh.result).toMatchObject({ attempted: 0 });
    await db.webhookDelivery.update({ where: { id: deliveryId }, data: { nextAttemptAt: new Date(Date.now() - 5 * 60_000) } });
    const overdue = await new InngestTestEngine({ function: sweepWebhooks }).execute({ events: [{ name: "inngest/scheduled.timer", data: { cron: "* * * * *" } }] });
    expect(overdue.result).toMatchObject({ attempted: 1, outcomes: { succeeded: 1 } });
    expect(r.requests).toHaveLength(1);
  });
});

describe("Inngest function purge-webhook-logs", () => {
  it("purges events past the retention", async () => {
    const { db } = await setup(() => ({ status: 200 }));
    await db.webhookDelivery.updateMany({ data: { status: "SUCCEEDED" } });
    await db.webhookEvent.updateMany({ data: { createdAt: new Date(Date.now() - 31 * 86_400_000) } });
    const t = new InngestTestEngine({ function: purgeWebhookLogsFunction });
    const { result } = await t.execute({ events: [{ name: "inngest/scheduled.timer", data: { cron: "17 * * * *" } }] });
    expect(result).toEqual({ events: 1 });
    expect(await db.webhookEvent.count()).toBe(0);
  });
});
