/**
 * POST /api/webhooks/test-receiver/{token}: the built-in test receiver, on a fresh install
 * (WEBHOOK_ALLOW_PRIVATE_URLS unset, APP_URL on 127.0.0.1): a webhook pointed at it is allowed,
 * its test sends arrive over HTTP, are checked as a receiver would and are kept; they are in the
 * webhook's delivery log as test deliveries. Any other local URL is still refused.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { resetEnvCache } from "@/env.js";
import { getDb } from "@/server/db";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { createTestTeam, trpcCodeOf, type TestStaff } from "@/server/testing/staff";

import { POST } from "./route";

/** This app's receiver route behind a real HTTP server, as Next.js would serve it. */
let server: http.Server;
let appUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", appUrl);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const token = decodeURIComponent(url.pathname.split("/").at(-1) ?? "");
      void POST(new Request(url, { method: "POST", headers, body: Buffer.concat(chunks) }), {
        params: Promise.resolve({ token }),
      }).then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  // A fresh install: private addresses refused, the app on a loopback address.
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
  vi.stubEnv("APP_URL", appUrl);
  resetEnvCache();
});
afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvCache();
});

async function ownerWithReceiver(slug: string) {
  const db = await getDb();
  const { owner } = await createTestTeam(db, slug, { owner: ["OWNER"] });
  const { url } = await owner.caller.webhooks.testReceiver();
  return { db, owner, url };
}

const createAt = (owner: TestStaff, url: string, withSecret = true) =>
  owner.caller.webhooks.create({ kind: "SUBSCRIPTION", url, events: ["subscription.created"], withSecret });

function post(url: string, body: string, headers: Record<string, string>) {
  const target = new URL(url);
  return POST(new Request(target, { method: "POST", headers, body }), {
    params: Promise.resolve({ token: target.pathname.split("/").at(-1) ?? "" }),
  });
}

