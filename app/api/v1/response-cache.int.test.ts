/**
 * The response cache (./response-cache.ts) on the content reads: an answer is built once and
 * served from memory (X-Cache: HIT, same ETag), until a change that alters it commits: one test
 * per kind of change (a story published, saved, retracted, voted on; a draft deleted that
 * breaking news linked to; sections, tags, authors and entities created, renamed and related;
 * collections; settings; breaking news expiring), and nothing on a rollback. PGlite and
 * PostgreSQL. The engagement reads have theirs next to their routes.
 */

import { beforeEach, describe, expect, it } from "vitest";

import * as ampStoryRoute from "@/app/api/v1/amp/story/route";
import * as authorsRoute from "@/app/api/v1/authors/route";
import * as breakingRoute from "@/app/api/v1/breaking-news/route";
import * as collectionRoute from "@/app/api/v1/collections/[slug]/route";
import * as configRoute from "@/app/api/v1/config/route";
import * as entityRelationRoute from "@/app/api/v1/entities/[id]/[...subentity]/route";
import * as entitiesRoute from "@/app/api/v1/entities/route";
import * as entityCollectionsRoute from "@/app/api/v1/entity/[id]/collections/route";
import * as bySlugRoute from "@/app/api/v1/stories-by-slug/route";
import * as storyRoute from "@/app/api/v1/stories/[storyId]/route";
import * as storiesRoute from "@/app/api/v1/stories/route";
import * as rssRoute from "@/app/stories.rss/route";
import { staffActor, type StaffActor } from "@/server/auth/actor";
import { ownWritesHeard } from "@/server/cache/process-cache";
import { responseCache } from "@/server/cache/response-cache";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { withTransaction } from "@/server/db/transaction";
import { metricsText } from "@/server/metrics";
import { setCollectionItems } from "@/server/publishing/editorial/collections/items";
import { createCollection } from "@/server/publishing/editorial/collections/write";
import type { TCreateStoryInput } from "@/server/publishing/editorial/stories.schema";
import { deleteStory, transitionStory } from "@/server/publishing/editorial/stories/moves";
import { createStory, updateStory } from "@/server/publishing/editorial/stories/write";
import { createAuthor, updateAuthor } from "@/server/publishing/editorial/taxonomy/authors";
import { addEntityRelationship, createEntity, updateEntity } from "@/server/publishing/editorial/taxonomy/entities";
import { createSection, updateSection } from "@/server/publishing/editorial/taxonomy/sections";
import { createTag, updateTag } from "@/server/publishing/editorial/taxonomy/tags";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { getPublisherSettings, updatePublisherSettings } from "@/server/publishing/settings";
import { castVote } from "@/server/publishing/votes";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { enableResponseCache } from "@/server/testing/response-cache";
import { callGet, type RouteHandlerFn } from "@/server/testing/route-calls";
import { insertEditor } from "@/server/testing/staff";

enableResponseCache();

const APP_URL = "http://localhost:3000";
const now = () => new Date();

beforeEach(() => forgetPublisherCache());

async function newsroom() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const actor = await insertEditor(db, account.id);
  const ownerRow = await db.adminUser.create({
    data: {
      accountId: account.id,
      email: `owner-${account.id}@example.test`,
      name: "Olive",
      roles: ["OWNER"],
      passwordHash: "x",
    },
  });
  return { db, account, actor, owner: staffActor(ownerRow) };
}

/** Create a story and take it to PUBLISHED through the workflow (events and all). */
async function publishedStory(db: Db, actor: StaffActor, input: TCreateStoryInput) {
  const ctx = { actor, now: now(), appUrl: APP_URL };
  const { story } = await createStory(db, { ...ctx, input });
  for (const [version, action] of [
    [1, "submit"],
    [2, "approve"],
    [3, "publish"],
  ] as const)
    await transitionStory(db, { ...ctx, input: { id: story.id, version, action } });
  return { id: story.id, version: 4 };
}

