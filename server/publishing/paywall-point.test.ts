import fc from "fast-check";
import { describe, expect, it } from "vitest";

import type { TCard } from "./cards.schema";
import { paywallPointOf, splitAtPaywall } from "./paywall-point";

const el = (text: string) => ({ id: text, type: "text", subtype: null, text: `<p>${text}</p>` });
const card = (id: string, ...texts: string[]) => ({ id, "story-elements": texts.map(el) }) as unknown as TCard;
const texts = (cards: TCard[]) => cards.flatMap((c) => (c["story-elements"] ?? []).map((e) => e.id));

describe("paywallPointOf", () => {
  it("has no point for a public story, the story's own else the account's for a closed one", () => {
    expect(paywallPointOf({ access: "public", paywallAt: 2 }, 3)).toBeNull();
    expect(paywallPointOf({ access: null, paywallAt: null }, 3)).toBeNull();
    expect(paywallPointOf({ access: "subscription", paywallAt: 2 }, 3)).toBe(2);
    expect(paywallPointOf({ access: "login", paywallAt: null }, 3)).toBe(3);
    expect(paywallPointOf({ access: "subscription", paywallAt: 0 }, 3)).toBe(0);
    expect(paywallPointOf({ access: "Subscription ", paywallAt: -4 }, 3)).toBe(0);
  });
});

describe("splitAtPaywall", () => {
  const story = [card("c1", "a", "b"), card("c2", "c"), card("c3", "d", "e")];

  it("cuts across cards, the card the point falls in on both sides", () => {
    const split = splitAtPaywall(story, 1);
    expect(texts(split.free)).toEqual(["a"]);
    expect(texts(split.paid)).toEqual(["b", "c", "d", "e"]);
    expect(split.free.map((c) => c.id)).toEqual(["c1"]);
    expect(split.paid.map((c) => c.id)).toEqual(["c1", "c2", "c3"]);
    expect(split).toMatchObject({ continues: true, freeElements: 1, totalElements: 5 });
  });

  it("keeps everything free without a point or past the end", () => {
    for (const point of [null, 5, 99]) {
      const split = splitAtPaywall(story, point);
      expect(texts(split.free)).toEqual(["a", "b", "c", "d", "e"]);
      expect(split.paid).toEqual([]);
      expect(split.continues).toBe(false);
    }
  });

  it("gives nothing free at 0", () => {
    const split = splitAtPaywall(story, 0);
    expect(split.free).toEqual([]);
    expect(split).toMatchObject({ continues: true, freeElements: 0 });
  });

  it("loses and repeats no element, whatever the cards and the point (property)", () => {
    const cards = fc.array(fc.array(fc.string({ maxLength: 3 }), { maxLength: 4 }), { maxLength: 5 });
    fc.assert(
      fc.property(cards, fc.option(fc.integer({ min: -2, max: 25 }), { nil: null }), (shape, point) => {
        const all = shape.map((els, i) => card(`c${i}`, ...els.map((t, j) => `${i}.${j}.${t}`)));
        const split = splitAtPaywall(all, point);
        expect([...texts(split.free), ...texts(split.paid)]).toEqual(texts(all));
        const expectedFree = point === null ? split.totalElements : Math.min(Math.max(0, point), split.totalElements);
        expect(split.freeElements).toBe(expectedFree);
        expect(split.continues).toBe(split.paid.length > 0);
      }),
    );
  });
});
