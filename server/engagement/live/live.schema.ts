/**
 * The live comment events of a page (docs/engagement.md "Live threads"): what the SSE stream and
 * the polling answer of GET …/pages/{id}/comments.events say. Ids and counts only: the widget
 * reads the comments themselves through the list, which applies the visibility rules.
 */
import { z } from "zod";

/** A position in a page's events: the id of the last event seen ("0": before any). */
export const ZLiveCursor = z
  .string()
  .regex(/^\d{1,18}$/, "a cursor is the id of an event: digits, as an event's `id` gives it");

export const ZLiveEventsQuery = z.object({
  /** Catch up from here (the SSE stream also takes it as the Last-Event-ID header). */
  since: ZLiveCursor.optional(),
  /** Sent by the widget with every call; not needed here. */
  jwt: z.string().optional(),
});

/** What changed in the page's visible thread since the previous cursor. */
export type TLiveChange = {
  cursor: string;
  /** Comments that appeared (new, approved, restored). */
  created: number[];
  /** Shown comments whose body changed. */
  edited: number[];
  /** Comments no longer shown (hidden, held, deleted): only their ids. */
  removed: number[];
  /** The page's visible comments now (the list's total_count). */
  total_count: number;
};

/** The state of a page's thread as a stream opens or a poll answers. */
export type TLiveState = {
  cursor: string;
  total_count: number;
  /** When the newest visible comment of the page was written (null: none). */
  latest_comment_at: string | null;
};

/** The polling answer: the state, and what changed since `since` (resync: too far back, read the list again). */
export type TLivePoll = TLiveState & {
  created: number[];
  edited: number[];
  removed: number[];
  resync: boolean;
};
