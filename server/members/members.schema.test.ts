import { describe, expect, it } from "vitest";

import { hashToken } from "../security/secret-tokens";
import { ZBridgekeeperResetInput, ZMemberLoginInput, ZMemberMetadataInput, ZMemberSignupInput } from "./members.schema";

describe("member input schemas", () => {
  it("normalises the e-mail and enforces the password length on sign-up", () => {
    expect(ZMemberSignupInput.parse({ email: "  Ada@Example.COM ", password: "12345678" }).email).toBe(
      "ada@example.com",
    );
    expect(ZMemberSignupInput.safeParse({ email: "ada@example.com", password: "1234567" }).success).toBe(false);
    expect(ZMemberSignupInput.safeParse({ email: "ada@example.com", password: "x".repeat(201) }).success).toBe(false);
    expect(ZMemberSignupInput.safeParse({ email: "ada", password: "12345678" }).success).toBe(false);
  });

  it("needs an e-mail or a username to log in, and checks only the password's maximum", () => {
    expect(ZMemberLoginInput.safeParse({ password: "x" }).success).toBe(false);
    expect(ZMemberLoginInput.safeParse({ username: "ada", password: "x" }).success).toBe(true);
    expect(ZMemberLoginInput.safeParse({ email: "ada@example.com", password: "x".repeat(201) }).success).toBe(false);
  });

  it("unwraps {metadata: {...}} only when it is the sole key, and caps the size at 16 KB", () => {
    expect(ZMemberMetadataInput.parse({ metadata: { a: 1 } })).toEqual({ a: 1 });
    expect(ZMemberMetadataInput.parse({ metadata: { a: 1 }, b: 2 })).toEqual({ metadata: { a: 1 }, b: 2 });
    expect(ZMemberMetadataInput.parse({ metadata: "text" })).toEqual({ metadata: "text" });
    expect(ZMemberMetadataInput.safeParse([1]).success).toBe(false);
    expect(ZMemberMetadataInput.safeParse({ a: "x".repeat(16 * 1024) }).success).toBe(false);
  });

  it("checks that bridgekeeper's two new passwords match", () => {
    expect(
      ZBridgekeeperResetInput.safeParse({ token: "t", "new-password": "12345678", "confirm-password": "12345678" })
        .success,
    ).toBe(true);
    expect(
      ZBridgekeeperResetInput.safeParse({ token: "t", "new-password": "12345678", "confirm-password": "87654321" })
        .success,
    ).toBe(false);
  });
});

describe("session tokens", () => {
  it("stores a SHA-256 digest, never the token", () => {
    expect(hashToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
