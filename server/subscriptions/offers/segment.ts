/**
 * Who an offer or an experiment is for (docs/subscriptions.md "Offers and experiments"): a pure
 * rule over the reader's facts, with the facts' derivation from a request beside it.
 *
 * Vocabulary:
 * - audience: "anonymous" (no reader JWT), "registered" (signed in, never subscribed),
 *   "lapsed" (signed in, had a subscription that ended, none grants access now), "subscriber"
 *   (signed in with a subscription granting access now; no audience condition names it).
 * - newsletter: the page was reached from a newsletter: `utm_medium` is `email` or `newsletter`, or
 *   `ref` is `newsletter` (case-insensitive), as the page forwards them from its own address.
 * - country: ISO 3166-1 alpha-2 from the request header the operator names (OFFER_COUNTRY_HEADER,
 *   default `CF-IPCountry`); `XX`, `T1` (Tor) and anything not two letters are unknown.
 * - device: `Sec-CH-UA-Mobile` (`?1` mobile, `?0` desktop) when sent, else the User-Agent
 *   ("Mobi", "iPhone", "iPod", or "Android" with "Mobile": mobile; any other: desktop); no
 *   User-Agent at all: unknown.
 * Every condition left empty (or null) matches everyone; a condition set matches only a reader
 * whose fact is known and listed. The conditions of a segment all hold together.
 */
import type { TSegment } from "./offers.schema";

export type Audience = "anonymous" | "registered" | "lapsed" | "subscriber";
type Device = "mobile" | "desktop";

export type ReaderFacts = {
  audience: Audience;
  fromNewsletter: boolean;
  country: string | null;
  device: Device | null;
};

/** Does `segment` hold for a reader with these facts? */
export function matchesSegment(segment: TSegment, facts: ReaderFacts): boolean {
  if (segment.audiences.length && !(segment.audiences as string[]).includes(facts.audience)) return false;
  if (segment.newsletter !== null && segment.newsletter !== facts.fromNewsletter) return false;
  if (segment.countries.length && (facts.country === null || !segment.countries.includes(facts.country))) return false;
  if (segment.devices.length && (facts.device === null || !segment.devices.includes(facts.device))) return false;
  return true;
}

/** The first of `candidates` (already in priority order) whose segment holds, else null. */
export function firstMatching<T extends { segment: TSegment }>(candidates: readonly T[], facts: ReaderFacts): T | null {
  return candidates.find((c) => matchesSegment(c.segment, facts)) ?? null;
}

const NEWSLETTER_MEDIUMS = new Set(["email", "newsletter"]);

/** The newsletter rule: utm_medium email/newsletter, or ref=newsletter. */
export function isFromNewsletter(utmMedium: string | null | undefined, ref: string | null | undefined): boolean {
  const medium = (utmMedium ?? "").trim().toLowerCase();
  return NEWSLETTER_MEDIUMS.has(medium) || (ref ?? "").trim().toLowerCase() === "newsletter";
}

/** A country header's value as an ISO alpha-2 code, or null when unknown. */
export function countryOf(value: string | null | undefined): string | null {
  const code = (value ?? "").trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || code === "XX" || code === "T1") return null;
  return code;
}

const MOBILE_UA = /Mobi|iPhone|iPod|Android.*Mobile/i;

/** Mobile or desktop from the client hint, else the User-Agent; null when neither is sent. */
export function deviceOf(chUaMobile: string | null | undefined, userAgent: string | null | undefined): Device | null {
  const hint = (chUaMobile ?? "").trim();
  if (hint === "?1") return "mobile";
  if (hint === "?0") return "desktop";
  if (!userAgent || !userAgent.trim()) return null;
  return MOBILE_UA.test(userAgent) ? "mobile" : "desktop";
}
