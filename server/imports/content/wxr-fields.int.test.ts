/**
 * A story keeps its fields and its shape, on PGlite and PostgreSQL: a published post whose custom
 * fields hold a URL list, serialized PHP and a repeated key is imported with its redirect and
 * featured image, each such field reported and left out; subtitle, Yoast, Rank Math and Ghost SEO
 * fields and canonical URLs land in Story.subheadline, seo and canonicalUrl; tags in Hindi,
 * Tamil, Arabic and emoji are kept with valid slugs; a table stays a table, a [gallery] a gallery,
 * and no shortcode reaches readers.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { contentImportAccount, importedStory, importFixture } from "@/server/testing/imports";
import { isSlug } from "@/server/text/slug";

type Element = { type: string; subtype: string | null; text?: string; "story-elements"?: Element[] };
const elementsOf = (story: { cards: unknown }) =>
  (story.cards as { "story-elements": Element[] }[]).flatMap((card) => card["story-elements"]);

describe("a story's fields and shape, from a WordPress export", () => {
  it("keeps the story when a field cannot be kept, and maps subtitle, SEO, canonical URL and tags in any script", async () => {
    const db = await getDb();
    const acc = await contentImportAccount(db, ["news.example.com"]);
    const report = await importFixture(db, acc.id, "wxr", "wxr-fields.xml");
    expect(report.kinds.story).toEqual({ create: 2, update: 0, skip: 2, refuse: 0 });
    expect(report.kinds.tag).toEqual({ create: 5, update: 0, skip: 0, refuse: 0 });
    expect(report.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^post 40: custom field "post-options" left out: it holds serialized PHP data/),
        expect.stringMatching(/^post 40: custom field "array-nested" left out: it holds serialized PHP data/),
        expect.stringMatching(/^post 40: custom field "count" left out: it holds serialized PHP data/),
        'post 40: custom field "reporter" has 2 values: the first is kept',
        expect.stringMatching(/^post 40: custom field "source_links" left out: /),
        expect.stringMatching(/^post 40: its twitter-image "javascript:alert\(1\)" left out: /),
        "post 40: shortcodes left out, their text kept: [su_box]",
        "post 50: shortcodes left out, their text kept: [toc]",
        'post 50: its post_date_gmt "not a date" is not a date: dated by its post_date',
      ]),
    );

    const flood = await importedStory(db, acc.id, "wxr", "40");
    expect(flood.status).toBe("PUBLISHED");
    expect(flood.heroImageS3Key).toBe("https://news.example.com/uploads/flood.jpg");
    expect(
      await db.customUrl.findUnique({
        where: { accountId_sourcePath: { accountId: acc.id, sourcePath: "/2024/07/flood-waters-rise" } },
        select: { destinationPath: true },
      }),
    ).toEqual({ destinationPath: "/flood-waters-rise" });
    expect(flood.metadata).toEqual({
      reporter: "Sam",
      "contains-html": "some html",
      "imported-from": "wxr",
      "source-type": "post",
    });
    expect(flood.subheadline).toBe("Towns along the river evacuate");
    expect(flood.summary).toBe("The river rose overnight.");
    expect(flood.seo).toEqual({
      "meta-title": "Flood waters rise – The Test Gazette",
      "meta-description": "How high the river rose, town by town.",
      "meta-keywords": ["flood"],
      "og-title": "Flood: the night the river rose",
      "og-image": "https://news.example.com/uploads/flood-og.jpg",
    });
    expect(flood.canonicalUrl).toBe("https://wire.example.org/floods/2024");
    expect(flood.sections.map((s) => s.section.name)).toEqual(["भारत"]);
    expect(flood.tags.map((t) => t.tag.name)).toEqual(["बाढ़", "தமிழ்", "العربية", "🌊", "Weather"]);
    for (const { tag } of flood.tags) expect(isSlug(tag.slug), tag.slug).toBe(true);
    // Readable in their own script (docs/i18n.md, "Text in any script"); an emoji name gets a hash.
    expect(flood.tags.map((t) => t.tag.slug).slice(0, 3)).toEqual(["बाढ़", "தமிழ்", "العربية"]);
    expect(flood.tags[3]!.tag.slug).toMatch(/^[0-9a-f]{8}$/);

    const body = elementsOf(flood);
    expect(body.map((e) => `${e.type}${e.subtype ? `/${e.subtype}` : ""}`)).toEqual([
      "text",
      "text/table",
      "composite/image-gallery",
      "text",
    ]);
    expect(body[1]!.text).toBe(
      "<table><caption>Levels at dawn</caption><thead><tr><th>Town</th><th>Level (m)</th></tr></thead><tbody><tr><td>Riverside</td><td>4.2</td></tr></tbody></table>",
    );
    expect(body[2]!["story-elements"]!.length).toBe(2);
    expect(JSON.stringify(flood.cards)).not.toMatch(/\[\/?(?:gallery|su_box)/);

    const ranked = await importedStory(db, acc.id, "wxr", "50");
    expect(ranked.publishedAt?.toISOString()).toBe("2024-07-02T09:30:00.000Z");
    expect(ranked.seo).toEqual({
      "meta-title": "Rank Math post – The Test Gazette",
      "meta-description": "Ranked.",
      "meta-keywords": ["rank", "math"],
    });
    // Its canonical URL is its own old address, which now redirects to it: not kept.
    expect(ranked.canonicalUrl).toBeNull();
    expect(ranked.tags.map((t) => t.tag.id)).toEqual([flood.tags[0]!.tag.id]);
    expect(elementsOf(ranked).map((e) => e.text)).toEqual([
      "<p>Classic text.</p>",
      "<p>More text with a bracket [sic].</p>",
    ]);

    const again = await importFixture(db, acc.id, "wxr", "wxr-fields.xml");
    expect(again.kinds.story).toEqual({ create: 0, update: 0, skip: 4, refuse: 0 });
    expect(again.kinds.tag?.create ?? 0).toBe(0);
  });
});

describe("a story's fields, from a Ghost export", () => {
  it("maps custom_excerpt, meta, og and twitter fields and the canonical URL; keeps a Hindi tag", async () => {
    const db = await getDb();
    const acc = await contentImportAccount(db, ["news.example.com"]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ghost-fields-"));
    const file = path.join(dir, "ghost.json");
    const post = (id: string, extra: Record<string, unknown>) => ({
      id,
      title: `Post ${id}`,
      slug: `post-${id}`,
      html: "<p>Body</p>",
      status: "published",
      visibility: "public",
      type: "post",
      published_at: "2024-05-01T10:00:00.000Z",
      ...extra,
    });
    const data = {
      posts: [
        post("g1", { custom_excerpt: "A line under the headline", canonical_url: "https://origin.example.net/story" }),
        // Ghost 2's export kept the SEO fields on the post itself.
        post("g2", { meta_title: "Old style title", og_description: "Old style card" }),
      ],
      posts_meta: [
        {
          post_id: "g1",
          meta_title: "SEO title",
          meta_description: "SEO description",
          og_title: "Card title",
          og_image: "https://news.example.com/og.jpg",
          twitter_description: "Tweet card",
        },
      ],
      tags: [{ id: "t1", name: "हिंदी", slug: "हिंदी", visibility: "public" }],
      posts_tags: [{ post_id: "g1", tag_id: "t1", sort_order: 0 }],
      users: [{ id: "u1", name: "Ada", slug: "ada", email: "ada@example.com" }],
      posts_authors: [
        { post_id: "g1", author_id: "u1", sort_order: 0 },
        { post_id: "g2", author_id: "u1", sort_order: 0 },
      ],
    };
    fs.writeFileSync(file, JSON.stringify({ db: [{ meta: { version: "5.0.0" }, data }] }));
    try {
      const report = await importFixture(db, acc.id, "ghost", file);
      expect(report.kinds.story).toMatchObject({ create: 2, refuse: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const first = await importedStory(db, acc.id, "ghost", "g1");
    expect(first.subheadline).toBe("A line under the headline");
    expect(first.summary).toBe("A line under the headline");
    expect(first.seo).toEqual({
      "meta-title": "SEO title",
      "meta-description": "SEO description",
      "og-title": "Card title",
      "og-image": "https://news.example.com/og.jpg",
      "twitter-description": "Tweet card",
    });
    expect(first.canonicalUrl).toBe("https://origin.example.net/story");
    expect(first.tags.map((t) => t.tag.name)).toEqual(["हिंदी"]);
    expect(first.sections.map((s) => s.section.name)).toEqual(["हिंदी"]);
    const second = await importedStory(db, acc.id, "ghost", "g2");
    expect(second.seo).toEqual({ "meta-title": "Old style title", "og-description": "Old style card" });
    expect(second.subheadline).toBeNull();
  });
});
