import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { attemptTokenKey, signAttemptToken, verifyAttemptToken } from "./attempt-token";

const key = attemptTokenKey({ NODE_ENV: "test", AUTH_SECRET: "a".repeat(32) });
const otherKey = attemptTokenKey({ NODE_ENV: "test", AUTH_SECRET: "b".repeat(32) });

describe("attempt tokens", () => {
  it("is '<uuid>.<signature>' and verifies back to the attempt id", () => {
    const id = randomUUID();
    const token = signAttemptToken(id, key);
    expect(token).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    expect(token.startsWith(`${id}.`)).toBe(true);
    expect(verifyAttemptToken(token, key)).toBe(id);
  });

  it("refuses a token signed with another key, another id under a signature, and a changed signature", () => {
    const id = randomUUID();
    const token = signAttemptToken(id, key);
    expect(verifyAttemptToken(token, otherKey)).toBeNull();
    const [, signature] = token.split(".");
    expect(verifyAttemptToken(`${randomUUID()}.${signature}`, key)).toBeNull();
    const flipped = (signature!.startsWith("A") ? "B" : "A") + signature!.slice(1);
    expect(verifyAttemptToken(`${id}.${flipped}`, key)).toBeNull();
    // The last character carries 2 unused bits: another spelling of the same bytes is refused too.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(signature!.at(-1)!);
    const respelled = `${signature!.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(respelled, "base64url").equals(Buffer.from(signature!, "base64url"))).toBe(true);
    expect(verifyAttemptToken(`${id}.${respelled}`, key)).toBeNull();
  });

  it("refuses malformed tokens without throwing", () => {
    for (const bad of [
      "",
      ".",
      "abc",
      `${randomUUID()}`,
      `${randomUUID()}.`,
      "x".repeat(500),
      `not-a-uuid.${"A".repeat(43)}`,
    ]) {
      expect(verifyAttemptToken(bad, key)).toBeNull();
    }
    expect(verifyAttemptToken(undefined as unknown as string, key)).toBeNull();
  });

  it("derives different keys from different secrets, and needs AUTH_SECRET in production", () => {
    expect(key.equals(otherKey)).toBe(false);
    expect(() => attemptTokenKey({ NODE_ENV: "production", AUTH_SECRET: undefined })).toThrow(/AUTH_SECRET/);
    expect(attemptTokenKey({ NODE_ENV: "development", AUTH_SECRET: undefined })).toHaveLength(32);
  });
});
