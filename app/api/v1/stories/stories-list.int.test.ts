/**
 * The content API's story lists over their route handlers: GET /api/v1/stories lists published
 * stories only, newest first, in the wire shape with cache headers; paging, projected fields,
 * filters, orders and randomize; limit capped at 100; 400 with details for bad parameters, 406
 * and 405; each publisher its own stories by Host. GET /api/v1/breaking-news lists published,
 * unexpired breaking news.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { NO_PARAMS, readJson, seedNewsroom, vote, withParams } from "@/server/testing/newsroom-fixture";
import { createTestPublisher, insertStory } from "@/server/testing/publishing-factories";
import { ids, unpublishedIds, type ErrorBody, type Story } from "@/server/testing/stories-api";

import * as breakingRoute from "../breaking-news/route";
import * as storyRoute from "./[storyId]/route";
import * as storiesRoute from "./route";

const listStories = async (query = "", headers: Record<string, string> = {}) =>
  storiesRoute.GET(new Request(`http://localhost/api/v1/stories${query}`, { headers }), NO_PARAMS);

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("GET /api/v1/stories", () => {
  it("lists only published stories, newest first, in the wire shape, with cache headers", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    await vote(db, n.account.id, n.stories.budgetVote.id, 3, 1);
    const res = await listStories();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toMatch(/public, max-age=0, s-maxage=\d+/);
    expect(res.headers.get("etag")).toMatch(/^W\/"/);
    const { stories } = await readJson<{ stories: Story[] }>(res);
    expect(ids(stories)).toEqual([n.stories.budgetVote.id, n.stories.pollsOpen.id, n.stories.cupFinal.id]);
    for (const id of unpublishedIds(n)) expect(ids(stories)).not.toContain(id);
    expect(res.headers.get("surrogate-key")).toBe(
      `stories s/${n.stories.budgetVote.id} s/${n.stories.pollsOpen.id} s/${n.stories.cupFinal.id}`,
    );

    const first = stories[0]!;
    expect(first).toMatchObject({
      id: n.stories.budgetVote.id,
      "story-content-id": n.stories.budgetVote.id,
      headline: "Parliament passes the budget",
      slug: "politics/2026/parliament-passes-the-budget",
      url: "https://news.example.com/politics/2026/parliament-passes-the-budget",
      status: "published",
      "author-id": n.authors.ada.id,
      "author-name": "Ada Lovelace",
      "publisher-id": n.account.id,
      votes: 2,
    });
    expect(typeof first["published-at"]).toBe("number");
    expect((first.sections as { slug: string }[]).map((s) => s.slug)).toEqual(["politics"]);
    expect((first.tags as { slug: string }[]).map((t) => t.slug)).toEqual(["budget"]);
    expect((first.cards as { "story-elements": unknown[] }[])[0]!["story-elements"]).toHaveLength(1);
    expect(stories[1]!.votes).toBe(0);
  });

  it("pages with limit and offset and projects fields (id always kept)", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const page = await readJson<{ stories: Story[] }>(
      await listStories("?limit=1&offset=1&fields=headline,slug,votes"),
    );
    expect(page.stories).toEqual([
      { id: n.stories.pollsOpen.id, headline: "Polls open across the country", slug: "polls-open", votes: 0 },
    ]);
    const authorOnly = await readJson<{ stories: Story[] }>(await listStories("?limit=1&fields=author-name"));
    expect(authorOnly.stories).toEqual([{ id: n.stories.budgetVote.id, "author-name": "Ada Lovelace" }]);
    const past = await readJson<{ stories: Story[] }>(await listStories("?offset=50"));
    expect(past.stories).toEqual([]);
  });

  it("filters by section id (with sub-sections) or slug, tag, template and excluded ids", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const get = async (q: string) => ids((await readJson<{ stories: Story[] }>(await listStories(q))).stories);
    expect(await get(`?section-id=${n.sections.politics.id}`)).toEqual([
      n.stories.budgetVote.id,
      n.stories.pollsOpen.id,
    ]);
    expect(await get(`?section-id=${n.sections.elections.id}`)).toEqual([n.stories.pollsOpen.id]);
    expect(await get("?section=politics")).toEqual([n.stories.budgetVote.id, n.stories.pollsOpen.id]);
    expect(await get("?section=sport")).toEqual([n.stories.cupFinal.id]);
    expect(await get("?section=no-such-section")).toEqual([]);
    expect(await get("?section-id=999999")).toEqual([]);
    expect(await get("?tag=budget")).toEqual([n.stories.budgetVote.id, n.stories.cupFinal.id]);
    expect(await get("?tag=football&section=sport")).toEqual([n.stories.cupFinal.id]);
    expect(await get("?template=live-blog")).toEqual([n.stories.pollsOpen.id]);
    expect(await get(`?not-story-content-ids=${n.stories.budgetVote.id},${n.stories.cupFinal.id}`)).toEqual([
      n.stories.pollsOpen.id,
    ]);
  });

  it("orders by story-order or story-group; unknown groups fall back to newest first", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const get = async (q: string) => ids((await readJson<{ stories: Story[] }>(await listStories(q))).stories);
    const newest = [n.stories.budgetVote.id, n.stories.pollsOpen.id, n.stories.cupFinal.id];
    expect(await get("?story-order=last-updated")).toEqual([
      n.stories.cupFinal.id,
      n.stories.budgetVote.id,
      n.stories.pollsOpen.id,
    ]);
    expect(await get("?story-order=oldest")).toEqual([...newest].reverse());
    expect(await get("?story-order=top")).toEqual(newest);
    expect(await get("?story-group=top")).toEqual(newest);
    expect(await get("?story-group=stack-42")).toEqual(newest);
    expect(await get("?story-group=last-updated")).toEqual(await get("?story-order=last-updated"));
  });

  it("randomize draws published stories only", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    for (let i = 0; i < 5; i++) {
      const got = ids((await readJson<{ stories: Story[] }>(await listStories("?randomize=true&limit=2"))).stories);
      expect(got).toHaveLength(2);
      expect(new Set(got).size).toBe(2);
      for (const id of got) expect(Object.values(n.stories).map((s) => s.id)).toContain(id);
    }
  });

  it("caps limit at 100 silently", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    await db.story.createMany({
      data: Array.from({ length: 105 }, (_, i) => ({
        accountId: account.id,
        headline: `S${i}`,
        slug: `s-${i}`,
        status: "PUBLISHED" as const,
        publishedAt: new Date(Date.now() - i * 1000),
      })),
    });
    const { stories } = await readJson<{ stories: Story[] }>(await listStories("?limit=1000&fields=headline"));
    expect(stories).toHaveLength(100);
    expect(stories[0]!.headline).toBe("S0");
  });

  it("answers 400 with details for bad parameters, 406 for a non-JSON Accept, 405 for POST", async () => {
    const db = await getDb();
    await seedNewsroom(db);
    const cases: [string, string][] = [
      ["?limit=abc", "query.limit"],
      ["?limit=0", "query.limit"],
      ["?limit=2.5", "query.limit"],
      ["?offset=-1", "query.offset"],
      ["?offset=20000", "query.offset"],
      ["?section-id=politics", "query.section-id"],
      ["?not-story-content-ids=1,2", "query.not-story-content-ids"],
      ["?story-order=sideways", "query.story-order"],
      ["?randomize=maybe", "query.randomize"],
      ["?fields=head%20line", "query.fields"],
    ];
    for (const [query, field] of cases) {
      const res = await listStories(query);
      expect(res.status, query).toBe(400);
      const body = await readJson<ErrorBody>(res);
      expect(body.error.code).toBe("BAD_REQUEST");
      expect(
        body.error.details?.some((d) => d.field === field || d.field.startsWith(`${field}.`)),
        query,
      ).toBe(true);
    }
    expect((await listStories("", { Accept: "text/html" })).status).toBe(406);
    expect((await listStories("", { Accept: "application/json" })).status).toBe(200);
    const post = await storiesRoute.POST(new Request("http://localhost/api/v1/stories", { method: "POST" }), NO_PARAMS);
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toContain("GET");
  });

  it("serves each publisher its own stories by Host", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const other = await createTestPublisher(db, { domain: "other.example.org", siteUrl: "https://other.example.org" });
    const theirs = await insertStory(db, other.id, { headline: "Elsewhere" });
    const mine = ids((await readJson<{ stories: Story[] }>(await listStories("", { Host: "localhost:3000" }))).stories);
    expect(mine).toHaveLength(3);
    expect(mine).not.toContain(theirs.id);
    const them = await readJson<{ stories: Story[] }>(await listStories("", { Host: "other.example.org" }));
    expect(ids(them.stories)).toEqual([theirs.id]);
    expect(them.stories[0]!.url).toBe(`https://other.example.org/${theirs.slug}`);
    const cross = await storyRoute.GET(
      new Request(`http://localhost/api/v1/stories/${n.stories.budgetVote.id}`, {
        headers: { Host: "other.example.org" },
      }),
      withParams({ storyId: n.stories.budgetVote.id }),
    );
    expect(cross.status).toBe(404);
  });
});

describe("GET /api/v1/breaking-news", () => {
  it("lists published, unexpired breaking news, newest first", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const expired = await insertStory(db, n.account.id, {
      headline: "Old alarm",
      isBreakingNews: true,
      breakingNewsExpiresAt: new Date(Date.now() - 60_000),
    });
    const fresh = await insertStory(db, n.account.id, {
      headline: "Fresh alarm",
      isBreakingNews: true,
      breakingNewsExpiresAt: new Date(Date.now() + 3_600_000),
    });
    const res = await breakingRoute.GET(
      new Request("http://localhost/api/v1/breaking-news?fields=headline"),
      NO_PARAMS,
    );
    expect(res.status).toBe(200);
    const { stories } = await readJson<{ stories: Story[] }>(res);
    expect(ids(stories)).toEqual([fresh.id, n.stories.cupFinal.id]);
    expect(ids(stories)).not.toContain(expired.id);
    expect(
      (await breakingRoute.GET(new Request("http://localhost/api/v1/breaking-news?limit=x"), NO_PARAMS)).status,
    ).toBe(400);
  });
});
