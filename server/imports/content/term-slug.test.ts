/**
 * Tags, sections and authors named in any script keep a valid slug: every non-empty name (any
 * Unicode code point, any grapheme) has one the dashboard's rule accepts, the same on every run,
 * and WordPress's percent-encoded slugs read as the text they encode.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { isSlug } from "../../text/slug";
import { termSlug } from "./term-slug";

/** Names as people type them: any code point, any grapheme, or words of several scripts. */
const WORDS = ["भारत", "தமிழ்", "العربية", "中文", "Ελληνικά", "русский", "עברית", "ไทย", "🔥", "🎭", "2024", "Café"];
const NAME = fc.oneof(
  fc.string({ unit: "binary", minLength: 1, maxLength: 30 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }),
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(" ")),
);

describe("termSlug", () => {
  it("gives every non-blank name, in any script, a valid, stable slug", () => {
    fc.assert(
      fc.property(NAME, (name) => {
        const slug = termSlug(name);
        // (A property returning anything but true or undefined fails: the assertion is not returned.)
        if (name.trim() === "") {
          expect(slug).toBe("");
          return;
        }
        expect(isSlug(slug), slug).toBe(true);
        expect(slug.length).toBeLessThanOrEqual(100);
        expect(termSlug(name)).toBe(slug);
      }),
      { numRuns: 500 },
    );
  });

  it("reads a percent-encoded WordPress slug as the text it encodes", () => {
    fc.assert(
      fc.property(NAME, (name) => {
        const slug = name.trim().toLowerCase();
        fc.pre(slug !== "");
        expect(termSlug("any name", encodeURIComponent(slug))).toBe(termSlug("any name", slug));
      }),
    );
    expect(termSlug("Hindi", "%e0%a4%ad%e0%a4%be%e0%a4%b0%e0%a4%a4")).toBe(termSlug("x", "भारत"));
  });

  it("keeps ASCII slugs as they were, other scripts readable, and gives names that differ only in emoji two slugs", () => {
    expect(termSlug("Elections!")).toBe("elections");
    expect(termSlug("Café Society")).toBe("cafe-society");
    expect(termSlug("anything", "world-news")).toBe("world-news");
    expect(termSlug("भारत 2024")).toBe("भारत-2024");
    expect(termSlug("Cup 🏆")).toMatch(/^cup-[0-9a-f]{8}$/);
    expect(termSlug("Cup 🏆")).not.toBe(termSlug("Cup 🥇"));
    expect(termSlug("भारत 2024")).not.toBe(termSlug("चीन 2024"));
    expect(termSlug("🔥")).not.toBe(termSlug("🎭"));
    expect(termSlug("   ")).toBe("");
  });
});
