import { afterEach, describe, expect, it, vi } from "vitest";

import { resetEnvCache } from "../../env.js";
import { getDb } from "../db";
import { createTestTeam, trpcCodeOf } from "../testing/staff";
import { startReceiver } from "../testing/webhook-receiver";
import { verifyQtSignature, verifyStandardSignature } from "./signing";

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvCache();
});

const header = (view: { request: { headers: { name: string; value: string }[] } }, name: string) =>
  view.request.headers.find((h) => h.name === name)?.value;

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("webhooks.testPreview", () => {
  it("shows the exact request of a chosen event with verifiable signatures, sends it and shows the answer, audited", async () => {
    const db = await getDb();
    const { owner } = await createTestTeam(db, "preview-one", { owner: ["OWNER"] });
    const receiver = await startReceiver(() => ({ status: 202, body: "thanks" }));
    try {
      const { endpoint, secret } = await owner.caller.webhooks.create({
        kind: "SUBSCRIPTION",
        url: receiver.url,
        events: ["subscription.created"],
      });
      // Any event of the kind, subscribed or not.
      const view = await owner.caller.webhooks.testPreview({ id: endpoint.id, event: "subscription.renewed" });

      expect(view.result).toMatchObject({
        outcome: "answered",
        statusCode: 202,
        error: null,
        responseExcerpt: "thanks",
      });
      expect(view.result.durationMs).toBeGreaterThanOrEqual(0);
      expect(view.eventDescription).toBe("A subscription is charged for a new period.");
      expect(JSON.stringify(view)).not.toContain(secret!);

      // What was shown is what was sent, byte for byte.
      expect(receiver.requests).toHaveLength(1);
      const sent = receiver.requests[0]!;
      expect(sent.body).toBe(view.request.body);
      for (const { name, value } of view.request.headers) expect(sent.headers[name.toLowerCase()], name).toBe(value);
      const body = JSON.parse(view.request.body) as { id: number; event: string; data: { test: boolean } };
      expect(body).toMatchObject({ event: "subscription.renewed", data: { test: true } });
      expect(header(view, "X-Masthead-Event")).toBe("subscription.renewed");
      expect(header(view, "webhook-id")).toBe(`evt_${body.id}`);

      // Both signatures verify with the secret, as the docs tell receivers to.
      expect(verifyQtSignature(view.request.body, secret!, header(view, "X-Qt-Signature")!)).toBe(true);
      expect(
        verifyStandardSignature({
          id: header(view, "webhook-id")!,
          timestamp: header(view, "webhook-timestamp")!,
          signature: header(view, "webhook-signature")!,
          body: view.request.body,
          secret: secret!,
        }),
      ).toBe(true);
      expect(view.signing).toEqual({
        signed: true,
        standardSignedContent: `evt_${body.id}.${header(view, "webhook-timestamp")}.${view.request.body}`,
        standardSignatureCount: 1,
      });

      const audit = await db.auditLog.findFirstOrThrow({
        where: { accountId: owner.account.id, action: "webhook.test_preview", targetId: endpoint.id },
      });
      expect(audit.metadata).toMatchObject({ event: "subscription.renewed", event_id: String(body.id) });
      // It is in the delivery log as a test, completed with its one attempt; nothing is queued: it was sent once, here.
      const logged = await db.webhookDelivery.findMany({
        where: { endpointId: endpoint.id },
        include: { attempts: true },
      });
      expect(logged).toEqual([
        expect.objectContaining({
          id: view.deliveryId,
          test: true,
          status: "SUCCEEDED",
          attemptCount: 1,
          lastStatusCode: 202,
          attempts: [
            expect.objectContaining({ number: 1, statusCode: 202, responseExcerpt: "thanks", succeeded: true }),
          ],
        }),
      ]);
      expect(header(view, "X-Masthead-Delivery-Id")).toBe(view.deliveryId);
      expect(await db.job.count({ where: { name: "webhook.deliver" } })).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it("still shows the preview when the address is refused or the endpoint disabled, and sends nothing", async () => {
    const db = await getDb();
    const { owner } = await createTestTeam(db, "preview-two", { owner: ["OWNER"] });
    const receiver = await startReceiver();
    try {
      const { endpoint } = await owner.caller.webhooks.create({
        kind: "CONTENT",
        url: receiver.url,
        events: ["story-publish"],
        withSecret: false,
      });
      vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
      resetEnvCache();
      const refused = await owner.caller.webhooks.testPreview({ id: endpoint.id, event: "story-publish" });
      expect(refused.result).toMatchObject({ outcome: "not_sent", statusCode: null, durationMs: null });
      expect(refused.result.error).toMatch(/127\.0\.0\.1, a private or reserved address/);
      expect(JSON.parse(refused.request.body)).toMatchObject({ v1: { event: { name: "story-publish" } } });
      // An endpoint without a secret: an empty X-Qt-Signature and no webhook-signature.
      expect(refused.signing).toMatchObject({ signed: false, standardSignatureCount: 0 });
      expect(header(refused, "X-Qt-Signature")).toBe("");
      expect(header(refused, "webhook-signature")).toBeUndefined();

      vi.unstubAllEnvs();
      resetEnvCache();
      await owner.caller.webhooks.setActive({ id: endpoint.id, active: false });
      const disabled = await owner.caller.webhooks.testPreview({ id: endpoint.id, event: "webhook-test" });
      expect(disabled.result).toMatchObject({ outcome: "not_sent" });
      expect(disabled.result.error).toMatch(/disabled/);
      expect(receiver.requests).toHaveLength(0);
      // Both are in the log as failed tests, with why they were not sent and no attempt.
      const logged = await db.webhookDelivery.findMany({
        where: { endpointId: endpoint.id },
        orderBy: { createdAt: "asc" },
        include: { attempts: true },
      });
      expect(logged.map((d) => [d.test, d.status, d.attemptCount, d.attempts.length])).toEqual([
        [true, "FAILED", 0, 0],
        [true, "FAILED", 0, 0],
      ]);
      expect(logged[0]!.lastError).toMatch(/private or reserved address/);
      expect(logged[1]!.lastError).toMatch(/disabled/);
    } finally {
      await receiver.close();
    }
  });

  it("reports a receiver that does not answer as no response", async () => {
    const db = await getDb();
    const { owner } = await createTestTeam(db, "preview-three", { owner: ["OWNER"] });
    const receiver = await startReceiver();
    const url = receiver.url;
    await receiver.close();
    const { endpoint } = await owner.caller.webhooks.create({ kind: "ENGAGEMENT", url, events: ["comment.created"] });
    const view = await owner.caller.webhooks.testPreview({ id: endpoint.id, event: "comment.created" });
    expect(view.result.outcome).toBe("no_response");
    expect(view.result.error).toMatch(/ECONNREFUSED/);
    const logged = await db.webhookDelivery.findUniqueOrThrow({
      where: { id: view.deliveryId },
      include: { attempts: true },
    });
    expect(logged).toMatchObject({ test: true, status: "FAILED", attemptCount: 1, lastStatusCode: null });
    expect(logged.lastError).toMatch(/ECONNREFUSED/);
    expect(logged.attempts[0]).toMatchObject({ statusCode: null, succeeded: false });
  });

  it("is for owners of the account only, and refuses bad input with nothing recorded", async () => {
    const db = await getDb();
    const { owner, editor } = await createTestTeam(db, "preview-four", { owner: ["OWNER"], editor: ["EDITOR"] });
    const other = await createTestTeam(db, "preview-five", { owner: ["OWNER"] });
    const { endpoint } = await owner.caller.webhooks.create({
      kind: "CONTENT",
      url: "https://example.org/hook",
      events: ["story-publish"],
    });
    const events = await db.webhookEvent.count();
    const audits = await db.auditLog.count({ where: { action: "webhook.test_preview" } });

    // Each call made only when its answer is awaited: a refusal is never left unhandled meanwhile.
    const cases = {
      editor: () => editor.caller.webhooks.testPreview({ id: endpoint.id, event: "story-publish" }),
      otherAccount: () => other.owner.caller.webhooks.testPreview({ id: endpoint.id, event: "story-publish" }),
      wrongKind: () => owner.caller.webhooks.testPreview({ id: endpoint.id, event: "comment.created" }),
      unknown: () => owner.caller.webhooks.testPreview({ id: endpoint.id, event: "story-explode" }),
      empty: () => owner.caller.webhooks.testPreview({ id: endpoint.id, event: " " }),
      badId: () => owner.caller.webhooks.testPreview({ id: "nope", event: "story-publish" }),
    };
    const codes: Record<string, string> = {};
    for (const [name, call] of Object.entries(cases)) codes[name] = await trpcCodeOf(call());
    expect(codes).toEqual({
      editor: "FORBIDDEN",
      otherAccount: "NOT_FOUND",
      wrongKind: "BAD_REQUEST",
      unknown: "BAD_REQUEST",
      empty: "BAD_REQUEST",
      badId: "BAD_REQUEST",
    });
    await expect(owner.caller.webhooks.testPreview({ id: endpoint.id, event: "comment.created" })).rejects.toThrow(
      /"comment.created" is not an event of this webhook's kind/,
    );
    expect(await db.webhookEvent.count()).toBe(events);
    expect(await db.auditLog.count({ where: { action: "webhook.test_preview" } })).toBe(audits);
  });
});
