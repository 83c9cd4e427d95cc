import { describe, expect, it } from "vitest";

import { isNewsletterTokenForm, newsletterTokenKey, signNewsletterToken, verifyNewsletterToken } from "./tokens";

const key = newsletterTokenKey({ AUTH_SECRET: "a-test-secret" });

describe("newsletter link tokens", () => {
  it("names the row, the purpose and the account it was signed for", () => {
    const token = signNewsletterToken(key, { accountId: 7, purpose: "delivery", id: 12345678901234n });
    expect(isNewsletterTokenForm(token)).toBe(true);
    expect(verifyNewsletterToken(key, 7, token)).toEqual({ purpose: "delivery", id: "12345678901234" });
  });

  it("refuses another account, another purpose, another key and a changed character", () => {
    const token = signNewsletterToken(key, { accountId: 7, purpose: "unsubscribe", id: 42 });
    expect(verifyNewsletterToken(key, 8, token)).toBeNull();
    expect(verifyNewsletterToken(key, 7, token, ["confirm"])).toBeNull();
    expect(verifyNewsletterToken(newsletterTokenKey({ AUTH_SECRET: "another" }), 7, token)).toBeNull();
    const last = token.at(-1) === "A" ? "B" : "A";
    expect(verifyNewsletterToken(key, 7, token.slice(0, -1) + last)).toBeNull();
    expect(verifyNewsletterToken(key, 7, token.replace("unsubscribe.42", "unsubscribe.43"))).toBeNull();
    expect(verifyNewsletterToken(key, 7, token.replace("unsubscribe.", "confirm."))).toBeNull();
  });

  it("tells a malformed token from a wrong one", () => {
    expect(isNewsletterTokenForm("delivery.0.x")).toBe(false);
    expect(isNewsletterTokenForm("nope")).toBe(false);
    expect(() => signNewsletterToken(key, { accountId: 1, purpose: "confirm", id: 0 })).toThrow();
  });

  it("needs AUTH_SECRET in production", () => {
    expect(() => newsletterTokenKey({ NODE_ENV: "production" })).toThrow(/AUTH_SECRET/);
  });
});
