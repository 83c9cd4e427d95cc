import { describe, expect, it } from "vitest";

import { decryptSecret, encryptSecret, secretHint } from "./encryption";

const KEY = "k".repeat(40);

describe("encryptSecret / decryptSecret", () => {
  it("round-trips, with a fresh nonce each time", () => {
    const a = encryptSecret("rzp_secret_123", "payment-gateway", KEY);
    const b = encryptSecret("rzp_secret_123", "payment-gateway", KEY);
    expect(a).not.toBe(b);
    expect(a).not.toContain("rzp_secret_123");
    expect(decryptSecret(a, "payment-gateway", KEY)).toBe("rzp_secret_123");
  });
  it("refuses a tampered value, another key and another purpose", () => {
    const stored = encryptSecret("secret", "payment-gateway", KEY);
    const [v, n, body] = stored.split(".");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    expect(() => decryptSecret(`${v}.${n}.${flipped.toString("base64url")}`, "payment-gateway", KEY)).toThrow();
    expect(() => decryptSecret(stored, "payment-gateway", "z".repeat(40))).toThrow();
    expect(() => decryptSecret(stored, "other", KEY)).toThrow();
    expect(() => decryptSecret("plain", "payment-gateway", KEY)).toThrow();
  });
  it("hints only long secrets", () => {
    expect(secretHint("abcdefghijkl")).toBe("ijkl");
    expect(secretHint("short")).toBe("");
  });
});
