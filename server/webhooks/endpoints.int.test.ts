import { createHmac } from "node:crypto";

import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";

import { staffActor, type Actor } from "../auth/actor";
import { getDb } from "../db";
import { runJobFor, testJobDeps } from "../testing/jobs";
import { fakeClock, startReceiver } from "../testing/webhook-receiver";
import { emitWebhookEvent } from "./deliveries";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  rotateWebhookSecret,
  setWebhookEndpointActive,
  updateWebhookEndpoint,
} from "./endpoints";
import { verifyQtSignature, verifyStandardSignature } from "./signing";

async function actor(): Promise<Actor> {
  const db = await getDb();
  const account = await db.account.create({
    data: { slug: `e${Math.random().toString(36).slice(2, 8)}`, name: "Gazette", jwtSecret: "x".repeat(32) },
  });
  const user = await db.adminUser.create({
    data: {
      accountId: account.id,
      email: `${account.slug}@x.test`,
      name: "Owner",
      passwordHash: "x",
      roles: ["OWNER"],
    },
  });
  return staffActor(user);
}
const allow = { allowPrivate: true };

/** A story-publish event on the actor's account, its (one) delivery attempted at once. */
async function publishAndDeliver(me: Actor, data: object, clock: () => Date) {
  const db = await getDb();
  const { deliveryIds } = await emitWebhookEvent(db, {
    accountId: me.accountId,
    kind: "CONTENT",
    name: "story-publish",
    data,
    occurredAt: clock(),
  });
  await runJobFor(db, {
    name: "webhook.deliver",
    field: "deliveryId",
    value: deliveryIds[0]!,
    deps: testJobDeps({ clock }),
  });
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("webhook endpoint management", () => {
  it("creates an endpoint with a secret shown once, audited, never listed", async () => {
    const db = await getDb();
    const me = await actor();
    const { endpoint, secret } = await createWebhookEndpoint(db, {
      actor: me,
      input: { kind: "CONTENT", url: "https://example.org/hook", events: ["story-publish", "story-submit"] },
      ...allow,
    });
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint.hasSecret).toBe(true);
    expect(JSON.stringify(await listWebhookEndpoints(db, { actor: me }))).not.toContain(secret!);
    expect(await db.auditLog.count({ where: { action: "webhook.create", targetId: endpoint.id } })).toBe(1);
  });

  it("validates the URL (length, scheme, private addresses) and the events", async () => {
    const db = await getDb();
    const me = await actor();
    const refused: [url: string, events: string[], allowPrivate: boolean, code: string][] = [
      [`https://example.org/${"a".repeat(250)}`, ["story-publish"], true, "BAD_REQUEST"],
      ["ftp://example.org/x", ["story-publish"], true, "BAD_REQUEST"],
      ["https://example.org/x", ["subscription.created"], true, "BAD_REQUEST"],
      ["http://127.0.0.1:3000/x", ["story-publish"], false, "UNPROCESSABLE"],
    ];
    for (const [url, events, allowPrivate, code] of refused) {
      await expect(
        createWebhookEndpoint(db, { actor: me, input: { kind: "CONTENT", url, events }, allowPrivate }),
        url,
      ).rejects.toMatchObject({ code });
    }
    expect(await db.webhookEndpoint.count()).toBe(0);
    const { endpoint } = await createWebhookEndpoint(db, {
      actor: me,
      input: { kind: "CONTENT", url: "https://example.org/x", events: ["story-publish"] },
      ...allow,
    });
    await expect(
      updateWebhookEndpoint(db, { actor: me, input: { id: endpoint.id, events: ["nope"] }, ...allow }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(
      updateWebhookEndpoint(db, {
        actor: me,
        input: { id: endpoint.id, url: "http://10.0.0.8/x" },
        ...{ allowPrivate: false },
      }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE" });
  });

  it("keeps accounts apart: another account's endpoint is not found", async () => {
    const db = await getDb();
    const me = await actor();
    const other = await actor();
    const { endpoint } = await createWebhookEndpoint(db, {
      actor: me,
      input: { kind: "CONTENT", url: "https://example.org/x", events: ["story-publish"] },
      ...allow,
    });
    await expect(
      updateWebhookEndpoint(db, { actor: other, input: { id: endpoint.id, description: "mine" }, ...allow }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(deleteWebhookEndpoint(db, { actor: other, id: endpoint.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(listWebhookDeliveries(db, { actor: other, endpointId: endpoint.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await listWebhookEndpoints(db, { actor: other })).toEqual([]);
  });

  it("disables and re-enables; a re-enabled endpoint forgets its failure streak", async () => {
    const db = await getDb();
    const me = await actor();
    const { endpoint } = await createWebhookEndpoint(db, {
      actor: me,
      input: { kind: "SUBSCRIPTION", url: "https://example.org/x", events: ["subscription.created"] },
      ...allow,
    });
    await db.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { active: false, disabledReason: "failing", failingSince: new Date() },
    });
    const enabled = await setWebhookEndpointActive(db, { actor: me, id: endpoint.id, active: true, now: new Date() });
    expect(enabled).toMatchObject({ active: true, disabledReason: null, failingSince: null });
    const disabled = await setWebhookEndpointActive(db, { actor: me, id: endpoint.id, active: false, now: new Date() });
    expect(disabled).toMatchObject({ active: false, disabledReason: "admin" });
  });

  it("rotates the secret: the old one keeps signing webhook-signature for a day", async () => {
    const db = await getDb();
    const me = await actor();
    const receiver = await startReceiver();
    try {
      const { endpoint, secret: oldSecret } = await createWebhookEndpoint(db, {
        actor: me,
        input: { kind: "CONTENT", url: receiver.url, events: ["story-publish"] },
        ...allow,
      });
      const clock = fakeClock();
      const { secret: newSecret } = await rotateWebhookSecret(db, { actor: me, id: endpoint.id, now: clock() });
      expect(newSecret).not.toBe(oldSecret);
      await publishAndDeliver(me, {}, clock);
      const req = receiver.requests[0]!;
      expect(verifyQtSignature(req.body, newSecret, String(req.headers["x-qt-signature"]))).toBe(true);
      const std = {
        id: String(req.headers["webhook-id"]),
        timestamp: String(req.headers["webhook-timestamp"]),
        signature: String(req.headers["webhook-signature"]),
        body: req.body,
      };
      expect(verifyStandardSignature({ ...std, secret: oldSecret! }, clock())).toBe(true);
      expect(verifyStandardSignature({ ...std, secret: newSecret }, clock())).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it("gives Standard Webhooks secrets: a real delivery verifies with the standardwebhooks package", async () => {
    const db = await getDb();
    const me = await actor();
    const receiver = await startReceiver();
    try {
      const { endpoint, secret } = await createWebhookEndpoint(db, {
        actor: me,
        input: { kind: "CONTENT", url: receiver.url, events: ["story-publish"] },
        ...allow,
      });
      // whsec_ + standard base64 of 32 random bytes.
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret!.slice(6), "base64")).toHaveLength(32);
      // The package checks the timestamp against the real clock: deliver "now".
      const clock = fakeClock(new Date());
      const deliver = async () => {
        await publishAndDeliver(me, { story: { headline: "Ünïcode & <tags>" } }, clock);
        return receiver.requests.at(-1)!;
      };
      const req = await deliver();
      const headers = req.headers as Record<string, string>;
      expect(new Webhook(secret!).verify(req.body, headers)).toMatchObject({
        v1: { event: { name: "story-publish" } },
      });
      expect(() => new Webhook(secret!).verify(req.body.replace("Ünïcode", "Unicode"), headers)).toThrow();
      const other = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
      expect(() => new Webhook(other).verify(req.body, headers)).toThrow();
      // X-Qt-Signature stays the spec's: hex HMAC of the body keyed with the secret as shown.
      expect(headers["x-qt-signature"]).toBe(createHmac("sha256", secret!).update(req.body).digest("hex"));

      // After a rotation both secrets verify with the package during the overlap.
      const { secret: rotated } = await rotateWebhookSecret(db, { actor: me, id: endpoint.id, now: clock() });
      const next = await deliver();
      const nextHeaders = next.headers as Record<string, string>;
      expect(() => new Webhook(secret!).verify(next.body, nextHeaders)).not.toThrow();
      expect(() => new Webhook(rotated).verify(next.body, nextHeaders)).not.toThrow();
    } finally {
      await receiver.close();
    }
  });

  it("keeps secrets generated before Standard Webhooks keys working for their receivers", async () => {
    const db = await getDb();
    const me = await actor();
    const receiver = await startReceiver();
    try {
      // The old generator: whsec_ + base64url of 24 bytes; this one holds "-" and "_".
      const legacy = `whsec_${Buffer.from("fb7f3ef8b4ff0e1d2f3c4b5a69788796a5b4c3d2e1f00f1e", "hex").toString("base64url")}`;
      expect(legacy).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
      expect(legacy).toMatch(/[-_]/);
      await db.webhookEndpoint.create({
        data: {
          accountId: me.accountId,
          kind: "CONTENT",
          url: receiver.url,
          events: ["story-publish"],
          secret: legacy,
        },
      });
      const clock = fakeClock(new Date());
      await publishAndDeliver(me, {}, clock);
      const req = receiver.requests[0]!;
      const headers = req.headers as Record<string, string>;
      // What receivers were told before: both headers keyed with the secret string.
      expect(headers["x-qt-signature"]).toBe(createHmac("sha256", legacy).update(req.body).digest("hex"));
      const byHand = createHmac("sha256", legacy)
        .update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${req.body}`)
        .digest("base64");
      expect(headers["webhook-signature"]!.split(" ")).toContain(`v1,${byHand}`);
      // And the package, given the same secret in the standard base64 alphabet.
      const standard = `whsec_${legacy.slice(6).replaceAll("-", "+").replaceAll("_", "/")}`;
      expect(() => new Webhook(standard).verify(req.body, headers)).not.toThrow();
      expect(() => new Webhook(legacy).verify(req.body, headers)).toThrow(); // not base64: the package refuses it
    } finally {
      await receiver.close();
    }
  });

  it("lists deliveries newest first with their attempts, filtered by status and paged", async () => {
    const db = await getDb();
    const me = await actor();
    const receiver = await startReceiver((n) => ({ status: n % 2 ? 200 : 500 }));
    try {
      const { endpoint } = await createWebhookEndpoint(db, {
        actor: me,
        input: { kind: "CONTENT", url: receiver.url, events: ["story-publish"] },
        ...allow,
      });
      const clock = fakeClock();
      for (let i = 0; i < 5; i++) {
        clock.advance(1000);
        await publishAndDeliver(me, { i }, clock);
      }
      const all = await listWebhookDeliveries(db, { actor: me, endpointId: endpoint.id, limit: 3 });
      expect(all.deliveries).toHaveLength(3);
      expect(all.nextCursor).toBeDefined();
      const rest = await listWebhookDeliveries(db, {
        actor: me,
        endpointId: endpoint.id,
        limit: 3,
        cursor: all.nextCursor,
      });
      expect(rest.deliveries).toHaveLength(2);
      expect(rest.nextCursor).toBeUndefined();
      const ids = [...all.deliveries, ...rest.deliveries].map((d) => (d.event.payload as { i: number }).i);
      expect(ids).toEqual([4, 3, 2, 1, 0]);
      const succeeded = await listWebhookDeliveries(db, { actor: me, endpointId: endpoint.id, status: "SUCCEEDED" });
      expect(succeeded.deliveries.every((d) => d.status === "SUCCEEDED" && d.attempts.length === 1)).toBe(true);
      expect(succeeded.deliveries).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });
});
