import { createHash } from "node:crypto";

import { describe, expect, it } from "vitest";

import {
  cardsPlainText,
  htmlToText,
  projectFields,
  readTimeMinutes,
  storyToWire,
  storyUrl,
  WIRE_FORM_VERSION,
} from "./story-view";

/** A story of one draft card holding these elements. */
const oneCard = <E>(elements: E[]) => [
  { id: "7f0d4c2e-5c1b-4b8e-9a57-0d7f1c7c0a01", status: "draft", version: 1, metadata: {}, "story-elements": elements },
];

/**
 * What storyToWire wrote for FULL_STORY in each version of the wire shape. A change to the shape
 * adds a version here and raises WIRE_FORM_VERSION with it (kept forms of the old shape are then
 * built again); an entry is never edited.
 */
const SHAPES: Record<number, string> = {
  1: "12fb925a9b8e1b244da31eb19b653055",
  2: "96603adf73540c52ea60f80fa09c5cb0",
};

const at = new Date("2026-01-02T03:04:05.678Z");
const FULL_STORY = {
  id: "5b7c1a52-8a43-4c8e-9f0e-3d1c2b4a5f60",
  accountId: 7,
  headline: "Headline",
  subheadline: "Sub",
  slug: "politics/story",
  summary: "Summary",
  status: "PUBLISHED" as const,
  storyTemplate: "text",
  contentType: "story",
  version: 3,
  storyVersionId: "5b7c1a52-8a43-4c8e-9f0e-3d1c2b4a5f61",
  cards: oneCard([
    { id: "7f0d4c2e-5c1b-4b8e-9a57-0d7f1c7c0a02", type: "text", subtype: null, text: "<p>Body</p>", metadata: {} },
  ]),
  seo: { "meta-title": "Meta" },
  metadata: { "story-attributes": { flag: ["true"] } },
  heroImageS3Key: "7/hero.jpg",
  heroImageMetadata: { width: 10, height: 5 },
  heroImageCaption: "Caption",
  heroImageAttribution: "Photographer",
  alternative: { home: { default: { headline: "Alt" } } },
  access: "subscription",
  accessLevelValue: 10,
  paywallAt: 3,
  isLiveBlog: false,
  canonicalUrl: "https://elsewhere.example/story",
  customSlug: "custom",
  readTime: 2,
  isBreakingNews: true,
  breakingNewsExpiresAt: at,
  breakingNewsLinkedStoryId: null,
  publishAt: null,
  publishedAt: at,
  firstPublishedAt: at,
  lastPublishedAt: at,
  ownerId: null,
  assigneeId: null,
  externalId: "ext-1",
  createdAt: at,
  updatedAt: at,
  wireSeq: 4,
  sections: [
    {
      storyId: "5b7c1a52-8a43-4c8e-9f0e-3d1c2b4a5f60",
      sectionId: 3,
      position: 0,
      section: {
        id: 3,
        name: "Politics",
        displayName: "Politics!",
        slug: "politics",
        parentId: null,
        domainSlug: null,
        collection: { id: 9, slug: "politics", name: "Politics" },
      },
    },
  ],
  authors: [
    {
      storyId: "5b7c1a52-8a43-4c8e-9f0e-3d1c2b4a5f60",
      authorId: 5,
      position: 0,
      author: {
        id: 5,
        accountId: 7,
        name: "Ada",
        slug: "ada",
        email: "ada@example.com",
        avatarUrl: "https://img.example/ada.jpg",
        avatarS3Key: null,
        twitterHandle: "ada",
        bio: "Bio",
        metadata: { x: 1 },
        createdAt: at,
        updatedAt: at,
      },
    },
  ],
  tags: [
    {
      storyId: "5b7c1a52-8a43-4c8e-9f0e-3d1c2b4a5f60",
      tagId: 2,
      position: 0,
      tag: { id: 2, accountId: 7, name: "Tag", slug: "tag", metaDescription: "About", createdAt: at, updatedAt: at },
    },
  ],
  entities: [
    {
      storyId: "5b7c1a52-8a43-4c8e-9f0e-3d1c2b4a5f60",
      entityId: 4,
      entity: { id: 4, name: "Entity", type: "person", slug: "entity" },
    },
  ],
};

