/**
 * A published story as an AMP HTML page (GET /api/v1/amp/story?slug=…): the required markup
 * (⚡ on <html>, charset first, the runtime script, canonical link, viewport, the boilerplate
 * style and noscript exactly as the AMP spec gives them), one small <style amp-custom>, and a body
 * in AMP components only: amp-img (with width, height and layout="responsive") for the hero and
 * image elements, amp-youtube and amp-twitter (each with its extension script, only when used).
 * Text HTML is sanitised to tags AMP allows: no style attributes, scripts, iframes or <img>.
 * The page is public: a story that is not carries its free part only (content.ts freePartOf) and
 * a link to the rest on the site.
 */
import "server-only";

import type sanitizeHtml from "sanitize-html";

import { formatDateTime } from "@/i18n/format";
import { directionOf, type Locale } from "@/i18n/locales";
import { translator, type Translate } from "@/i18n/translate";

import type { Db } from "../../db/client";
import { accountLocales } from "../../i18n/locale-settings";
import { MESSAGES_PURGE_KEY } from "../../i18n/messages-cache";
import { overridesFor } from "../../i18n/overrides";
import { graphemePrefix } from "../../text/graphemes";
import { attrs, escapeXml } from "../../text/xml";
import { getPublisher } from "../publisher";
import { storyUrl, type StoryWithRelations } from "../story-view";
import {
  freePartOf,
  heroImage,
  loadPublishedStoryBySlug,
  renderCards,
  TEXT_HTML_OPTIONS,
  type ElementRenderer,
  type FeedContext,
  type ImageRef,
} from "./content";
import { readMoreHtml, storyDescription } from "./rss";

/** Exactly as https://amp.dev/documentation/guides-and-tutorials/learn/spec/amp-boilerplate/ gives it. */
export const AMP_BOILERPLATE =
  "<style amp-boilerplate>body{-webkit-animation:-amp-start 8s steps(1,end) 0s 1 normal both;-moz-animation:-amp-start 8s steps(1,end) 0s 1 normal both;-ms-animation:-amp-start 8s steps(1,end) 0s 1 normal both;animation:-amp-start 8s steps(1,end) 0s 1 normal both}@-webkit-keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}@-moz-keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}@-ms-keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}@-o-keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}@keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}</style><noscript><style amp-boilerplate>body{-webkit-animation:none;-moz-animation:none;-ms-animation:none;animation:none}</style></noscript>";

const AMP_RUNTIME = "https://cdn.ampproject.org/v0.js";
const EXTENSIONS = {
  "amp-youtube": "https://cdn.ampproject.org/v0/amp-youtube-0.1.js",
  "amp-twitter": "https://cdn.ampproject.org/v0/amp-twitter-0.1.js",
} as const;

/** Text HTML in AMP: the shared allowlist, plus <img> with known dimensions turned into amp-img. */
const AMP_TEXT_OPTIONS: sanitizeHtml.IOptions = {
  ...TEXT_HTML_OPTIONS,
  allowedTags: [...(TEXT_HTML_OPTIONS.allowedTags as string[]), "amp-img"],
  allowedAttributes: { ...TEXT_HTML_OPTIONS.allowedAttributes, "amp-img": ["src", "width", "height", "layout", "alt"] },
  allowedSchemesByTag: { "amp-img": ["https", "http"] },
  transformTags: {
    ...TEXT_HTML_OPTIONS.transformTags,
    img: (_tagName, attribs) => ({
      tagName: "amp-img",
      attribs: {
        src: attribs.src ?? "",
        width: attribs.width ?? "",
        height: attribs.height ?? "",
        layout: "responsive",
        alt: attribs.alt ?? "",
      },
    }),
  },
  // amp-img needs a source and both dimensions; without them the image is dropped.
  exclusiveFilter: (frame) =>
    (frame.tag === "img" || frame.tag === "amp-img") &&
    !(frame.attribs.src && /^\d+$/.test(frame.attribs.width ?? "") && /^\d+$/.test(frame.attribs.height ?? "")),
};

