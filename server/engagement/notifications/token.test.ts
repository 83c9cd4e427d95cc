import { describe, expect, it } from "vitest";

import { isUnsubscribeTokenForm, signUnsubscribeToken, unsubscribeKey, verifyUnsubscribeToken } from "./token";

const key = unsubscribeKey({ AUTH_SECRET: "a-test-auth-secret-of-at-least-32-characters" });

describe("unsubscribe tokens", () => {
  it("name the member and kind they were signed for, in their account only", () => {
    const token = signUnsubscribeToken(key, { accountId: 7, memberId: 42, kind: "replies" });
    expect(isUnsubscribeTokenForm(token)).toBe(true);
    expect(verifyUnsubscribeToken(key, 7, token)).toEqual({ memberId: 42, kind: "replies" });
    expect(verifyUnsubscribeToken(key, 8, token)).toBeNull();
  });

  it("refuse a token whose member, kind or signature was changed, or signed with another key", () => {
    const token = signUnsubscribeToken(key, { accountId: 7, memberId: 42, kind: "replies" });
    const [, , mac] = token.split(".");
    expect(verifyUnsubscribeToken(key, 7, `43.replies.${mac}`)).toBeNull();
    expect(verifyUnsubscribeToken(key, 7, `42.all.${mac}`)).toBeNull();
    const flipped = mac!.slice(0, -1) + (mac!.endsWith("A") ? "B" : "A");
    expect(verifyUnsubscribeToken(key, 7, `42.replies.${flipped}`)).toBeNull();
    const other = unsubscribeKey({ AUTH_SECRET: "another-auth-secret-of-at-least-32-characters" });
    expect(verifyUnsubscribeToken(other, 7, token)).toBeNull();
  });

  it("tell a malformed token from a forged one", () => {
    expect(isUnsubscribeTokenForm("nonsense")).toBe(false);
    expect(isUnsubscribeTokenForm("42.everything.abc")).toBe(false);
    expect(verifyUnsubscribeToken(key, 7, "nonsense")).toBeNull();
  });

  it("needs AUTH_SECRET in production", () => {
    expect(() => unsubscribeKey({ NODE_ENV: "production" })).toThrow(/AUTH_SECRET/);
  });
});
