/**
 * Which stories convert (docs/subscriptions.md "Which stories convert", decision 0054): the pure
 * half. Given the wall hits, which reader ids belong to which members, and the members'
 * conversions (registered, started a trial, started a paid subscription, with the revenue of the
 * subscription's first 30 days), attribute each conversion to the story whose wall the member's
 * readers hit last within 24 hours before it, and count per story, per section, author or tag,
 * and per day of the account's zone. No IO: ./conversion-load.ts reads the facts.
 *
 * Vocabulary: a *reader* is an anonymous reader id (one per device and browser); a *person* is
 * the member a reader id is linked to (the lowest member id when several share a device), else
 * the reader id itself: two devices of one member hitting one story are one reader of it.
 */
import { dayInZone } from "../../dates.schema";

/** A conversion is attributed to a wall hit at most this long before it. */
const ATTRIBUTION_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A conversion this soon after the hit is in the same visit. */
const SAME_VISIT_MS = 30 * 60 * 1000;

export type Money = { currency: string; cents: number };
/** One row of conversion_wall_hits: a reader's hits of one story's wall on one UTC day. */
export type WallHit = { storyId: string; readerId: string; firstAt: Date; lastAt: Date };
export type ReaderLink = { readerId: string; memberId: number };
type ConversionKind = "registered" | "trial" | "paid";
export type ConversionEvent = { memberId: number; kind: ConversionKind; at: Date; revenue: Money[] };
type Label = { id: number; name: string };
export type StoryMeta = { id: string; headline: string; sections: Label[]; authors: Label[]; tags: Label[] };
type Grouping = "story" | "section" | "author" | "tag";

export type Attribution = { event: ConversionEvent; storyId: string; hitAt: Date; sameVisit: boolean };

type Counts = { readers: number; registered: number; trials: number; paid: number; sameVisit: number };
type ConversionRow = Counts & { key: string; label: string; revenue: Money[] };
type ConversionDay = { day: string; readers: number; registered: number; trials: number; paid: number };
export type ConversionFigures = { days: ConversionDay[]; rows: ConversionRow[]; totals: Counts & { revenue: Money[] } };

/** Reader ids of each member. */
function readersByMember(links: readonly ReaderLink[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const link of links) {
    const list = out.get(link.memberId);
    if (list) list.push(link.readerId);
    else out.set(link.memberId, [link.readerId]);
  }
  return out;
}

/** The person a reader id counts as: its lowest linked member, else itself. */
export function personOf(links: readonly ReaderLink[]): (readerId: string) => string {
  const member = new Map<string, number>();
  for (const link of links) {
    const known = member.get(link.readerId);
    if (known === undefined || link.memberId < known) member.set(link.readerId, link.memberId);
  }
  return (readerId) => {
    const id = member.get(readerId);
    return id === undefined ? `r:${readerId}` : `m:${id}`;
  };
}

/**
 * The latest moment of `hit` not after `at`: a row keeps its day's first hit and its last one
 * (moved on at most every 30 minutes), so the moments known are those two.
 */
function hitMomentBefore(hit: WallHit, at: number): number | null {
  if (hit.lastAt.getTime() <= at) return hit.lastAt.getTime();
  if (hit.firstAt.getTime() <= at) return hit.firstAt.getTime();
  return null;
}

/**
 * Each conversion's story: the wall its member's readers hit last, at most 24 hours before it
 * (ties: the lower story id). Conversions with no such hit are not attributed (left out).
 */
export function attributeConversions(
  events: readonly ConversionEvent[],
  hits: readonly WallHit[],
  links: readonly ReaderLink[],
): Attribution[] {
  const readers = readersByMember(links);
  const hitsOf = new Map<string, WallHit[]>();
  for (const hit of hits) {
    const list = hitsOf.get(hit.readerId);
    if (list) list.push(hit);
    else hitsOf.set(hit.readerId, [hit]);
  }
  const out: Attribution[] = [];
  for (const event of events) {
    const at = event.at.getTime();
    let best: { storyId: string; moment: number } | null = null;
    for (const readerId of readers.get(event.memberId) ?? []) {
      for (const hit of hitsOf.get(readerId) ?? []) {
        const moment = hitMomentBefore(hit, at);
        if (moment === null || at - moment > ATTRIBUTION_WINDOW_MS) continue;
        if (!best || moment > best.moment || (moment === best.moment && hit.storyId < best.storyId))
          best = { storyId: hit.storyId, moment };
      }
    }
    if (best)
      out.push({
        event,
        storyId: best.storyId,
        hitAt: new Date(best.moment),
        sameVisit: at - best.moment <= SAME_VISIT_MS,
      });
  }
  return out;
}

