import { describe, expect, it } from "vitest";

import { ownWritesHeard } from "@/server/cache/process-cache";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { readJson, seedCollections, seedNewsroom, withParams, type Newsroom } from "@/server/testing/newsroom-fixture";

import * as collectionRoute from "./[slug]/route";

type Item = {
  id: string | number;
  type: string;
  story?: Record<string, unknown>;
  slug?: string;
  name?: string;
  template?: string;
  "associated-metadata"?: unknown;
};
type Collection = Record<string, unknown> & { items: Item[]; "total-count": number };
type ErrorBody = { error: { code: string; details?: { field: string }[] } };

const getCollection = (slug: string, query = "", headers: Record<string, string> = {}) =>
  collectionRoute.GET(
    new Request(`http://localhost/api/v1/collections/${slug}${query}`, { headers }),
    withParams({ slug }),
  );
const itemIds = (c: Collection) => c.items.map((i) => (i.type === "story" ? i.id : `collection:${i.slug}`));

describe("GET /api/v1/collections/{slug}: manual collections", () => {
  it("lists items in position order at the top level: published stories and live nested collections", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const { home, sportCollection, politicsPicks } = await seedCollections(db, n);
    const res = await getCollection("home");
    expect(res.status).toBe(200);
    const c = await readJson<Collection>(res);
    expect(c).toMatchObject({
      id: home.id,
      slug: "home",
      name: "Home",
      summary: "The front page",
      template: "default",
      automated: false,
      rules: {},
      "total-count": 4,
      metadata: { colour: "red" },
      "collection-cache-keys": [`c/${n.account.id}/${home.id}`],
    });
    expect(typeof c["created-at"]).toBe("number");
    expect(itemIds(c)).toEqual([
      n.stories.budgetVote.id,
      "collection:section-sport",
      n.stories.cupFinal.id,
      "collection:politics-picks",
    ]);
    expect(c.items[0]).toMatchObject({
      id: n.stories.budgetVote.id,
      type: "story",
      "associated-metadata": { layout: "hero" },
    });
    expect(c.items[0]!.story).toMatchObject({
      id: n.stories.budgetVote.id,
      headline: "Parliament passes the budget",
      status: "published",
    });
    expect(c.items[1]).toEqual({
      id: sportCollection.id,
      type: "collection",
      name: "Sport",
      slug: "section-sport",
      template: "default",
      "associated-metadata": { layout: "four-col" },
    });
    expect(c.items[3]).toMatchObject({ id: politicsPicks.id, type: "collection", template: "grid" });
    expect(JSON.stringify(c)).not.toContain("Secret budget plan");
    expect(res.headers.get("surrogate-key")?.split(" ")).toEqual(
      expect.arrayContaining([
        `c/${home.id}`,
        `c/${sportCollection.id}`,
        `s/${n.stories.budgetVote.id}`,
        `s/${n.stories.cupFinal.id}`,
      ]),
    );
    const again = await getCollection("home", "", { "If-None-Match": res.headers.get("etag")! });
    expect(again.status).toBe(304);
  });

  it("filters by item-type and exclude-story-ids, pages, and projects story-fields", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    await seedCollections(db, n);
    const stories = await readJson<Collection>(
      await getCollection("home", "?item-type=story&story-fields=headline,slug"),
    );
    expect(stories["total-count"]).toBe(2);
    expect(stories.items.map((i) => i.story)).toEqual([
      {
        id: n.stories.budgetVote.id,
        headline: "Parliament passes the budget",
        slug: "politics/2026/parliament-passes-the-budget",
      },
      { id: n.stories.cupFinal.id, headline: "Cup final ends in a draw", slug: "sport/cup-final" },
    ]);
    const collections = await readJson<Collection>(await getCollection("home", "?item-type=collection"));
    expect(itemIds(collections)).toEqual(["collection:section-sport", "collection:politics-picks"]);
    const excluded = await readJson<Collection>(
      await getCollection("home", `?exclude-story-ids=${n.stories.budgetVote.id}`),
    );
    expect(excluded["total-count"]).toBe(3);
    expect(itemIds(excluded)[0]).toBe("collection:section-sport");
    const page = await readJson<Collection>(await getCollection("home", "?limit=2&offset=1"));
    expect(page["total-count"]).toBe(4);
    expect(itemIds(page)).toEqual(["collection:section-sport", n.stories.cupFinal.id]);
    // A page past the end still counts them all.
    const past = await readJson<Collection>(await getCollection("home", "?offset=10"));
    expect({ total: past["total-count"], items: past.items }).toEqual({ total: 4, items: [] });
  });

  it("reads a collection changed by any writer, by hand included, at the next read built afresh", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const { home } = await seedCollections(db, n);
    const fresh = { "cache-control": "no-cache" };
    expect(await readJson<Collection>(await getCollection("home", "", fresh))).toMatchObject({ name: "Home" });
    await db.$executeRaw`UPDATE collections SET name = 'Front', slug = 'front' WHERE id = ${home.id}`;
    await ownWritesHeard(db);
    expect((await getCollection("home", "", fresh)).status).toBe(404);
    expect(await readJson<Collection>(await getCollection("front", "", fresh))).toMatchObject({ name: "Front" });
    await db.$executeRaw`UPDATE collections SET deleted_at = now() WHERE id = ${home.id}`;
    await ownWritesHeard(db);
    expect((await getCollection("front", "", fresh)).status).toBe(404);
  });

  it("404s unknown and deleted collections; 400s bad parameters", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    await seedCollections(db, n);
    for (const slug of ["nope", "gone"]) {
      const res = await getCollection(slug);
      expect(res.status).toBe(404);
      expect((await readJson<ErrorBody>(res)).error.code).toBe("NOT_FOUND");
    }
    for (const [query, field] of [
      ["?item-type=video", "query.item-type"],
      ["?exclude-story-ids=12", "query.exclude-story-ids"],
      ["?limit=abc", "query.limit"],
      ["?offset=x", "query.offset"],
    ]) {
      const res = await getCollection("home", query);
      expect(res.status, query).toBe(400);
      expect((await readJson<ErrorBody>(res)).error.details?.some((d) => d.field.startsWith(field!))).toBe(true);
    }
  });
});

