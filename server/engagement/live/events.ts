/**
 * Reading a page's live events (comment_live_events: migration 20261127050000_live_threads, which
 * the database writes as comments change, and announces at commit on the deployment's live
 * channel, one notice per page naming the id range it wrote). Every instance's hub reads what a
 * notice names once, whatever the number of open streams.
 */
import "server-only";

import type { Db } from "../../db/client";
import { visibleCommentStats } from "../comment-queries";
import { VISIBLE } from "../comments";
import type { LiveEvent } from "./changes";
import type { TLiveState } from "./live.schema";

/** The live channel of a database schema (as the migration's trigger names it: at most 63 bytes). */
export function liveChannel(schema: string): string {
  return `masthead_live_${schema}`.slice(0, 63);
}

const EVENT_FIELDS = { id: true, commentId: true, kind: true } as const;

/** The page's events in an id range (what a notice names), in order. */
export function eventsInRange(db: Db, pageId: number, from: bigint, to: bigint): Promise<LiveEvent[]> {
  return db.commentLiveEvent.findMany({
    where: { pageId, id: { gte: from, lte: to } },
    orderBy: { id: "asc" },
    select: EVENT_FIELDS,
  });
}

/** Most events a catch-up reads; more, and the reader reads the list again instead. */
const CATCH_UP_LIMIT = 500;

/**
 * The page's events after `since`. `resync`: they cannot be told exactly (the event `since` names
 * is no longer kept, or is not this page's, or more than CATCH_UP_LIMIT followed it): read the
 * list again. "0" is before any event: every kept event followed it.
 */
export async function eventsAfter(
  db: Db,
  pageId: number,
  since: bigint,
): Promise<{ events: LiveEvent[]; resync: boolean }> {
  if (since > 0n) {
    const known = await db.commentLiveEvent.findFirst({ where: { id: since, pageId }, select: { id: true } });
    if (!known) return { events: [], resync: true };
  }
  const events = await db.commentLiveEvent.findMany({
    where: { pageId, id: { gt: since } },
    orderBy: { id: "asc" },
    take: CATCH_UP_LIMIT + 1,
    select: EVENT_FIELDS,
  });
  if (events.length > CATCH_UP_LIMIT) return { events: [], resync: true };
  return { events, resync: false };
}

/** The page's visible comments now. */
export async function pageTotalCount(db: Db, accountId: number, pageId: number): Promise<number> {
  return (await visibleCommentStats(db, accountId, [pageId])).get(pageId)?.total ?? 0;
}

/** The page's newest event, visible count and newest visible comment's time. */
export async function pageLiveState(db: Db, accountId: number, pageId: number): Promise<TLiveState> {
  const [last, total, latest] = await Promise.all([
    db.commentLiveEvent.findFirst({ where: { pageId }, orderBy: { id: "desc" }, select: { id: true } }),
    pageTotalCount(db, accountId, pageId),
    db.comment.aggregate({ where: { accountId, pageId, ...VISIBLE }, _max: { createdAt: true } }),
  ]);
  return {
    cursor: (last?.id ?? 0n).toString(),
    total_count: total,
    latest_comment_at: latest._max.createdAt?.toISOString() ?? null,
  };
}
