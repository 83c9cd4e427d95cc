/**
 * The story as the content API returns it (spec §2.3): kebab-case keys, UUID ids as strings,
 * every time in epoch milliseconds. One function builds it for every reader: the REST API, bulk,
 * collections, feeds and workflow webhook payloads, so the shapes never drift apart.
 *
 * Vocabulary: "wire" objects are what goes out as JSON; `STORY_INCLUDE` is what must be loaded
 * from the database to build one.
 */
import { nullPrototypeRecord, ownValue } from "@/server/own-keys";

import type { Prisma } from "../generated/prisma/client";
import type { TCard } from "./cards.schema";

export const SECTION_SELECT = {
  id: true,
  name: true,
  displayName: true,
  slug: true,
  parentId: true,
  domainSlug: true,
  collection: { select: { id: true, slug: true, name: true } },
} satisfies Prisma.SectionSelect;

export const STORY_INCLUDE = {
  sections: { orderBy: { position: "asc" }, include: { section: { select: SECTION_SELECT } } },
  authors: { orderBy: { position: "asc" }, include: { author: true } },
  tags: { orderBy: { position: "asc" }, include: { tag: true } },
  entities: { include: { entity: { select: { id: true, name: true, type: true, slug: true } } } },
} satisfies Prisma.StoryInclude;

export type StoryWithRelations = Prisma.StoryGetPayload<{ include: typeof STORY_INCLUDE }>;
export type SectionRow = Prisma.SectionGetPayload<{ select: typeof SECTION_SELECT }>;

export type StoryViewContext = {
  /** The account id: the spec's publisher-id. */
  publisherId: number;
  /** The publisher's public site ("https://news.example.com"), for story and section URLs. */
  siteUrl: string;
  /** Net votes per story id, when the caller loaded them. */
  votes?: Map<string, number>;
  /** Dashboard user names by id (owner-name, assignee-name), when the caller loaded them. */
  userNames?: Map<string, string>;
  /**
   * Set for a caller without access to closed stories (./paid-part.ts): the public reads send each
   * closed story's free part and the `paywall` marker, its point the story's own else
   * `defaultElements` (the account's). Unset: every element.
   */
  freePart?: { defaultElements: number };
};

export type WireStory = Record<string, unknown>;

export const ms = (date: Date | null | undefined): number | null => (date ? date.getTime() : null);

export function storyUrl(siteUrl: string, slug: string): string {
  return `${siteUrl.replace(/\/+$/, "")}/${slug.split("/").map(encodeURIComponent).join("/")}`;
}

export function sectionToWire(section: SectionRow, siteUrl: string): Record<string, unknown> {
  return {
    id: section.id,
    name: section.name,
    "display-name": section.displayName,
    slug: section.slug,
    "parent-id": section.parentId,
    "domain-slug": section.domainSlug,
    "section-url": `${siteUrl.replace(/\/+$/, "")}/${encodeURIComponent(section.slug)}`,
    collection: section.collection
      ? { id: section.collection.id, slug: section.collection.slug, name: section.collection.name }
      : null,
  };
}

export function authorToWire(author: {
  id: number;
  name: string;
  slug: string;
  avatarUrl: string | null;
  avatarS3Key: string | null;
  twitterHandle: string | null;
  bio: string | null;
  metadata: unknown;
}) {
  return {
    id: author.id,
    name: author.name,
    slug: author.slug,
    "avatar-url": author.avatarUrl,
    "avatar-s3-key": author.avatarS3Key,
    "twitter-handle": author.twitterHandle,
    bio: author.bio,
    metadata: author.metadata ?? {},
  };
}

export function tagToWire(tag: { id: number; name: string; slug: string; metaDescription: string | null }) {
  return { id: tag.id, name: tag.name, slug: tag.slug, "meta-description": tag.metaDescription };
}

/**
 * The version of the wire shape storyToWire builds. Published stories' wire forms are kept
 * (story-wire.ts) and read only when built by the same version: a change to what storyToWire (or
 * the section, author and tag shapes in it) writes comes with a new version, or readers keep
 * getting the old shape. story-view.test.ts fails until it does.
 */
export const WIRE_FORM_VERSION = 2;

