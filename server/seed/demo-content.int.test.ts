import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { XMLParser, XMLValidator } from "fast-xml-parser";
import { imageSize } from "image-size";
import { afterAll, beforeEach, describe, expect, it } from "vitest";

import { getDb } from "../db";
import { ZCards } from "../publishing/cards.schema";
import { IMAGE_KEY_PATTERN } from "../publishing/editorial/organise.schema";
import { buildAmpStory } from "../publishing/feeds/amp";
import { buildStoriesRss } from "../publishing/feeds/rss";
import { forgetPublisherCache } from "../publishing/publisher";
import { cardsPlainText, readTimeMinutes } from "../publishing/story-view";
import { seedDemoPublisher } from "./demo";
import { seedDemoContent } from "./demo-content";
import { gradientPng } from "./demo-images";
import { DEMO_STORIES } from "./demo-stories";
import { generatedSlugSql, LARGE_SLUG_PREFIX, seedLargeContent } from "./large-content";

const uploadDir = await fs.mkdtemp(path.join(os.tmpdir(), "masthead-demo-content-"));
const appUrl = "http://localhost:3000";
const NOW = new Date("2025-06-01T12:00:00Z");

afterAll(async () => {
  await fs.rm(uploadDir, { recursive: true, force: true });
});

beforeEach(() => forgetPublisherCache());

async function seed() {
  const db = await getDb();
  const accountId = await seedDemoPublisher(db);
  const report = { created: [] as string[] };
  const summary = await seedDemoContent(db, { accountId, appUrl, uploadDir, now: NOW }, report);
  return { db, accountId, summary, report };
}

async function counts(db: Awaited<ReturnType<typeof getDb>>) {
  return {
    stories: await db.story.count(),
    sections: await db.section.count(),
    authors: await db.author.count(),
    tags: await db.tag.count(),
    entities: await db.entity.count(),
    relationships: await db.entityRelationship.count(),
    collections: await db.collection.count(),
    items: await db.collectionItem.count(),
    images: await db.imageAsset.count(),
    links:
      (await db.storySection.count()) +
      (await db.storyAuthor.count()) +
      (await db.storyTag.count()) +
      (await db.storyEntity.count()),
    config: await db.publisherConfig.count(),
  };
}

