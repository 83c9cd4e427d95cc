/**
 * The reader's browsers for their export (docs/subscriptions.md "Which stories convert"): each
 * anonymous reader id linked to them (how and when), with the story walls it met, by day.
 */
import "server-only";

import type { Db } from "../../db/client";
import { iso } from "./format";

export async function collectReaderIds(db: Db, accountId: number, memberId: number) {
  const links = await db.conversionReaderLink.findMany({
    where: { accountId, memberId },
    orderBy: { linkedAt: "asc" },
    select: { readerId: true, via: true, linkedAt: true },
  });
  const hits = links.length
    ? await db.conversionWallHit.findMany({
        where: { accountId, readerId: { in: links.map((l) => l.readerId) } },
        orderBy: [{ day: "asc" }, { id: "asc" }],
        select: { readerId: true, storyId: true, wall: true, day: true, story: { select: { headline: true } } },
      })
    : [];
  return links.map((l) => ({
    reader_id: l.readerId,
    linked_via: l.via,
    linked_at: iso(l.linkedAt),
    walls_met: hits
      .filter((h) => h.readerId === l.readerId)
      .map((h) => ({
        day: h.day.toISOString().slice(0, 10),
        story_id: h.storyId,
        headline: h.story.headline,
        wall: h.wall,
      })),
  }));
}
