/**
 * Which stories convert: the loading half (docs/subscriptions.md "Which stories convert"). Reads
 * the range's wall hits (and the 24 hours before it, where a conversion in the range may have
 * started), the links of the readers who hit, the linked members' conversions in the range with
 * the revenue of each subscription's first 30 days, and the stories' sections, authors and tags;
 * then ./conversion-figures.ts counts. Days are the account's (`accounts.time_zone`).
 */
import "server-only";

import { getAccountTimeZone } from "../../accounts/time-zone";
import { lastZonedDays } from "../../dates.schema";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { parseInput } from "../../validation";
import { TRIAL_AUTHORIZATION_SQL } from "../checkout/trial-history";
import {
  conversionFigures,
  type ConversionEvent,
  type ConversionFigures,
  type Money,
  type ReaderLink,
  type StoryMeta,
  type WallHit,
} from "./conversion-figures";
import {
  ZConversionsInput,
  ZStoryConversionsInput,
  type TConversionGroup,
  type TConversionsInput,
} from "./conversions.schema";
import { rangeBounds } from "./revenue.schema";

type Facts = { hits: WallHit[]; links: ReaderLink[]; events: ConversionEvent[]; stories: StoryMeta[] };

const num = (v: unknown) => (typeof v === "bigint" ? Number(v) : Number(v ?? 0));
const labels = (v: unknown) => ((v ?? []) as [number, string][]).map(([id, name]) => ({ id: num(id), name }));

/** Hits, links, conversions and stories for the range [start, end). */
async function loadFacts(db: Db, accountId: number, start: Date, end: Date): Promise<Facts> {
  const from = new Date(start.getTime() - 24 * 60 * 60 * 1000);
  const hitRows = await db.$queryRaw<{ story_id: string; reader_id: string; first_at: Date; last_at: Date }[]>`
    SELECT story_id::text AS story_id, reader_id, first_at, last_at FROM conversion_wall_hits
    WHERE account_id = ${accountId} AND last_at >= ${from}::timestamptz AND first_at < ${end}::timestamptz`;
  const readerIds = JSON.stringify([...new Set(hitRows.map((h) => h.reader_id))]);
  const storyIds = JSON.stringify([...new Set(hitRows.map((h) => h.story_id))]);
  const [linkRows, eventRows, storyRows] = await Promise.all([
    db.$queryRaw<{ reader_id: string; member_id: number }[]>`
      SELECT reader_id, member_id FROM conversion_reader_links
      WHERE account_id = ${accountId} AND reader_id IN (SELECT value FROM json_array_elements_text(${readerIds}::json))`,
    db.$queryRaw<{ member_id: number; kind: string; at: Date; revenue: [string, number][] | null }[]>`
      WITH linked AS (
        SELECT DISTINCT member_id FROM conversion_reader_links
        WHERE account_id = ${accountId} AND reader_id IN (SELECT value FROM json_array_elements_text(${readerIds}::json))
      )
      SELECT m.id AS member_id, 'registered' AS kind, m.created_at AS at, NULL::json AS revenue
      FROM members m JOIN linked l ON l.member_id = m.id
      WHERE m.account_id = ${accountId} AND m.created_at >= ${start}::timestamptz AND m.created_at < ${end}::timestamptz
      UNION ALL
      SELECT s.subscriber_id, CASE WHEN s.trial_ends_at IS NOT NULL THEN 'trial' ELSE 'paid' END, s.created_at,
        (SELECT json_agg(json_build_array(x.currency, x.cents)) FROM (
          SELECT p.currency, SUM(p.amount_cents - p.refunded_cents)::bigint AS cents FROM payments p
          WHERE p.subscription_id = s.id AND p.status IN ('captured', 'refunded')
            AND p.created_at < s.created_at + interval '30 days' AND NOT ${TRIAL_AUTHORIZATION_SQL}
          GROUP BY p.currency) x)
      FROM subscriptions s JOIN linked l ON l.member_id = s.subscriber_id
      WHERE s.account_id = ${accountId} AND s.deleted_at IS NULL AND s.status IN ('active', 'cancelled', 'expired')
        AND s.created_at >= ${start}::timestamptz AND s.created_at < ${end}::timestamptz
        AND (s.trial_ends_at IS NOT NULL OR s.payment_amount_cents > 0)`,
    db.$queryRaw<{ id: string; headline: string; sections: unknown; authors: unknown; tags: unknown }[]>`
      SELECT s.id::text AS id, s.headline,
        (SELECT json_agg(json_build_array(x.id, x.display_name) ORDER BY j.position, x.id)
          FROM story_sections j JOIN sections x ON x.id = j.section_id WHERE j.story_id = s.id) AS sections,
        (SELECT json_agg(json_build_array(x.id, x.name) ORDER BY j.position, x.id)
          FROM story_authors j JOIN authors x ON x.id = j.author_id WHERE j.story_id = s.id) AS authors,
        (SELECT json_agg(json_build_array(x.id, x.name) ORDER BY j.position, x.id)
          FROM story_tags j JOIN tags x ON x.id = j.tag_id WHERE j.story_id = s.id) AS tags
      FROM stories s
      WHERE s.account_id = ${accountId} AND s.id IN (SELECT value::uuid FROM json_array_elements_text(${storyIds}::json))`,
  ]);
  return {
    hits: hitRows.map((h) => ({ storyId: h.story_id, readerId: h.reader_id, firstAt: h.first_at, lastAt: h.last_at })),
    links: linkRows.map((l) => ({ readerId: l.reader_id, memberId: num(l.member_id) })),
    events: eventRows.map((e) => ({
      memberId: num(e.member_id),
      kind: e.kind as ConversionEvent["kind"],
      at: e.at,
      revenue: (e.revenue ?? []).map(([currency, cents]): Money => ({ currency, cents: num(cents) })),
    })),
    stories: storyRows.map((s) => ({
      id: s.id,
      headline: s.headline,
      sections: labels(s.sections),
      authors: labels(s.authors),
      tags: labels(s.tags),
    })),
  };
}

