/**
 * The GET handlers of the public content API, made here once: they serve the publisher's readers
 * (auth "publisher", the publisher found by the Host) and answer a cacheable contentResponse
 * (ETag, 304, Cache-Tag purge keys), kept in the response cache until an event purges one of its
 * keys (`cachedRead`). Each endpoint gives its schemas, its summary and what to load; `load` gets
 * the content context (`ctx`: the account, how stories are shaped, now) and returns the body with
 * the purge keys of what it contains. The stories' and collections' endpoints are in
 * CONTENT_ROUTES, and their route files pick one (`routes({ GET: CONTENT_ROUTES.stories })`):
 *
 *   stories: contentRoute({ query: ZStoriesQuery, summary }, async ({ db, ctx, query }) =>
 *     storiesAnswer(await listPublishedStories(db, { ctx, ...query })),
 *   ),
 */
import type { z } from "zod";

import { getEnv } from "../../env.js";
import { authenticateClient, authenticateServerKey } from "../auth/api-auth";
import type { Db } from "../db/client";
import { AppError, zodIssuesToDetails } from "../errors";
import { getPublishedCollection } from "../publishing/collections";
import {
  ZCollectionParams,
  ZCollectionQuery,
  ZFieldsQuery,
  ZRelatedQuery,
  ZSearchQuery,
  ZStoriesQuery,
  ZStoryBySlugQuery,
  ZStoryIdParams,
  type TSearchQuery,
} from "../publishing/content.schema";
import { ZFeedQuery, type TFeedQuery } from "../publishing/feeds/feeds.schema";
import { RSS_CONTENT_TYPE } from "../publishing/feeds/rss";
import { contentAccessOf } from "../publishing/paid-part";
import type { Publisher } from "../publishing/publisher";
import { searchStories, type SearchResult } from "../publishing/search";
import {
  contentContext,
  getStoryAttributes,
  getStoryById,
  getStoryBySlug,
  listPublishedStories,
  listRelatedStories,
  storyTags,
  withFullAccess,
  type ContentContext,
} from "../publishing/stories";
import type { WireStory } from "../publishing/story-view";
import { decideAccess, recordPingback, toAccessGrant } from "../subscriptions/access/access";
import { ZWebAccessQuery } from "../subscriptions/access/access.schema";
import { cachedRead, type CacheableAnswer } from "./content-cache";
import { searchParamsToObject } from "./request-body";
import { apiRoute, type HandlerContext, type RouteHandler, type RouteOptions } from "./route";

/** What a content route answers: the body (an object, or a document as text) and how to cache it. */
type ContentAnswer = CacheableAnswer;

type ContentRouteOptions<Q extends z.ZodType, P extends z.ZodType> = Omit<
  RouteOptions<"publisher", Q, z.ZodType, P>,
  "auth" | "body" | "bodyTypes" | "maxBodyBytes" | "rawBody"
>;

/**
 * A GET of public content: `load` finds it, the answer is a cacheable contentResponse. The
 * context says what the caller gets of closed stories (`callerContext`); the response cache keeps
 * an answer per access class, and an answer to the server key is private to shared caches.
 */
export function contentRoute<Q extends z.ZodType = z.ZodType, P extends z.ZodType = z.ZodType>(
  options: ContentRouteOptions<Q, P>,
  load: (args: HandlerContext<"publisher", Q, z.ZodType, P> & { ctx: ContentContext }) => Promise<ContentAnswer>,
): RouteHandler {
  return apiRoute({ ...options, auth: "publisher" }, async (args) => {
    const { ctx, serverKey } = await callerContext(args.db, args.req, args.publisher);
    // A read that names its reader (check-access) is theirs alone: built every time, never kept.
    return cachedRead(args.req, args.url, ctx.accountId, () => load({ ...args, ctx }), {
      bypass: args.search.has("check-access"),
      accessClass: ctx.paidPart,
      ...(serverKey ? { cacheControl: "private, max-age=0" } : {}),
    });
  });
}