/** GET twice: the first builds it (or finds it), the second is served from memory (HIT), the same. */
async function warm(handler: RouteHandlerFn, path: string, params = {}) {
  // What the test wrote outside a request is heard first, as a request's write is before its answer.
  await ownWritesHeard(await getDb());
  const first = await callGet(handler, path, params);
  expect(first.status, path).toBe(200);
  expect(first.headers.get("x-cache"), path).toMatch(/^(MISS|HIT)$/);
  const body = await first.text();
  const second = await callGet(handler, path, params);
  expect(second.headers.get("x-cache"), path).toBe("HIT");
  expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
  expect(await second.text()).toBe(body);
  return body;
}

/** The next GET is built afresh (the change dropped it) and shows `expected`. */
async function rebuilt(handler: RouteHandlerFn, path: string, expected: string | RegExp, params = {}) {
  await ownWritesHeard(await getDb());
  const res = await callGet(handler, path, params);
  expect(res.headers.get("x-cache"), path).toBe("MISS");
  const text = await res.text();
  if (typeof expected === "string") expect(text).toContain(expected);
  else expect(text).toMatch(expected);
  return text;
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("the response cache on content reads", () => {
  it("serves the same request from memory, with its ETag and 304, and builds afresh on Cache-Control: no-cache", async () => {
    const { db, actor } = await newsroom();
    await publishedStory(db, actor, { headline: "Tram line opens" });
    expect((await callGet(storiesRoute.GET, "/api/v1/stories")).headers.get("x-cache")).toBe("MISS");
    await warm(storiesRoute.GET, "/api/v1/stories");
    const hit = await callGet(storiesRoute.GET, "/api/v1/stories");
    const etag = hit.headers.get("etag")!;
    const notModified = await callGet(storiesRoute.GET, "/api/v1/stories", {}, { "if-none-match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("x-cache")).toBe("HIT");
    // The body as it is, whatever the client accepts: compression is Next.js's (its `compress`).
    const hitBody = await hit.text();
    const plain = await callGet(storiesRoute.GET, "/api/v1/stories", {}, { "accept-encoding": "gzip" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(hitBody);
    const fresh = await callGet(storiesRoute.GET, "/api/v1/stories", {}, { "cache-control": "no-cache" });
    expect(fresh.headers.get("x-cache")).toBe("MISS");
    // Another query is another entry.
    expect((await callGet(storiesRoute.GET, "/api/v1/stories?limit=1")).headers.get("x-cache")).toBe("MISS");
    // Errors are not kept.
    const missing = "/api/v1/stories-by-slug?slug=nothing-here";
    expect((await callGet(bySlugRoute.GET, missing)).status).toBe(404);
    expect((await callGet(bySlugRoute.GET, missing)).headers.get("x-cache")).not.toBe("HIT");
  });

  it("counts its hits, misses and bypasses and reports what it holds in the metrics", async () => {
    const { db, actor } = await newsroom();
    const { id } = await publishedStory(db, actor, { headline: "Ferry timetable" });
    const story = await db.story.findUniqueOrThrow({ where: { id }, select: { slug: true } });
    const figures = async () => {
      const { body } = await metricsText(getDb);
      // A series with nothing counted yet is not printed: 0.
      const value = (series: string) => Number(new RegExp(`^${series} (\\d+)$`, "m").exec(body)?.[1] ?? 0);
      return {
        hit: value('masthead_response_cache_answers_total\\{outcome="hit"\\}'),
        miss: value('masthead_response_cache_answers_total\\{outcome="miss"\\}'),
        bypass: value('masthead_response_cache_answers_total\\{outcome="bypass"\\}'),
        bytes: value("masthead_response_cache_bytes"),
        entries: value("masthead_response_cache_entries"),
      };
    };
    await callGet(storiesRoute.GET, "/api/v1/stories?limit=3");
    const before = await figures();
    await callGet(storiesRoute.GET, "/api/v1/stories?limit=2"); // built and kept
    await callGet(storiesRoute.GET, "/api/v1/stories?limit=2"); // from memory
    await callGet(storiesRoute.GET, "/api/v1/stories?limit=2"); // from memory
    // Naming check-access (here false: the public story) is a read built every time, never kept.
    const named = await callGet(bySlugRoute.GET, `/api/v1/stories-by-slug?slug=${story.slug}&check-access=false`);
    expect(named.headers.get("x-cache")).toBe("BYPASS");
    const after = await figures();
    expect(after.miss - before.miss).toBe(1);
    expect(after.hit - before.hit).toBe(2);
    expect(after.bypass - before.bypass).toBe(1);
    expect(after.entries).toBe(responseCache().size);
    expect(after.bytes).toBe(responseCache().usedBytes);
    expect(after.bytes).toBeGreaterThan(before.bytes);
  });

  it("a story published, then saved, then retracted drops the lists and the story", async () => {
    const { db, actor } = await newsroom();
    const first = await publishedStory(db, actor, { headline: "First out", slug: "first-out" });
    await warm(storiesRoute.GET, "/api/v1/stories");
    await warm(bySlugRoute.GET, "/api/v1/stories-by-slug?slug=first-out");

    await publishedStory(db, actor, { headline: "Second out" });
    await rebuilt(storiesRoute.GET, "/api/v1/stories", "Second out");
    // The other story's own answer carries only its key: still served from memory.
    expect((await callGet(bySlugRoute.GET, "/api/v1/stories-by-slug?slug=first-out")).headers.get("x-cache")).toBe(
      "HIT",
    );

    await warm(storiesRoute.GET, "/api/v1/stories");
    await updateStory(db, {
      actor,
      now: now(),
      appUrl: APP_URL,
      input: { id: first.id, version: first.version, headline: "First out, corrected" },
    });
    await rebuilt(bySlugRoute.GET, "/api/v1/stories-by-slug?slug=first-out", "First out, corrected");
    await rebuilt(storiesRoute.GET, "/api/v1/stories", "First out, corrected");

    await warm(storyRoute.GET, `/api/v1/stories/${first.id}`, { storyId: first.id });
    await transitionStory(db, {
      actor,
      now: now(),
      appUrl: APP_URL,
      input: { id: first.id, version: first.version + 1, action: "retract" },
    });
    expect((await callGet(storyRoute.GET, `/api/v1/stories/${first.id}`, { storyId: first.id })).status).toBe(404);
    const list = await rebuilt(storiesRoute.GET, "/api/v1/stories", "Second out");
    expect(list).not.toContain("First out");
  });

  it("a story published drops the RSS feed; a settings change drops the AMP page", async () => {
    const { db, actor, owner } = await newsroom();
    await publishedStory(db, actor, { headline: "In the feed", slug: "in-the-feed" });
    expect(await warm(rssRoute.GET, "/stories.rss")).toContain("In the feed");
    await publishedStory(db, actor, { headline: "Fresh in the feed" });
    await rebuilt(rssRoute.GET, "/stories.rss", "Fresh in the feed");

    const amp = "/api/v1/amp/story?slug=in-the-feed";
    expect(await warm(ampStoryRoute.GET, amp)).toContain('lang="en"');
    // One URL, two representations (Vary: Accept): each kept for the Accept that asked for it.
    const json = { accept: "application/json" };
    const first = await callGet(ampStoryRoute.GET, amp, {}, json);
    expect(first.headers.get("content-type")).toContain("application/json");
    expect(first.headers.get("x-cache")).toBe("MISS");
    const again = await callGet(ampStoryRoute.GET, amp, {}, json);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect((await again.json()) as object).toHaveProperty("amp-html");
    const html = await callGet(ampStoryRoute.GET, amp);
    expect(html.headers.get("x-cache")).toBe("HIT");
    expect(html.headers.get("content-type")).toContain("text/html");
    const { settings } = await getPublisherSettings(db, { actor: owner, appUrl: APP_URL });
    await updatePublisherSettings(db, {
      actor: owner,
      appUrl: APP_URL,
      input: { ...settings, language: { isoCode: "fr", ietfCode: "fr-FR", direction: "ltr" } },
    });
    await rebuilt(ampStoryRoute.GET, amp, 'lang="fr"');
  });

  it("a vote drops the story's answers (their votes changed)", async () => {
    const { db, actor, account } = await newsroom();
    const story = await publishedStory(db, actor, { headline: "Vote on me", slug: "vote-on-me" });
    const member = await db.member.create({
      data: { accountId: account.id, name: "Vera", email: `vera-${account.id}@example.test`, passwordHash: "x" },
    });
    const before = await warm(bySlugRoute.GET, "/api/v1/stories-by-slug?slug=vote-on-me");
    expect(before).toContain('"votes":0');
    await castVote(db, { accountId: account.id, storyId: story.id, memberId: member.id, magnitude: 1, now: now() });
    await rebuilt(bySlugRoute.GET, "/api/v1/stories-by-slug?slug=vote-on-me", '"votes":1');
  });

  it("deleting a draft that breaking news linked to drops the breaking story", async () => {
    const { db, actor } = await newsroom();
    const { story: draft } = await createStory(db, {
      actor,
      now: now(),
      appUrl: APP_URL,
      input: { headline: "Full story soon" },
    });
    await publishedStory(db, actor, {
      headline: "Flash: bridge closed",
      isBreakingNews: true,
      breakingNewsLinkedStoryId: draft.id,
    });
    const before = await warm(breakingRoute.GET, "/api/v1/breaking-news");
    expect(before).toContain(draft.id);
    await deleteStory(db, { actor, id: draft.id, version: 1, now: now() });
    const after = await rebuilt(breakingRoute.GET, "/api/v1/breaking-news", "Flash: bridge closed");
    expect(after).not.toContain(draft.id);
  });

  it("breaking news is kept no longer than its first expiry", async () => {
    const { db, actor } = await newsroom();
    // Far enough ahead that publishing and warming end before it, even on a loaded CI machine.
    const expiresAt = new Date(Date.now() + 3_000);
    await publishedStory(db, actor, {
      headline: "Storm warning",
      isBreakingNews: true,
      breakingNewsExpiresAt: expiresAt,
    });
    expect(await warm(breakingRoute.GET, "/api/v1/breaking-news")).toContain("Storm warning");
    expect(Date.now(), "warmed before the expiry").toBeLessThan(expiresAt.getTime());
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 200));
    const after = await rebuilt(breakingRoute.GET, "/api/v1/breaking-news", /"stories":\[\]/);
    expect(after).not.toContain("Storm warning");
  });

  it("sections, tags, authors and entities: created, renamed and related, drop what lists or shows them", async () => {
    const { db, actor } = await newsroom();
    const { section } = await createSection(db, { actor, input: { name: "City" }, now: now() });
    const tag = await createTag(db, { actor, input: { name: "Trams" }, now: now() });
    const author = await createAuthor(db, { actor, input: { name: "Ann Lee" }, now: now() });
    await publishedStory(db, actor, {
      headline: "Trams return",
      slug: "trams-return",
      sectionIds: [section.id],
      tags: [{ id: tag.id }],
      authorIds: [author.id],
    });

    // Created: the lists that name every one of them.
    await warm(authorsRoute.GET, "/api/v1/authors");
    await createAuthor(db, { actor, input: { name: "Bo Chen" }, now: now() });
    await rebuilt(authorsRoute.GET, "/api/v1/authors", "Bo Chen");
    await warm(configRoute.GET, "/api/v1/config");
    await createSection(db, { actor, input: { name: "Harbour" }, now: now() });
    await rebuilt(configRoute.GET, "/api/v1/config", "Harbour");
    await warm(entitiesRoute.GET, "/api/v1/entities");
    const entity = await createEntity(db, { actor, input: { name: "Tram Co", type: "company" }, now: now() });
    await rebuilt(entitiesRoute.GET, "/api/v1/entities", "Tram Co");

    // Renamed: the story that carries them.
    const bySlug = "/api/v1/stories-by-slug?slug=trams-return";
    for (const [rename, shown] of [
      [() => updateSection(db, { actor, input: { id: section.id, name: "Metro" }, now: now() }), "Metro"],
      [() => updateTag(db, { actor, input: { id: tag.id, name: "Light rail" }, now: now() }), "Light rail"],
      [() => updateAuthor(db, { actor, input: { id: author.id, name: "Ann Lee-Park" }, now: now() }), "Ann Lee-Park"],
    ] as const) {
      expect(await warm(bySlugRoute.GET, bySlug)).not.toContain(shown);
      await rename();
      await rebuilt(bySlugRoute.GET, bySlug, shown);
    }

    // An entity renamed, and related to another (which announces no event).
    await warm(entitiesRoute.GET, "/api/v1/entities");
    await updateEntity(db, { actor, input: { id: entity.id, name: "Tram Company" }, now: now() });
    await rebuilt(entitiesRoute.GET, "/api/v1/entities", "Tram Company");
    const city = await createEntity(db, { actor, input: { name: "The City", type: "organisation" }, now: now() });
    const relations = `/api/v1/entities/${entity.id}/owner`;
    const relationParams = { id: String(entity.id), subentity: ["owner"] };
    await warm(entityRelationRoute.GET, relations, relationParams);
    await addEntityRelationship(db, {
      actor,
      input: { fromId: entity.id, relation: "owner", toId: city.id },
      now: now(),
    });
    await rebuilt(entityRelationRoute.GET, relations, "The City", relationParams);
  });

  it("collections: their items, and the collections of an entity's stories", async () => {
    const { db, actor } = await newsroom();
    const entity = await createEntity(db, {
      actor,
      input: { name: "Harbour Board", type: "organisation" },
      now: now(),
    });
    const story = await publishedStory(db, actor, { headline: "Harbour deal" });
    await db.storyEntity.create({ data: { storyId: story.id, entityId: entity.id } });
    const { collection } = await createCollection(db, { actor, input: { name: "Home" }, now: now() });
    const path = `/api/v1/collections/${collection.slug}`;
    const params = { slug: collection.slug };
    await warm(collectionRoute.GET, path, params);
    const entityPath = `/api/v1/entity/${entity.id}/collections`;
    const entityParams = { id: String(entity.id) };
    expect(await warm(entityCollectionsRoute.GET, entityPath, entityParams)).not.toContain('"home"');

    await setCollectionItems(db, { actor, input: { id: collection.id, items: [{ storyId: story.id }] }, now: now() });
    await rebuilt(collectionRoute.GET, path, "Harbour deal", params);
    await rebuilt(entityCollectionsRoute.GET, entityPath, '"home"', entityParams);
  });

  it("a settings change drops every answer of the account when it changes URLs, and config otherwise", async () => {
    const { db, actor, owner } = await newsroom();
    await publishedStory(db, actor, { headline: "Settled" });
    await warm(storiesRoute.GET, "/api/v1/stories");
    await warm(configRoute.GET, "/api/v1/config");
    const { settings } = await getPublisherSettings(db, { actor: owner, appUrl: APP_URL });

    await updatePublisherSettings(db, {
      actor: owner,
      appUrl: APP_URL,
      input: { ...settings, seo: { ...settings.seo, title: "The Gazette, daily" } },
    });
    await rebuilt(configRoute.GET, "/api/v1/config", "The Gazette, daily");
    expect((await callGet(storiesRoute.GET, "/api/v1/stories")).headers.get("x-cache")).toBe("HIT");

    await warm(configRoute.GET, "/api/v1/config");
    forgetPublisherCache();
    await updatePublisherSettings(db, {
      actor: owner,
      appUrl: APP_URL,
      input: { ...settings, siteUrl: "https://www.gazette.example" },
    });
    await rebuilt(storiesRoute.GET, "/api/v1/stories", "https://www.gazette.example/");
  });

  it("a purge rolled back drops nothing; one committed drops only the keys it names, of its account", async () => {
    const { db, actor, account } = await newsroom();
    await publishedStory(db, actor, { headline: "Steady" });
    await warm(storiesRoute.GET, "/api/v1/stories");
    await warm(configRoute.GET, "/api/v1/config");
    await expect(
      withTransaction(db, async (tx) => {
        await tx.$executeRaw`SELECT masthead_announce(NULL, ${account.id}, ARRAY['stories', 'config'])`;
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await callGet(storiesRoute.GET, "/api/v1/stories")).headers.get("x-cache")).toBe("HIT");

    await withTransaction(
      db,
      (tx) => tx.$executeRaw`SELECT masthead_announce(NULL, ${account.id + 1000}, ARRAY['stories'])`,
    );
    expect((await callGet(storiesRoute.GET, "/api/v1/stories")).headers.get("x-cache")).toBe("HIT");
    await withTransaction(db, (tx) => tx.$executeRaw`SELECT masthead_announce(NULL, ${account.id}, ARRAY['stories'])`);
    expect((await callGet(storiesRoute.GET, "/api/v1/stories")).headers.get("x-cache")).toBe("MISS");
    expect((await callGet(configRoute.GET, "/api/v1/config")).headers.get("x-cache")).toBe("HIT");
    expect(responseCache().size).toBeGreaterThan(0);
  });
});
