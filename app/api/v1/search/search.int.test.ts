import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { EXACT_TOTAL_UP_TO, RANK_POOL } from "@/server/publishing/search";
import { NO_PARAMS, readJson, seedNewsroom } from "@/server/testing/newsroom-fixture";
import { insertStory, textCards } from "@/server/testing/publishing-factories";

import * as advancedRoute from "../advanced-search/route";
import * as searchRoute from "./route";

type Story = Record<string, unknown> & { id: string };
type Results = { results: { from: number; size: number; total: number; stories: Story[]; term: string } };
type ErrorBody = { error: { code: string; details?: { field: string; issue: string }[] } };

const search = (query: string) => searchRoute.GET(new Request(`http://localhost/api/v1/search${query}`), NO_PARAMS);
const results = async (query: string) => (await readJson<Results>(await search(query))).results;
const ids = (stories: Story[]) => stories.map((s) => s.id);

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("GET /api/v1/search", () => {
  it("finds published stories only, headline matches ranked above body matches", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const res = await search("?q=budget");
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBeTruthy();
    const { results: r } = await readJson<Results>(res);
    // "budget" is in the headline of one story and the text of another; the drafts say it too.
    expect(ids(r.stories)).toEqual([n.stories.budgetVote.id, n.stories.pollsOpen.id]);
    expect(r).toMatchObject({ from: 0, size: 20, total: 2, term: "budget" });
    for (const hidden of n.unpublished) expect(ids(r.stories)).not.toContain(hidden.id);
    expect((await results("?q=secret leak")).total).toBe(0);
    expect((await results("?q=taxes")).stories.map((s) => s.id)).toEqual([n.stories.budgetVote.id]);
  });

  it("understands web search syntax: phrases, exclusions, OR; stemming", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    expect(ids((await results(`?q=${encodeURIComponent('"marathon debate"')}`)).stories)).toEqual([
      n.stories.budgetVote.id,
    ]);
    expect(ids((await results(`?q=${encodeURIComponent("budget -voters")}`)).stories)).toEqual([
      n.stories.budgetVote.id,
    ]);
    expect(ids((await results(`?q=${encodeURIComponent("goals or chamber")}&sort=descending`)).stories)).toEqual([
      n.stories.budgetVote.id,
      n.stories.cupFinal.id,
    ]);
    expect(ids((await results("?q=passing")).stories)).toEqual([n.stories.budgetVote.id]);
  });

  it("filters by author slug or name, author-id, section-id and publication time; sorts; pages", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const all = [n.stories.budgetVote.id, n.stories.pollsOpen.id, n.stories.cupFinal.id];
    expect(ids((await results("")).stories)).toEqual(all);
    expect(ids((await results("?sort=ascending")).stories)).toEqual([...all].reverse());
    expect(ids((await results("?author=grace-hopper")).stories)).toEqual([
      n.stories.pollsOpen.id,
      n.stories.cupFinal.id,
    ]);
    expect(ids((await results("?author=ada%20LOVELACE")).stories)).toEqual([
      n.stories.budgetVote.id,
      n.stories.pollsOpen.id,
    ]);
    expect(ids((await results(`?author-id=${n.authors.ada.id}&q=budget&sort=ascending`)).stories)).toEqual([
      n.stories.pollsOpen.id,
      n.stories.budgetVote.id,
    ]);
    expect(ids((await results(`?section-id=${n.sections.politics.id}`)).stories)).toEqual([
      n.stories.budgetVote.id,
      n.stories.pollsOpen.id,
    ]);
    const before = n.stories.pollsOpen.publishedAt!.getTime() + 1;
    expect(ids((await results(`?published-before=${before}`)).stories)).toEqual([
      n.stories.pollsOpen.id,
      n.stories.cupFinal.id,
    ]);
    expect(ids((await results(`?published-after=${before}`)).stories)).toEqual([n.stories.budgetVote.id]);
    const page = await results("?limit=1&offset=1&fields=headline");
    expect(page).toEqual({
      from: 1,
      size: 1,
      total: 3,
      term: "",
      stories: [{ id: n.stories.pollsOpen.id, headline: "Polls open across the country" }],
    });
    const past = await results("?q=budget&offset=10");
    expect(past).toMatchObject({ total: 2, stories: [] });
  });

  it("treats user text as data, never as SQL", async () => {
    const db = await getDb();
    await seedNewsroom(db);
    for (const q of ["'; DROP TABLE stories; --", "budget') OR 1=1 --", "\\", "&|!():*", "   "]) {
      const res = await search(`?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
    }
    expect((await results("?q=%27%20OR%201%3D1%20--")).total).toBe(0);
    expect(await db.story.count()).toBe(7);
  });

  it("answers 400 for bad parameters", async () => {
    const db = await getDb();
    await seedNewsroom(db);
    for (const [query, field] of [
      ["?author-id=ada", "query.author-id"],
      ["?sort=sideways", "query.sort"],
      ["?published-before=yesterday", "query.published-before"],
      ["?published-after=1.5", "query.published-after"],
      ["?limit=-3", "query.limit"],
      [`?q=${"x".repeat(501)}`, "query.q"],
    ]) {
      const res = await search(query!);
      expect(res.status, query).toBe(400);
      expect((await readJson<ErrorBody>(res)).error.details?.map((d) => d.field)).toContain(field);
    }
  });

  it("ranks many matches on both databases", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    for (let i = 0; i < 25; i++)
      await insertStory(db, n.account.id, { headline: `Weather report ${i}`, cards: textCards("Rain again.") });
    const headline = await insertStory(db, n.account.id, {
      headline: "Storm warning",
      subheadline: "Rain and wind",
      cards: textCards("Storm storm storm."),
    });
    const r = await results("?q=storm&limit=5");
    expect(r.total).toBe(1);
    expect(ids(r.stories)).toEqual([headline.id]);
    const rain = await results("?q=rain&limit=10&offset=20");
    expect(rain.total).toBe(26);
    expect(rain.stories).toHaveLength(6);
  });

  it("counts exactly while PostgreSQL expects at most EXACT_TOTAL_UP_TO matches, and gives its estimate above", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const at = Date.now();
    const many = EXACT_TOTAL_UP_TO + 300;
    await db.story.createMany({
      data: Array.from({ length: many }, (_, i) => ({
        accountId: n.account.id,
        headline: `Field note ${i}`,
        slug: `harvest-${i}`,
        status: "PUBLISHED" as const,
        plainText: i < 700 ? "orchard harvest" : "orchard",
        publishedAt: new Date(at - i * 60_000),
        lastPublishedAt: new Date(at - i * 60_000),
      })),
    });
    await db.$executeRawUnsafe("ANALYZE stories");
    // 700 matches: expected below the bound, counted exactly.
    expect((await results("?q=harvest")).total).toBe(700);
    // Every generated story: the estimate, near the truth, and never a count of every match.
    const all = await results("?q=orchard&limit=3");
    expect(all.total).toBeGreaterThan(EXACT_TOTAL_UP_TO);
    expect(all.total).toBeGreaterThan(many * 0.5);
    expect(all.total).toBeLessThan(many * 2);
    expect(all.stories).toHaveLength(3);
  });

  it("ranks the newest RANK_POOL matches by relevance with freshness, then pages on through the older ones newest first", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const day = 86_400_000;
    const at = Date.now() - 60_000;
    const count = RANK_POOL + 30;
    // Story i is i hours old. Every fifth says "orchard" in its headline, the rest in the text only.
    await db.story.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        accountId: n.account.id,
        headline: i % 5 === 0 ? `Orchard diary ${i}` : `Field note ${i}`,
        slug: `orchard-${i}`,
        status: "PUBLISHED" as const,
        plainText: "orchard",
        publishedAt: new Date(at - i * 3_600_000),
        lastPublishedAt: new Date(at - i * 3_600_000),
      })),
    });
    const slugOf = new Map(
      (await db.story.findMany({ where: { accountId: n.account.id } })).map((s) => [s.id, s.slug]),
    );
    const index = (id: string) => Number(slugOf.get(id)!.replace("orchard-", ""));
    const seen: number[] = [];
    for (let offset = 0; offset < count + 20; offset += 40) {
      const page = await results(`?q=orchard&limit=40&offset=${offset}`);
      seen.push(...page.stories.map((s) => index(s.id)));
    }
    // Every match once, none lost at the pool's edge.
    expect(seen).toHaveLength(count);
    expect(new Set(seen).size).toBe(count);
    const pool = seen.slice(0, RANK_POOL);
    const rest = seen.slice(RANK_POOL);
    expect(new Set(pool)).toEqual(new Set(Array.from({ length: RANK_POOL }, (_, i) => i)));
    // Headline matches first, newest first among them: within the pool, a headline match weighs
    // five times a text match, and freshness halves a rank only every 30 days.
    const headlines = Array.from({ length: RANK_POOL / 5 }, (_, k) => k * 5);
    expect(pool.slice(0, headlines.length)).toEqual(headlines);
    // Past the pool: the older matches, newest first.
    expect(rest).toEqual(Array.from({ length: count - RANK_POOL }, (_, i) => RANK_POOL + i));
    // Freshness: a stronger match of three months ago ranks below a weaker one of today, and above
    // it when both are of today.
    const strong = await insertStory(db, n.account.id, {
      headline: "Quince, quince and quince",
      cards: textCards("Quince quince quince."),
      publishedAt: new Date(at - 90 * day),
    });
    const weak = await insertStory(db, n.account.id, { headline: "Market report", cards: textCards("Quince.") });
    expect(ids((await results("?q=quince")).stories)).toEqual([weak.id, strong.id]);
    await db.story.update({ where: { id: strong.id }, data: { publishedAt: new Date(at - 60_000) } });
    expect(ids((await results("?q=quince")).stories)).toEqual([strong.id, weak.id]);
  });
});

describe("GET /api/v1/advanced-search", () => {
  it("answers {total, items} with the same engine and filters", async () => {
    const db = await getDb();
    const n = await seedNewsroom(db);
    const res = await advancedRoute.GET(
      new Request(
        `http://localhost/api/v1/advanced-search?q=budget&fields=headline,url,published-at,cards&sort=latest-published&published-after=0`,
      ),
      NO_PARAMS,
    );
    expect(res.status).toBe(200);
    const body = await readJson<{ total: number; items: Story[] }>(res);
    expect(body.total).toBe(2);
    expect(ids(body.items)).toEqual([n.stories.budgetVote.id, n.stories.pollsOpen.id]);
    expect(Object.keys(body.items[0]!).sort()).toEqual(["cards", "headline", "id", "published-at", "url"]);
    const bad = await advancedRoute.GET(new Request("http://localhost/api/v1/advanced-search?sort=nope"), NO_PARAMS);
    expect(bad.status).toBe(400);
  });
});