function ampImg(image: ImageRef): string {
  return `<figure><amp-img${attrs({ src: image.url, width: image.width, height: image.height, layout: "responsive", alt: image.alt })}></amp-img>${
    image.caption || image.attribution
      ? `<figcaption>${escapeXml([image.caption, image.attribution].filter(Boolean).join(" · "))}</figcaption>`
      : ""
  }</figure>`;
}

const AMP_RENDERER: ElementRenderer = {
  textOptions: AMP_TEXT_OPTIONS,
  image: ampImg,
  youtube: (video) =>
    `<amp-youtube${attrs({ "data-videoid": video.id, layout: "responsive", width: 480, height: 270 })}></amp-youtube>`,
  tweet: (tweet) =>
    `<amp-twitter${attrs({ "data-tweetid": tweet.id, layout: "responsive", width: 375, height: 472 })}><blockquote placeholder><a${attrs({ href: tweet.url })}>${escapeXml(tweet.url)}</a></blockquote></amp-twitter>`,
};

/** A colour from settings, only when it is a plain hex colour (it goes into CSS). */
function safeColour(value: unknown, fallback: string): string {
  return typeof value === "string" && /^#[0-9a-fA-F]{3,8}$/.test(value) ? value : fallback;
}

/**
 * JSON for a <script type="application/ld+json">: "<", ">" and "&" as \u escapes, so no
 * "</script>" can close it and the page stays well-formed XML too.
 */
