/**
 * The GET handlers of the public content API, made here once: they serve the publisher's readers
 * (auth "publisher", the publisher found by the Host) and answer a cacheable contentResponse
 * (ETag, 304, Cache-Tag purge keys). A route file gives its schemas, its summary and what to load;
 * `load` gets the content context (`ctx`: the account, how stories are shaped, now) and returns
 * the body with the purge keys of what it contains.
 *
 *   GET: contentRoute({ query: ZStoriesQuery, summary }, async ({ db, ctx, query }) =>
 *     storiesAnswer(await listPublishedStories(db, { ctx, ...query })),
 *   ),
 */
import type { z } from "zod";

import { getEnv } from "../../env.js";
import type { Db } from "../db/client";
import { ZSearchQuery, type TSearchQuery } from "../publishing/content.schema";
import { ZFeedQuery, type TFeedQuery } from "../publishing/feeds/feeds.schema";
import { RSS_CONTENT_TYPE } from "../publishing/feeds/rss";
import { searchStories, type SearchResult } from "../publishing/search";
import { contentContext, storyTags, type ContentContext } from "../publishing/stories";
import type { WireStory } from "../publishing/story-view";
import { contentResponse, type ContentResponseOptions } from "./content-cache";
import { apiRoute, type HandlerContext, type RouteHandler, type RouteOptions } from "./route";

/** What a content route answers: the body (an object, or a document as text) and how to cache it. */
export type ContentAnswer = { body: unknown } & ContentResponseOptions;

type ContentRouteOptions<Q extends z.ZodType, P extends z.ZodType> = Omit<
  RouteOptions<"publisher", Q, z.ZodType, P>,
  "auth" | "body" | "bodyTypes" | "maxBodyBytes" | "rawBody"
>;

/** A GET of public content: `load` finds it, the answer is a cacheable contentResponse. */
export function contentRoute<Q extends z.ZodType = z.ZodType, P extends z.ZodType = z.ZodType>(
  options: ContentRouteOptions<Q, P>,
  load: (args: HandlerContext<"publisher", Q, z.ZodType, P> & { ctx: ContentContext }) => Promise<ContentAnswer>,
): RouteHandler {
  return apiRoute({ ...options, auth: "publisher" }, async (args) => {
    const { body, ...caching } = await load({ ...args, ctx: contentContext(args.publisher) });
    return contentResponse(args.req, body, caching);
  });
}

/** A list of published stories as {stories}: purged with any story change ("stories") and by each story. */
export const storiesAnswer = (stories: readonly WireStory[]): ContentAnswer => ({
  body: { stories },
  tags: ["stories", ...storyTags(stories)],
});

/** One published story as {story}, purged by its id (by default the story's own). */
export const storyAnswer = (story: WireStory, id = String(story.id)): ContentAnswer => ({
  body: { story },
  tags: [`s/${id}`],
});

/**
 * A GET that searches published stories (ZSearchQuery, ../publishing/search.ts): `shape` lays out
 * the body from what was found; purged like a list of stories.
 */
export function searchRoute(
  summary: string,
  shape: (found: SearchResult, query: TSearchQuery) => unknown,
): RouteHandler {
  return contentRoute({ query: ZSearchQuery, summary }, async ({ db, ctx, query }) => {
    const found = await searchStories(db, { ctx, ...query });
    return { body: shape(found, query), tags: ["stories", ...storyTags(found.stories)] };
  });
}

/** What a feed builder is asked for: the account, the app's URL, the feed's own URL and the query. */
export type FeedBuildRequest = TFeedQuery & { accountId: number; appUrl: string; selfUrl: string };

/**
 * A GET of an RSS 2.0 feed (?section=, ?tag=, ?limit=): `build` makes the document and its purge
 * keys; the answer is cacheable, as RSS.
 */
export function feedRoute(
  summary: string,
  build: (db: Db, request: FeedBuildRequest) => Promise<{ xml: string; tags: string[] }>,
): RouteHandler {
  return contentRoute({ query: ZFeedQuery, produces: "any", summary }, async ({ db, ctx, url, query }) => {
    const { xml, tags } = await build(db, {
      accountId: ctx.accountId,
      appUrl: getEnv().APP_URL,
      selfUrl: url.toString(),
      ...query,
    });
    return { body: xml, contentType: RSS_CONTENT_TYPE, tags };
  });
}
