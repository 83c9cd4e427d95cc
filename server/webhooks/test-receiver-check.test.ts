import { randomBytes } from "node:crypto";

import { afterEach, describe, expect, it, vi } from "vitest";

import { resetEnvCache } from "../../env.js";
import { webhookRequest } from "./request";
import { allowsPrivateWebhookUrl, testReceiverUrl } from "./test-receiver";
import { accountOfTestReceiverToken, checkReceivedSignature, testReceiverToken } from "./test-receiver-check";

const key = randomBytes(32);
const now = new Date("2026-11-28T12:00:00.000Z");

describe("test receiver tokens", () => {
  it("name their account, and only with the key that made them", () => {
    const token = testReceiverToken(42, key);
    expect(token).toMatch(/^42-[A-Za-z0-9_-]{43}$/);
    expect(accountOfTestReceiverToken(token, key)).toBe(42);
    expect(accountOfTestReceiverToken(token, randomBytes(32))).toBeNull();
  });

  it.each([
    ["another account's id with this MAC", (t: string) => t.replace(/^42-/, "43-")],
    ["a changed MAC", (t: string) => `${t.slice(0, -1)}${t.endsWith("A") ? "B" : "A"}`],
    ["a longer MAC", (t: string) => `${t}A`],
    ["no id", (t: string) => t.replace(/^42/, "")],
    ["a leading zero", (t: string) => `0${t}`],
    ["an id past the database's integers", (t: string) => t.replace(/^42-/, "9999999999-")],
    ["nothing", () => ""],
  ])("refuse %s", (_name, change) => {
    expect(accountOfTestReceiverToken(change(testReceiverToken(42, key)), key)).toBeNull();
  });
});

const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
const endpoint = (over: Partial<Parameters<typeof checkReceivedSignature>[0][number]> = {}) => ({
  id: "00000000-0000-4000-8000-000000000001",
  secret: SECRET,
  previousSecret: null,
  previousSecretExpiresAt: null,
  ...over,
});
const event = { id: 7n, kind: "SUBSCRIPTION" as const, name: "webhook-test", payload: { test: true }, occurredAt: now };

function signed(secrets = { secret: SECRET, previousSecret: null, previousSecretExpiresAt: null as Date | null }) {
  const { body, headers } = webhookRequest(event, secrets, { id: "d" }, now);
  return { body, headers: new Headers(headers) };
}

describe("checkReceivedSignature", () => {
  it("accepts a delivery whose signatures both verify", () => {
    const check = checkReceivedSignature([endpoint()], signed(), now);
    expect(check).toMatchObject({ valid: true, endpointId: endpoint().id });
    expect(check.note).toMatch(/X-Qt-Signature and webhook-signature verified/);
  });

  it("refuses a tampered body, a tampered signature, or a stale timestamp", () => {
    const request = signed();
    expect(checkReceivedSignature([endpoint()], { ...request, body: `${request.body} ` }, now).valid).toBe(false);
    const qt = new Headers(request.headers);
    qt.set("x-qt-signature", "0".repeat(64));
    const check = checkReceivedSignature([endpoint()], { ...request, headers: qt }, now);
    expect(check).toMatchObject({ valid: false });
    expect(check.note).toMatch(/^X-Qt-Signature does not match the body\.$/);
    const later = new Date(now.getTime() + 10 * 60_000);
    expect(checkReceivedSignature([endpoint()], request, later).note).toMatch(/webhook-signature does not match/);
  });

  it("refuses a request without signatures to a signed webhook, and one with signatures to an unsigned one", () => {
    const bare = { body: "{}", headers: new Headers() };
    expect(checkReceivedSignature([endpoint()], bare, now)).toMatchObject({ valid: false });
    expect(checkReceivedSignature([endpoint({ secret: null })], bare, now)).toMatchObject({ valid: true });
    expect(checkReceivedSignature([endpoint({ secret: null })], signed(), now)).toMatchObject({ valid: false });
  });

  it("verifies webhook-signature with the previous secret while it still signs", () => {
    const old = `whsec_${randomBytes(32).toString("base64")}`;
    const rotated = { secret: SECRET, previousSecret: old, previousSecretExpiresAt: new Date(now.getTime() + 1000) };
    // Signed by the old secret only (the receiver's webhook now has the new one as current).
    const { body, headers } = signed({ secret: old, previousSecret: null, previousSecretExpiresAt: null });
    headers.delete("x-qt-signature");
    expect(checkReceivedSignature([endpoint(rotated)], { body, headers }, now).valid).toBe(true);
    const expired = { ...rotated, previousSecretExpiresAt: now };
    expect(checkReceivedSignature([endpoint(expired)], { body, headers }, now).valid).toBe(false);
  });

  it("tries every webhook pointed at the receiver, and says so when there is none", () => {
    const other = endpoint({ id: "00000000-0000-4000-8000-000000000002", secret: "whsec_other" });
    expect(checkReceivedSignature([other, endpoint()], signed(), now)).toMatchObject({
      valid: true,
      endpointId: endpoint().id,
    });
    expect(checkReceivedSignature([], signed(), now)).toMatchObject({ valid: false, endpointId: null });
  });
});

describe("allowsPrivateWebhookUrl", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvCache();
  });

  it("lets through exactly the account's own receiver URL, or everything when the operator says so", () => {
    vi.stubEnv("APP_URL", "http://localhost:3000/");
    resetEnvCache();
    const url = testReceiverUrl(5);
    expect(url).toMatch(/^http:\/\/localhost:3000\/api\/webhooks\/test-receiver\/5-[A-Za-z0-9_-]{43}$/);
    expect(allowsPrivateWebhookUrl(url, 5, false)).toBe(true);
    for (const other of [
      testReceiverUrl(6),
      url.replace("localhost", "127.0.0.1"),
      url.replace(":3000", ":3001"),
      `${url}/`,
      `${url}?a=1`,
      "http://localhost:3000/hook",
    ]) {
      expect(allowsPrivateWebhookUrl(other, 5, false), other).toBe(false);
    }
    expect(allowsPrivateWebhookUrl(url, 6, false)).toBe(false);
    expect(allowsPrivateWebhookUrl("http://10.0.0.1/hook", 5, true)).toBe(true);
  });
});