function jsonLd(data: unknown): string {
  return JSON.stringify(data)
    .replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** The words of the AMP page: the paywall catalogue in the account's default locale, its overrides in force. */
type AmpWords = { locale: Locale; t: Translate<"paywall">; tags: string[] };

/**
 * An AMP page is one language, the publication's: the account's default locale (its language
 * setting), which its `<html lang>` says too. Purged when that locale's overrides or the account's
 * language change.
 */
export async function ampWords(db: Db, accountId: number): Promise<AmpWords> {
  const { defaultLocale: locale } = await accountLocales(db, accountId);
  return {
    locale,
    t: translator("paywall", locale, await overridesFor(db, accountId, "paywall", locale)),
    tags: [MESSAGES_PURGE_KEY],
  };
}

const ENGLISH: AmpWords = { locale: "en", t: translator("paywall", "en"), tags: [] };

/** The AMP page of one story, in `words`' locale. */
export function ampStoryHtml(story: StoryWithRelations, ctx: FeedContext, words: AmpWords = ENGLISH): string {
  const { publisher } = ctx;
  const { locale, t } = words;
  const url = story.canonicalUrl || storyUrl(publisher.siteUrl, story.slug);
  const hero = heroImage(story, ctx);
  const body = [
    renderCards(freePartOf(story, ctx.publisher.paywallDefaultElements), AMP_RENDERER, ctx),
    readMoreHtml(story, ctx, t),
  ]
    .filter(Boolean)
    .join("\n");
  const published = story.firstPublishedAt ?? story.publishedAt ?? story.createdAt;
  const modified = story.lastPublishedAt ?? story.updatedAt;
  const authors = story.authors.map((a) => a.author.name);
  const theme = { ...publisher.theme, ...(publisher.ampConfig.colors as Record<string, unknown> | undefined) };
  const primary = safeColour(theme["primary-color"] ?? theme.primary, "#b3261e");
  const description = storyDescription(story, ctx.publisher.paywallDefaultElements);
  const extensions = (Object.keys(EXTENSIONS) as (keyof typeof EXTENSIONS)[]).filter((name) =>
    body.includes(`<${name} `),
  );
  const copyright = typeof publisher.settings.copyright === "string" ? publisher.settings.copyright : null;
  const structured = {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    headline: graphemePrefix(story.headline, 110),
    mainEntityOfPage: url,
    datePublished: published.toISOString(),
    dateModified: modified.toISOString(),
    author: authors.map((name) => ({ "@type": "Person", name })),
    publisher: { "@type": "Organization", name: publisher.name },
    ...(hero ? { image: [hero.url] } : {}),
  };
  const css =
    `body{margin:0;font-family:Georgia,serif;color:#1a1a1a;line-height:1.6}` +
    `.site{border-bottom:3px solid ${primary};padding:12px 16px;font:700 20px/1.2 system-ui,sans-serif}.site a{color:inherit;text-decoration:none}` +
    `article{max-width:720px;margin:0 auto;padding:16px}h1{font-size:30px;line-height:1.2;margin:8px 0}` +
    `.sub{font-size:19px;color:#444;margin:0 0 8px}.byline{font:14px system-ui,sans-serif;color:#666}` +
    `figure{margin:16px 0}figcaption{font:13px system-ui,sans-serif;color:#666}a{color:${primary}}` +
    `blockquote{border-inline-start:3px solid ${primary};margin:16px 0;padding-inline-start:12px}footer{padding:16px;font:13px system-ui,sans-serif;color:#666;text-align:center}`;
  return [
    `<!doctype html>`,
    `<html ⚡${attrs({ lang: locale, dir: directionOf(locale) === "rtl" ? "rtl" : null })}>`,
    `<head>`,
    `<meta charset="utf-8">`,
    `<script async src="${AMP_RUNTIME}"></script>`,
    ...extensions.map((name) => `<script async custom-element="${name}" src="${EXTENSIONS[name]}"></script>`),
    `<title>${escapeXml(story.headline)}</title>`,
    `<link rel="canonical"${attrs({ href: url })}>`,
    `<meta name="viewport" content="width=device-width">`,
    description ? `<meta name="description"${attrs({ content: description })}>` : "",
    `<script type="application/ld+json">${jsonLd(structured)}</script>`,
    AMP_BOILERPLATE,
    `<style amp-custom>${css}</style>`,
    `</head>`,
    `<body>`,
    `<header class="site"><a${attrs({ href: publisher.siteUrl })}>${escapeXml(publisher.name)}</a></header>`,
    `<article>`,
    `<h1>${escapeXml(story.headline)}</h1>`,
    story.subheadline ? `<p class="sub">${escapeXml(story.subheadline)}</p>` : "",
    `<p class="byline">${authors.length ? `${escapeXml(t("amp.byline", { authors: new Intl.ListFormat(locale, { type: "unit", style: "short" }).format(authors) }))} · ` : ""}<time${attrs({ datetime: published.toISOString() })}>${escapeXml(formatDateTime(published, locale, publisher.timeZone))}</time></p>`,
    hero ? ampImg(hero) : "",
    body,
    `</article>`,
    copyright ? `<footer>${escapeXml(copyright)}</footer>` : "",
    `</body>`,
    `</html>`,
  ]
    .filter(Boolean)
    .join("\n");
}

/**
 * The story's identifiers that go with its AMP page when a client asks for JSON (GET
 * /api/v1/amp/story with `Accept: application/json`), kebab-case like the rest of the content API.
 */
type AmpStoryIdentifiers = {
  id: string;
  "story-content-id": string;
  slug: string;
  headline: string;
  /** The story on the publisher's site. */
  url: string;
  /** What the AMP page links as canonical: the story's canonical URL, else `url`. */
  "canonical-url": string;
  "published-at": number | null;
  "last-published-at": number | null;
};

/** GET /api/v1/amp/story?slug=…: NOT_FOUND for unknown and unpublished slugs. */
export async function buildAmpStory(
  db: Db,
  args: { accountId: number; appUrl: string; slug: string },
): Promise<{ html: string; tags: string[]; story: AmpStoryIdentifiers }> {
  const publisher = await getPublisher(db, args.accountId, { appUrl: args.appUrl });
  const story = await loadPublishedStoryBySlug(db, args.accountId, args.slug);
  const url = storyUrl(publisher.siteUrl, story.slug);
  const words = await ampWords(db, args.accountId);
  return {
    html: ampStoryHtml(story, { publisher, appUrl: args.appUrl }, words),
    // "config": the page shows the publication (its name, logo, menu), which settings change; its
    // words change with the overrides of its locale and the account's language.
    tags: [`s/${story.id}`, "config", ...words.tags],
    story: {
      id: story.id,
      "story-content-id": story.id,
      slug: story.slug,
      headline: story.headline,
      url,
      "canonical-url": story.canonicalUrl || url,
      "published-at": story.publishedAt?.getTime() ?? null,
      "last-published-at": story.lastPublishedAt?.getTime() ?? null,
    },
  };
}