/** The Conversions page: the range's figures per day and per story, section, author or tag. */
export async function storyConversions(
  db: Db,
  args: { accountId: number; input: TConversionsInput },
): Promise<ConversionFigures & { by: TConversionGroup; from: string; to: string }> {
  const input = parseInput(ZConversionsInput, args.input);
  const zone = await getAccountTimeZone(db, args.accountId);
  const { start, end, days } = rangeBounds(input, zone);
  const facts = await loadFacts(db, args.accountId, start, end);
  const figures = conversionFigures({ start, end, zone, days, by: input.by, ...facts });
  return { ...figures, by: input.by, from: input.from, to: input.to };
}

/** The story editor's panel: one story's figures (the last 30 days of the account's zone unless a range is given). */
export async function oneStoryConversions(
  db: Db,
  args: { accountId: number; storyId: string; range?: { from: string; to: string }; now: Date },
) {
  const input = parseInput(ZStoryConversionsInput, { storyId: args.storyId, range: args.range });
  const story = await db.story.findFirst({
    where: { id: input.storyId, accountId: args.accountId },
    select: { id: true },
  });
  if (!story) throw new AppError("NOT_FOUND", "No story with this id.");
  const zone = await getAccountTimeZone(db, args.accountId);
  const last30 = lastZonedDays(args.now, 30, zone);
  const range = input.range ?? { from: last30[0]!, to: last30.at(-1)! };
  const { start, end, days } = rangeBounds(range, zone);
  const facts = await loadFacts(db, args.accountId, start, end);
  const figures = conversionFigures({ start, end, zone, days, by: "story", ...facts });
  const row = figures.rows.find((r) => r.key === story.id);
  return {
    ...range,
    readers: row?.readers ?? 0,
    registered: row?.registered ?? 0,
    trials: row?.trials ?? 0,
    paid: row?.paid ?? 0,
    sameVisit: row?.sameVisit ?? 0,
    revenue: row?.revenue ?? [],
  };
}
