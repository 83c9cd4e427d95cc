/**
 * Who gets the paid part of a story: one rule for every channel (docs/subscriptions.md, "Who gets
 * the paid part"; decision 0051). Pure: no IO.
 *
 * A closed story (access "login" or "subscription", ./paywall-point.ts) has a free part (its
 * elements before the paywall point) and a paid part (the rest). A caller with access gets all of
 * it; a caller without gets the free part, in the same shape (`cards` holding only the free
 * elements) and one added field, the marker `paywall`:
 *
 *   "paywall": {"continues": true, "free-elements": 2, "total-elements": 9}
 *
 * Who has access on the content API (`contentAccessOf`): the account's server key (X-SUBAUTH, a
 * front end deciding on its own pages), a reader whose access decision grants the story (the
 * `check-access=true` reads), or anyone when the account's `contentApiAccess` is "full". Feeds,
 * AMP, newsletters to readers without a grant and widgets always serve the free part.
 */
import type { TCard } from "./cards.schema";
import { paywallPointOf, splitAtPaywall, type PaywallSplit } from "./paywall-point";
import type { WireStory } from "./story-view";

/** What a caller gets of a closed story: all of it, or its free part. */
export type PaidPartAccess = "full" | "free_part";

/** The marker a story cut to its free part carries (an added field: the others keep their shapes). */
type PaywallMarker = { continues: boolean; "free-elements": number; "total-elements": number };

/** The key of the marker in a wire story. */
export const PAYWALL_MARKER_KEY = "paywall";

/**
 * What the public content API serves a caller: "full" with the account's server key, else what the
 * account's `contentApiAccess` says.
 */
export function contentAccessOf(args: { serverKey: boolean; accountSetting: PaidPartAccess }): PaidPartAccess {
  return args.serverKey ? "full" : args.accountSetting;
}

/** Whether a story with this `access` has a paid part at all (not public). */
export const isClosed = (access: string | null | undefined): boolean =>
  paywallPointOf({ access: access ?? null, paywallAt: 0 }, 0) !== null;

/**
 * A wire story as a caller without access gets it: a public story as it is; a closed one with the
 * cards before its paywall point (its `paywall-at`, else `accountDefault`) and the marker.
 */
export function freePartOfWire(story: WireStory, accountDefault: number): WireStory {
  const paywallAt = typeof story["paywall-at"] === "number" ? story["paywall-at"] : null;
  const access = typeof story.access === "string" ? story.access : null;
  const point = paywallPointOf({ access, paywallAt }, accountDefault);
  if (point === null) return story;
  const cards = Array.isArray(story.cards) ? (story.cards as TCard[]) : [];
  const split: PaywallSplit = splitAtPaywall(cards, point);
  const marker: PaywallMarker = {
    continues: split.continues,
    "free-elements": split.freeElements,
    "total-elements": split.totalElements,
  };
  return { ...story, cards: split.free, [PAYWALL_MARKER_KEY]: marker };
}
