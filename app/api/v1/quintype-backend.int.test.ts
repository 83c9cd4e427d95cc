// The real @quintype/backend client (what publisher front ends run) against Masthead's content
// route handlers, over real HTTP (server/testing/content-server.ts).
import { Client, Collection, Story } from "@quintype/backend";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { createApiKey } from "@/server/auth/api-keys";
import { getDb } from "@/server/db";
import { startContentServer, type ContentServer } from "@/server/testing/content-server";
import { seedCollections, seedNewsroom, type Newsroom } from "@/server/testing/newsroom-fixture";
import { insertStory, textCards } from "@/server/testing/publishing-factories";

let server: ContentServer;

beforeAll(async () => {
  server = await startContentServer();
  // The client logs every non-2xx ("Error in API …") before its 404 handling turns it into null.
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server.close();
});

async function setup(): Promise<{ n: Newsroom; client: Client }> {
  const db = await getDb();
  const n = await seedNewsroom(db);
  await seedCollections(db, n);
  return { n, client: new Client(server.baseUrl, true) };
}

describe("@quintype/backend against the content API", () => {
  it("reads story lists, one story by slug and by id (404 → null), and related stories", async () => {
    const { n, client } = await setup();
    const stories = await Story.getStories(client, "top", { limit: 2 });
    expect(stories.map((s) => s.id)).toEqual([n.stories.budgetVote.id, n.stories.pollsOpen.id]);
    expect(stories[0]!.headline).toBe("Parliament passes the budget");
    expect(typeof stories[0]!.id).toBe("string");
    const bySection = await client.getStories({ "section-id": n.sections.sport.id, fields: "headline,slug" });
    expect(bySection.stories).toEqual([
      { id: n.stories.cupFinal.id, headline: "Cup final ends in a draw", slug: "sport/cup-final" },
    ]);

    const story = await Story.getStoryBySlug(client, "politics/2026/parliament-passes-the-budget");
    expect(story).not.toBeNull();
    expect(story!.id).toBe(n.stories.budgetVote.id);
    expect((story!.sections as { id: number }[])[0]!.id).toBe(n.sections.politics.id);
    expect((story!.cards as { "story-elements": unknown[] }[])[0]!["story-elements"]).toHaveLength(1);
    expect(await Story.getStoryBySlug(client, "no-such-story")).toBeNull();
    expect(await Story.getStoryBySlug(client, "politics/secret-budget-draft")).toBeNull();

    const byId = await Story.getStoryById(client, n.stories.cupFinal.id);
    expect(byId!.headline).toBe("Cup final ends in a draw");
    expect(await Story.getStoryById(client, n.unpublished[0]!.id)).toBeNull();
    expect((await Story.getStoryByExternalId(client, "legacy-42"))!.id).toBe(n.stories.cupFinal.id);

    // Related: the story's first section (politics) or its tags (budget → the cup final).
    const related = await story!.getRelatedStories(client);
    expect(related.map((s) => s.id)).toEqual([n.stories.cupFinal.id]);
    const raw = await client.getRelatedStories(n.stories.budgetVote.id, n.sections.elections.id, { limit: 1 });
    expect(raw["related-stories"].map((s) => s.id)).toEqual([n.stories.pollsOpen.id]);
    expect(await client.getStoryAttributes(n.stories.cupFinal.id)).toMatchObject({
      "story-attributes": { "disable-amp-for-single-story": ["true"] },
    });
  });

  it("searches", async () => {
    const { n, client } = await setup();
    const found = await Story.getSearch(client, { q: "budget", limit: 10 });
    expect(found.total).toBe(2);
    expect(found.from).toBe(0);
    expect(found.stories.map((s) => s.id)).toEqual([n.stories.budgetVote.id, n.stories.pollsOpen.id]);
    expect(found.stories[0]!.asJson().headline).toBe("Parliament passes the budget");
    const advanced = (await client.getAdvancedSearch({
      q: "goals",
      fields: "headline,url",
      sort: "latest-published",
    })) as { total: number; items: { id: string }[] };
    expect(advanced.total).toBe(1);
    expect(advanced.items[0]!.id).toBe(n.stories.cupFinal.id);
  });

  it("loads a collection two levels deep: nested collections through POST bulk-request → 303 → GET", async () => {
    const { n, client } = await setup();
    const before = server.requests.length;
    const home = await Collection.getCollectionBySlug(client, "home", {}, { depth: 2 });
    expect(home).not.toBeNull();
    const items = home!.items as {
      type: string;
      id: unknown;
      slug?: string;
      story?: { id: string };
      items?: { type: string; story: { id: string; headline: string } }[];
      automated?: boolean;
      "collection-cache-keys"?: string[];
    }[];
    expect(items.map((i) => (i.type === "story" ? i.story!.id : i.slug))).toEqual([
      n.stories.budgetVote.id,
      "section-sport",
      n.stories.cupFinal.id,
      "politics-picks",
    ]);
    const sport = items[1]!;
    expect(sport.automated).toBe(true);
    expect(sport.items!.map((i) => i.story.id)).toEqual([n.stories.cupFinal.id]);
    expect(sport["collection-cache-keys"]!.length).toBeGreaterThan(0);
    expect(items[3]!.items!.map((i) => i.story.id)).toEqual([n.stories.budgetVote.id, n.stories.pollsOpen.id]);
    // The nested stories carry the client's default story-fields, not the whole story.
    expect(sport.items![0]!.story.headline).toBe("Cup final ends in a draw");
    expect(Object.keys(sport.items![0]!.story)).not.toContain("cards");

    const calls = server.requests
      .slice(before)
      .map(
        (r) => `${r.method} ${r.path.split("?")[0]!.replace(/\/bulk-request\/.+$/, "/bulk-request/<key>")} ${r.status}`,
      );
    expect(calls).toEqual(
      expect.arrayContaining([
        "GET /api/v1/collections/home 200",
        "POST /api/v1/bulk-request 303",
        "GET /api/v1/bulk-request/<key> 200",
      ]),
    );
    expect(await Collection.getCollectionBySlug(client, "no-such-collection", {}, { depth: 2 })).toBeNull();
  });

  it("runs bulk requests with getInBulk", async () => {
    const { n, client } = await setup();
    const { results } = await client.getInBulk({
      requests: {
        "sport-0": { _type: "collection", slug: "section-sport", "story-fields": "headline", limit: 3 },
        top: { _type: "stories", "story-group": "top", limit: 2, fields: "headline" },
      },
    });
    expect((results["sport-0"]!.items as { story: { id: string } }[]).map((i) => i.story.id)).toEqual([
      n.stories.cupFinal.id,
    ]);
    expect(results.top!.stories).toEqual([
      { id: n.stories.budgetVote.id, headline: "Parliament passes the budget" },
      { id: n.stories.pollsOpen.id, headline: "Polls open across the country" },
    ]);
  });

  it("gets a story's AMP page as JSON with getAmpStoryBySlug (it sends Accept: application/json)", async () => {
    const { n, client } = await setup();
    const amp = (await client.getAmpStoryBySlug("politics/2026/parliament-passes-the-budget")) as Record<
      string,
      unknown
    >;
    expect(amp).toMatchObject({
      id: n.stories.budgetVote.id,
      slug: "politics/2026/parliament-passes-the-budget",
      headline: "Parliament passes the budget",
    });
    expect(String(amp["amp-html"])).toMatch(/^<!doctype html>\n<html ⚡ lang="[a-z-]+">/);
  });
});

