/**
 * The live notices and changes as values (pure): what a notice on the live channel says, and a
 * run of a page's events as the one change its streams are sent.
 */
import type { TLiveChange } from "./live.schema";

/** A notice: a statement committed events `from`..`to` on `page` of `account`. */
type LiveNotice = { account: number; page: number; from: bigint; to: bigint };

/** A notice's content, or null for anything that is not one. */
export function readLiveNotice(payload: string | undefined): LiveNotice | null {
  try {
    const notice = JSON.parse(payload ?? "") as Record<string, unknown> | null;
    if (!notice || typeof notice !== "object") return null;
    const { account, page, from, to } = notice;
    if (!Number.isInteger(account) || !Number.isInteger(page) || !Number.isInteger(from) || !Number.isInteger(to))
      return null;
    return { account: account as number, page: page as number, from: BigInt(from as number), to: BigInt(to as number) };
  } catch {
    return null;
  }
}

export type LiveEvent = { id: bigint; commentId: number; kind: string };

/** Events as one change: each comment once, under its last kind (created then removed: removed). */
export function summarizeEvents(events: readonly LiveEvent[], totalCount: number): TLiveChange | null {
  if (events.length === 0) return null;
  const last = new Map<number, string>();
  let cursor = events[0]!.id;
  for (const event of events) {
    last.delete(event.commentId);
    last.set(event.commentId, event.kind);
    if (event.id > cursor) cursor = event.id;
  }
  const of = (kind: string) => [...last].filter(([, k]) => k === kind).map(([id]) => id);
  return {
    cursor: cursor.toString(),
    created: of("created"),
    edited: of("edited"),
    removed: of("removed"),
    total_count: totalCount,
  };
}
