/**
 * The paywall divider in the story editor: where it is drawn among the cards, and where it goes
 * when the cards change. Pure: no React. The point itself is the story's `paywallAt` (elements,
 * counted across the cards in order, that every reader may read; null: the account's default), as
 * server/publishing/paywall-point.ts splits it.
 *
 * The rule when cards change (`adjustPaywallAt`): every element keeps its side of the divider; a
 * new element takes the side of the element before it (the first element of all: free unless
 * nothing is free); the divider then sits under the free elements at the top. So adding, removing
 * or reordering elements above the divider keeps it under the same elements, and no edit of the
 * cards makes a paid element free: only moving the divider does. An element moved from below the
 * divider to above it stays paid, and the divider moves up above it.
 */
import type { TCard } from "@/server/publishing/cards.schema";

/** The ids of the story's elements, across the cards, in order. */
function elementIds(cards: readonly TCard[]): string[] {
  return cards.flatMap((card) => (card["story-elements"] ?? []).map((element) => element.id));
}

/** The story's elements, counted across the cards. */
export function elementCount(cards: readonly TCard[]): number {
  return cards.reduce((sum, card) => sum + (card["story-elements"]?.length ?? 0), 0);
}

/** The story's point after its cards changed from `before` to `after` (the rule above); null stays null. */
export function adjustPaywallAt(before: readonly TCard[], after: readonly TCard[], at: number | null): number | null {
  if (at === null) return null;
  const old = elementIds(before);
  const known = new Set(old);
  const free = new Set(old.slice(0, Math.max(0, at)));
  let point = 0;
  // Walking down while every element is free, the element before a new one is always free (or it
  // is the first element, free when anything is): so a new element met here is free when at > 0.
  for (const id of elementIds(after)) {
    if (!(known.has(id) ? free.has(id) : at > 0)) break;
    point += 1;
  }
  return point;
}

/** The point the editor sees: the story's own, else the account's default, never past the last element. */
export function effectivePoint(cards: readonly TCard[], at: number | null, accountDefault: number): number {
  return Math.min(Math.max(0, at ?? accountDefault), elementCount(cards));
}

/**
 * Where the divider is drawn for `point`: before every card (nothing free), after a card (the point
 * falls at its end; after the empty cards that follow it too, which a new element would join
 * free), or inside a card after its `element`-th element (0-based index of the last free one).
 */
export type DividerSlot =
  { kind: "start" } | { kind: "after-card"; card: number } | { kind: "in-card"; card: number; element: number };

export function dividerSlot(cards: readonly TCard[], point: number): DividerSlot {
  if (point <= 0) return { kind: "start" };
  let left = point;
  for (let c = 0; c < cards.length; c++) {
    const count = cards[c]!["story-elements"]?.length ?? 0;
    if (left > count) {
      left -= count;
      continue;
    }
    if (left < count) return { kind: "in-card", card: c, element: left - 1 };
    let last = c;
    while (last + 1 < cards.length && (cards[last + 1]!["story-elements"]?.length ?? 0) === 0) last += 1;
    return { kind: "after-card", card: last };
  }
  return { kind: "after-card", card: cards.length - 1 };
}

/** The divider's words: how much is free, and whose point it is. */
export function dividerText(
  point: number,
  total: number,
  own: boolean,
  accountDefault: number,
): { label: string; detail: string } {
  const elements = (n: number) => `${n} ${n === 1 ? "element" : "elements"}`;
  const label =
    point === 0
      ? "Paid from the start: nothing is free"
      : point >= total
        ? `Free above: all ${elements(total)} (nothing is paid yet)`
        : `Free above (${elements(point)}) / paid below (${elements(total - point)})`;
  const detail = own
    ? "Set for this story."
    : `Account default: first ${elements(accountDefault)}${accountDefault > total ? ` (this story has ${total})` : ""}.`;
  return { label, detail };
}
