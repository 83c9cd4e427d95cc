/**
 * Following a page's comments live (docs/engagement.md "Live threads"): the SSE stream through
 * this instance's hub, or one polling answer. Both name only comment ids, kinds and counts; the
 * widget reads the comments through the list, which applies the visibility rules.
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { decodePageId, findPage } from "../pages";
import { summarizeEvents } from "./changes";
import { eventsAfter, pageLiveState } from "./events";
import type { LiveHub } from "./hub";
import { ZLiveCursor, type TLivePoll } from "./live.schema";

/**
 * Where to catch up from: the Last-Event-ID header (a reconnecting EventSource sends it) over the
 * `since` query parameter; null for neither. BAD_REQUEST for a header that is no cursor.
 */
export function sinceOf(lastEventId: string | null, since: string | undefined): bigint | null {
  if (lastEventId !== null && lastEventId.trim() !== "") {
    const parsed = ZLiveCursor.safeParse(lastEventId.trim());
    if (!parsed.success)
      throw new AppError("BAD_REQUEST", "The Last-Event-ID header is not a cursor of this stream.", {
        details: [{ field: "headers.last-event-id", issue: parsed.error.issues[0]!.message }],
      });
    return BigInt(parsed.data);
  }
  return since === undefined ? null : BigInt(since);
}

const NOTHING = { created: [], edited: [], removed: [] };

/**
 * What changed on the page after `since` (none: only the state), and its state. A page nobody
 * has commented on answers an empty state (cursor "0"), as the list answers it empty.
 */
export async function pollPageEvents(
  db: Db,
  args: { accountId: number; encodedUrl: string; since: bigint | null },
): Promise<TLivePoll> {
  const page = await findPage(db, args.accountId, decodePageId(args.encodedUrl, "params.encoded_url"));
  if (!page) return { cursor: "0", total_count: 0, latest_comment_at: null, ...NOTHING, resync: false };
  const state = await pageLiveState(db, args.accountId, page.id);
  if (args.since === null || args.since.toString() === state.cursor) return { ...state, ...NOTHING, resync: false };
  const caught = await eventsAfter(db, page.id, args.since);
  const change = caught.resync ? null : summarizeEvents(caught.events, state.total_count);
  return {
    ...state,
    created: change?.created ?? [],
    edited: change?.edited ?? [],
    removed: change?.removed ?? [],
    resync: caught.resync,
  };
}

/**
 * The page's SSE stream (see LiveHub.open); null for a page nobody has commented on (no page yet:
 * the widget polls until there is one).
 */
export async function openPageStream(
  db: Db,
  hub: LiveHub,
  args: { accountId: number; encodedUrl: string; since: bigint | null; signal?: AbortSignal; client?: string },
): Promise<ReadableStream<Uint8Array> | null> {
  const page = await findPage(db, args.accountId, decodePageId(args.encodedUrl, "params.encoded_url"));
  if (!page) return null;
  const { encodedUrl: _url, ...rest } = args;
  return hub.open({ ...rest, pageId: page.id });
}
