import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { staffActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import type { TCard, TStoryElement } from "@/server/publishing/cards.schema";
import { transitionStory } from "@/server/publishing/editorial/stories/moves";
import { createStory as saveStory } from "@/server/publishing/editorial/stories/write";
import { listRelatedStories } from "@/server/publishing/stories";
import { hostileChunks, SAFE_HTML, unsafeStrings } from "@/server/testing/hostile-html";
import { NO_PARAMS, readJson, seedNewsroom, vote, withParams, type Newsroom } from "@/server/testing/newsroom-fixture";
import {
  createTestPublisher,
  insertImageAsset,
  insertSection,
  insertStory,
  insertTag,
} from "@/server/testing/publishing-factories";

import * as breakingRoute from "../breaking-news/route";
import * as bySlugRoute from "../stories-by-slug/route";
import * as byExternalIdRoute from "../story-by-external-id/[externalId]/route";
import * as attributesRoute from "./[storyId]/attributes/route";
import * as relatedRoute from "./[storyId]/related-stories/route";
import * as storyRoute from "./[storyId]/route";
import * as storiesRoute from "./route";

type Story = Record<string, unknown> & { id: string; headline: string };
type ErrorBody = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

const listStories = async (query = "", headers: Record<string, string> = {}) =>
  storiesRoute.GET(new Request(`http://localhost/api/v1/stories${query}`, { headers }), NO_PARAMS);
const ids = (stories: Story[]) => stories.map((s) => s.id);

function unpublishedIds(n: Newsroom) {
  return n.unpublished.map((s) => s.id);
}

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

describe("one story: by slug, id and external id", () => {
  const bySlug = (slug: string, headers: Record<string, string> = {}) =>
    bySlugRoute.GET(
      new Request(`http://localhost/api/v1/stories-by-slug?slug=${encodeURIComponent(slug)}`, { headers }),
      NO_PARAMS,
    );
  const byId = (id: string, headers: Record<string, string> = {}, query = "") =>
    storyRoute.GET(
      new Request(`http://localhost/api/v1/stories/${id}${query}`, { headers }),
      withParams({ storyId: id }),
    );

  it("finds a published story by a slug with slashes, and 404s unknown and unpublished slugs", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const res = await bySlug("politics/2026/parliament-passes-the-budget");
    expect(res.status).toBe(200);
    const { story } = await readJson<{ story: Story }>(res);
    expect(story.id).toBe(n.stories.budgetVote.id);
    expect(res.headers.get("surrogate-key")).toBe(`s/${n.stories.budgetVote.id}`);
    expect((await readJson<{ story: Story }>(await bySlug("/sport/cup-final"))).story.id).toBe(n.stories.cupFinal.id);
    for (const slug of [
      "nope",
      "politics/secret-budget-draft",
      "politics/secret-budget-submitted",
      "politics/secret-budget-approved",
      "politics/secret-budget-retracted",
    ]) {
      const miss = await bySlug(slug);
      expect(miss.status, slug).toBe(404);
      expect((await readJson<ErrorBody>(miss)).error.code).toBe("NOT_FOUND");
    }
    const missing = await bySlugRoute.GET(new Request("http://localhost/api/v1/stories-by-slug"), NO_PARAMS);
    expect(missing.status).toBe(400);
  });

  it("answers 304 to a matching If-None-Match, and 200 again once the story changes", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const first = await bySlug("polls-open");
    const etag = first.headers.get("etag")!;
    const again = await bySlug("polls-open", { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const byIdFirst = await byId(n.stories.pollsOpen.id);
    const byIdAgain = await byId(n.stories.pollsOpen.id, { "If-None-Match": byIdFirst.headers.get("etag")! });
    expect(byIdAgain.status).toBe(304);
    await db.story.update({ where: { id: n.stories.pollsOpen.id }, data: { headline: "Polls close" } });
    expect((await bySlug("polls-open", { "If-None-Match": etag })).status).toBe(200);
  });

  it("finds a published story by id with fields; 400 for a non-UUID; 404 unknown or unpublished", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const res = await byId(n.stories.cupFinal.id, {}, "?fields=headline");
    expect(await readJson(res)).toEqual({ story: { id: n.stories.cupFinal.id, headline: "Cup final ends in a draw" } });
    const bad = await byId("not-a-uuid");
    expect(bad.status).toBe(400);
    expect((await readJson<ErrorBody>(bad)).error.details?.[0]?.field).toBe("params.storyId");
    expect((await byId("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    for (const id of unpublishedIds(n)) expect((await byId(id)).status).toBe(404);
  });

  it("finds a published story by external id; 404 unknown or unpublished", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const get = (id: string) =>
      byExternalIdRoute.GET(
        new Request(`http://localhost/api/v1/story-by-external-id/${id}`),
        withParams({ externalId: id }),
      );
    expect((await readJson<{ story: Story }>(await get("legacy-42"))).story.id).toBe(n.stories.cupFinal.id);
    expect((await get("legacy-43")).status).toBe(404);
    expect((await get("legacy-retracted")).status).toBe(404);
  });
});

describe("GET /api/v1/stories/{id}/related-stories and /attributes", () => {
  const related = (id: string, query = "") =>
    relatedRoute.GET(
      new Request(`http://localhost/api/v1/stories/${id}/related-stories${query}`),
      withParams({ storyId: id }),
    );

  it("lists published stories sharing a section or tag, newest first, without the story itself", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const res = await related(n.stories.budgetVote.id);
    expect(res.status).toBe(200);
    const body = await readJson<{ "related-stories": Story[] }>(res);
    // Politics: the budget story only (polls-open is in the sub-section); tag budget: the cup final.
    expect(ids(body["related-stories"])).toEqual([n.stories.cupFinal.id]);
    const bySection = await readJson<{ "related-stories": Story[] }>(
      await related(n.stories.budgetVote.id, `?section-id=${n.sections.elections.id}&fields=headline`),
    );
    expect(bySection["related-stories"]).toEqual([
      { id: n.stories.pollsOpen.id, headline: "Polls open across the country" },
      { id: n.stories.cupFinal.id, headline: "Cup final ends in a draw" },
    ]);
    const limited = await readJson<{ "related-stories": Story[] }>(
      await related(n.stories.budgetVote.id, `?section-id=${n.sections.elections.id}&limit=1&offset=1`),
    );
    expect(ids(limited["related-stories"])).toEqual([n.stories.cupFinal.id]);
    for (const story of body["related-stories"]) expect(unpublishedIds(n)).not.toContain(story.id);
  });

  it("answers the same newest stories from the walk of the newest stories as from the whole archive", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const [common, other] = [await insertSection(db, account.id), await insertSection(db, account.id)];
    const rare = await insertTag(db, account.id);
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 24, 8, minutes));
    // 30 stories a minute apart: every other in the common section, every seventh with the rare tag,
    // two at the same minute (the order falls back to the id), one unpublished.
    const stories = [];
    for (let m = 0; m < 30; m++) {
      stories.push(
        await insertStory(db, account.id, {
          publishedAt: at(m === 24 ? 22 : m),
          sectionIds: m % 2 === 0 ? [common.id] : [other.id],
          tagIds: m % 7 === 0 ? [rare.id] : [],
          status: m === 26 ? "DRAFT" : "PUBLISHED",
        }),
      );
    }
    const ctx = {
      accountId: account.id,
      view: { publisherId: account.id, siteUrl: "https://localhost" },
      now: new Date(),
    };
    const target = stories[14]!; // common section, the rare tag
    for (const [offset, limit] of [
      [0, 5],
      [3, 4],
      [0, 20],
      [12, 5],
    ] as const) {
      // walk 0: the whole archive at once (the query the walk stands in for).
      const whole = await listRelatedStories(db, { ctx, storyId: target.id, offset, limit, walk: 0 });
      for (const walk of [1, 6, 12, 30, 5_000]) {
        const got = await listRelatedStories(db, { ctx, storyId: target.id, offset, limit, walk });
        expect({ offset, limit, walk, ids: got.map((s) => s.id) }).toEqual({
          offset,
          limit,
          walk,
          ids: whole.map((s) => s.id),
        });
      }
      expect(whole.length).toBe(Math.min(limit, Math.max(0, 15 - offset)));
    }
    // The rare tag alone (a section with no other story): found past any walk too.
    const lone = await insertSection(db, account.id);
    const tagged = await insertStory(db, account.id, { publishedAt: at(40), sectionIds: [lone.id], tagIds: [rare.id] });
    const byTag = await listRelatedStories(db, { ctx, storyId: tagged.id, offset: 0, limit: 10, walk: 3 });
    expect(byTag.map((s) => s.id)).toEqual(
      [stories[28]!, stories[21]!, stories[14]!, stories[7]!, stories[0]!].map((s) => s.id),
    );
  });

  it("404s an unknown or unpublished story and 400s bad parameters", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    expect((await related(n.unpublished[0]!.id)).status).toBe(404);
    expect((await related("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await related("1234")).status).toBe(400);
    expect((await related(n.stories.budgetVote.id, "?section-id=x")).status).toBe(400);
    expect((await related(n.stories.budgetVote.id, "?limit=none")).status).toBe(400);
  });

  it("returns a published story's attributes and 404s unpublished ones", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const get = (id: string) =>
      attributesRoute.GET(new Request(`http://localhost/api/v1/stories/${id}/attributes`), withParams({ storyId: id }));
    expect(await readJson(await get(n.stories.cupFinal.id))).toEqual({
      "story-id": n.stories.cupFinal.id,
      "story-attributes": { "disable-amp-for-single-story": ["true"] },
    });
    expect(await readJson(await get(n.stories.pollsOpen.id))).toEqual({
      "story-id": n.stories.pollsOpen.id,
      "story-attributes": {},
    });
    expect((await get(n.unpublished[1]!.id)).status).toBe(404);
    expect((await get("x")).status).toBe(400);
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

describe("hostile HTML and links: saved in the dashboard, read through the API", () => {
  it("sanitises every HTML-bearing field of every element type and of the hero image, keeping safe markup", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db, { siteUrl: "https://news.example.com" });
    const user = await db.adminUser.create({
      data: { accountId: account.id, email: "ed@hostile.test", name: "Ed", roles: ["EDITOR"], passwordHash: "x" },
    });
    const ctx = { actor: staffActor(user), now: new Date(), appUrl: "http://localhost:3000" };
    const element = (type: TStoryElement["type"], extra: Partial<TStoryElement>): TStoryElement => ({
      id: randomUUID(),
      type,
      subtype: null,
      metadata: {},
      ...extra,
    });
    // Image keys must be the account's own uploads.
    const [elementImage, heroImage] = [await insertImageAsset(db, account.id), await insertImageAsset(db, account.id)];
    // Every field gets every snippet: the shortest limit (500, attributions) sets the chunk size.
    for (const hostile of hostileChunks(500 - SAFE_HTML.length - 1)) {
      const html = `${SAFE_HTML}\n${hostile}`;
      const elements: TStoryElement[] = [
        element("text", { text: html }),
        element("title", { text: html }),
        element("summary", { text: html }),
        element("quote", { text: html, metadata: { attribution: html } }),
        element("blockquote", { text: html, metadata: { content: html, attribution: html } }),
        element("image", {
          "image-s3-key": elementImage,
          title: html,
          description: html,
          "image-attribution": html,
          metadata: { caption: html },
        }),
        element("youtube-video", {
          url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
          title: html,
          description: html,
        }),
        element("jsembed", {
          subtype: "tweet",
          url: "https://x.com/NASA/status/1790000000000000000",
          "embed-js": Buffer.from(html).toString("base64"),
          metadata: { provider: "twitter", content: html },
        }),
        // Element types: a big fact, a gallery (HTML inside its images), a file, an embed.
        element("bigfact", { text: html, metadata: { attribution: html } }),
        element("composite", {
          subtype: "image-gallery",
          "story-elements": [element("image", { "image-s3-key": elementImage, title: html, metadata: { alt: html } })],
        }),
        element("file", { subtype: "attachment", "file-url": "https://example.org/f.pdf", "file-name": html }),
        element("jsembed", { subtype: "instagram", "embed-js": Buffer.from(html).toString("base64") }),
      ];
      const cards = [{ id: randomUUID(), status: "draft", version: 1, metadata: {}, "story-elements": elements }];
      const saved = await saveStory(db, {
        ...ctx,
        input: {
          headline: "Hostile input",
          cards,
          heroImage: { s3Key: heroImage, caption: html, attribution: html },
        },
      });
      let version = saved.story.version;
      for (const action of ["submit", "approve", "publish"] as const)
        version = (await transitionStory(db, { ...ctx, input: { id: saved.story.id, version, action } })).story.version;

      const res = await storyRoute.GET(
        new Request(`http://localhost/api/v1/stories/${saved.story.id}`),
        withParams({ storyId: saved.story.id }),
      );
      expect(res.status).toBe(200);
      const { story } = await readJson<{ story: Story }>(res);
      const rendered = {
        cards: story.cards,
        "hero-image-caption": story["hero-image-caption"],
        "hero-image-attribution": story["hero-image-attribution"],
      };
      expect(unsafeStrings(rendered), hostile).toEqual([]);
      const returned = (story.cards as TCard[])[0]!["story-elements"];
      expect(returned.map((e) => e.type)).toEqual(elements.map((e) => e.type));
      for (const text of [
        returned[0]!.text,
        returned[3]!.text,
        returned[4]!.metadata.content,
        story["hero-image-caption"],
      ]) {
        expect(text).toContain('<a href="https://example.org/ok">ok</a>');
        expect(text).toContain('<a href="mailto:desk@example.org">mail</a>');
        expect(text).toContain("<strong>bold</strong>");
      }
    }
  });
});