/**
 * Who is calling the public content API, as a content context (docs/subscriptions.md, "Who gets
 * the paid part"): with the publication's server key in X-SUBAUTH, every element of every story
 * (a wrong key: 401, never a silent downgrade); without, what the account's `contentApiAccess`
 * gives (its free part, or all of it).
 */
export async function callerContext(
  db: Db,
  req: Request,
  publisher: Publisher,
): Promise<{ ctx: ContentContext; serverKey: boolean }> {
  const header = req.headers.get("x-subauth");
  if (header === null) return { ctx: contentContext(publisher), serverKey: false };
  const now = new Date();
  const account = await authenticateServerKey(db, header, now, { cached: true });
  if (account.id !== publisher.accountId)
    throw new AppError("UNAUTHORIZED", "The X-SUBAUTH header is not this publication's server key.");
  const paidPart = contentAccessOf({ serverKey: true, accountSetting: publisher.contentApiAccess });
  return { ctx: contentContext(publisher, now, paidPart), serverKey: true };
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
 * One story, gated by the access decision when the front end asks for it (docs/subscriptions.md,
 * "402 on story reads"): with `check-access=true`, the request names the reader like the web
 * access check does (`key`: the account's client key; `accesstype_jwt` / `svc_jwt` /
 * `masthead_jwt`; `readerId`; `disable-meter`; `count=true` to count a metered read). Granted:
 * the whole story (every element: the decision gave this reader access), with the grant in
 * `access` and private caching (the answer is the reader's). Denied: 402 `{error: {code:
 * "PAYMENT_REQUIRED", message}, access: <grant>}` and no story. Without `check-access` nothing
 * changes: the public, cacheable story, as the caller's context gives it (its free part when
 * the caller has no access). `load` reads the story in the context it is given.
 */
async function gatedStoryAnswer(
  args: { db: Db; search: URLSearchParams; ctx: ContentContext },
  load: (ctx: ContentContext) => Promise<WireStory>,
  id?: string,
): Promise<ContentAnswer> {
  const flag = args.search.get("check-access");
  if (flag !== "true" && flag !== "1") {
    const story = await load(args.ctx);
    return storyAnswer(story, id ?? String(story.id));
  }
  const { db, search, ctx } = args;
  const { account, user } = await authenticateClient(db, search, { user: "optional", cached: true });
  if (account.id !== ctx.accountId)
    throw new AppError("UNAUTHORIZED", "The key parameter is not this publication's key.");
  const query = ZWebAccessQuery.safeParse(searchParamsToObject(search));
  if (!query.success) {
    throw new AppError("BAD_REQUEST", "Invalid query parameters.", {
      details: zodIssuesToDetails(query.error, "query"),
    });
  }
  // Read whole, and sent only after the decision grants it.
  const story = await load(withFullAccess(ctx));
  const common = {
    accountId: ctx.accountId,
    storyId: String(story.id),
    disableMeter: query.data["disable-meter"],
    now: new Date(),
  };
  const decision = query.data.count
    ? await recordPingback(db, { ...common, user, readerId: query.data.readerId })
    : await decideAccess(db, {
        ...common,
        reader: { memberId: null, jwtUserId: user?.id ?? null, readerId: query.data.readerId, loggedIn: Boolean(user) },
        meter: "check",
      });
  const access = toAccessGrant(decision);
  const headers = { "Cache-Control": "private, no-store" };
  if (!access.granted) {
    return {
      body: {
        error: { code: "PAYMENT_REQUIRED", message: "This story is for subscribers: the reader has no access to it." },
        access,
      },
      status: 402,
      headers,
    };
  }
  return { body: { story, access }, tags: [`s/${id ?? String(story.id)}`], headers };
}

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
type FeedBuildRequest = TFeedQuery & { accountId: number; appUrl: string; selfUrl: string };

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
      // The feed's own address at the app's public URL (the request's may name the address it is bound to).
      selfUrl: new URL(url.pathname + url.search, getEnv().APP_URL).toString(),
      ...query,
    });
    return { body: xml, contentType: RSS_CONTENT_TYPE, tags };
  });
}

/** The stories' and collections' endpoints of the content API (/api/v1/stories…, /api/v1/collections/…). */
export const CONTENT_ROUTES = {
  stories: contentRoute(
    {
      query: ZStoriesQuery,
      summary:
        "Published stories: section-id or section (slug), tag, template, story-order or story-group, randomize, not-story-content-ids, fields, limit (20, at most 100), offset.",
    },
    async ({ db, ctx, query }) => storiesAnswer(await listPublishedStories(db, { ctx, ...query })),
  ),
  story: contentRoute(
    {
      params: ZStoryIdParams,
      query: ZFieldsQuery,
      summary:
        "One published story by id: {story}; 400 for a non-UUID, 404 when not published. With check-access=true&key=<client key> (and the reader's accesstype_jwt, readerId, disable-meter, count): {story, access} when the reader may read it, else 402 {error: PAYMENT_REQUIRED, access} without the story. A story not public goes whole to the server key and a granted reader; to others (unless the account serves full stories) its free part with paywall: {continues, free-elements, total-elements}.",
    },
    async ({ db, ctx, search, params, query }) =>
      gatedStoryAnswer(
        { db, search, ctx },
        (ctx) => getStoryById(db, { ctx, id: params.storyId, fields: query.fields }),
        params.storyId,
      ),
  ),
  relatedStories: contentRoute(
    {
      params: ZStoryIdParams,
      query: ZRelatedQuery,
      summary:
        "Stories related to a published story (same section-id or the story's sections, or a shared tag), newest first: {related-stories}. limit 5 by default.",
    },
    async ({ db, ctx, params, query }) => {
      const related = await listRelatedStories(db, {
        ctx,
        storyId: params.storyId,
        sectionId: query["section-id"],
        fields: query.fields,
        limit: query.limit,
        offset: query.offset,
      });
      return { body: { "related-stories": related }, tags: [`s/${params.storyId}`, "stories", ...storyTags(related)] };
    },
  ),
  storyAttributes: contentRoute(
    {
      params: ZStoryIdParams,
      summary:
        'A published story\'s attributes: {"story-id", "story-attributes"} (the story\'s metadata["story-attributes"]).',
    },
    async ({ db, ctx, params }) => {
      return { body: await getStoryAttributes(db, { ctx, storyId: params.storyId }), tags: [`s/${params.storyId}`] };
    },
  ),
  storyBySlug: contentRoute(
    {
      query: ZStoryBySlugQuery,
      summary:
        "One published story by slug: {story}; 404 when no published story has it. With check-access=true&key=<client key> (and the reader's accesstype_jwt, readerId, disable-meter, count): {story, access} when the reader may read it, else 402 {error: PAYMENT_REQUIRED, access} without the story. A story not public goes whole to the server key and a granted reader; to others (unless the account serves full stories) its free part with paywall: {continues, free-elements, total-elements}.",
    },
    async ({ db, ctx, search, query }) =>
      gatedStoryAnswer({ db, search, ctx }, (ctx) =>
        getStoryBySlug(db, { ctx, slug: query.slug, fields: query.fields }),
      ),
  ),
  collection: contentRoute(
    {
      params: ZCollectionParams,
      query: ZCollectionQuery,
      summary:
        "A collection at the top level: {id, slug, name, summary, template, automated, rules, total-count, items, collection-cache-keys, …}. item-type, exclude-story-ids, story-fields, limit (20, at most 100), offset.",
    },
    async ({ db, ctx, params, query }) => {
      const found = await getPublishedCollection(db, { ctx, slug: params.slug, query });
      if (!found) throw new AppError("NOT_FOUND", "No collection with this slug.");
      return { body: found.collection, tags: found.tags };
    },
  ),
};
