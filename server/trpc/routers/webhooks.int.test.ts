import { describe, expect, it, vi } from "vitest";

import { resetEnvCache } from "../../../env.js";
import type { AdminRole } from "../../auth/roles";
import { getDb } from "../../db";
import { runJobsNow, testJobDeps } from "../../testing/jobs";
import { createAnonymousCaller, createTestStaff, trpcCodeOf } from "../../testing/staff";
import { fakeClock, startReceiver } from "../../testing/webhook-receiver";

/** A caller for an admin user with `roles` on the account `slug` (shared by calls with the same slug). */
async function admin(slug: string, roles: AdminRole[]) {
  return (await createTestStaff(await getDb(), { account: slug, roles })).caller;
}

const codeOf = trpcCodeOf;

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("webhooks router", () => {
  it("lets an owner add a webhook (secret shown once), send a test event, read the log and redeliver", async () => {
    const owner = await admin("alpha", ["OWNER"]);
    const receiver = await startReceiver((n) => ({ status: n === 0 ? 500 : 200 }));
    try {
      const { endpoint, secret } = await owner.webhooks.create({
        kind: "CONTENT",
        url: receiver.url,
        events: ["story-publish"],
        description: "Newsroom bot",
      });
      expect(secret).toMatch(/^whsec_/);
      const listed = await owner.webhooks.list();
      expect(listed).toHaveLength(1);
      expect(JSON.stringify(listed)).not.toContain(secret!);

      const { deliveryId } = await owner.webhooks.sendTest({ id: endpoint.id });
      const clock = fakeClock(new Date(Date.now() + 1000));
      const db = await getDb();
      for (let i = 0; i < 4; i++) {
        await runJobsNow(db, testJobDeps({ clock }));
        clock.advance(10_000);
      }
      const log = await owner.webhooks.deliveries({ endpointId: endpoint.id });
      expect(log.deliveries[0]).toMatchObject({
        id: deliveryId,
        status: "SUCCEEDED",
        attemptCount: 2,
        event: { name: "webhook-test" },
      });
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
    expect(
      await codeOf(
        revenue.webhooks.create({ kind: "CONTENT", url: "https://example.org/h", events: ["story-publish"] }),
      ),
    ).toBe("FORBIDDEN");
    const anonymous = createAnonymousCaller(await getDb());
    expect(await codeOf(anonymous.webhooks.list())).toBe("UNAUTHORIZED");
  });

  it("rejects bad input with BAD_REQUEST, private URLs with UNPROCESSABLE_CONTENT, and changes nothing", async () => {
    const owner = await admin("alpha", ["OWNER"]);
    expect(await codeOf(owner.webhooks.create({ kind: "CONTENT", url: "not a url", events: ["story-publish"] }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(owner.webhooks.create({ kind: "CONTENT", url: "https://example.org/h", events: [] }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(owner.webhooks.get({ id: "nope" }))).toBe("BAD_REQUEST");
    expect(await (await getDb()).webhookEndpoint.count()).toBe(0);
  });

  it("refuses hostile URLs on create and update (any notation of a private host, control characters, credentials) and stores nothing", async () => {
    const owner = await admin("alpha", ["OWNER"]);
    const { endpoint } = await owner.webhooks.create({
      kind: "CONTENT",
      url: "https://example.org/h",
      events: ["story-publish"],
    });
    const malformed = [
      "https://example.org/h\r\nX-Injected: 1",
      "https://exa\tmple.org/h",
      " https://example.org/h",
      "https://user:pass@example.org/h",
      "javascript:alert(1)",
      "//example.org/h",
    ];
    const privateHosts = [
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:7f00:1]/",
      "http://[::ffff:a9fe:a9fe]/latest/meta-data/",
      "http://[::127.0.0.1]/",
      "http://[64:ff9b::a9fe:a9fe]/",
      "http://[2002:a9fe:a9fe::]/",
      "http://2130706433/",
      "http://0x7f.1/",
      "http://0177.0.0.1/",
      "http://0/",
      "http://[::]/",
      "http://foo.localhost/",
      "http://169.254.169.254/",
      "http://100.64.0.1/",
      "http://198.18.0.1/",
      "http://[fd00::1]/",
      "http://[fe80::1]/",
    ];
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
    resetEnvCache();
    try {
      const codes: Record<string, string[]> = {};
      for (const url of [...malformed, ...privateHosts]) {
        const created = await codeOf(owner.webhooks.create({ kind: "CONTENT", url, events: ["story-publish"] }));
        const updated = await codeOf(owner.webhooks.update({ id: endpoint.id, url }));
        codes[url] = [created, updated];
      }
      for (const url of malformed) expect(codes[url], url).toEqual(["BAD_REQUEST", "BAD_REQUEST"]);
      for (const url of privateHosts)
        expect(codes[url], url).toEqual(["UNPROCESSABLE_CONTENT", "UNPROCESSABLE_CONTENT"]);
    } finally {
      vi.unstubAllEnvs();
      resetEnvCache();
    }
    const db = await getDb();
    expect((await db.webhookEndpoint.findMany()).map((e) => e.url)).toEqual(["https://example.org/h"]);
  });

  it("stores the URL exactly as it will be requested", async () => {
    const owner = await admin("alpha", ["OWNER"]);
    const { endpoint } = await owner.webhooks.create({
      kind: "CONTENT",
      url: "HTTPS://Hooks.Example.ORG/a/../hook",
      events: ["story-publish"],
    });
    expect(endpoint.url).toBe("https://hooks.example.org/hook");
    expect((await owner.webhooks.update({ id: endpoint.id, url: "https://Hooks.Example.ORG" })).url).toBe(
      "https://hooks.example.org/",
    );
  });

  it("keeps each account's webhooks to itself", async () => {
    const alpha = await admin("alpha", ["OWNER"]);
    const beta = await admin("beta", ["OWNER"]);
    const { endpoint } = await alpha.webhooks.create({
      kind: "SUBSCRIPTION",
      url: "https://example.org/h",
      events: ["subscription.created"],
    });
    expect(await codeOf(beta.webhooks.get({ id: endpoint.id }))).toBe("NOT_FOUND");
    expect(await codeOf(beta.webhooks.rotateSecret({ id: endpoint.id }))).toBe("NOT_FOUND");
    expect(await codeOf(beta.webhooks.sendTest({ id: endpoint.id }))).toBe("NOT_FOUND");
    expect(await beta.webhooks.list()).toEqual([]);
  });

  it("disables, re-enables, rotates and deletes", async () => {
    const owner = await admin("alpha", ["OWNER"]);
    const { endpoint, secret } = await owner.webhooks.create({
      kind: "CONTENT",
      url: "https://example.org/h",
      events: ["story-publish"],
    });
    expect((await owner.webhooks.setActive({ id: endpoint.id, active: false })).active).toBe(false);
    expect((await owner.webhooks.setActive({ id: endpoint.id, active: true })).active).toBe(true);
    const rotated = await owner.webhooks.rotateSecret({ id: endpoint.id });
    expect(rotated.secret).not.toBe(secret);
    expect(await owner.webhooks.delete({ id: endpoint.id })).toEqual({ deleted: true });
    expect(await owner.webhooks.list()).toEqual([]);
  });
});
