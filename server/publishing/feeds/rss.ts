/**
 * RSS 2.0 feed of a publisher's newest published stories (GET /stories.rss), with the content,
 * Dublin Core, Media RSS and Atom namespaces that feed readers and aggregators read:
 * content:encoded (the story's HTML: all of a public story, only the free part of one for logged-in
 * readers or subscribers, content.ts freePartOf), dc:creator (authors), media:content and
 * media:thumbnail (hero image), atom:link rel=self. The instant-articles feed reuses the channel
 * and item skeleton.
 */
import "server-only";

import { translator, type Translate } from "@/i18n/translate";

import type { Db } from "../../db/client";
import { truncateGraphemes } from "../../text/graphemes";
import { attrs, cdata, element, escapeXml, rfc822 } from "../../text/xml";
import { getPublisher } from "../publisher";
import { htmlToText, sectionToWire, storyUrl, type StoryWithRelations } from "../story-view";
import {
  feedCacheTags,
  freePartOf,
  heroImage,
  isOpenToAll,
  lastChange,
  loadFeedStories,
  renderCards,
  TEXT_HTML_OPTIONS,
  type ElementRenderer,
  type FeedContext,
  type FeedFilter,
} from "./content";

export const RSS_CONTENT_TYPE = "application/rss+xml; charset=utf-8";

const NAMESPACES = {
  "xmlns:atom": "http://www.w3.org/2005/Atom",
  "xmlns:content": "http://purl.org/rss/1.0/modules/content/",
  "xmlns:dc": "http://purl.org/dc/elements/1.1/",
  "xmlns:media": "http://search.yahoo.com/mrss/",
};

type Channel = {
  title: string;
  link: string;
  description: string;
  selfUrl: string;
  language: string;
  lastBuildDate: Date;
  copyright?: string | null;
};

/** The whole document: `items` are already-built <item> elements. */
export function rssDocument(channel: Channel, items: readonly string[]): string {
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<rss version="2.0"${attrs(NAMESPACES)}>`,
    `<channel>`,
    element("title", channel.title),
    element("link", channel.link),
    element("description", channel.description),
    element("language", channel.language),
    channel.copyright ? element("copyright", channel.copyright) : "",
    element("lastBuildDate", rfc822(channel.lastBuildDate)),
    element("generator", "Masthead"),
    `<atom:link${attrs({ href: channel.selfUrl, rel: "self", type: "application/rss+xml" })}/>`,
    ...items,
    `</channel>`,
    `</rss>`,
    "",
  ]
    .filter((line) => line !== "")
    .join("\n");
}

/** Plain, reader-friendly HTML for content:encoded. */
export const HTML_RENDERER: ElementRenderer = {
  textOptions: TEXT_HTML_OPTIONS,
  image: (image) =>
    `<figure><img${attrs({ src: image.url, width: image.width, height: image.height, alt: image.alt })}/>${
      image.caption || image.attribution
        ? `<figcaption>${escapeXml([image.caption, image.attribution].filter(Boolean).join(" · "))}</figcaption>`
        : ""
    }</figure>`,
  youtube: (video) =>
    `<figure><iframe${attrs({ src: `https://www.youtube.com/embed/${video.id}`, width: 560, height: 315, frameborder: 0, allowfullscreen: "true", title: "YouTube video" })}></iframe><figcaption><a${attrs({ href: video.url })}>${escapeXml(video.url)}</a></figcaption></figure>`,
  tweet: (tweet) =>
    `<blockquote class="twitter-tweet"><a${attrs({ href: tweet.url })}>${escapeXml(tweet.url)}</a></blockquote>`,
};

/** Summary for <description>: the story's summary, or the start of its text (of its free part when it is not public). */
export function storyDescription(
  story: Pick<StoryWithRelations, "summary" | "subheadline" | "plainText" | "access" | "cards" | "paywallAt">,
  accountDefault: number,
): string {
  const text =
    story.summary ||
    story.subheadline ||
    (isOpenToAll(story) ? story.plainText : freeText(story, accountDefault)) ||
    "";
  const plain = htmlToText(text);
  return truncateGraphemes(plain, 300, { atWord: true });
}

/** One <item>; `contentEncoded` is the HTML that goes (as CDATA) into content:encoded. */
export function rssItem(story: StoryWithRelations, ctx: FeedContext, contentEncoded: string): string {
  const url = storyUrl(ctx.publisher.siteUrl, story.slug);
  const hero = heroImage(story, ctx);
  const published = story.publishedAt ?? story.updatedAt;
  const parts = [
    `<item>`,
    element("title", story.headline),
    element("link", url),
    element("comments", `${url}#comments`),
    element("guid", story.id, { isPermaLink: "false" }),
    element("pubDate", rfc822(published)),
    ...story.authors.map((a) => element("dc:creator", a.author.name)),
    ...story.sections.map((s) =>
      element("category", s.section.displayName || s.section.name, {
        domain: String(sectionToWire(s.section, ctx.publisher.siteUrl)["section-url"]),
      }),
    ),
    ...story.tags.map((t) => element("category", t.tag.name)),
    element("description", storyDescription(story, ctx.publisher.paywallDefaultElements)),
    `<content:encoded>${cdata(contentEncoded)}</content:encoded>`,
  ];
  if (hero) {
    const caption = hero.caption ? element("media:title", hero.caption, { type: "plain" }) : "";
    const credit = hero.attribution ? element("media:credit", hero.attribution) : "";
    parts.push(
      `<media:content${attrs({ url: hero.url, medium: "image", width: hero.width, height: hero.height })}>${caption}${credit}</media:content>`,
    );
    parts.push(`<media:thumbnail${attrs({ url: hero.url, width: hero.width, height: hero.height })}/>`);
  }
  parts.push(`</item>`);
  return parts.join("\n");
}

