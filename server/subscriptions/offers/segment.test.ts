import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { assignArm, bucketOf, readerKeyOf } from "./assignment";
import { cleanPlainText, ZSegment } from "./offers.schema";
import { countryOf, deviceOf, firstMatching, isFromNewsletter, matchesSegment, type ReaderFacts } from "./segment";

const anyone = ZSegment.parse({});
const facts = (over: Partial<ReaderFacts> = {}): ReaderFacts => ({
  audience: "anonymous",
  fromNewsletter: false,
  country: null,
  device: null,
  ...over,
});

const arbFacts = fc.record({
  audience: fc.constantFrom("anonymous", "registered", "lapsed", "subscriber"),
  fromNewsletter: fc.boolean(),
  country: fc.option(fc.constantFrom("IN", "US", "DE", "BR", "FR")),
  device: fc.option(fc.constantFrom<"mobile" | "desktop">("mobile", "desktop")),
});
const arbSegment = fc
  .record({
    audiences: fc.subarray(["anonymous", "registered", "lapsed"] as const),
    newsletter: fc.option(fc.boolean()),
    countries: fc.subarray(["IN", "US", "DE", "BR"]),
    devices: fc.subarray(["mobile", "desktop"] as const),
  })
  .map((s) => ZSegment.parse(s));

describe("matchesSegment", () => {
  it("matches everyone when nothing is set", () => {
    fc.assert(fc.property(arbFacts, (f) => matchesSegment(anyone, f)));
  });
  it("is the conjunction of its conditions: removing one never loses a reader", () => {
    fc.assert(
      fc.property(
        arbSegment,
        arbFacts,
        fc.constantFrom("audiences", "newsletter", "countries", "devices"),
        (s, f, k) => {
          const looser = { ...s, [k]: k === "newsletter" ? null : [] };
          return !matchesSegment(s, f) || matchesSegment(looser, f);
        },
      ),
    );
  });
  it("holds exactly when each set condition lists the reader's fact", () => {
    fc.assert(
      fc.property(arbSegment, arbFacts, (s, f) => {
        const expected =
          (!s.audiences.length || (s.audiences as string[]).includes(f.audience)) &&
          (s.newsletter === null || s.newsletter === f.fromNewsletter) &&
          (!s.countries.length || (f.country !== null && s.countries.includes(f.country))) &&
          (!s.devices.length || (f.device !== null && s.devices.includes(f.device)));
        return matchesSegment(s, f) === expected;
      }),
    );
  });
  it("examples: a lapsed reader from a newsletter on a phone in India", () => {
    const reader = facts({ audience: "lapsed", fromNewsletter: true, country: "IN", device: "mobile" });
    expect(matchesSegment(ZSegment.parse({ audiences: ["lapsed"], countries: ["in"] }), reader)).toBe(true);
    expect(matchesSegment(ZSegment.parse({ audiences: ["registered"] }), reader)).toBe(false);
    expect(matchesSegment(ZSegment.parse({ newsletter: false }), reader)).toBe(false);
    expect(matchesSegment(ZSegment.parse({ devices: ["desktop"] }), reader)).toBe(false);
    // An unknown country matches no country list; a subscriber no audience list.
    expect(matchesSegment(ZSegment.parse({ countries: ["IN"] }), facts())).toBe(false);
    expect(
      matchesSegment(
        ZSegment.parse({ audiences: ["anonymous", "registered", "lapsed"] }),
        facts({ audience: "subscriber" }),
      ),
    ).toBe(false);
  });
  it("firstMatching takes candidates in their order", () => {
    const list = [
      { id: 1, segment: ZSegment.parse({ devices: ["mobile"] }) },
      { id: 2, segment: anyone },
      { id: 3, segment: anyone },
    ];
    expect(firstMatching(list, facts({ device: "mobile" }))?.id).toBe(1);
    expect(firstMatching(list, facts({ device: "desktop" }))?.id).toBe(2);
    expect(firstMatching([], facts())).toBeNull();
  });
});

describe("the reader's facts from the request", () => {
  it("newsletter: utm_medium email or newsletter, or ref=newsletter", () => {
    expect(isFromNewsletter("Email", null)).toBe(true);
    expect(isFromNewsletter("newsletter", undefined)).toBe(true);
    expect(isFromNewsletter(null, " NEWSLETTER ")).toBe(true);
    expect(isFromNewsletter("social", "twitter")).toBe(false);
    expect(isFromNewsletter(undefined, undefined)).toBe(false);
  });
  it("country: two letters, XX and T1 unknown", () => {
    expect(countryOf("in")).toBe("IN");
    expect(countryOf("XX")).toBeNull();
    expect(countryOf("T1")).toBeNull();
    expect(countryOf("USA")).toBeNull();
    expect(countryOf(null)).toBeNull();
  });
  it("device: the client hint first, then the User-Agent", () => {
    const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
    const pixel = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36";
    const tablet = "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 Chrome/120 Safari/537.36";
    const mac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15";
    expect(deviceOf(null, iphone)).toBe("mobile");
    expect(deviceOf(null, pixel)).toBe("mobile");
    expect(deviceOf(null, tablet)).toBe("desktop");
    expect(deviceOf(null, mac)).toBe("desktop");
    expect(deviceOf("?1", mac)).toBe("mobile");
    expect(deviceOf("?0", iphone)).toBe("desktop");
    expect(deviceOf(null, "")).toBeNull();
  });
});

describe("assignment", () => {
  it("is fixed by reader and in range", () => {
    fc.assert(
      fc.property(
        fc.uuid(),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 99 }),
        (id, key, split) => {
          const b = bucketOf(id, key);
          return b >= 0 && b < 10_000 && assignArm(id, key, split) === assignArm(id, key, split);
        },
      ),
    );
  });
  it("moves readers only from b to a as the split grows", () => {
    fc.assert(
      fc.property(fc.uuid(), fc.string({ minLength: 1 }), fc.integer({ min: 1, max: 98 }), (id, key, split) =>
        assignArm(id, key, split) === "a" ? assignArm(id, key, split + 1) === "a" : true,
      ),
    );
  });
  it("splits 10 000 readers close to the asked share (50/50 and 20/80)", () => {
    const id = "0b6f4f2e-8a51-4a52-9d5e-3c1f1e1a2b3c";
    for (const split of [50, 20]) {
      let a = 0;
      for (let i = 0; i < 10_000; i++) if (assignArm(id, `r:reader-${i}`, split) === "a") a++;
      // Binomial(10 000, p): 4 standard deviations is at most 200 readers.
      expect(Math.abs(a - split * 100)).toBeLessThan(200);
    }
  });
  it("keys a signed-in reader by the JWT id, else by the readerId", () => {
    expect(readerKeyOf("42", "abc")).toBe("u:42");
    expect(readerKeyOf(null, "abc")).toBe("r:abc");
    expect(readerKeyOf(null, null)).toBeNull();
  });
});

describe("cleanPlainText", () => {
  it("removes markup and control characters, keeps the words", () => {
    expect(cleanPlainText("  <b>Half</b> price\u0007 <script>x()</script>for  you ")).toBe("Half price x()for you");
    expect(cleanPlainText("a\r\n\r\n\r\nb")).toBe("a\n\nb");
  });
  it("leaves no angle bracket and is idempotent", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const once = cleanPlainText(s);
        return !/[<>]/.test(once) && cleanPlainText(once) === once;
      }),
    );
  });
});
