/**
 * What the three feeds (RSS, instant articles, AMP) share: loading published stories, building
 * image URLs from the publisher's image CDN, and turning cards into HTML through a renderer that
 * each format supplies (plain HTML, instant-article figures, AMP components).
 *
 * Only PUBLISHED stories are ever loaded here: drafts, submitted, approved (scheduled) and
 * retracted stories never reach a feed.
 */
import "server-only";

import sanitizeHtml from "sanitize-html";

import { ownValue } from "@/server/own-keys";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { escapeXml } from "../../text/xml";
import { checkWebUrl } from "../../web-url";
import type { TCard, TStoryElement } from "../cards.schema";
import { paywallPointOf, splitAtPaywall } from "../paywall-point";
import type { Publisher } from "../publisher";
import { htmlToText, STORY_INCLUDE, type StoryWithRelations } from "../story-view";

export type FeedContext = {
  publisher: Publisher;
  /** Masthead's own public address (APP_URL): the default image host lives under it. */
  appUrl: string;
};

// ─── Loading ─────────────────────────────────────────────────────────────────────────────────

export type FeedFilter = { section?: string; tag?: string; limit: number };

/**
 * The newest published stories, optionally of one section (its slug) or one tag (its slug).
 * An unknown section or tag slug is NOT_FOUND rather than an empty feed, so a typo shows.
 */
export async function loadFeedStories(
  db: Db,
  accountId: number,
  filter: FeedFilter,
): Promise<{
  stories: StoryWithRelations[];
  section: { id: number; name: string; displayName: string; slug: string } | null;
  tag: { id: number; name: string; slug: string } | null;
}> {
  const where: Prisma.StoryWhereInput = { accountId, status: "PUBLISHED" };
  let section = null;
  let tag = null;
  if (filter.section) {
    section = await db.section.findFirst({
      where: { accountId, slug: filter.section, deletedAt: null },
      select: { id: true, name: true, displayName: true, slug: true },
    });
    if (!section) throw new AppError("NOT_FOUND", `No section with the slug "${filter.section}".`);
    where.sections = { some: { sectionId: section.id } };
  }
  if (filter.tag) {
    tag = await db.tag.findFirst({
      where: { accountId, slug: filter.tag },
      select: { id: true, name: true, slug: true },
    });
    if (!tag) throw new AppError("NOT_FOUND", `No tag with the slug "${filter.tag}".`);
    where.tags = { some: { tagId: tag.id } };
  }
  const stories = await db.story.findMany({
    where,
    orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
    take: filter.limit,
    include: STORY_INCLUDE,
  });
  return { stories, section, tag };
}

/** One published story by slug; NOT_FOUND for an unknown slug and for any unpublished story. */
export async function loadPublishedStoryBySlug(db: Db, accountId: number, slug: string): Promise<StoryWithRelations> {
  const story = await db.story.findFirst({ where: { accountId, slug, status: "PUBLISHED" }, include: STORY_INCLUDE });
  if (!story) throw new AppError("NOT_FOUND", "No published story has this slug.");
  return story;
}

/** The moment a feed last changed: its newest edit, or the publisher's settings. Stable, so ETags are too. */
export function lastChange(stories: readonly StoryWithRelations[], publisher: Publisher): Date {
  let latest = publisher.updatedAt.getTime();
  for (const story of stories)
    latest = Math.max(latest, story.updatedAt.getTime(), story.lastPublishedAt?.getTime() ?? 0);
  return new Date(latest);
}

/** Purge keys of a feed response (server/http/content-cache.ts): every story it shows. */
export function feedCacheTags(kind: string, stories: readonly { id: string }[]): string[] {
  // "stories": a story published or retracted changes which ones the feed lists.
  return [kind, "stories", ...stories.map((s) => `s/${s.id}`)];
}

// ─── Images ──────────────────────────────────────────────────────────────────────────────────

/**
 * The URL of an image reference: a hero image's key or an image element's `image-s3-key`.
 * - An absolute http(s) URL (an imported story's image, kept on its old host) is that URL, as
 *   written; a protocol-relative one ("//host/x.jpg") gets https.
 * - Anything else is a key on the publisher's image host. `cdnImage` is a host and path with no
 *   scheme ("images.example.com", or "localhost:3000/images" when Masthead serves images itself):
 *   it gets APP_URL's scheme when it is Masthead's own host, https otherwise.
 */
