/**
 * The leak suite (docs/subscriptions.md "Who gets the paid part", decision 0051): a subscription
 * story's paid paragraphs, each with a marker of its own in another script, walked through every
 * channel that serves stories with every kind of caller (anonymous, registered, metered,
 * subscribed, lapsed, server key), with the response cache on, so that a caller of one class is
 * never answered what was built for another. A caller without access sees none of the paid
 * markers and (where the channel carries text) the free ones; a caller with access sees them all.
 * PGlite and PostgreSQL.
 *
 * A channel is one row of CHANNELS; a route file that serves stories without a row or a reason in
 * NO_STORY_TEXT fails the route list check.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

import { describe, expect, it } from "vitest";

import * as instantArticles from "@/app/api/instant-articles.rss/route";
import * as advancedSearch from "@/app/api/v1/advanced-search/route";
import * as ampStory from "@/app/api/v1/amp/story/route";
import * as authorCollection from "@/app/api/v1/authors/[authorId]/collection/route";
import * as breakingNews from "@/app/api/v1/breaking-news/route";
import * as bulkRequestKey from "@/app/api/v1/bulk-request/[key]/route";
import * as bulkRequest from "@/app/api/v1/bulk-request/route";
import * as bulk from "@/app/api/v1/bulk/route";
import * as collection from "@/app/api/v1/collections/[slug]/route";
import * as search from "@/app/api/v1/search/route";
import * as bySlug from "@/app/api/v1/stories-by-slug/route";
import * as related from "@/app/api/v1/stories/[storyId]/related-stories/route";
import * as byId from "@/app/api/v1/stories/[storyId]/route";
import * as stories from "@/app/api/v1/stories/route";
import * as byExternalId from "@/app/api/v1/story-by-external-id/[externalId]/route";
import * as rss from "@/app/stories.rss/route";
import { createApiKey } from "@/server/auth/api-keys";
import { getDb } from "@/server/db";
import { sendContent } from "@/server/newsletters/send-content";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import {
  CALLERS,
  FREE_MARKERS,
  markersIn,
  PAID_MARKERS,
  seedLeakNewsroom,
  type Caller,
  type CallerRequest,
  type LeakNewsroom,
} from "@/server/testing/paywall-leak-fixture";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { enableResponseCache } from "@/server/testing/response-cache";
import type { RouteHandlerFn, RouteParams } from "@/server/testing/route-calls";

enableResponseCache();

/**
 * Who has access on a channel: "gated", the story reads that take `check-access` (the server key,
 * and readers the decision grants); "api", the other content API reads (the server key); "free",
 * channels that always carry the free part (feeds, AMP); "mail", a story mailed (subscribers);
 * "headlines", channels that carry no body at all.
 */
type Kind = "gated" | "api" | "free" | "mail" | "headlines";
type Served = { status: number; body: string };
type Channel = {
  name: string;
  kind: Kind;
  /** The route files the row covers (relative to the repository), for the route list check. */
  routes: string[];
  /** What the caller is answered; null when the channel has no such caller (a mail to the server key). */
  serve: (n: LeakNewsroom, who: CallerRequest) => Promise<Served | null>;
};

const GRANTED: Record<Kind, readonly Caller[]> = {
  gated: ["metered", "subscribed", "server-key"],
  api: ["server-key"],
  free: [],
  mail: ["subscribed"],
  headlines: [],
};

