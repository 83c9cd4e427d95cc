import fc from "fast-check";
import { describe, expect, it } from "vitest";

import type { TCard } from "@/server/publishing/cards.schema";

import { adjustPaywallAt, dividerSlot, dividerText, effectivePoint, elementCount } from "./paywall-divider";

const el = (id: string) => ({ id, type: "text", subtype: null, text: `<p>${id}</p>` });
/** `ids` cut into cards of `sizes` (what is left over goes in a last card). */
function cardsOf(ids: readonly string[], sizes: readonly number[] = []): TCard[] {
  const cards: TCard[] = [];
  let at = 0;
  for (const [i, size] of sizes.entries()) {
    cards.push({ id: `c${i}`, "story-elements": ids.slice(at, at + size).map(el) } as unknown as TCard);
    at += size;
  }
  if (at < ids.length || cards.length === 0)
    cards.push({ id: "last", "story-elements": ids.slice(at).map(el) } as unknown as TCard);
  return cards;
}

/** A story: unique element ids, a way to cut them into cards, and a point from 0 to one past the end. */
const story = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 12 }).chain((ids) =>
  fc.record({
    ids: fc.constant(ids),
    sizes: fc.array(fc.nat(4), { maxLength: 4 }),
    at: fc.nat(ids.length),
  }),
);

describe("adjustPaywallAt", () => {
  it("keeps null (the account's default) and an unchanged story's point", () => {
    const cards = cardsOf(["a", "b", "c"]);
    expect(adjustPaywallAt(cards, cards, null)).toBeNull();
    expect(adjustPaywallAt(cards, cardsOf(["a"]), null)).toBeNull();
    fc.assert(
      fc.property(story, ({ ids, sizes, at }) => {
        expect(adjustPaywallAt(cardsOf(ids, sizes), cardsOf(ids, [1, 2]), at)).toBe(at);
      }),
    );
  });

  it("counts an element added above the divider, not one added below", () => {
    fc.assert(
      fc.property(story, fc.nat(), ({ ids, sizes, at }, where) => {
        const p = where % (ids.length + 1);
        const added = [...ids.slice(0, p), "NEW!", ...ids.slice(p)];
        const next = adjustPaywallAt(cardsOf(ids, sizes), cardsOf(added, sizes), at);
        // At the divider itself the new element joins the element before it (free when any is).
        expect(next).toBe(at > 0 && p <= at ? at + 1 : at);
      }),
    );
  });

  it("counts an element removed above the divider, not one removed below", () => {
    fc.assert(
      fc.property(story, fc.nat(), ({ ids, sizes, at }, where) => {
        fc.pre(ids.length > 0);
        const p = where % ids.length;
        const removed = ids.filter((_, i) => i !== p);
        expect(adjustPaywallAt(cardsOf(ids, sizes), cardsOf(removed, sizes), at)).toBe(p < at ? at - 1 : at);
      }),
    );
  });

  it("keeps the point when elements are reordered on either side of it, or cut into other cards", () => {
    fc.assert(
      fc.property(story, fc.array(fc.nat(4), { maxLength: 4 }), ({ ids, sizes, at }, otherSizes) => {
        const reordered = [...ids.slice(0, at).reverse(), ...ids.slice(at).reverse()];
        expect(adjustPaywallAt(cardsOf(ids, sizes), cardsOf(reordered, otherSizes), at)).toBe(at);
      }),
    );
  });

  it("never makes a paid element free, and stays within the story", () => {
    fc.assert(
      fc.property(story, fc.array(fc.nat(), { maxLength: 12 }), fc.nat(3), ({ ids, sizes, at }, keys, extra) => {
        // Any edit: some elements dropped, the rest shuffled, a few new ones mixed in.
        const kept = ids.filter((_, i) => (keys[i] ?? 1) % 4 !== 0);
        const shuffled = kept
          .map((id, i) => ({ id, key: keys[(i * 7) % Math.max(1, keys.length)] ?? i }))
          .sort((a, b) => a.key - b.key)
          .map((x) => x.id);
        const edited = [...shuffled];
        for (let n = 0; n < extra; n++) edited.splice((keys[n] ?? 0) % (edited.length + 1), 0, `new-${n}!`);
        const next = adjustPaywallAt(cardsOf(ids, sizes), cardsOf(edited, sizes), at)!;
        expect(next).toBeGreaterThanOrEqual(0);
        expect(next).toBeLessThanOrEqual(edited.length);
        const freeBefore = new Set(ids.slice(0, at));
        for (const id of edited.slice(0, next)) if (ids.includes(id)) expect(freeBefore.has(id)).toBe(true);
        if (at === 0) expect(next).toBe(0);
      }),
    );
  });

  it("moves the divider up above a paid element moved into the free part", () => {
    const before = cardsOf(["a", "b", "c", "d"], [2, 2]);
    // d (paid) moved to the top of the story: it stays paid, so nothing above it can be free.
    expect(adjustPaywallAt(before, cardsOf(["d", "a", "b", "c"], [2, 2]), 2)).toBe(0);
    // b (the last free element) moved below c: b is now paid, c stays paid.
    expect(adjustPaywallAt(before, cardsOf(["a", "c", "b", "d"], [2, 2]), 2)).toBe(1);
  });
});

describe("where the divider is drawn", () => {
  const cards = cardsOf(["a", "b", "c", "d", "e"], [2, 0, 1, 0, 2]);
  it("before everything, inside a card, or after a card and the empty cards after it", () => {
    expect(dividerSlot(cards, 0)).toEqual({ kind: "start" });
    expect(dividerSlot(cards, 1)).toEqual({ kind: "in-card", card: 0, element: 0 });
    expect(dividerSlot(cards, 2)).toEqual({ kind: "after-card", card: 1 });
    expect(dividerSlot(cards, 3)).toEqual({ kind: "after-card", card: 3 });
    expect(dividerSlot(cards, 4)).toEqual({ kind: "in-card", card: 4, element: 0 });
    expect(dividerSlot(cards, 5)).toEqual({ kind: "after-card", card: 4 });
    expect(dividerSlot(cards, 9)).toEqual({ kind: "after-card", card: 4 });
  });

  it("shows the story's own point, else the account's default, within the story", () => {
    expect(elementCount(cards)).toBe(5);
    expect(effectivePoint(cards, 2, 1)).toBe(2);
    expect(effectivePoint(cards, null, 3)).toBe(3);
    expect(effectivePoint(cards, null, 8)).toBe(5);
    expect(dividerText(2, 5, true, 1)).toEqual({
      label: "Free above (2 elements) / paid below (3 elements)",
      detail: "Set for this story.",
    });
    expect(dividerText(1, 5, false, 1).detail).toBe("Account default: first 1 element.");
    expect(dividerText(5, 5, false, 8).detail).toBe("Account default: first 8 elements (this story has 5).");
    expect(dividerText(0, 5, true, 1).label).toBe("Paid from the start: nothing is free");
  });
});