/**
 * A front end that decides on its own pages passes the account's server key (docs/subscriptions.md,
 * "Who gets the paid part"): the client sends every request through `request(path, opts)` with
 * `opts` handed to the HTTP library, so a subclass (or, in @quintype/framework apps, a wrapper of
 * `Client.prototype.request` installed at start) adds the X-SUBAUTH header to all of them.
 */
class KeyedClient extends Client {
  constructor(
    baseUrl: string,
    private readonly serverKey: string,
  ) {
    super(baseUrl, true);
  }

  override request(path: string, opts: Record<string, unknown> = {}) {
    const headers = { ...(opts.headers as Record<string, string> | undefined), "X-SUBAUTH": this.serverKey };
    return super.request(path, { ...opts, headers });
  }
}

describe("@quintype/backend on an account whose public content API serves the free part", () => {
  it("gets whole subscription stories with the server key, and the free part and its marker without", async () => {
    const { n, client } = await setup();
    const db = await getDb();
    const { key: serverKey } = await createApiKey(db, { accountId: n.account.id, kind: "SERVER", name: "front end" });
    const story = await insertStory(db, n.account.id, {
      headline: "Members only",
      slug: "politics/members-only",
      access: "subscription",
      cards: textCards("Free lead.", "Paid second.", "Paid third."),
    });
    const keyed = new KeyedClient(server.baseUrl, serverKey);
    const elements = (s: Record<string, unknown> | null | undefined) =>
      (s!.cards as { "story-elements": { text: string }[] }[]).flatMap((c) => c["story-elements"].map((e) => e.text));

    // A public caller (the plain client): the free part, marked; the fields keep their shapes.
    const open = await Story.getStoryBySlug(client, "politics/members-only");
    expect(elements(open)).toEqual(["<p>Free lead.</p>"]);
    expect(open!.paywall).toEqual({ continues: true, "free-elements": 1, "total-elements": 3 });
    // The front end with the server key: every element, by slug, by id and in lists and bulk.
    const whole = ["<p>Free lead.</p>", "<p>Paid second.</p>", "<p>Paid third.</p>"];
    const bySlug = await Story.getStoryBySlug(keyed, "politics/members-only");
    expect(elements(bySlug)).toEqual(whole);
    expect(bySlug!.paywall).toBeUndefined();
    expect(elements(await Story.getStoryById(keyed, story.id))).toEqual(whole);
    const listed = (await keyed.getStories({ limit: 1 })).stories[0];
    expect(elements(listed)).toEqual(whole);
    const { results } = await keyed.getInBulk({ requests: { top: { _type: "stories", limit: 1 } } });
    expect(elements((results.top!.stories as Record<string, unknown>[])[0])).toEqual(whole);
    // And the plain client again: still the free part (the cache keeps each apart).
    expect(elements(await Story.getStoryById(client, story.id))).toEqual(["<p>Free lead.</p>"]);
  });
});
