/**
 * Instant Articles feed (GET /api/instant-articles.rss): an RSS 2.0 feed whose content:encoded is
 * a complete Instant Article document per story: canonical link, markup version, a header with
 * the headline, publication time and authors, then the body with images as <figure><img> and
 * YouTube videos and tweets as iframes in <figure class="op-interactive">. A story that is not
 * public carries its free part only (content.ts freePartOf) and a link to the rest.
 */
import "server-only";

import { formatInstant } from "../../dates.schema";
import type { Db } from "../../db/client";
import { attrs, escapeXml } from "../../text/xml";
import { getPublisher } from "../publisher";
import { storyUrl, type StoryWithRelations } from "../story-view";
import {
  feedCacheTags,
  freePartOf,
  heroImage,
  loadFeedStories,
  renderCards,
  TEXT_HTML_OPTIONS,
  type ElementRenderer,
  type FeedContext,
} from "./content";
import { baseChannel, readMoreHtml, rssDocument, rssItem, type FeedRequest } from "./rss";

/** Instant Articles allow h1/h2 only, and no code blocks. */
const IA_TEXT_OPTIONS = {
  ...TEXT_HTML_OPTIONS,
  allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "s", "sub", "sup", "a", "ul", "ol", "li", "blockquote", "h2"],
  transformTags: { h1: "h2", h3: "h2", h4: "h2", h5: "h2", h6: "h2", code: "span", pre: "p" },
};

const INSTANT_ARTICLE_RENDERER: ElementRenderer = {
  textOptions: IA_TEXT_OPTIONS,
  image: (image) =>
    `<figure><img${attrs({ src: image.url, width: image.width, height: image.height, alt: image.alt })}/>${
      image.caption || image.attribution
        ? `<figcaption>${escapeXml(image.caption ?? "")}${image.attribution ? `<cite>${escapeXml(image.attribution)}</cite>` : ""}</figcaption>`
        : ""
    }</figure>`,
  youtube: (video) =>
    `<figure class="op-interactive"><iframe${attrs({ src: `https://www.youtube.com/embed/${video.id}`, width: 560, height: 315, allowfullscreen: true })}></iframe></figure>`,
  tweet: (tweet) =>
    `<figure class="op-interactive"><iframe class="no-margin"><blockquote class="twitter-tweet" data-lang="en"><a${attrs({ href: tweet.url })}>${escapeXml(tweet.url)}</a></blockquote><script async src="https://platform.twitter.com/widgets.js" charset="utf-8"></script></iframe></figure>`,
};

/** One story as a complete Instant Article HTML document. */
export function instantArticleHtml(story: StoryWithRelations, ctx: FeedContext): string {
  const url = storyUrl(ctx.publisher.siteUrl, story.slug);
  const hero = heroImage(story, ctx);
  const published = story.firstPublishedAt ?? story.publishedAt ?? story.createdAt;
  const modified = story.lastPublishedAt ?? story.updatedAt;
  const copyright = typeof ctx.publisher.settings.copyright === "string" ? ctx.publisher.settings.copyright : null;
  const authors = story.authors.map((a) => `<address>${escapeXml(a.author.name)}</address>`).join("");
  return [
    `<!doctype html>`,
    `<html${attrs({ lang: ctx.publisher.language.isoCode, prefix: "op: http://media.facebook.com/op#" })}>`,
    `<head>`,
    `<meta charset="utf-8">`,
    `<link rel="canonical"${attrs({ href: url })}>`,
    `<meta property="op:markup_version" content="v1.0">`,
    `<title>${escapeXml(story.headline)}</title>`,
    `</head>`,
    `<body>`,
    `<article>`,
    `<header>`,
    hero ? INSTANT_ARTICLE_RENDERER.image(hero) : "",
    `<h1>${escapeXml(story.headline)}</h1>`,
    story.subheadline ? `<h2>${escapeXml(story.subheadline)}</h2>` : "",
    // The machine-readable instant in datetime; the text in the one format, in the account's zone.
    `<time class="op-published"${attrs({ datetime: published.toISOString() })}>${escapeXml(formatInstant(published, ctx.publisher.timeZone))}</time>`,
    `<time class="op-modified"${attrs({ datetime: modified.toISOString() })}>${escapeXml(formatInstant(modified, ctx.publisher.timeZone))}</time>`,
    authors,
    `</header>`,
    renderCards(freePartOf(story, ctx.publisher.paywallDefaultElements), INSTANT_ARTICLE_RENDERER, ctx),
    readMoreHtml(story, ctx),
    copyright ? `<footer><small>${escapeXml(copyright)}</small></footer>` : "",
    `</article>`,
    `</body>`,
    `</html>`,
  ]
    .filter(Boolean)
    .join("\n");
}

/** GET /api/instant-articles.rss. */
export async function buildInstantArticlesFeed(db: Db, request: FeedRequest): Promise<{ xml: string; tags: string[] }> {
  const publisher = await getPublisher(db, request.accountId, { appUrl: request.appUrl });
  const ctx: FeedContext = { publisher, appUrl: request.appUrl };
  const { stories } = await loadFeedStories(db, request.accountId, request);
  const channel = baseChannel(ctx, stories, request.selfUrl);
  const items = stories.map((story) => rssItem(story, ctx, instantArticleHtml(story, ctx)));
  return { xml: rssDocument(channel, items), tags: feedCacheTags("feed/instant-articles", stories) };
}