async function call(
  handler: RouteHandlerFn,
  path: string,
  who: CallerRequest,
  options: { params?: RouteParams; method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const url = new URL(`http://localhost${path}`);
  for (const [name, value] of Object.entries(who.query)) url.searchParams.set(name, value);
  const init: RequestInit = {
    method: options.method ?? "GET",
    headers: { host: "localhost", ...who.headers, ...options.headers },
  };
  if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  return handler(new Request(url, init), { params: Promise.resolve(options.params ?? {}) });
}

const text = async (res: Response): Promise<Served> => ({ status: res.status, body: await res.text() });
const get =
  (handler: RouteHandlerFn, path: string, params: RouteParams = {}, headers: Record<string, string> = {}) =>
  (n: LeakNewsroom, who: CallerRequest) =>
    call(handler, path, who, { params, headers }).then(text);

const BULK = { requests: { latest: { _type: "stories" } } };

async function mailed(
  n: LeakNewsroom,
  who: CallerRequest,
  send: { kind: string; storyId: string | null; collectionId: number | null },
) {
  if (who.memberId === null) return null;
  const content = await sendContent(n.db, {
    send: { ...send, subject: "Today" },
    newsletter: { name: "Daily", design: {}, accountId: n.account.id },
    appUrl: "http://localhost:3000",
    now: new Date(),
  });
  await content.prepare([who.memberId]);
  const template = content.templateFor(who.memberId);
  return { status: 200, body: `${template.html}\n${template.text}` };
}

const CHANNELS: Channel[] = [
  {
    name: "story by id",
    kind: "gated",
    routes: ["app/api/v1/stories/[storyId]/route.ts"],
    serve: (n, who) => get(byId.GET, `/api/v1/stories/${n.story.id}`, { storyId: n.story.id })(n, who),
  },
  {
    name: "story by slug",
    kind: "gated",
    routes: ["app/api/v1/stories-by-slug/route.ts"],
    serve: get(bySlug.GET, "/api/v1/stories-by-slug?slug=money/leakproof-ledger"),
  },
  {
    name: "story by external id",
    kind: "api",
    routes: ["app/api/v1/story-by-external-id/[externalId]/route.ts"],
    serve: get(byExternalId.GET, "/api/v1/story-by-external-id/legacy-ledger", { externalId: "legacy-ledger" }),
  },
  {
    name: "stories list",
    kind: "api",
    routes: ["app/api/v1/stories/route.ts"],
    serve: get(stories.GET, "/api/v1/stories"),
  },
  {
    name: "bulk",
    kind: "api",
    routes: ["app/api/v1/bulk/route.ts"],
    serve: (n, who) => call(bulk.POST, "/api/v1/bulk", who, { method: "POST", body: BULK }).then(text),
  },
  {
    name: "bulk-request",
    kind: "api",
    routes: ["app/api/v1/bulk-request/route.ts", "app/api/v1/bulk-request/[key]/route.ts"],
    serve: async (n, who) => {
      const posted = await call(bulkRequest.POST, "/api/v1/bulk-request", who, { method: "POST", body: BULK });
      expect(posted.status).toBe(303);
      const location = posted.headers.get("location")!;
      const key = decodeURIComponent(location.split("/").pop()!);
      return text(await call(bulkRequestKey.GET, location, who, { params: { key } }));
    },
  },
  {
    name: "collection",
    kind: "api",
    routes: ["app/api/v1/collections/[slug]/route.ts"],
    serve: get(collection.GET, "/api/v1/collections/leak-home?story-fields=headline,cards", { slug: "leak-home" }),
  },
  {
    name: "related stories",
    kind: "api",
    routes: ["app/api/v1/stories/[storyId]/related-stories/route.ts"],
    serve: (n, who) =>
      get(related.GET, `/api/v1/stories/${n.neighbour.id}/related-stories`, { storyId: n.neighbour.id })(n, who),
  },
  {
    name: "search",
    kind: "api",
    routes: ["app/api/v1/search/route.ts"],
    serve: get(search.GET, "/api/v1/search?q=leakproof"),
  },
  {
    name: "advanced search",
    kind: "api",
    routes: ["app/api/v1/advanced-search/route.ts"],
    serve: get(advancedSearch.GET, "/api/v1/advanced-search?q=leakproof"),
  },
  {
    name: "author's collection",
    kind: "api",
    routes: ["app/api/v1/authors/[authorId]/collection/route.ts"],
    serve: (n, who) =>
      get(authorCollection.GET, `/api/v1/authors/${n.author.id}/collection`, { authorId: String(n.author.id) })(n, who),
  },
  {
    name: "breaking news",
    kind: "api",
    routes: ["app/api/v1/breaking-news/route.ts"],
    serve: get(breakingNews.GET, "/api/v1/breaking-news"),
  },
  { name: "RSS", kind: "free", routes: ["app/stories.rss/route.ts"], serve: get(rss.GET, "/stories.rss") },
  {
    name: "instant articles",
    kind: "free",
    routes: ["app/api/instant-articles.rss/route.ts"],
    serve: get(instantArticles.GET, "/api/instant-articles.rss"),
  },
  {
    name: "AMP story page",
    kind: "free",
    routes: ["app/api/v1/amp/story/route.ts"],
    serve: get(ampStory.GET, "/api/v1/amp/story?slug=money/leakproof-ledger", {}, { accept: "text/html" }),
  },
  {
    name: "AMP story JSON",
    kind: "free",
    routes: ["app/api/v1/amp/story/route.ts"],
    serve: get(ampStory.GET, "/api/v1/amp/story?slug=money/leakproof-ledger", {}, { accept: "application/json" }),
  },
  {
    name: "newsletter (the story mailed)",
    kind: "mail",
    routes: [],
    serve: (n, who) => mailed(n, who, { kind: "story", storyId: n.story.id, collectionId: null }),
  },
  {
    name: "digest",
    kind: "headlines",
    routes: [],
    serve: (n, who) => mailed(n, who, { kind: "digest", storyId: null, collectionId: n.collection.id }),
  },
];

/** Route files that serve stories' wire forms or pages but carry no paid text, and why. */
const NO_STORY_TEXT: Record<string, string> = {
  "app/api/v1/preview/[token]/route.ts": "staff's private preview link of a draft: the whole story, by design",
  "app/preview/[token]/route.ts": "staff's private preview page of a draft",
  "app/preview/[token]/amp/route.ts": "staff's private AMP preview of a draft",
  "app/api/v1/stories/[storyId]/attributes/route.ts": "the story's attributes only",
  "app/api/v1/amp/config/route.ts": "the publisher's AMP settings",
  "app/api/v1/config/route.ts": "the publisher's config",
  "app/api/v1/authors/route.ts": "authors",
  "app/api/authors/route.ts": "authors (the bare array the original client reads)",
  "app/api/v1/authors/[authorId]/route.ts": "one author",
  "app/api/v1/custom-urls/[...path]/route.ts": "redirects and static pages, never a story",
  "app/api/v1/entities/route.ts": "entities",
  "app/api/v1/entities/[id]/route.ts": "one entity",
  "app/api/v1/entities/[id]/[...subentity]/route.ts": "an entity's relationships",
  "app/api/v1/entity/[id]/route.ts": "one entity",
  "app/api/v1/entity/[id]/collections/route.ts": "collections naming an entity: ids, names and templates",
  "app/api/v1/menu-groups/route.ts": "menus",
  "app/api/v1/tags/[slug]/route.ts": "one tag",
  "app/demo/paywall/[storyId]/page.tsx": "the demo front end: the rest only through the gated story read",
  "app/demo/paywall/page.tsx": "the demo front end's list: headlines and the first paragraph of the free part",
};

/** Route and page files that serve stories' content: what the route list check holds to a row or a reason. */
function storyServingFiles(): string[] {
  const root = process.cwd();
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/^(route\.ts|page\.tsx)$/.test(entry.name)) {
        const source = readFileSync(path, "utf8");
        if (
          /contentRoute|CONTENT_ROUTES|searchRoute|feedRoute|callerContext|getPreviewStory|buildAmp|storyToWire|loadDemoPaywall|loadDemoPage|previewRoute|runBulk|encodeBulkKey|publishing\/(stories|story-wire|story-view|feeds\/)/.test(
            source,
          )
        )
          found.push(relative(root, path));
      }
    }
  };
  walk(join(root, "app"));
  return found.sort();
}

