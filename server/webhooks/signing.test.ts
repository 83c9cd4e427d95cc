import { createHmac } from "node:crypto";

import { describe, expect, it } from "vitest";

import { webhookRequest } from "./request";
import { qtSignature, standardSigningKeys, verifyQtSignature, verifyStandardSignature } from "./signing";

const event = {
  id: 42n,
  kind: "CONTENT" as const,
  name: "story-publish",
  payload: { story: { headline: "Ünïcode & <tags>" } },
  occurredAt: new Date("2026-11-22T10:00:00.000Z"),
};
const now = new Date("2026-11-22T10:00:05.000Z");

describe("webhook signing", () => {
  it("signs the exact body bytes with HMAC-SHA256, hex, 64 characters", () => {
    const { body, headers } = webhookRequest(
      event,
      { secret: "s3cret", previousSecret: null, previousSecretExpiresAt: null },
      { id: "d1" },
      now,
    );
    expect(JSON.parse(body)).toEqual({
      v1: { event: { id: 42, name: "story-publish", time: 1795341600000 }, data: event.payload },
    });
    expect(headers["X-Qt-Signature"]).toBe(
      createHmac("sha256", "s3cret").update(Buffer.from(body, "utf8")).digest("hex"),
    );
    expect(headers["X-Qt-Signature"]).toHaveLength(64);
    expect(verifyQtSignature(body, "s3cret", headers["X-Qt-Signature"]!)).toBe(true);
    expect(verifyQtSignature(body + " ", "s3cret", headers["X-Qt-Signature"]!)).toBe(false);
    expect(verifyQtSignature(body, "other", headers["X-Qt-Signature"]!)).toBe(false);
  });

  it("sends an empty X-Qt-Signature and no webhook-signature without a secret", () => {
    const { headers } = webhookRequest(
      event,
      { secret: null, previousSecret: null, previousSecretExpiresAt: null },
      { id: "d1" },
      now,
    );
    expect(headers["X-Qt-Signature"]).toBe("");
    expect(headers["webhook-signature"]).toBeUndefined();
    expect(qtSignature("x", "")).toBe("");
  });

  it("adds Standard Webhooks headers that reject tampering and replays", () => {
    const { body, headers } = webhookRequest(
      event,
      { secret: "s3cret", previousSecret: null, previousSecretExpiresAt: null },
      { id: "d1" },
      now,
    );
    const args = {
      id: headers["webhook-id"]!,
      timestamp: headers["webhook-timestamp"]!,
      signature: headers["webhook-signature"]!,
      body,
      secret: "s3cret",
    };
    expect(args.id).toBe("evt_42");
    expect(verifyStandardSignature(args, now)).toBe(true);
    expect(verifyStandardSignature({ ...args, body: body.replace("Ünïcode", "Unicode") }, now)).toBe(false);
    expect(verifyStandardSignature({ ...args, secret: "wrong" }, now)).toBe(false);
    expect(verifyStandardSignature(args, new Date(now.getTime() + 10 * 60_000))).toBe(false);
  });

  it("signs with both secrets while a rotation overlaps, then only the new one", () => {
    const rotating = {
      secret: "new",
      previousSecret: "old",
      previousSecretExpiresAt: new Date(now.getTime() + 3600_000),
    };
    const during = webhookRequest(event, rotating, { id: "d1" }, now);
    expect(during.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    const base = {
      id: during.headers["webhook-id"]!,
      timestamp: during.headers["webhook-timestamp"]!,
      signature: during.headers["webhook-signature"]!,
      body: during.body,
    };
    expect(verifyStandardSignature({ ...base, secret: "old" }, now)).toBe(true);
    expect(verifyStandardSignature({ ...base, secret: "new" }, now)).toBe(true);
    const after = webhookRequest(event, rotating, { id: "d1" }, new Date(now.getTime() + 7200_000));
    expect(after.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
  });

  it("keys webhook-signature with a whsec_ secret's decoded bytes; legacy secrets with the string too", () => {
    const bytes = Buffer.alloc(32, 0xfb);
    expect(standardSigningKeys(`whsec_${bytes.toString("base64")}`)).toEqual([bytes]);
    const old = Buffer.alloc(24, 0xfb);
    const legacy = `whsec_${old.toString("base64url")}`;
    expect(standardSigningKeys(legacy)).toEqual([Buffer.from(legacy), old]);
    expect(standardSigningKeys("s3cret")).toEqual([Buffer.from("s3cret")]);
    expect(standardSigningKeys("whsec_not base64!")).toEqual([Buffer.from("whsec_not base64!")]);
  });

  it("uses the subscription body shape for subscription events", () => {
    const { body } = webhookRequest(
      { ...event, kind: "SUBSCRIPTION", name: "subscription.created" },
      { secret: null, previousSecret: null, previousSecretExpiresAt: null },
      { id: "d1" },
      now,
    );
    expect(JSON.parse(body)).toEqual({
      id: 42,
      event: "subscription.created",
      event_timestamp: "2026-11-22T10:00:00.000Z",
      data: event.payload,
    });
  });
});
