/**
 * The activity feed of the engagement API (docs/engagement.md, "Activity feed"): what the feed
 * widget sends and gets back. Field names are snake_case (area A).
 */
import { z } from "zod";

import { zWholeNumber } from "../params.schema";
import type { TCommentWire } from "./comments.schema";

/** Items per feed page: default and most (more is 400). */
const FEED_LIMIT = { default: 20, max: 50 };

const zLimit = zWholeNumber({ min: 1, max: FEED_LIMIT.max });

const zCursor = z.string().min(1).max(200);

/** GET /api/v1/accounts/<id>/feed */
export const ZFeedQuery = z.object({
  jwt: z.string().optional(),
  limit: zLimit.default(FEED_LIMIT.default),
  /** Opaque: `next_cursor` of the previous page. */
  cursor: zCursor.optional(),
  /** Only this page's comments: a page id (base64 of the URL), as in the comment paths. */
  page: z.string().min(1).optional(),
});
export type TFeedQuery = z.output<typeof ZFeedQuery>;

/** GET /api/v1/accounts/<id>/feed/me */
export const ZMyFeedQuery = z.object({
  jwt: z.string().optional(),
  limit: zLimit.default(FEED_LIMIT.default),
  cursor: zCursor.optional(),
  /**
   * An ISO 8601 time (the `created_at` of the newest item the widget showed): the answer's
   * `unread_count` counts replies and mentions newer than it.
   */
  since: z.iso
    .datetime({ offset: true })
    .transform((s) => new Date(s))
    .optional(),
});
export type TMyFeedQuery = z.output<typeof ZMyFeedQuery>;

export const ZFeedParams = z.object({ account_id: z.string() });

/** The page a feed item's comment is on. */
export type TFeedPage = { id: number; url: string; headline: string | null; hero_image_url: string | null };

/** What an item of the reader's own feed is: their comment, a reply to one of theirs, or a mention of them. */
export type TFeedItemType = "own_comment" | "reply" | "mention";

export type TFeedItem = { comment: TCommentWire; page: TFeedPage };

export type TMyFeedItem = TFeedItem & {
  type: TFeedItemType;
  /** The reader's own comment waits for a moderator (is_published false): only its author sees it. */
  held: boolean;
};

export type TFeed<T = TFeedItem> = {
  items: T[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
};

export type TMyFeed = TFeed<TMyFeedItem> & {
  /** With `since`: replies and mentions newer than it (at most 50); null without. */
  unread_count: number | null;
};