describe("story view helpers", () => {
  it("turns HTML into text, decoding entities and dropping scripts", () => {
    expect(htmlToText("<p>Fish &amp; <b>chips</b></p><script>alert(1)</script><p>&lt;3&nbsp;you</p>")).toBe(
      "Fish & chips <3 you",
    );
  });

  it("collects the readable text of cards in order", () => {
    const cards = oneCard([
      {
        id: "7f0d4c2e-5c1b-4b8e-9a57-0d7f1c7c0a02",
        type: "text" as const,
        subtype: null,
        text: "<p>First words.</p>",
        metadata: {},
      },
      {
        id: "7f0d4c2e-5c1b-4b8e-9a57-0d7f1c7c0a03",
        type: "image" as const,
        subtype: null,
        title: "A caption",
        "image-s3-key": "a.jpg",
        metadata: {},
      },
      {
        id: "7f0d4c2e-5c1b-4b8e-9a57-0d7f1c7c0a04",
        type: "quote" as const,
        subtype: null,
        text: "Said so.",
        metadata: {},
      },
    ]);
    expect(cardsPlainText(cards)).toBe("First words.\nA caption\nSaid so.");
  });

  it("reads every element's text as HTML: quotes, titles, captions and descriptions are stored sanitised", () => {
    const element = (n: number, fields: Record<string, unknown>) => ({
      id: `7f0d4c2e-5c1b-4b8e-9a57-0d7f1c7c0a1${n}`,
      subtype: null,
      metadata: {},
      ...fields,
    });
    const cards = oneCard([
      element(1, { type: "quote", text: "<p>Fish &amp; <em>chips</em></p>" }),
      element(2, { type: "title", text: "Q&amp;A" }),
      element(3, { type: "image", title: "A <b>caption</b>", "image-s3-key": "a.jpg" }),
      element(4, { type: "youtube-video", description: "Tom &amp; Jerry" }),
    ]) as unknown as Parameters<typeof cardsPlainText>[0];
    expect(cardsPlainText(cards)).toBe("Fish & chips\nQ&A\nA caption\nTom & Jerry");
  });

  it("rounds read time to minutes at 200 words a minute, never below one", () => {
    expect(readTimeMinutes("")).toBe(1);
    expect(readTimeMinutes(Array.from({ length: 1000 }, () => "word").join(" "))).toBe(5);
  });

  it("projects fields and always keeps the id", () => {
    expect(projectFields({ id: "x", headline: "h", slug: "s" }, ["headline"])).toEqual({ id: "x", headline: "h" });
    expect(projectFields({ id: "x", headline: "h" }, undefined)).toEqual({ id: "x", headline: "h" });
  });

  it("keeps the wire shape of its version: a new shape comes with a new WIRE_FORM_VERSION", () => {
    const wire = storyToWire(FULL_STORY, { publisherId: 7, siteUrl: "https://news.example.com" });
    const shape = createHash("sha256").update(JSON.stringify(wire)).digest("hex").slice(0, 32);
    expect(Object.keys(wire).at(-1), "votes is the last key (story-wire.ts adds it after a kept form)").toBe("votes");
    expect(
      { version: WIRE_FORM_VERSION, shape },
      "storyToWire's output changed: add it to SHAPES as a new version and raise WIRE_FORM_VERSION",
    ).toEqual({ version: Math.max(...Object.keys(SHAPES).map(Number)), shape: SHAPES[WIRE_FORM_VERSION] });
    expect(new Set(Object.values(SHAPES)).size).toBe(Object.keys(SHAPES).length);
  });

  it("builds story URLs that keep slashes and escape the rest", () => {
    expect(storyUrl("https://n.example/", "politics/a b")).toBe("https://n.example/politics/a%20b");
  });
});
