import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";

import { translator } from "@/i18n/translate";

import type { TCard } from "../cards.schema";
import { articlePreviewHtml } from "../editorial/preview";
import type { Publisher } from "../publisher";
import type { StoryWithRelations } from "../story-view";
import { AMP_BOILERPLATE, ampStoryHtml } from "./amp";
import { imageUrl, type FeedContext } from "./content";
import { instantArticleHtml } from "./instant-articles";
import { baseChannel, rssDocument, rssItem, storyHtml } from "./rss";

const HOSTILE = `Tom & Jerry's <script>alert("x")</script> ]]> \u0001end`;

const publisher: Publisher = {
  accountId: 1,
  name: "The <Daily> & Co",
  domain: "news.example.com",
  timeZone: "Europe/Paris",
  siteUrl: "https://news.example.com",
  siteUrlSet: true,
  publicationHosts: ["news.example.com"],
  cdnImage: "images.example.com",
  language: { isoCode: "en", ietfCode: "en-GB", direction: "ltr" },
  settings: { title: "Daily & Co", description: "News <fast>", copyright: "© 2025 Daily & Co" },
  seo: {},
  theme: { "primary-color": "red;} body{display:none" },
  socialLinks: {},
  layout: {},
  ampConfig: {},
  paywallDefaultElements: 1,
  contentApiAccess: "free_part",
  updatedAt: new Date("2025-01-01T00:00:00Z"),
};
const ctx: FeedContext = { publisher, appUrl: "http://localhost:3000" };

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

function element(n: number, fields: Record<string, unknown>) {
  return { id: uuid(100 + n), subtype: null, metadata: {}, ...fields };
}

/** One draft card holding these elements, as a story's cards. */
function oneCard(elements: ReturnType<typeof element>[]): TCard[] {
  return [{ id: uuid(1), status: "draft", version: 1, metadata: {}, "story-elements": elements }] as unknown as TCard[];
}

