/**
 * Test data for the publishing area: unique values, sensible defaults, every override optional.
 * Stories are written the way the editorial code writes them (plain text and read time derived
 * from the cards), so search and feeds see realistic rows.
 */
import { randomUUID } from "node:crypto";

import type { Db } from "../db/client";
import type { Prisma, StoryStatus } from "../generated/prisma/client";
import type { TCard } from "../publishing/cards.schema";
import { cardsPlainText, readTimeMinutes } from "../publishing/story-view";

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export async function createTestPublisher(
  db: Db,
  overrides: { slug?: string; name?: string; domain?: string | null; siteUrl?: string } = {},
) {
  const account = await db.account.create({
    data: {
      slug: overrides.slug ?? unique("pub"),
      name: overrides.name ?? "The Test Gazette",
      domain: overrides.domain === undefined ? "localhost" : overrides.domain,
      jwtSecret: "publisher-shared-secret-for-tests-0001",
    },
  });
  await db.publisherConfig.create({
    data: {
      accountId: account.id,
      siteUrl: overrides.siteUrl ?? "https://news.example.com",
      cdnImage: "images.example.com",
    },
  });
  return account;
}

/**
 * An uploaded image's row (no file): what makes a key usable in stories, authors and collections
 * (server/publishing/editorial/image-refs.ts). A fresh upload-shaped key unless one is given.
 */
export async function insertImageAsset(db: Db, accountId: number, key?: string) {
  const image = await db.imageAsset.create({
    data: {
      accountId,
      key: key ?? `${accountId}/2026/01/${randomUUID()}.png`,
      mimeType: "image/png",
      bytes: 100,
      width: 10,
      height: 10,
    },
  });
  return image.key;
}

export async function insertSection(
  db: Db,
  accountId: number,
  overrides: { name?: string; slug?: string; parentId?: number | null; withCollection?: boolean } = {},
) {
  const name = overrides.name ?? unique("Section");
  const slug = overrides.slug ?? name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const section = await db.section.create({
    data: { accountId, name, displayName: name, slug, parentId: overrides.parentId ?? null },
  });
  if (overrides.withCollection) {
    const collection = await db.collection.create({
      data: { accountId, slug: `section-${slug}`, name, automated: true, rules: { "section-ids": [section.id] } },
    });
    return db.section.update({ where: { id: section.id }, data: { collectionId: collection.id } });
  }
  return section;
}

export async function insertAuthor(
  db: Db,
  accountId: number,
  overrides: { name?: string; slug?: string; bio?: string } = {},
) {
  const name = overrides.name ?? unique("Author");
  return db.author.create({
    data: {
      accountId,
      name,
      slug: overrides.slug ?? name.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
      bio: overrides.bio ?? null,
    },
  });
}

export async function insertTag(db: Db, accountId: number, overrides: { name?: string; slug?: string } = {}) {
  const name = overrides.name ?? unique("tag");
  return db.tag.create({
    data: { accountId, name, slug: overrides.slug ?? name.toLowerCase().replace(/[^a-z0-9]+/g, "-") },
  });
}

/** One card with one text element per paragraph. */
export function textCards(...paragraphs: string[]): TCard[] {
  return [
    {
      id: randomUUID(),
      status: "draft",
      version: 1,
      metadata: {},
      "story-elements": paragraphs.map((p) => ({
        id: randomUUID(),
        type: "text" as const,
        subtype: null,
        text: `<p>${p}</p>`,
        metadata: {},
      })),
    },
  ];
}

type TestStoryOverrides = {
  headline?: string;
  subheadline?: string | null;
  slug?: string;
  summary?: string;
  status?: StoryStatus;
  storyTemplate?: string | null;
  cards?: TCard[];
  sectionIds?: number[];
  authorIds?: number[];
  tagIds?: number[];
  publishedAt?: Date;
  access?: string;
  isBreakingNews?: boolean;
  breakingNewsExpiresAt?: Date | null;
  heroImageS3Key?: string | null;
};

/** A story, published by default (published-at now, or `publishedAt`). */
export async function insertStory(db: Db, accountId: number, overrides: TestStoryOverrides = {}) {
  const headline = overrides.headline ?? unique("Headline");
  const cards = overrides.cards ?? textCards(`Body of ${headline}.`);
  const plainText = cardsPlainText(cards);
  const status = overrides.status ?? "PUBLISHED";
  const publishedAt = status === "PUBLISHED" ? (overrides.publishedAt ?? new Date()) : null;
  return db.story.create({
    data: {
      accountId,
      headline,
      subheadline: overrides.subheadline === undefined ? null : overrides.subheadline,
      slug: overrides.slug ?? headline.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
      summary: overrides.summary ?? null,
      status,
      storyTemplate: overrides.storyTemplate ?? null,
      cards: cards as unknown as Prisma.InputJsonValue,
      plainText,
      readTime: readTimeMinutes(plainText),
      access: overrides.access ?? "public",
      isBreakingNews: overrides.isBreakingNews ?? false,
      breakingNewsExpiresAt: overrides.breakingNewsExpiresAt ?? null,
      heroImageS3Key: overrides.heroImageS3Key ?? null,
      publishedAt,
      firstPublishedAt: publishedAt,
      lastPublishedAt: publishedAt,
      sections: { create: (overrides.sectionIds ?? []).map((sectionId, position) => ({ sectionId, position })) },
      authors: { create: (overrides.authorIds ?? []).map((authorId, position) => ({ authorId, position })) },
      tags: { create: (overrides.tagIds ?? []).map((tagId, position) => ({ tagId, position })) },
    },
  });
}