describe("GET /api/v1/collections/{slug}: automated collections", () => {
  async function automated(db: Db, n: Newsroom, rules: unknown) {
    const slug = `auto-${Math.random().toString(36).slice(2, 8)}`;
    await db.collection.create({
      data: { accountId: n.account.id, slug, name: "Auto", automated: true, rules: rules as object },
    });
    return slug;
  }

  it("evaluates rules over published stories: sections (with sub-sections), tags, authors, templates, sort", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const ids = async (rules: unknown, query = "") =>
      itemIds(await readJson<Collection>(await getCollection(await automated(db, n, rules), query)));
    expect(await ids({ "section-ids": [n.sections.politics.id] })).toEqual([
      n.stories.budgetVote.id,
      n.stories.pollsOpen.id,
    ]);
    expect(await ids({ "tag-slugs": ["budget"] })).toEqual([n.stories.budgetVote.id, n.stories.cupFinal.id]);
    expect(await ids({ "author-ids": [n.authors.grace.id], sort: "last-published-at" })).toEqual([
      n.stories.cupFinal.id,
      n.stories.pollsOpen.id,
    ]);
    expect(await ids({ "story-templates": ["live-blog"] })).toEqual([n.stories.pollsOpen.id]);
    expect(await ids({ "tag-slugs": ["budget"], "section-ids": [n.sections.sport.id] })).toEqual([
      n.stories.cupFinal.id,
    ]);
    expect(await ids({ "section-ids": "not a list" })).toEqual([
      n.stories.budgetVote.id,
      n.stories.pollsOpen.id,
      n.stories.cupFinal.id,
    ]);
    expect(await ids({}, `?exclude-story-ids=${n.stories.pollsOpen.id}&limit=1`)).toEqual([n.stories.budgetVote.id]);
    expect(await ids({}, "?item-type=collection")).toEqual([]);
  });

  it("lists a section's collection by its section, with total-count and cache keys", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const { politicsPicks, sportCollection } = await seedCollections(db, n);
    const sport = await readJson<Collection>(await getCollection("section-sport"));
    expect(sport).toMatchObject({ automated: true, "total-count": 1, rules: { "section-ids": [n.sections.sport.id] } });
    expect(itemIds(sport)).toEqual([n.stories.cupFinal.id]);
    expect(sport["collection-cache-keys"]).toEqual([
      `c/${n.account.id}/${sportCollection.id}`,
      `sc/${n.account.id}/${n.sections.sport.id}`,
    ]);
    const res = await getCollection("politics-picks", "?limit=1");
    const picks = await readJson<Collection>(res);
    expect(picks).toMatchObject({
      id: politicsPicks.id,
      "total-count": 2,
      rules: { "section-ids": [n.sections.politics.id] },
    });
    expect(itemIds(picks)).toEqual([n.stories.budgetVote.id]);
    expect(res.headers.get("surrogate-key")).toBe(`c/${politicsPicks.id} stories s/${n.stories.budgetVote.id}`);
  });
});
