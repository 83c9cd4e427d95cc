import { describe, expect, it } from "vitest";

import {
  identityValueIssue,
  normaliseIdentityValue,
  ZAddIdentityBody,
  ZAlternateIdentity,
  ZSubscriberMetadataInput,
  ZSubscriberPathParams,
} from "./subscribers.schema";

describe("identities", () => {
  it("normalises e-mails only", () => {
    expect(normaliseIdentityValue("email", "  Ada@Example.COM ")).toBe("ada@example.com");
    expect(normaliseIdentityValue("platform", " Ab-1 ")).toBe("Ab-1");
  });

  it("checks values by provider", () => {
    expect(identityValueIssue("email", "ada@example.com")).toBeNull();
    expect(identityValueIssue("email", "ada")).not.toBeNull();
    expect(identityValueIssue("phone", "+14155550123")).toBeNull();
    for (const bad of ["14155550123", "+0123456789", "+1 415 555", "+1234567890123456"])
      expect(identityValueIssue("phone", bad), bad).not.toBeNull();
    expect(identityValueIssue("platform", "x\u0001")).not.toBeNull();
    expect(identityValueIssue("platform", "   ")).not.toBeNull();
  });

  it("validates path providers and pairs of alternates", () => {
    expect(ZSubscriberPathParams.safeParse({ provider: "social_a", identity: "1" }).success).toBe(true);
    for (const provider of ["Email", "e", "1x", "a b", "x".repeat(33)])
      expect(ZSubscriberPathParams.safeParse({ provider, identity: "1" }).success, provider).toBe(false);
    expect(ZAlternateIdentity.safeParse({}).success).toBe(true);
    expect(ZAlternateIdentity.safeParse({ alternate_provider: "email" }).success).toBe(false);
    expect(ZAlternateIdentity.safeParse({ alternate_provider: "email", alternate_identity: "x" }).success).toBe(false);
    const body = ZAddIdentityBody.safeParse({
      subscriber_identity: { provider: "phone", value: "+14155550123" },
      alternate_identity: "a",
    });
    expect(body.success).toBe(false);
  });
});

describe("metadata input", () => {
  it("keeps only the six address keys and turns numbers to strings", () => {
    const parsed = ZSubscriberMetadataInput.parse({
      address: { line1: "1 Main", pincode: 411001, planet: "Earth" },
      extra: true,
    });
    expect(parsed).toEqual({ address: { line1: "1 Main", pincode: "411001" } });
  });

  it("caps other and checks the phone number", () => {
    expect(ZSubscriberMetadataInput.safeParse({ other: { a: "x".repeat(9000) } }).success).toBe(false);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    expect(ZSubscriberMetadataInput.safeParse({ other: many }).success).toBe(false);
    expect(ZSubscriberMetadataInput.safeParse({ phone_number: "+919876543210", other: null }).success).toBe(true);
    expect(ZSubscriberMetadataInput.safeParse({ phone_number: "9876543210" }).success).toBe(false);
  });
});
