import { describe, expect, it } from "vitest";

import { cardLinkExpiry, signCardLink, verifyCardLink } from "./card-link";

const key = Buffer.alloc(32, 7);
const now = new Date("2026-02-01T12:00:00.000Z");
const claims = { accountId: 3, subscriptionId: 41, memberId: 9, expiresAt: new Date("2026-02-08T00:00:00.000Z") };

describe("the signed 'update your card' link", () => {
  it("names its account, subscription and reader until it expires", () => {
    const token = signCardLink(claims, key);
    expect(verifyCardLink(token, now, key)).toEqual(claims);
    expect(verifyCardLink(token, new Date("2026-02-08T00:00:00.000Z"), key)).toBeNull();
  });

  it("refuses a forged, altered or foreign-key token", () => {
    const token = signCardLink(claims, key);
    const [a, s, m, exp, sig] = token.split(".");
    // Another subscription, reader or a later expiry under the same signature.
    expect(verifyCardLink(`${a}.42.${m}.${exp}.${sig}`, now, key)).toBeNull();
    expect(verifyCardLink(`${a}.${s}.10.${exp}.${sig}`, now, key)).toBeNull();
    expect(verifyCardLink(`${a}.${s}.${m}.${Number(exp) + 86_400}.${sig}`, now, key)).toBeNull();
    expect(verifyCardLink(signCardLink(claims, Buffer.alloc(32, 8)), now, key)).toBeNull();
    const flipped = sig!.slice(0, -1) + (sig!.endsWith("A") ? "B" : "A");
    expect(verifyCardLink(`${a}.${s}.${m}.${exp}.${flipped}`, now, key)).toBeNull();
    for (const bad of ["", "x", `${token}.x`, token.replace(/\./g, "-"), 42, null, "a".repeat(300)])
      expect(verifyCardLink(bad, now, key)).toBeNull();
  });

  it("expires with the grace period, and never later than 14 days", () => {
    expect(cardLinkExpiry(now, new Date("2026-02-05T00:00:00.000Z")).toISOString()).toBe("2026-02-05T00:00:00.000Z");
    expect(cardLinkExpiry(now, null).toISOString()).toBe("2026-02-15T12:00:00.000Z");
    expect(cardLinkExpiry(now, new Date("2026-06-01T00:00:00.000Z")).toISOString()).toBe("2026-02-15T12:00:00.000Z");
  });
});
