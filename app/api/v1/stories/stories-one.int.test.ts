/**
 * One story through the content API's route handlers: by slug (slashes and all), id and external
 * id, published ones only, with fields, 400s and 404s, and 304 to a matching If-None-Match until
 * the story changes; its related stories (sharing a section or tag, newest first, the same from
 * the walk of the newest stories as from the whole archive) and its attributes.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { listRelatedStories } from "@/server/publishing/stories";
import { NO_PARAMS, readJson, seedNewsroom, withParams } from "@/server/testing/newsroom-fixture";
import { createTestPublisher, insertSection, insertStory, insertTag } from "@/server/testing/publishing-factories";
import { ids, unpublishedIds, type ErrorBody, type Story } from "@/server/testing/stories-api";

import * as bySlugRoute from "../stories-by-slug/route";
import * as byExternalIdRoute from "../story-by-external-id/[externalId]/route";
import * as attributesRoute from "./[storyId]/attributes/route";
import * as relatedRoute from "./[storyId]/related-stories/route";
import * as storyRoute from "./[storyId]/route";

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
      paidPart: "full" as const,
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