export function imageUrl(cdnImage: string, key: string, appUrl: string): string {
  const ref = key.trim();
  if (/^https?:\/\//i.test(ref)) return ref;
  if (ref.startsWith("//")) return `https:${ref}`;
  let base = cdnImage.replace(/\/+$/, "");
  if (!/^https?:\/\//i.test(base)) {
    const app = new URL(appUrl);
    const host = base.split("/")[0]!.toLowerCase();
    base = `${host === app.host.toLowerCase() ? app.protocol : "https:"}//${base}`;
  }
  return `${base}/${ref.replace(/^\/+/, "").split("/").map(encodeURIComponent).join("/")}`;
}

export type ImageRef = {
  url: string;
  width: number;
  height: number;
  caption: string | null;
  attribution: string | null;
  alt: string;
};

/** Width and height from image metadata; 16:9 at 1200 wide when unknown (AMP needs both). */
export function imageSize(metadata: unknown): { width: number; height: number } {
  const m = (metadata && typeof metadata === "object" ? metadata : {}) as { width?: unknown; height?: unknown };
  const width = typeof m.width === "number" && m.width > 0 ? Math.round(m.width) : undefined;
  const height = typeof m.height === "number" && m.height > 0 ? Math.round(m.height) : undefined;
  if (width && height) return { width, height };
  return { width: 1200, height: 675 };
}

function heroAlt(metadata: unknown): string | null {
  const alt = metadata && typeof metadata === "object" ? (metadata as { alt?: unknown }).alt : undefined;
  return typeof alt === "string" && alt.trim() ? alt : null;
}

export function heroImage(story: StoryWithRelations, ctx: FeedContext): ImageRef | null {
  if (!story.heroImageS3Key) return null;
  return {
    url: imageUrl(ctx.publisher.cdnImage, story.heroImageS3Key, ctx.appUrl),
    ...imageSize(story.heroImageMetadata),
    // Stored as sanitised HTML: the feeds show them as text, escaped once by each format.
    caption: story.heroImageCaption ? htmlToText(story.heroImageCaption) : null,
    attribution: story.heroImageAttribution ? htmlToText(story.heroImageAttribution) : null,
    // The alt text saved with the hero image (plain text), else the caption, else the headline.
    alt:
      heroAlt(story.heroImageMetadata) ??
      (story.heroImageCaption ? htmlToText(story.heroImageCaption) : story.headline),
  };
}

// ─── The free part of a story ────────────────────────────────────────────────────────────────

/** Whether every reader may read the whole story (its access is "public"). */
export function isOpenToAll(story: Pick<StoryWithRelations, "access">): boolean {
  return story.access === "public";
}

/**
 * What a feed may carry of a story's body: all the cards of a public story; of a story for
 * logged-in readers or subscribers, its free part only (shown to anyone): the elements before its
 * paywall point (../paywall-point.ts: the story's `paywallAt`, else the account's default), so
 * that a feed reader never gets what only paying readers may read.
 */
export function freePartOf(
  story: Pick<StoryWithRelations, "access" | "cards" | "paywallAt">,
  accountDefault: number,
): TCard[] {
  const cards = story.cards as unknown as TCard[];
  return splitAtPaywall(cards, paywallPointOf(story, accountDefault)).free;
}

// ─── Cards to HTML ───────────────────────────────────────────────────────────────────────────

/** How one output format renders each kind of story element. Every method returns safe HTML. */
export type ElementRenderer = {
  /** Sanitising options for the HTML of text elements (see TEXT_HTML_OPTIONS). */
  textOptions: sanitizeHtml.IOptions;
  image: (image: ImageRef) => string;
  youtube: (video: { id: string; url: string }) => string;
  tweet: (tweet: { id: string; url: string }) => string;
};

/** Tags and attributes a story's text may keep in every feed: structure, emphasis, links. */
export const TEXT_HTML_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "sub",
    "sup",
    "a",
    "ul",
    "ol",
    "li",
    "blockquote",
    "h2",
    "h3",
    "code",
    "pre",
    // A table element (text of subtype "table", as imports make them): rows and cells kept.
    "table",
    "caption",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
  ],
  allowedAttributes: { a: ["href", "title", "rel"], th: ["colspan", "rowspan", "scope"], td: ["colspan", "rowspan"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  transformTags: { h1: "h2", h4: "h3", h5: "h3", h6: "h3" },
};

function sanitizeText(html: string, options: sanitizeHtml.IOptions = TEXT_HTML_OPTIONS): string {
  return sanitizeHtml(html, options);
}

/** Paragraphs of escaped plain text, for elements stored as text rather than HTML. */
function plainParagraphs(text: string, wrap: (escaped: string) => string): string {
  return sanitizeHtml(text, { allowedTags: [], allowedAttributes: {} })
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map(wrap)
    .join("");
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{6,20}$/;

function youtubeId(element: TStoryElement): string | null {
  const direct = element["video-id"];
  if (direct && YOUTUBE_ID.test(direct)) return direct;
  for (const candidate of [element.url, element["embed-url"]]) {
    if (!candidate) continue;
    const match =
      /(?:youtu\.be\/|youtube(?:-nocookie)?\.com\/(?:embed\/|shorts\/|live\/|watch\?(?:.*&)?v=))([A-Za-z0-9_-]{6,20})/.exec(
        candidate,
      );
    if (match) return match[1]!;
  }
  return null;
}

export function tweetId(element: TStoryElement): string | null {
  if (element["tweet-id"] && /^\d{1,30}$/.test(element["tweet-id"])) return element["tweet-id"];
  for (const candidate of [element.url, element["page-url"]]) {
    const match = candidate ? /(?:twitter|x)\.com\/[^/]+\/status(?:es)?\/(\d{1,30})/.exec(candidate) : null;
    if (match) return match[1]!;
  }
  return null;
}

/** The body of a story in one format: every element of every card, in order. */
export function renderCards(cards: readonly TCard[], renderer: ElementRenderer, ctx: FeedContext): string {
  const out: string[] = [];
  for (const card of cards) {
    for (const element of card["story-elements"] ?? []) out.push(renderElement(element, renderer, ctx));
  }
  return out.filter(Boolean).join("\n");
}

/** A string of an element's metadata (stored as sanitised HTML) as plain text, or "". */
function metadataText(element: TStoryElement, key: string): string {
  const value = ownValue(element.metadata, key);
  return typeof value === "string" ? htmlToText(value) : "";
}

function renderElement(element: TStoryElement, renderer: ElementRenderer, ctx: FeedContext): string {
  switch (element.type) {
    case "text":
      return element.text ? sanitizeText(element.text, renderer.textOptions) : "";
    case "title":
      return element.text ? plainParagraphs(element.text, (t) => `<h2>${t}</h2>`) : "";
    case "summary":
      return element.text ? plainParagraphs(element.text, (t) => `<p><strong>${t}</strong></p>`) : "";
    case "quote":
    case "blockquote":
    case "bigfact": {
      const text = element.text || metadataText(element, "content");
      const body = text
        ? /<[a-z]/i.test(text)
          ? sanitizeText(text, renderer.textOptions)
          : plainParagraphs(text, (t) => (element.type === "bigfact" ? `<p><strong>${t}</strong></p>` : `<p>${t}</p>`))
        : "";
      if (!body) return "";
      const attribution = metadataText(element, "attribution");
      const cite = attribution ? `<p>— ${escapeXml(attribution)}</p>` : "";
      return element.type === "bigfact" ? `${body}${cite}` : `<blockquote>${body}${cite}</blockquote>`;
    }
    case "image": {
      const key = element["image-s3-key"];
      if (!key) return "";
      const caption = element.title ? htmlToText(element.title) : null;
      return renderer.image({
        url: imageUrl(ctx.publisher.cdnImage, key, ctx.appUrl),
        ...imageSize(element["image-metadata"]),
        caption,
        attribution: element["image-attribution"] ? htmlToText(element["image-attribution"]) : null,
        alt: metadataText(element, "alt") || caption || "",
      });
    }
    case "composite":
      // An image gallery: its images, one after the other (feeds have no gallery markup in common).
      return (element["story-elements"] ?? [])
        .filter((inner) => inner.type === "image")
        .map((inner) => renderElement(inner, renderer, ctx))
        .filter(Boolean)
        .join("\n");
    case "file": {
      const url = element["file-url"];
      if (!url || !checkWebUrl(url).ok) return "";
      const name = element["file-name"] ? htmlToText(element["file-name"]) : url;
      return `<p><a href="${escapeXml(url)}">${escapeXml(name)}</a></p>`;
    }
    case "youtube-video": {
      const id = youtubeId(element);
      return id ? renderer.youtube({ id, url: `https://www.youtube.com/watch?v=${id}` }) : "";
    }
    case "jsembed": {
      const id = element.subtype === "tweet" || element["tweet-id"] ? tweetId(element) : null;
      if (id) return renderer.tweet({ id, url: `https://twitter.com/i/status/${id}` });
      // Other embeds (Instagram, Facebook posts) run the network's script, which no feed or
      // preview loads: they become a link to the post rather than disappear.
      const url = typeof element.url === "string" ? element.url : null;
      if (!url || !checkWebUrl(url).ok) return "";
      const network =
        element.subtype === "instagram" ? "Instagram" : element.subtype === "facebook-post" ? "Facebook" : null;
      return `<p class="embed"><a href="${escapeXml(url)}">${network ? `View this post on ${network}` : escapeXml(url)}</a></p>`;
    }
    default:
      return "";
  }
}
