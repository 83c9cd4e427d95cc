/**
 * The paywall point: where a story's free part ends. Pure: no IO.
 *
 * A story's point is the number of its story elements, counted across its cards in order, that
 * every reader may read (`Story.paywallAt`, the content API's `paywall-at`); a story that sets none
 * uses its account's default (`Account.paywallDefaultElements`). A public story has no point: all
 * of it is free. What a caller without access gets is the free part (`splitAtPaywall(...).free`)
 * and a marker that the story continues.
 */
import type { TCard } from "./cards.schema";

/** The free elements of a closed story: its own point, else the account's default; null when the story is public. */
export function paywallPointOf(
  story: { access: string | null; paywallAt: number | null },
  accountDefault: number,
): number | null {
  const access = (story.access ?? "").trim().toLowerCase();
  if (access === "" || access === "public") return null;
  return Math.max(0, story.paywallAt ?? accountDefault);
}

export type PaywallSplit = {
  /** The cards before the point, the card the point falls in cut to its free elements. */
  free: TCard[];
  /** The cards after the point, the card the point falls in holding only its paid elements. */
  paid: TCard[];
  /** Whether anything is after the point: the story continues beyond the free part. */
  continues: boolean;
  /** Elements before the point, and in all (never more free elements than the story has). */
  freeElements: number;
  totalElements: number;
};

/** Splits cards at `point` elements (null: no point, everything free). A card keeps its fields on both sides. */
export function splitAtPaywall(cards: readonly TCard[], point: number | null): PaywallSplit {
  const free: TCard[] = [];
  const paid: TCard[] = [];
  let left = point === null ? Number.POSITIVE_INFINITY : Math.max(0, point);
  let freeElements = 0;
  let totalElements = 0;
  for (const card of cards) {
    const elements = card["story-elements"] ?? [];
    totalElements += elements.length;
    const take = Math.min(left, elements.length);
    left -= take;
    freeElements += take;
    if (take > 0) free.push({ ...card, "story-elements": elements.slice(0, take) });
    if (take < elements.length) paid.push({ ...card, "story-elements": elements.slice(take) });
  }
  return { free, paid, continues: freeElements < totalElements, freeElements, totalElements };
}