describe("demo content", () => {
  it("creates the documented publisher content", async () => {
    const { db, accountId, summary, report } = await seed();
    expect(report.created).toHaveLength(1);
    expect(report.created[0]).toMatch(
      /^demo content \(publisher config, 14 images, 7 sections, 10 collections, 6 authors, 12 tags, 9 entities, 3 relationships, 39 stories\)$/,
    );

    const config = await db.publisherConfig.findUniqueOrThrow({ where: { accountId } });
    expect(config.siteUrl).toBe(appUrl);
    expect(config.cdnImage).toBe("localhost:3000/images");
    expect(config.settings).toMatchObject({ title: "The Daily Masthead" });

    const sections = await db.section.findMany({ where: { accountId }, include: { collection: true } });
    expect(sections).toHaveLength(7);
    expect(sections.filter((s) => s.parentId !== null).map((s) => s.slug)).toEqual(["football"]);
    for (const section of sections) {
      expect(section.collection).toMatchObject({
        slug: `section-${section.slug}`,
        automated: true,
        rules: { "section-ids": [section.id] },
      });
    }

    const authors = await db.author.findMany({ where: { accountId } });
    expect(authors.length).toBeGreaterThanOrEqual(5);
    for (const author of authors) expect(author.bio).toBeTruthy();
    expect(await db.tag.count({ where: { accountId } })).toBeGreaterThanOrEqual(10);
    const team = await db.entity.findFirstOrThrow({
      where: { accountId, type: "team" },
      include: { relations: { include: { to: true } } },
    });
    expect(team.relations.map((r) => [r.relation, r.to.name])).toEqual([
      ["players", "Chidi Okoro"],
      ["players", "Erik Lindqvist"],
      ["players", "Luc Moreau"],
    ]);

    const published = await db.story.findMany({
      where: { accountId, status: "PUBLISHED" },
      include: { sections: true, authors: true, tags: true, entities: true },
    });
    expect(published.length).toBe(DEMO_STORIES.length + 1);
    expect(published.length).toBeGreaterThanOrEqual(30);
    expect(await db.story.count({ where: { accountId, status: "DRAFT" } })).toBe(2);
    const types = new Set<string>();
    for (const story of published) {
      const cards = ZCards.parse(story.cards);
      for (const card of cards)
        for (const element of card["story-elements"])
          types.add(element.type === "jsembed" ? `jsembed/${element.subtype}` : element.type);
      expect(story.plainText).toBe(cardsPlainText(cards));
      expect(story.readTime).toBe(readTimeMinutes(story.plainText));
      expect(story.heroImageS3Key).toMatch(IMAGE_KEY_PATTERN);
      expect(story.sections.length).toBeGreaterThan(0);
      expect(story.authors.length).toBe(1);
      expect(story.publishedAt!.getTime()).toBeLessThanOrEqual(NOW.getTime());
    }
    expect([...types].sort()).toEqual(["image", "jsembed/tweet", "quote", "text", "youtube-video"]);
    const times = published.map((s) => s.publishedAt!.getTime());
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(14 * 24 * 3600 * 1000);
    expect(published.filter((s) => s.tags.length > 0).length).toBeGreaterThan(25);
    expect(published.filter((s) => s.entities.length > 0).length).toBeGreaterThan(5);

    const breaking = await db.story.findMany({ where: { accountId, isBreakingNews: true } });
    expect(breaking).toHaveLength(1);
    expect(breaking[0]!.slug).toBe(summary.breakingSlug);
    expect(breaking[0]!.breakingNewsExpiresAt!.getTime()).toBeGreaterThan(NOW.getTime() + 2 * 24 * 3600 * 1000);

    const home = await db.collection.findUniqueOrThrow({
      where: { accountId_slug: { accountId, slug: "home" } },
      include: { items: { orderBy: { position: "asc" } } },
    });
    expect(home.automated).toBe(false);
    expect(home.items.filter((i) => i.storyId).length).toBeGreaterThan(0);
    expect(home.items.filter((i) => i.childCollectionId).length).toBe(6);
    expect(
      await db.collection.findUnique({ where: { accountId_slug: { accountId, slug: "editors-picks" } } }),
    ).toMatchObject({ automated: false });
    expect(
      await db.collection.findUnique({ where: { accountId_slug: { accountId, slug: "technology-and-business" } } }),
    ).toMatchObject({ automated: true });
    // Drafts are in no collection.
    const draftIds = (await db.story.findMany({ where: { status: "DRAFT" }, select: { id: true } })).map((s) => s.id);
    expect(await db.collectionItem.count({ where: { storyId: { in: draftIds } } })).toBe(0);
  });

  it("writes real PNG files for every image, recorded with their size", async () => {
    const { db } = await seed();
    const assets = await db.imageAsset.findMany();
    expect(assets).toHaveLength(14);
    for (const asset of assets) {
      expect(asset.key).toMatch(IMAGE_KEY_PATTERN);
      const bytes = await fs.readFile(path.join(uploadDir, ...asset.key.split("/")));
      expect(bytes.length).toBe(asset.bytes);
      expect(imageSize(bytes)).toMatchObject({ type: "png", width: asset.width, height: asset.height });
    }
    expect(imageSize(gradientPng(3, 2, "#000000", "#ffffff"))).toMatchObject({ width: 3, height: 2, type: "png" });
  });

  it("changes nothing when run twice, keeping dashboard edits", async () => {
    const { db, accountId } = await seed();
    await db.story.updateMany({
      where: { accountId, slug: { startsWith: "politics/" } },
      data: { headline: "Edited in the dashboard" },
    });
    const before = await counts(db);
    const edited = await db.story.count({ where: { headline: "Edited in the dashboard" } });
    const report = { created: [] as string[] };
    await seedDemoContent(db, { accountId, appUrl, uploadDir, now: new Date(NOW.getTime() + 86_400_000) }, report);
    expect(report.created).toEqual([]);
    expect(await counts(db)).toEqual(before);
    expect(await db.story.count({ where: { headline: "Edited in the dashboard" } })).toBe(edited);
  });

  it("feeds the RSS and AMP builders with valid output and never shows the drafts", async () => {
    const { db, accountId, summary } = await seed();
    const { xml } = await buildStoriesRss(db, { accountId, appUrl, selfUrl: `${appUrl}/stories.rss`, limit: 100 });
    expect(XMLValidator.validate(xml)).toBe(true);
    const items = (new XMLParser().parse(xml) as { rss: { channel: { item: { link: string }[] } } }).rss.channel.item;
    expect(items).toHaveLength(DEMO_STORIES.length + 1);
    for (const slug of summary.draftSlugs) expect(xml).not.toContain(slug);
    const { html } = await buildAmpStory(db, { accountId, appUrl, slug: summary.storySlugs[0]! });
    expect(html).toContain("<amp-img");
    expect(html).toContain('src="http://localhost:3000/images/');
  });
});

describe("large content", () => {
  it("numbers generated slugs with six digits at least, never cutting a seventh", async () => {
    const db = await getDb();
    const rows = await db.$queryRawUnsafe<{ slug: string }[]>(
      `SELECT ${generatedSlugSql("n")} AS slug FROM unnest(ARRAY[1, 999999, 1000000, 12345678]) AS n`,
    );
    expect(rows.map((r) => r.slug)).toEqual([
      "bench/story-000001",
      "bench/story-999999",
      "bench/story-1000000",
      "bench/story-12345678",
    ]);
  });

  it("generates N published, searchable, linked stories and tops up instead of doubling", async () => {
    const { db, accountId } = await seed();
    const first = await seedLargeContent(db, { accountId, target: 120, batchSize: 50 });
    expect(first).toEqual({ existing: 0, created: 120, total: 120 });
    const generated = { accountId, slug: { startsWith: LARGE_SLUG_PREFIX } };
    expect(await db.story.count({ where: { ...generated, status: "PUBLISHED" } })).toBe(120);
    expect(await db.storySection.count({ where: { story: generated } })).toBe(120);
    expect(await db.storyAuthor.count({ where: { story: generated } })).toBe(120);
    expect(await db.storyTag.count({ where: { story: generated } })).toBe(240);
    const sample = await db.story.findFirstOrThrow({ where: generated });
    expect(sample.plainText.split(" ").length).toBeGreaterThan(60);
    expect(ZCards.parse(sample.cards)[0]!["story-elements"]).toHaveLength(2);
    const hits = await db.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM stories WHERE slug LIKE 'bench/%' AND search_vector @@ plainto_tsquery('english', 'climate')`,
    );
    expect(Number(hits[0]!.n)).toBeGreaterThan(10);

    expect(await seedLargeContent(db, { accountId, target: 120 })).toEqual({ existing: 120, created: 0, total: 120 });
    expect(await seedLargeContent(db, { accountId, target: 150, batchSize: 40 })).toEqual({
      existing: 120,
      created: 30,
      total: 150,
    });
    expect(await db.story.count({ where: generated })).toBe(150);
  });
});
