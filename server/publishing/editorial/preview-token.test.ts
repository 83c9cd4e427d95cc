import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { previewTokenKey, signPreviewToken, verifyPreviewToken } from "./preview-token";

const key = previewTokenKey({ NODE_ENV: "test", AUTH_SECRET: "a".repeat(32) });
const otherKey = previewTokenKey({ NODE_ENV: "test", AUTH_SECRET: "b".repeat(32) });
const NOW = new Date("2026-03-01T10:00:00.000Z");
const later = (ms: number) => new Date(NOW.getTime() + ms);

describe("preview tokens", () => {
  it("is '<uuid>.<expiry>.<signature>' and verifies to the story id until the expiry", () => {
    const id = randomUUID();
    const token = signPreviewToken(id, later(60_000), key);
    expect(token).toMatch(/^[0-9a-f-]{36}\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyPreviewToken(token, NOW, key)).toEqual({ ok: true, storyId: id, expiresAt: later(60_000) });
    expect(verifyPreviewToken(token, later(59_999), key).ok).toBe(true);
  });

  it("is expired at and after its expiry", () => {
    const token = signPreviewToken(randomUUID(), later(60_000), key);
    expect(verifyPreviewToken(token, later(60_000), key)).toEqual({ ok: false, reason: "expired" });
    expect(verifyPreviewToken(token, later(86_400_000), key)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses another key, a changed expiry or story id, a changed signature and junk", () => {
    const id = randomUUID();
    const token = signPreviewToken(id, later(60_000), key);
    const [, expiry, signature] = token.split(".");
    expect(verifyPreviewToken(token, NOW, otherKey)).toEqual({ ok: false, reason: "invalid" });
    // Extending the expiry without the key does not work.
    const extended = `${id}.${Number(expiry) + 86_400_000}.${signature}`;
    expect(verifyPreviewToken(extended, NOW, key)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyPreviewToken(`${randomUUID()}.${expiry}.${signature}`, NOW, key).ok).toBe(false);
    const flipped = `${signature!.slice(0, -1)}${signature!.endsWith("A") ? "B" : "A"}`;
    expect(verifyPreviewToken(`${id}.${expiry}.${flipped}`, NOW, key).ok).toBe(false);
    for (const junk of [
      "",
      "x",
      `${id}`,
      `${id}.${expiry}`,
      `${token}.extra`,
      "a".repeat(500),
      `${id}.-1.${signature}`,
    ])
      expect(verifyPreviewToken(junk, NOW, key)).toEqual({ ok: false, reason: "invalid" });
  });

  it("checks the signature before believing the expiry: a forged expired token is invalid, not expired", () => {
    const token = signPreviewToken(randomUUID(), later(1_000), otherKey);
    expect(verifyPreviewToken(token, later(5_000), key)).toEqual({ ok: false, reason: "invalid" });
  });

  it("needs AUTH_SECRET in production and refuses a non-uuid story id", () => {
    expect(() => previewTokenKey({ NODE_ENV: "production", AUTH_SECRET: undefined })).toThrow(/AUTH_SECRET/);
    expect(() => signPreviewToken("not-a-uuid", later(1), key)).toThrow();
  });
});