describe("the route list", () => {
  it("has a row or a reason for every route that serves stories", () => {
    const covered = new Set([...CHANNELS.flatMap((c) => c.routes), ...Object.keys(NO_STORY_TEXT)]);
    const files = storyServingFiles();
    expect(files.filter((f) => !covered.has(f))).toEqual([]);
    expect([...covered].filter((f) => !files.includes(f))).toEqual([]);
  });
});

describe("no paid paragraph to a caller without access, on any channel", () => {
  for (const channel of CHANNELS) {
    it(`${channel.name}: every caller`, async () => {
      const n = await seedLeakNewsroom(await getDb());
      let served = 0;
      for (const caller of CALLERS) {
        const answer = await channel.serve(n, n.requests[caller]);
        if (answer === null) continue;
        served++;
        const what = `${channel.name}, ${caller} (${answer.status})`;
        expect(answer.status, `${what}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
        if (GRANTED[channel.kind].includes(caller)) {
          expect(answer.status, what).toBe(200);
          expect(markersIn(answer.body, PAID_MARKERS), what).toEqual(PAID_MARKERS);
          continue;
        }
        expect(markersIn(answer.body, PAID_MARKERS), what).toEqual([]);
        // The free part is there (the channel answered something), unless denied outright or headlines only.
        if (answer.status === 200 && channel.kind !== "headlines")
          expect(markersIn(answer.body, FREE_MARKERS), what).toEqual(FREE_MARKERS);
      }
      expect(served).toBeGreaterThan(0);
    });
  }
});

describe("the free part's shape, the account's setting and the response cache", () => {
  type StoryBody = { story: Record<string, unknown> & { cards: { "story-elements": unknown[] }[] } };
  const read = async (n: LeakNewsroom, who: CallerRequest, query = "") => {
    const res = await call(byId.GET, `/api/v1/stories/${n.story.id}${query}`, who, { params: { storyId: n.story.id } });
    return { res, body: (await res.json()) as StoryBody };
  };

  it("keeps the fields' shapes, marks that the story continues, and sends the server key's answer private", async () => {
    const n = await seedLeakNewsroom(await getDb());
    const { res, body } = await read(n, n.requests.anonymous);
    expect(res.headers.get("x-cache")).toBe("MISS");
    expect(body.story.cards.map((c) => c["story-elements"].length)).toEqual([2]);
    expect(body.story.paywall).toEqual({ continues: true, "free-elements": 2, "total-elements": 6 });
    expect(body.story.access).toBe("subscription");
    // The server key: all of it, not the kept answer of the anonymous read, and private to shared caches.
    const full = await read(n, n.requests["server-key"]);
    expect(full.res.headers.get("x-cache")).toBe("MISS");
    expect(full.res.headers.get("cache-control")).toMatch(/^private/);
    expect(full.body.story.cards.map((c) => c["story-elements"].length)).toEqual([3, 3]);
    expect(full.body.story).not.toHaveProperty("paywall");
    // Each class is then answered from its own kept answer.
    const again = await read(n, n.requests.anonymous);
    expect(again.res.headers.get("x-cache")).toBe("HIT");
    expect(again.body.story).toHaveProperty("paywall");
    const fullAgain = await read(n, n.requests["server-key"]);
    expect(fullAgain.res.headers.get("x-cache")).toBe("HIT");
    expect(fullAgain.body.story).not.toHaveProperty("paywall");
    // Projected to fields: still cut, still marked.
    const projected = await read(n, n.requests.anonymous, "?fields=headline,cards");
    expect(Object.keys(projected.body.story).sort()).toEqual(["cards", "headline", "id", "paywall"]);
    expect(markersIn(JSON.stringify(projected.body), PAID_MARKERS)).toEqual([]);
  });

  it("refuses a server key of another publication or none valid (401), never downgrading it silently", async () => {
    const n = await seedLeakNewsroom(await getDb());
    const elsewhere = await createTestPublisher(n.db, { domain: "elsewhere.example.com" });
    const other = await createApiKey(n.db, { accountId: elsewhere.id, kind: "SERVER", name: "theirs" });
    for (const key of [other.key, "mh_sk_not_a_key", n.key]) {
      const { res } = await read(n, { query: {}, headers: { "X-SUBAUTH": key }, memberId: null });
      expect(res.status, key).toBe(401);
    }
  });

  it('serves every element to the public content API when the account says "full"; feeds still the free part', async () => {
    const n = await seedLeakNewsroom(await getDb());
    expect(markersIn(JSON.stringify((await read(n, n.requests.anonymous)).body), PAID_MARKERS)).toEqual([]);
    await n.db.account.update({ where: { id: n.account.id }, data: { contentApiAccess: "full" } });
    forgetPublisherCache();
    const { res, body } = await read(n, n.requests.anonymous);
    expect(res.headers.get("x-cache")).toBe("MISS");
    expect(markersIn(JSON.stringify(body), PAID_MARKERS)).toEqual(PAID_MARKERS);
    expect(body.story).not.toHaveProperty("paywall");
    const feed = await get(rss.GET, "/stories.rss")(n, n.requests.anonymous);
    expect(markersIn(feed.body, PAID_MARKERS)).toEqual([]);
    expect(markersIn(feed.body, FREE_MARKERS)).toEqual(FREE_MARKERS);
  });
});