/** The full wire story. Drafts are built too (webhook payloads of story-submit carry them). */
export function storyToWire(story: Omit<StoryWithRelations, "plainText">, ctx: StoryViewContext): WireStory {
  const authors = story.authors.map((a) => authorToWire(a.author));
  const primaryAuthor = authors[0];
  const names = ctx.userNames;
  const cards = (story.cards ?? []) as TCard[];
  return {
    id: story.id,
    "story-content-id": story.id,
    headline: story.headline,
    subheadline: story.subheadline,
    slug: story.slug,
    url: storyUrl(ctx.siteUrl, story.slug),
    summary: story.summary,
    status: story.status.toLowerCase(),
    "story-template": story.storyTemplate,
    "content-type": story.contentType,
    version: story.version,
    "story-version-id": story.storyVersionId,
    "author-id": primaryAuthor?.id ?? null,
    "author-name": primaryAuthor?.name ?? null,
    authors,
    "owner-id": story.ownerId,
    "owner-name": story.ownerId ? (names?.get(story.ownerId) ?? null) : null,
    "assignee-id": story.assigneeId,
    "assignee-name": story.assigneeId ? (names?.get(story.assigneeId) ?? null) : null,
    "publisher-id": ctx.publisherId,
    tags: story.tags.map((t) => tagToWire(t.tag)),
    sections: story.sections.map((s) => sectionToWire(s.section, ctx.siteUrl)),
    seo: {
      "meta-description": null,
      "meta-title": null,
      "meta-keywords": [],
      "meta-google-news-standout": false,
      "claim-reviews": {},
      ...(story.seo as object),
    },
    "hero-image-s3-key": story.heroImageS3Key,
    "hero-image-metadata": story.heroImageMetadata,
    "hero-image-caption": story.heroImageCaption,
    "hero-image-attribution": story.heroImageAttribution,
    cards,
    metadata: story.metadata ?? {},
    "published-at": ms(story.publishedAt),
    "first-published-at": ms(story.firstPublishedAt),
    "last-published-at": ms(story.lastPublishedAt),
    "content-created-at": ms(story.createdAt),
    "content-updated-at": ms(story.updatedAt),
    "created-at": ms(story.createdAt),
    "updated-at": ms(story.updatedAt),
    "publish-at": ms(story.publishAt),
    "is-live-blog": story.isLiveBlog,
    comments: null,
    entities: story.entities.map((e) => ({
      id: e.entity.id,
      name: e.entity.name,
      type: e.entity.type,
      slug: e.entity.slug,
    })),
    "linked-entities": story.entities.map((e) => ({ id: e.entity.id, name: e.entity.name, type: e.entity.type })),
    autotags: [],
    alternative: story.alternative ?? {},
    access: story.access,
    "access-level-value": story.accessLevelValue,
    // Where the free part ends (story elements readers without access see); null: none stored.
    "paywall-at": story.paywallAt ?? null,
    "bullet-type": "123",
    "canonical-url": story.canonicalUrl,
    "custom-slug": story.customSlug,
    "push-notification": null,
    "sequence-no": null,
    "storyline-id": null,
    "storyline-title": null,
    "breaking-news-linked-story-id": story.breakingNewsLinkedStoryId,
    "read-time": story.readTime,
    // Last: the public reads put it after a story's kept text (story-wire.ts).
    votes: ctx.votes?.get(story.id) ?? 0,
  };
}

/**
 * `fields=a,b,c`: keep only the named top-level keys. `id` is always kept, so a projected story
 * can still be addressed (and cache-keyed by clients, which call `id.substr`).
 */
export function projectFields<T extends Record<string, unknown>>(
  object: T,
  fields: readonly string[] | undefined,
): Partial<T> {
  if (!fields || fields.length === 0) return object;
  const out = nullPrototypeRecord<unknown>();
  for (const key of ["id", ...fields]) if (Object.hasOwn(object, key)) out[key] = object[key];
  return out as Partial<T>;
}

// ─── Plain text (search, read time, feeds) ───────────────────────────────────────────────────

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/** Text of an HTML fragment: tags dropped, common entities decoded, whitespace collapsed. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ownValue(ENTITIES, name) ?? " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Every readable word of the cards, in order: what search indexes with weight C. */
export function cardsPlainText(cards: readonly TCard[]): string {
  const parts: string[] = [];
  for (const card of cards) {
    for (const element of card["story-elements"]) {
      // Every one is HTML, sanitised on save (server/publishing/editorial/sanitize.ts).
      if (element.text) parts.push(htmlToText(element.text));
      if (element.title && element.type !== "text") parts.push(htmlToText(element.title));
      if (element.description) parts.push(htmlToText(element.description));
    }
  }
  return parts.filter(Boolean).join("\n");
}

/** Minutes to read at 200 words a minute, at least 1. */
export function readTimeMinutes(text: string): number {
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.round(words / 200));
}