function fakeStory(overrides: Partial<StoryWithRelations> = {}): StoryWithRelations {
  const cards = oneCard([
    element(1, {
      type: "text",
      text: `<p style="color:red" onclick="x()">Hello <b>world</b> &amp; ${"]]>"}<script>evil()</script><iframe src="https://evil.test"></iframe><img src="https://x.test/a.png"></p>`,
    }),
    element(2, {
      type: "image",
      "image-s3-key": "demo/photo one.png",
      "image-metadata": { width: 800, height: 600 },
      title: "A <caption>",
    }),
    element(3, { type: "youtube-video", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" }),
    element(4, { type: "jsembed", subtype: "tweet", "tweet-id": "20" }),
    element(5, { type: "text", text: `<p><img src="https://x.test/b.png" width="40" height="30" alt="b"></p>` }),
  ]);
  return {
    id: uuid(9),
    accountId: 1,
    headline: HOSTILE,
    subheadline: "Sub & head",
    slug: "politics/a-story",
    summary: "Summary & <more>",
    status: "PUBLISHED",
    access: "public",
    cards,
    plainText: "text",
    heroImageS3Key: "hero/a.png",
    heroImageMetadata: { width: 1600, height: 900 },
    heroImageCaption: `Caption "quoted"`,
    heroImageAttribution: "Photo: A & B",
    canonicalUrl: null,
    publishedAt: new Date("2025-06-03T09:39:21Z"),
    firstPublishedAt: new Date("2025-06-03T09:39:21Z"),
    lastPublishedAt: new Date("2025-06-03T10:00:00Z"),
    createdAt: new Date("2025-06-01T00:00:00Z"),
    updatedAt: new Date("2025-06-03T10:00:00Z"),
    authors: [{ storyId: uuid(9), authorId: 1, position: 0, author: { id: 1, name: "Ann <Writer>", slug: "ann" } }],
    sections: [
      {
        storyId: uuid(9),
        sectionId: 1,
        position: 0,
        section: {
          id: 1,
          name: "Politics & Power",
          displayName: "Politics & Power",
          slug: "politics",
          parentId: null,
          domainSlug: null,
          collection: null,
        },
      },
    ],
    tags: [{ storyId: uuid(9), tagId: 1, position: 0, tag: { id: 1, name: "Elections <2025>", slug: "elections" } }],
    entities: [],
    ...overrides,
  } as unknown as StoryWithRelations;
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", htmlEntities: true });

describe("image URLs", () => {
  it("puts https in front of a CDN host and the app's scheme in front of Masthead's own host", () => {
    expect(imageUrl("images.example.com", "demo/a b.png", "http://localhost:3000")).toBe(
      "https://images.example.com/demo/a%20b.png",
    );
    expect(imageUrl("localhost:3000/images", "demo/a.png", "http://localhost:3000")).toBe(
      "http://localhost:3000/images/demo/a.png",
    );
    expect(imageUrl("https://cdn.test/", "/x.png", "http://localhost:3000")).toBe("https://cdn.test/x.png");
  });

  it("keeps an absolute http(s) URL (an imported image on its old host) as it is, whatever the CDN", () => {
    const url = "https://old.example.org/wp-content/uploads/2024/06/a%20b.jpg?w=640&h=480";
    expect(imageUrl("images.example.com", url, "http://localhost:3000")).toBe(url);
    expect(imageUrl("localhost:3000/images", "HTTP://Old.example.org/x.png", "http://localhost:3000")).toBe(
      "HTTP://Old.example.org/x.png",
    );
    expect(imageUrl("images.example.com", "//cdn.old.example.org/x.png", "http://localhost:3000")).toBe(
      "https://cdn.old.example.org/x.png",
    );
    // A key that merely mentions a scheme further in stays a key.
    expect(imageUrl("images.example.com", "a/https://b.png", "http://localhost:3000")).toBe(
      "https://images.example.com/a/https%3A//b.png",
    );
  });
});

describe("RSS document", () => {
  it("is valid XML with every hostile value escaped, and content:encoded round-trips", () => {
    const story = fakeStory();
    const html = storyHtml(story, ctx);
    const xml = rssDocument(baseChannel(ctx, [story], "http://localhost:3000/stories.rss?a=1&b=2"), [
      rssItem(story, ctx, html),
    ]);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain("\u0001");
    const feed = parser.parse(xml) as { rss: { channel: Record<string, unknown> & { item: Record<string, unknown> } } };
    const channel = feed.rss.channel;
    expect(channel.title).toBe("Daily & Co");
    expect(channel.description).toBe("News <fast>");
    expect(channel.language).toBe("en-GB");
    expect((channel["atom:link"] as Record<string, string>)["@href"]).toBe("http://localhost:3000/stories.rss?a=1&b=2");
    const item = channel.item;
    expect(item.title).toBe(HOSTILE.replace("\u0001", ""));
    expect(item.guid).toEqual({ "#text": uuid(9), "@isPermaLink": "false" });
    expect(item.pubDate).toBe("Tue, 03 Jun 2025 09:39:21 GMT");
    expect(item["dc:creator"]).toBe("Ann <Writer>");
    expect((item.category as { "#text": string }[]).map((c) => c["#text"] ?? c)).toEqual([
      "Politics & Power",
      "Elections <2025>",
    ]);
    expect(item["content:encoded"]).toBe(html);
    expect((item["media:content"] as Record<string, string>)["@url"]).toBe("https://images.example.com/hero/a.png");
    expect((item["media:thumbnail"] as Record<string, string>)["@url"]).toBe("https://images.example.com/hero/a.png");
  });

  it("content HTML keeps text and structure but drops scripts, iframes from text, event handlers and styles", () => {
    const html = storyHtml(fakeStory(), ctx);
    expect(html).toContain("Hello <b>world</b> &amp; ]]&gt;");
    expect(html).not.toMatch(/<script|onclick|style=|evil/);
    expect(html).toContain('src="https://images.example.com/demo/photo%20one.png"');
    expect(html).toContain("https://www.youtube.com/embed/dQw4w9WgXcQ");
    // Every frame has a title (WCAG 4.1.2): the preview and the RSS body use this renderer.
    expect(html).toMatch(/<iframe[^>]* title="YouTube video"/);
    expect(html).toContain("https://twitter.com/i/status/20");
  });
});

describe("instant article", () => {
  it("is a full document with canonical link, markup version, header and op-interactive embeds", () => {
    const doc = instantArticleHtml(fakeStory(), ctx);
    expect(doc.startsWith("<!doctype html>\n<html")).toBe(true);
    expect(doc).toContain('prefix="op: http://media.facebook.com/op#"');
    expect(doc).toContain('<meta charset="utf-8">');
    expect(doc).toContain('<link rel="canonical" href="https://news.example.com/politics/a-story">');
    expect(doc).toContain('<meta property="op:markup_version" content="v1.0">');
    // The text in the one format, in the account's zone (Europe/Paris: summer time in June).
    expect(doc).toContain(
      '<time class="op-published" datetime="2025-06-03T09:39:21.000Z">3 Jun 2025, 11:39 CEST</time>',
    );
    expect(doc).toContain("<address>Ann &lt;Writer&gt;</address>");
    expect(doc).toContain(
      `<h1>Tom &amp; Jerry&#39;s &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; ]]&gt; end</h1>`,
    );
    expect(doc).toContain('<figure class="op-interactive"><iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"');
    expect(doc).toContain('<figure class="op-interactive"><iframe class="no-margin"><blockquote class="twitter-tweet"');
    expect(doc).not.toMatch(/evil|onclick|style=/);
  });
});

describe("AMP page", () => {
  const page = ampStoryHtml(fakeStory(), ctx);

  it("has the required AMP markup", () => {
    expect(page.startsWith('<!doctype html>\n<html ⚡ lang="en">\n<head>\n<meta charset="utf-8">')).toBe(true);
    expect(page).toContain('<script async src="https://cdn.ampproject.org/v0.js"></script>');
    expect(page).toContain('<link rel="canonical" href="https://news.example.com/politics/a-story">');
    expect(page).toContain('<meta name="viewport" content="width=device-width">');
    expect(page).toContain(AMP_BOILERPLATE);
    expect(page).toMatch(/<style amp-custom>[^<]*<\/style>/);
    expect(page).toContain('<time datetime="2025-06-03T09:39:21.000Z">3 Jun 2025, 11:39 CEST</time>');
  });

  it("uses amp-img, amp-youtube and amp-twitter with their scripts, and never <img>, <iframe> or foreign scripts", () => {
    expect(page).toContain(
      '<amp-img src="https://images.example.com/hero/a.png" width="1600" height="900" layout="responsive"',
    );
    expect(page).toContain(
      '<amp-img src="https://images.example.com/demo/photo%20one.png" width="800" height="600" layout="responsive"',
    );
    expect(page).toContain(
      '<amp-img src="https://x.test/b.png" width="40" height="30" layout="responsive" alt="b"></amp-img>',
    );
    expect(page).not.toContain("https://x.test/a.png"); // no dimensions: dropped
    expect(page).toContain('<amp-youtube data-videoid="dQw4w9WgXcQ" layout="responsive" width="480" height="270">');
    expect(page).toContain('<amp-twitter data-tweetid="20"');
    expect(page).toContain('custom-element="amp-youtube" src="https://cdn.ampproject.org/v0/amp-youtube-0.1.js"');
    expect(page).toContain('custom-element="amp-twitter" src="https://cdn.ampproject.org/v0/amp-twitter-0.1.js"');
    expect(page).not.toMatch(/<img[\s>]/);
    expect(page).not.toMatch(/<iframe/);
    expect(page).not.toMatch(/ style=|onclick|evil/);
    const scripts = [...page.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    for (const script of scripts)
      expect(script).toMatch(/src="https:\/\/cdn\.ampproject\.org\/|type="application\/ld\+json"/);
  });

  it("escapes the headline everywhere and keeps a CSS-breaking theme colour out of the stylesheet", () => {
    expect(page).toContain(
      "<title>Tom &amp; Jerry&#39;s &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; ]]&gt; end</title>",
    );
    expect(page).not.toContain("display:none");
    expect(page).toContain("\\u003cscript\\u003e"); // JSON-LD cannot close its script element
  });

  it("leaves out extension scripts that the story does not use", () => {
    const plain = ampStoryHtml(fakeStory({ cards: [] as unknown as StoryWithRelations["cards"] }), ctx);
    expect(plain).not.toContain("amp-youtube");
    expect(plain).not.toContain("amp-twitter");
  });

  it("is in the account's locale: byline, time and the paywall's line, the account's own words escaped", () => {
    const story = fakeStory({ access: "subscription" });
    const english = ampStoryHtml(story, ctx);
    expect(english).toContain("The rest of this story is for subscribers: read it on the site.</a>");
    const hindi = (overrides = new Map<string, string>()) =>
      ampStoryHtml(
        story,
        { ...ctx, publisher: { ...publisher, language: { isoCode: "hi", ietfCode: "hi-IN", direction: "ltr" } } },
        {
          locale: "hi",
          t: translator("paywall", "hi", overrides),
          tags: [],
        },
      );
    const page = hindi();
    const t = translator("paywall", "hi");
    expect(page).toContain('<html ⚡ lang="hi">');
    expect(page).toContain(`>${t("amp.restForSubscribers")}</a>`);
    expect(page).toMatch(/<p class="byline">लेखक: [^<]+ · <time datetime="2025-06-03T09:39:21.000Z">3 जून 2025, /);
    expect(page).not.toMatch(/>By |The rest of this story/);
    const own = hindi(new Map([["amp.restForSubscribers", "बाकी <b>साइट</b> पर & पढ़ें"]]));
    expect(own).toContain(">बाकी &lt;b&gt;साइट&lt;/b&gt; पर &amp; पढ़ें</a>");
    const arabic = ampStoryHtml(
      story,
      { ...ctx, publisher: { ...publisher, language: { isoCode: "ar", ietfCode: "ar", direction: "rtl" } } },
      { locale: "ar", t: translator("paywall", "ar"), tags: [] },
    );
    expect(arabic).toMatch(/<html ⚡ lang="ar" dir="rtl">/);
    expect(arabic).toContain(translator("paywall", "ar")("amp.restForSubscribers"));
    // <html lang> is the locale the words are in, not the language setting's ISO code ("pt").
    const brazil = ampStoryHtml(
      story,
      { ...ctx, publisher: { ...publisher, language: { isoCode: "pt", ietfCode: "pt-BR", direction: "ltr" } } },
      { locale: "pt-BR", t: translator("paywall", "pt-BR"), tags: [] },
    );
    expect(brazil).toContain('<html ⚡ lang="pt-BR">');
    expect(arabic).toContain("blockquote{border-inline-start:");
  });
});

describe("captions and attributions, stored as sanitised HTML", () => {
  it("become text in every feed, escaped once: no &amp;amp; and no escaped tags", () => {
    const story = fakeStory({
      heroImageCaption: "Fish &amp; <em>chips</em>",
      heroImageAttribution: "Photo: A &amp; B",
      cards: oneCard([
        element(1, {
          type: "image",
          "image-s3-key": "demo/one.png",
          "image-metadata": { width: 800, height: 600 },
          title: "Salt &amp; <b>vinegar</b>",
          "image-attribution": "Ann &amp; <i>Bo</i>",
        }),
      ]) as unknown as StoryWithRelations["cards"],
    });
    const html = storyHtml(story, ctx);
    for (const [name, out] of [
      ["rss", rssItem(story, ctx, html)],
      ["instant article", instantArticleHtml(story, ctx)],
      ["amp", ampStoryHtml(story, ctx)],
    ] as const) {
      expect(out, name).not.toMatch(/&amp;amp;|&lt;\/?(em|b|i)&gt;/);
      expect(out, name).toContain("Fish &amp; chips");
      expect(out, name).toContain("A &amp; B");
      expect(out, name).toContain("Ann &amp; Bo");
    }
  });
});

describe("the hero image's alt text", () => {
  it("is the alt saved with it, else the caption, else the headline", () => {
    const hero = (overrides: Partial<StoryWithRelations>) =>
      ampStoryHtml(fakeStory(overrides), ctx).match(
        /<amp-img src="https:\/\/images\.example\.com\/hero\/a\.png"[^>]*>/,
      )![0];
    expect(hero({ heroImageMetadata: { width: 1600, height: 900, alt: `Gulls & "terns" at dawn` } })).toContain(
      'alt="Gulls &amp; &quot;terns&quot; at dawn"',
    );
    expect(hero({ heroImageCaption: "The harbour" })).toContain('alt="The harbour"');
    expect(hero({ heroImageCaption: null, headline: "Storm warning" })).toContain('alt="Storm warning"');
  });
});

describe("the editor's element types in every feed", () => {
  it("renders big facts, attributed quotes, galleries, image alt text and files; a file with an unsafe link is left out", () => {
    const story = fakeStory({
      cards: oneCard([
        element(1, {
          type: "bigfact",
          text: "",
          metadata: { content: "42%", attribution: "Office for &amp; Statistics" },
        }),
        element(2, { type: "blockquote", text: "To be or not", metadata: { attribution: "Hamlet" } }),
        element(3, {
          type: "composite",
          subtype: "image-gallery",
          "story-elements": [
            element(31, {
              type: "image",
              "image-s3-key": "demo/g1.png",
              title: "First",
              metadata: { alt: "A red door" },
            }),
            element(32, { type: "image", "image-s3-key": "demo/g2.png", title: "Second" }),
          ],
        }),
        element(4, {
          type: "file",
          "file-url": "https://files.example.com/report.pdf",
          "file-name": "Report &lt;2026&gt;",
        }),
        element(5, { type: "file", "file-url": "javascript:alert(1)", "file-name": "Bad" }),
      ]) as unknown as StoryWithRelations["cards"],
    });
    const html = storyHtml(story, ctx);
    for (const [name, out] of [
      ["rss", html],
      ["instant article", instantArticleHtml(story, ctx)],
      ["amp", ampStoryHtml(story, ctx)],
    ] as const) {
      expect(out, name).toContain("<strong>42%</strong>");
      expect(out, name).toContain("Office for &amp; Statistics");
      expect(out, name).toMatch(/<blockquote><p>To be or not<\/p><p>— Hamlet<\/p><\/blockquote>/);
      expect(out, name).toContain("demo/g1.png");
      expect(out, name).toContain("demo/g2.png");
      expect(out, name).toContain('alt="A red door"');
      expect(out, name).toContain('<a href="https://files.example.com/report.pdf">Report &lt;2026&gt;</a>');
      expect(out, name).not.toContain("javascript:");
      expect(out, name).not.toContain(">Bad<");
    }
  });
});

describe("the preview page", () => {
  it("says when its link stops working in the one format, in the account's zone", () => {
    const page = articlePreviewHtml(fakeStory(), ctx, new Date("2025-06-03T11:00:00Z"));
    expect(page).toContain("This link stops working at 3 Jun 2025, 13:00 CEST.</p>");
  });
});

describe("a story that is not public in every feed", () => {
  const paid = (access: string) =>
    fakeStory({
      access,
      summary: "",
      subheadline: null,
      plainText: "Free opening. Paid middle, paid end.",
      cards: oneCard([
        element(1, { type: "text", text: "<p>Free opening.</p>" }),
        element(2, { type: "text", text: "<p>Paid middle.</p>" }),
        element(3, { type: "text", text: "<p>Paid end.</p>" }),
      ]) as unknown as StoryWithRelations["cards"],
    });

  it("carries its free part and a link to the rest, never the paid text", () => {
    for (const [access, who] of [
      ["subscription", "subscribers"],
      ["login", "signed-in readers"],
    ] as const) {
      const story = paid(access);
      const item = rssItem(story, ctx, storyHtml(story, ctx));
      for (const [name, out] of [
        ["rss", item],
        ["instant article", instantArticleHtml(story, ctx)],
        ["amp", ampStoryHtml(story, ctx)],
      ] as const) {
        expect(out, name).toContain("Free opening.");
        expect(out, name).not.toContain("Paid");
        expect(out, name).toContain(`The rest of this story is for ${who}: read it on the site.`);
        expect(out, name).toContain('href="https://news.example.com/politics/a-story"');
      }
    }
  });

  it("ends its free part at its paywall point when it has one, across cards", () => {
    const story = paid("subscription");
    const twoCards = [
      ...oneCard([element(1, { type: "text", text: "<p>Free opening.</p>" })]),
      ...oneCard([
        element(2, { type: "text", text: "<p>Free second.</p>" }),
        element(3, { type: "text", text: "<p>Paid end.</p>" }),
      ]),
    ] as unknown as StoryWithRelations["cards"];
    const atTwo = { ...story, cards: twoCards, paywallAt: 2 };
    const html = rssItem(atTwo, ctx, storyHtml(atTwo, ctx));
    expect(html).toContain("Free second.");
    expect(html).not.toContain("Paid end.");
    const none = rssItem({ ...atTwo, paywallAt: 0 }, ctx, storyHtml({ ...atTwo, paywallAt: 0 }, ctx));
    expect(none).not.toContain("Free opening.");
    expect(none).toContain("The rest of this story is for subscribers");
  });

  it("keeps a table's rows and cells in RSS and AMP", () => {
    const table =
      '<table><caption>Results</caption><tbody><tr><th scope="row">Ada</th><td colspan="2">42</td></tr></tbody></table>';
    const story = fakeStory({
      cards: oneCard([
        element(1, { type: "text", subtype: "table", text: table }),
      ]) as unknown as StoryWithRelations["cards"],
    });
    for (const out of [storyHtml(story, ctx), ampStoryHtml(story, ctx)]) {
      expect(out).toContain("<caption>Results</caption>");
      expect(out).toContain('<th scope="row">Ada</th><td colspan="2">42</td>');
    }
  });

  it("is carried whole when it is public", () => {
    const story = paid("public");
    const html = storyHtml(story, ctx);
    expect(html).toContain("Paid end.");
    expect(html).not.toContain("The rest of this story");
  });
});