/** Sum money per currency, sorted by currency. */
function addMoney(into: Map<string, number>, money: readonly Money[]): void {
  for (const m of money) into.set(m.currency, (into.get(m.currency) ?? 0) + m.cents);
}
const moneyList = (sums: Map<string, number>): Money[] =>
  [...sums].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, cents]) => ({ currency, cents }));

/** The groups a story belongs to under `by` (a story without a section, author or tag: one "none" group). */
function groupsOf(story: StoryMeta | undefined, storyId: string, by: Grouping): { key: string; label: string }[] {
  if (by === "story") return [{ key: storyId, label: story?.headline ?? storyId }];
  const labels = by === "section" ? story?.sections : by === "author" ? story?.authors : story?.tags;
  if (!labels?.length) return [{ key: "none", label: `No ${by}` }];
  return labels.map((l) => ({ key: String(l.id), label: l.name }));
}

type Acc = { label: string; readers: Set<string>; counts: Counts; revenue: Map<string, number> };
const emptyCounts = (): Counts => ({ readers: 0, registered: 0, trials: 0, paid: 0, sameVisit: 0 });
const KIND_FIELD = { registered: "registered", trial: "trials", paid: "paid" } as const;

/**
 * The figures of [start, end): readers who hit a wall (hits whose first moment is in the range),
 * conversions in the range attributed to a story, per group (`by`) and per day of `zone`
 * (`days`, the range's days in order). Rows: every group with a hit or a conversion.
 */
export function conversionFigures(args: {
  start: Date;
  end: Date;
  zone: string;
  days: readonly string[];
  by: Grouping;
  hits: readonly WallHit[];
  links: readonly ReaderLink[];
  events: readonly ConversionEvent[];
  stories: readonly StoryMeta[];
}): ConversionFigures {
  const [start, end] = [args.start.getTime(), args.end.getTime()];
  const inRange = (t: Date) => t.getTime() >= start && t.getTime() < end;
  const person = personOf(args.links);
  const storyById = new Map(args.stories.map((s) => [s.id, s]));
  const groups = new Map<string, Acc>();
  const accOf = (g: { key: string; label: string }) => {
    let acc = groups.get(g.key);
    if (!acc)
      groups.set(g.key, (acc = { label: g.label, readers: new Set(), counts: emptyCounts(), revenue: new Map() }));
    return acc;
  };
  const dayReaders = new Map<string, Set<string>>();
  const dayCounts = new Map<string, ConversionDay>(
    args.days.map((day) => [day, { day, readers: 0, registered: 0, trials: 0, paid: 0 }]),
  );
  const allReaders = new Set<string>();

  for (const hit of args.hits) {
    if (!inRange(hit.firstAt)) continue;
    const who = person(hit.readerId);
    allReaders.add(who);
    for (const g of groupsOf(storyById.get(hit.storyId), hit.storyId, args.by)) accOf(g).readers.add(who);
    const day = dayInZone(hit.firstAt, args.zone);
    const set = dayReaders.get(day) ?? new Set<string>();
    dayReaders.set(day, set.add(who));
  }

  const totals = emptyCounts();
  const totalRevenue = new Map<string, number>();
  for (const a of attributeConversions(
    args.events.filter((e) => inRange(e.at)),
    args.hits,
    args.links,
  )) {
    const field = KIND_FIELD[a.event.kind];
    for (const g of groupsOf(storyById.get(a.storyId), a.storyId, args.by)) {
      const acc = accOf(g);
      acc.counts[field] += 1;
      if (a.sameVisit) acc.counts.sameVisit += 1;
      addMoney(acc.revenue, a.event.revenue);
    }
    totals[field] += 1;
    if (a.sameVisit) totals.sameVisit += 1;
    addMoney(totalRevenue, a.event.revenue);
    const day = dayCounts.get(dayInZone(a.event.at, args.zone));
    if (day) day[field] += 1;
  }

  totals.readers = allReaders.size;
  const rows = [...groups].map(([key, acc]) => ({
    key,
    label: acc.label,
    ...acc.counts,
    readers: acc.readers.size,
    revenue: moneyList(acc.revenue),
  }));
  rows.sort((a, b) => b.paid - a.paid || b.readers - a.readers || (a.label < b.label ? -1 : 1));
  const days = [...dayCounts.values()].map((d) => ({ ...d, readers: dayReaders.get(d.day)?.size ?? 0 }));
  return { days, rows, totals: { ...totals, revenue: moneyList(totalRevenue) } };
}