/** The text of a story's free part, as HTML (for its description). */
function freeText(story: Pick<StoryWithRelations, "access" | "cards" | "paywallAt">, accountDefault: number): string {
  return freePartOf(story, accountDefault)
    .flatMap((card) => card["story-elements"] ?? [])
    .map((element) => element.text ?? "")
    .join(" ");
}

const ENGLISH = translator("paywall", "en");

/**
 * The line after the free part of a story that is not public: where the rest is read, in the
 * paywall catalogue's words (`t`: the AMP page's locale and the account's overrides; feeds: English).
 */
export function readMoreHtml(
  story: Pick<StoryWithRelations, "access" | "slug">,
  ctx: FeedContext,
  t: Translate<"paywall"> = ENGLISH,
): string {
  if (isOpenToAll(story)) return "";
  const line = t(story.access === "login" ? "amp.restForSignedIn" : "amp.restForSubscribers");
  return `<p><a${attrs({ href: storyUrl(ctx.publisher.siteUrl, story.slug) })}>${escapeXml(line)}</a></p>`;
}

/** The HTML body of a story for content:encoded: hero image, then the cards of its free part. */
export function storyHtml(story: StoryWithRelations, ctx: FeedContext): string {
  const hero = heroImage(story, ctx);
  return [
    hero ? HTML_RENDERER.image(hero) : "",
    renderCards(freePartOf(story, ctx.publisher.paywallDefaultElements), HTML_RENDERER, ctx),
    readMoreHtml(story, ctx),
  ]
    .filter(Boolean)
    .join("\n");
}

export type FeedRequest = FeedFilter & { accountId: number; appUrl: string; selfUrl: string };

/** GET /stories.rss: the document and the purge keys of what it shows. */
export async function buildStoriesRss(db: Db, request: FeedRequest): Promise<{ xml: string; tags: string[] }> {
  const publisher = await getPublisher(db, request.accountId, { appUrl: request.appUrl });
  const ctx: FeedContext = { publisher, appUrl: request.appUrl };
  const { stories, section, tag } = await loadFeedStories(db, request.accountId, request);
  const channel = baseChannel(ctx, stories, request.selfUrl);
  if (section) {
    channel.title = `${channel.title}: ${section.displayName || section.name}`;
    channel.link = `${publisher.siteUrl}/${encodeURIComponent(section.slug)}`;
  }
  if (tag) channel.title = `${channel.title}: ${tag.name}`;
  const items = stories.map((story) => rssItem(story, ctx, storyHtml(story, ctx)));
  return { xml: rssDocument(channel, items), tags: feedCacheTags("feed/rss", stories) };
}

/** Title, link, description and language from the publisher's settings. */
export function baseChannel(ctx: FeedContext, stories: readonly StoryWithRelations[], selfUrl: string): Channel {
  const { publisher } = ctx;
  const settings = publisher.settings;
  const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);
  return {
    title: text(settings.title) ?? publisher.name,
    link: publisher.siteUrl,
    description:
      text(settings.description) ??
      text(publisher.seo["meta-description"]) ??
      `The latest stories from ${publisher.name}.`,
    selfUrl,
    language: publisher.language.ietfCode,
    lastBuildDate: lastChange(stories, publisher),
    copyright: text(settings.copyright),
  };
}
