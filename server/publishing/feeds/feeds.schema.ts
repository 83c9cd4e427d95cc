/** Query parameters of the feeds (GET /stories.rss, GET /api/instant-articles.rss) and the AMP story. */
import { z } from "zod";

import { zWholeNumber } from "../../params.schema";
import { refuseNul, zSlugParam } from "../content.schema";

const zSlug = zSlugParam();

const FEED_LIMIT_DEFAULT = 20;
const FEED_LIMIT_MAX = 100;

export const ZFeedQuery = refuseNul(
  z.object({
    /** Only stories of this section (its slug). */
    section: zSlug.optional(),
    /** Only stories with this tag (its slug). */
    tag: zSlug.optional(),
    /** Items in the feed: default 20, at most 100. */
    limit: zWholeNumber({ min: 1, max: FEED_LIMIT_MAX })
      .optional()
      .transform((n) => n ?? FEED_LIMIT_DEFAULT),
  }),
);
export type TFeedQuery = z.infer<typeof ZFeedQuery>;

export const ZAmpStoryQuery = refuseNul(
  z.object({
    /** The story's slug. */
    slug: zSlug,
  }),
);
