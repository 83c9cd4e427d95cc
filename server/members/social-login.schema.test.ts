import { describe, expect, it } from "vitest";

import { zOtp, ZUpdateProfileInput } from "./member-account.schema";
import { ZSaveLoginProviderInput, ZSocialLoginInput } from "./social-login.schema";

describe("ZSocialLoginInput", () => {
  it("takes a string token (kind decided later) or bridgekeeper's {access-token} / {id-token}", () => {
    expect(ZSocialLoginInput.parse({ token: " abc ", "set-session": true }).token).toEqual({
      value: "abc",
      kind: "auto",
    });
    expect(ZSocialLoginInput.parse({ token: { "access-token": "ya29" } }).token).toEqual({
      value: "ya29",
      kind: "access",
    });
    expect(ZSocialLoginInput.parse({ token: { "id-token": "e.y.j" } }).token).toEqual({ value: "e.y.j", kind: "id" });
  });
  it("refuses no token, both kinds at once, empty and oversized tokens", () => {
    for (const token of [undefined, "", {}, { "access-token": "a", "id-token": "b" }, "x".repeat(8193), 42]) {
      expect(ZSocialLoginInput.safeParse({ token }).success).toBe(false);
    }
  });
});

describe("ZSaveLoginProviderInput", () => {
  it("fills kind and issuer for the well-known names", () => {
    expect(ZSaveLoginProviderInput.parse({ name: "Google", clientIds: ["a", "a", "b"] })).toMatchObject({
      name: "google",
      kind: "oidc",
      issuer: "https://accounts.google.com",
      clientIds: ["a", "b"],
      enabled: true,
    });
    expect(ZSaveLoginProviderInput.parse({ name: "facebook", clientIds: ["123"] })).toMatchObject({
      kind: "facebook",
      issuer: "https://graph.facebook.com",
    });
  });
  it("needs kind and issuer for other names, one app id for Facebook, and a usable name", () => {
    const bad = [
      { name: "corp", clientIds: ["a"] },
      { name: "corp", kind: "oidc", clientIds: ["a"] },
      { name: "facebook", clientIds: ["1", "2"] },
      { name: "publisher", kind: "oidc", issuer: "https://id.example.com", clientIds: ["a"] },
      { name: "bad name", kind: "oidc", issuer: "https://id.example.com", clientIds: ["a"] },
      { name: "corp", kind: "oidc", issuer: "javascript:alert(1)", clientIds: ["a"] },
      { name: "corp", kind: "oidc", issuer: "https://id.example.com?x=1", clientIds: ["a"] },
      { name: "corp", kind: "oidc", issuer: "https://id.example.com", clientIds: [] },
    ];
    for (const input of bad)
      expect(ZSaveLoginProviderInput.safeParse(input).success, JSON.stringify(input)).toBe(false);
    expect(
      ZSaveLoginProviderInput.parse({ name: "corp", kind: "oidc", issuer: "https://id.example.com/", clientIds: ["a"] })
        .issuer,
    ).toBe("https://id.example.com");
  });
});

describe("zOtp and the profile", () => {
  it("takes 6 digits, as a string (spaces and dashes dropped) or a number", () => {
    expect(zOtp.parse("123 456")).toBe("123456");
    expect(zOtp.parse("012-345")).toBe("012345");
    expect(zOtp.parse(654321)).toBe("654321");
    for (const bad of ["12345", "1234567", "abcdef", "", -123456, 1.5]) expect(zOtp.safeParse(bad).success).toBe(false);
  });
  it("profile: http(s) avatars only, empty strings clear a field", () => {
    expect(ZUpdateProfileInput.safeParse({ "avatar-url": "javascript:alert(1)" }).success).toBe(false);
    expect(ZUpdateProfileInput.parse({ bio: "", "avatar-url": "" })).toMatchObject({ bio: null, "avatar-url": null });
  });
});