describe("the built-in webhook test receiver", () => {
  it("on a fresh install: a webhook at the receiver is allowed, its test send is logged as a test delivery (200) and kept with its signature valid", async () => {
    const { db, owner, url } = await ownerWithReceiver("receiver-one");
    expect(url).toMatch(new RegExp(`^${appUrl}/api/webhooks/test-receiver/${owner.account.id}-[A-Za-z0-9_-]{43}$`));

    const { endpoint } = await createAt(owner, url);
    const view = await owner.caller.webhooks.testPreview({ id: endpoint.id, event: "subscription.renewed" });
    expect(view.result).toMatchObject({ outcome: "answered", statusCode: 200, error: null });
    expect(JSON.parse(view.result.responseExcerpt!)).toMatchObject({ received: true, signature: "valid" });

    // In the delivery log at once, marked as a test, with its attempt.
    const log = await owner.caller.webhooks.deliveries({ endpointId: endpoint.id });
    expect(log.deliveries).toHaveLength(1);
    const delivery = log.deliveries[0]!;
    expect(delivery).toMatchObject({
      id: view.deliveryId,
      test: true,
      status: "SUCCEEDED",
      attemptCount: 1,
      lastStatusCode: 200,
      lastError: null,
      event: { name: "subscription.renewed" },
    });
    expect(delivery.completedAt).not.toBeNull();
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ number: 1, statusCode: 200, succeeded: true, durationMs: view.result.durationMs }),
    ]);
    // Nothing queued: it was sent once, there and then.
    expect(await db.job.count({ where: { name: "webhook.deliver" } })).toBe(0);

    // What the receiver kept: the request as sent, its signature valid.
    const { receipts } = await owner.caller.webhooks.testReceiver();
    expect(receipts).toHaveLength(1);
    const receipt = receipts[0]!;
    expect(receipt).toMatchObject({
      signatureValid: true,
      statusCode: 200,
      body: view.request.body,
      bodyTruncated: false,
    });
    expect(receipt.signatureNote).toMatch(/X-Qt-Signature and webhook-signature verified/);
    const header = (name: string) => receipt.headers.find((h) => h.name === name)?.value;
    expect(header("x-masthead-delivery-id")).toBe(view.deliveryId);
    expect(header("x-masthead-event")).toBe("subscription.renewed");
    expect(header("webhook-signature")).toMatch(/^v1,/);
  });

  it("takes the queued 'Send test event' and real deliveries too, through the job engine (private URLs still off)", async () => {
    const { db, owner, url } = await ownerWithReceiver("receiver-two");
    const { endpoint } = await createAt(owner, url, false);
    const { deliveryId } = await owner.caller.webhooks.sendTest({ id: endpoint.id });
    await runJobsNow(db, testJobDeps({ allowPrivateUrls: false }));

    const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(delivery).toMatchObject({ test: true, status: "SUCCEEDED", lastStatusCode: 200 });
    const { receipts } = await owner.caller.webhooks.testReceiver();
    expect(receipts[0]).toMatchObject({ signatureValid: true, statusCode: 200 });
    expect(receipts[0]!.signatureNote).toMatch(/Unsigned/);

    // A redelivery of a test is a test.
    const again = await owner.caller.webhooks.redeliver({ deliveryId });
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: again.deliveryId } })).toMatchObject({
      test: true,
    });
  });

  it("answers 401 to a tampered signature or body, and keeps the request marked invalid", async () => {
    const { owner, url } = await ownerWithReceiver("receiver-three");
    const { endpoint } = await createAt(owner, url);
    // The request Masthead would send, without sending it (a disabled webhook).
    await owner.caller.webhooks.setActive({ id: endpoint.id, active: false });
    const view = await owner.caller.webhooks.testPreview({ id: endpoint.id, event: "webhook-test" });
    expect(view.result.outcome).toBe("not_sent");
    const headers = Object.fromEntries(view.request.headers.map((h) => [h.name, h.value]));

    const good = await post(url, view.request.body, headers);
    expect(good.status).toBe(200);

    const tamperedSignature = await post(url, view.request.body, {
      ...headers,
      "X-Qt-Signature": "0".repeat(64),
    });
    expect(tamperedSignature.status).toBe(401);
    const error = (await tamperedSignature.json()) as { error: { code: string; message: string } };
    expect(error.error.code).toBe("UNAUTHORIZED");
    expect(error.error.message).toMatch(/X-Qt-Signature does not match/);

    const tamperedBody = await post(url, view.request.body.replace("webhook-test", "webhook-tset"), headers);
    expect(tamperedBody.status).toBe(401);

    const { receipts } = await owner.caller.webhooks.testReceiver();
    expect(receipts.map((r) => [r.signatureValid, r.statusCode])).toEqual([
      [false, 401],
      [false, 401],
      [true, 200],
    ]);
    expect(receipts[0]!.signatureNote).toMatch(/X-Qt-Signature does not match.*webhook-signature does not match/);
  });

  it("answers 404 to a token Masthead did not make, 413 to an oversized body, and keeps neither", async () => {
    const { db, owner, url } = await ownerWithReceiver("receiver-four");
    const other = await createTestTeam(db, "receiver-five", { owner: ["OWNER"] });
    const base = `${appUrl}/api/webhooks/test-receiver`;
    const token = url.split("/").at(-1)!;
    const mac = token.slice(token.indexOf("-") + 1);
    const bad = [
      `${base}/${owner.account.id}-${"A".repeat(43)}`,
      `${base}/${other.owner.account.id}-${mac}`, // another account's id, this MAC
      `${base}/${owner.account.id}-${mac}x`,
      `${base}/nonsense`,
      `${base}/${"9".repeat(10)}-${mac}`,
    ];
    for (const target of bad) {
      const response = await post(target, "{}", { "Content-Type": "application/json" });
      expect(response.status, target).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    }
    const big = await post(url, "x".repeat(1024 * 1024 + 1), { "Content-Type": "application/json" });
    expect(big.status).toBe(413);
    expect(await db.webhookTestReceipt.count()).toBe(0);
  });

  it("keeps the last 50 requests of an account, newest first", async () => {
    const { db, owner, url } = await ownerWithReceiver("receiver-six");
    await createAt(owner, url, false);
    for (let i = 0; i < 52; i++) {
      const response = await post(url, JSON.stringify({ n: i }), { "Content-Type": "application/json" });
      expect(response.status).toBe(200);
    }
    const { receipts } = await owner.caller.webhooks.testReceiver();
    expect(receipts).toHaveLength(50);
    expect(JSON.parse(receipts[0]!.body)).toEqual({ n: 51 });
    expect(await db.webhookTestReceipt.count({ where: { accountId: owner.account.id } })).toBe(50);
  });

  it("lets through exactly the account's own receiver URL: every other local URL is still refused", async () => {
    const { db, owner, url } = await ownerWithReceiver("receiver-seven");
    const other = await createTestTeam(db, "receiver-eight", { owner: ["OWNER"] });
    const otherUrl = (await other.owner.caller.webhooks.testReceiver()).url;
    const port = new URL(appUrl).port;
    const refused = [
      otherUrl, // another account's receiver
      `${appUrl}/hook`,
      `${appUrl}/api/webhooks/test-receiver/`,
      `${url}/more`,
      `${url}?x=1`,
      url.replace("127.0.0.1", "localhost"),
      url.replace(`:${port}`, `:${Number(port) + 1}`),
      `http://[::1]:${port}/api/webhooks/test-receiver/${url.split("/").at(-1)}`,
      "http://169.254.169.254/latest/meta-data",
    ];
    for (const target of refused) {
      expect(await trpcCodeOf(createAt(owner, target)), target).toBe("UNPROCESSABLE_CONTENT");
    }
    // Editing a public webhook to point at a local address is refused the same way; to the receiver it is allowed.
    const { endpoint } = await createAt(owner, "https://8.8.8.8/hook");
    expect(await trpcCodeOf(owner.caller.webhooks.update({ id: endpoint.id, url: `${appUrl}/hook` }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    await owner.caller.webhooks.update({ id: endpoint.id, url });
    expect((await owner.caller.webhooks.get({ id: endpoint.id })).url).toBe(url);
    expect(await db.webhookEndpoint.count({ where: { accountId: owner.account.id } })).toBe(1);
  });
});
