import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";

import type { AdminSession } from "../../auth/admin-session";
import type { AdminRole } from "../../auth/roles";
import { getDb } from "../../db";
import { fakeClock, startReceiver } from "../../testing/webhook-receiver";
import { processDueDeliveries } from "../../webhooks/deliveries";
import { sendWebhookRequest } from "../../webhooks/transport";
import { createCaller } from "../root";

async function admin(slug: string, roles: AdminRole[]) {
  const db = await getDb();
  const account = await db.account.upsert({ where: { slug }, update: {}, create: { slug, name: slug, jwtSecret: "x".repeat(32) } });
  const user = await db.adminUser.create({ data: { accountId: account.id, email: `${roles.join("-")}@${slug}.test`, name: "U", roles, passwordHash: "x" } });
  const session: AdminSession = { user: { id: user.id, name: user.name, email: user.email, accountId: account.id, accountName: slug, roles } };
  return createCaller({ db, session });
}

async function codeOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TRPCError) return error.code;
    throw error;
  }
  return "OK";
}

describe("webhooks router", () => {
  it("lets an owner add a webhook (secret shown once), send a test event, read the log and redeliver", async () => {
    const owner = await admin("alpha", ["OWNER"]);
    const receiver = await startReceiver((n) => ({ status: n === 0 ? 500 : 200 }));
    try {
      const { endpoint, secret } = await owner.webhooks.create({ kind: "CONTENT", url: receiver.url, events: ["story-publish"], description: "Newsroom bot" });
      expect(secret).toMatch(/^whsec_/);
      const listed = await owner.webhooks.list();
      expect(listed).toHaveLength(1);
      expect(JSON.stringify(listed)).not.toContain(secret!);

      const { deliveryId } = await owner.webhooks.sendTest({ id: endpoint.id });
      const clock = fakeClock(new Date(Date.now() + 1000));
      const db = await getDb();
      for (let i = 0; i < 4; i++) {
        await processDueDeliveries(db, { workerId: "t", clock, send: sendWebhookRequest, allowPrivate: true, limit: 10, concurrency: 2 });
        clock.advance(10_000);
      }
      const log = await owner.webhooks.deliveries({ endpointId: endpoint.id });
      expect(log.deliveries[0]).toMatchObject({ id: deliveryId, status: "SUCCEEDED", attemptCount: 2, event: { name: "webhook-test" } });
      expect(log.deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([500, 200]);

      const again = await owner.webhooks.redeliver({ deliveryId });
      expect(again.deliveryId).not.toBe(deliveryId);
      const failedOnly = await owner.webhooks.deliveries({ endpointId: endpoint.id, status: "FAILED" });
      expect(failedOnly.deliveries).toHaveLength(0);
      const actions = (await db.auditLog.findMany({ orderBy: { createdAt: "asc" } })).map((e) => e.action);
      expect(actions).toEqual(["webhook.create", "webhook.send_test", "webhook.redeliver"]);
    } finally {
      await receiver.close();
    }
  });

  it("is for owners only", async () => {
    const moderator = await admin("alpha", ["MODERATOR"]);
    const revenue = await admin("alpha", ["REVENUE"]);
    expect(await codeOf(moderator.webhooks.list())).toBe("FORBIDDEN");
    expect(await codeOf(revenue.webhooks.create({ kind: "CONTENT", url: "https://example.org/h", events: ["story-publish"] }))).toBe("FORBIDDEN");
    const anonymous = createCaller({ db: await getDb(), session: null });
    expect(await codeOf(anonymous.webhooks.list())).toBe("UNAUTHORIZED");
  });

  it("rejects bad input with BAD_REQUEST, private URLs with UNPROCESSABLE_CONTENT, and changes nothing", async () => {
    const owner = await admin("alpha", ["OWNER"]);
    expect(await codeOf(owner.webhooks.create({ kind: "CONTENT", url: "not a url", events: ["story-publish"] }))).toBe("BAD_REQUEST");
    expect(await codeOf(owner.webhooks.create({ kind: "CONTENT", url: "https://example.org/h", events: [] }))).toBe("BAD_REQUEST");
    expect(await codeOf(owner.webhooks.get({ id: "nope" }))).toBe("BAD_REQUEST");
    expect(await (await getDb()).webhookEndpoint.count()).toBe(0);
  });

  it("keeps each account's webhooks to itself", async () => {
    const alpha = await admin("alpha", ["OWNER"]);
    const beta = await admin("beta", ["OWNER"]);
    const { endpoint } = await alpha.webhooks.create({ kind: "SUBSCRIPTION", url: "https://example.org/h", events: ["subscription.created"] });
    expect(await codeOf(beta.webhooks.get({ id: endpoint.id }))).toBe("NOT_FOUND");
    expect(await codeOf(beta.webhooks.rotateSecret({ id: endpoint.id }))).toBe("NOT_FOUND");
    expect(await codeOf(beta.webhooks.sendTest({ id: endpoint.id }))).toBe("NOT_FOUND");
    expect(await beta.webhooks.list()).toEqual([]);
  });

  it("disables, re-enables, rotates and deletes", async () => {
    const owner = await admin("alpha", ["OWNER"]);
    const { endpoint, secret } = await owner.webhooks.create({ kind: "CONTENT", url: "https://example.org/h", events: ["story-publish"] });
    expect((await owner.webhooks.setActive({ id: endpoint.id, active: false })).active).toBe(false);
    expect((await owner.webhooks.setActive({ id: endpoint.id, active: true })).active).toBe(true);
    const rotated = await owner.webhooks.rotateSecret({ id: endpoint.id });
    expect(rotated.secret).not.toBe(secret);
    expect(await owner.webhooks.delete({ id: endpoint.id })).toEqual({ deleted: true });
    expect(await owner.webhooks.list()).toEqual([]);
  });
});
