/**
 * What editors save is what readers' front ends render, so it is made safe once, on save, by two
 * rules (docs/publishing.md, "HTML and plain text"):
 *
 * - HTML: one allow-list (ALLOWED_TAGS, tables included; `a[href]` and a cell's `colspan` and
 *   `rowspan` only, `blockquote[class]` for embed markup of known providers). Everything else
 *   goes: scripts, styles, event handlers, frames, SVG, forms, comments. A link stays only when
 *   its href passes the URL rule, with `mailto:` allowed (in anchors only); otherwise the anchor
 *   loses its href and keeps its text.
 * - URLs: the one URL rule (server/web-url.ts): absolute http(s), no whitespace, control
 *   characters or credentials; stored normalised. A field that fails it is refused with
 *   BAD_REQUEST naming the field, never silently dropped.
 *
 * Which field is which, in a story element (and in any free-form metadata object: element and
 * card metadata, collection metadata and item metadata, entity metadata):
 * - a key that names a link (`url`, `embed-url`, `page-url`, `file-url`, `href`, `src`, `link`,
 *   any `…-url`, `…-link`, `…Url`) holds a URL (or a list of them);
 * - `embed-js` is base64 of embed markup, which front ends inject: decoded, through the
 *   allow-list, encoded again;
 * - identifiers (`id`, `type`, `subtype`, `family-id`, `video-id`, `tweet-id`, `image-s3-key`,
 *   `content-id`, `content-version-id`, `mime-type`, and a card's `status`) stay as they are, and
 *   are refused when they carry markup or control characters;
 * - every other string is HTML (text of text, title, summary, quote, blockquote and bigfact
 *   elements, captions, attributions, descriptions, metadata content): through the allow-list.
 *   So "a & b" is stored as "a &amp; b": front ends render these as HTML.
 */
import "server-only";

import sanitizeHtml from "sanitize-html";

import { nullPrototypeRecord } from "@/server/own-keys";

import { AppError, zodIssuesToDetails, type ErrorDetail } from "../../errors";
import { checkWebUrl } from "../../web-url";
import { ZCards, type TCard, type TStoryElement } from "../cards.schema";

// ─── The allow-list ──────────────────────────────────────────────────────────────────────────

/** Tables: a text element of subtype "table" (an import's, html-to-elements.ts) holds one. */
const TABLE_TAGS = ["table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td"];
export const ALLOWED_TAGS = [
  ...["p", "br", "strong", "em", "b", "i", "a", "ul", "ol", "li", "h2", "h3", "blockquote"],
  ...TABLE_TAGS,
];

/** Classes embed markup needs to be picked up by the provider's script (a tweet, an Instagram post). */
const EMBED_CLASSES = ["twitter-tweet", "twitter-video", "instagram-media", "tiktok-embed"];

/** Elements whose content is dropped with them (not kept as text): it is code, or markup browsers parse differently. */
const DROPPED_WITH_CONTENT = [
  "script",
  "style",
  "textarea",
  "option",
  "noscript",
  "noembed",
  "noframes",
  "iframe",
  "object",
  "template",
  "title",
  "xmp",
  "svg",
  "math",
  "select",
];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: { a: ["href"], td: ["colspan", "rowspan"], th: ["colspan", "rowspan"] },
  allowedClasses: { blockquote: EMBED_CLASSES },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
  allowProtocolRelative: false,
  allowVulnerableTags: false,
  disallowedTagsMode: "discard",
  nonTextTags: DROPPED_WITH_CONTENT,
  parseStyleAttributes: false,
  transformTags: {
    // The one URL rule decides, on the href as the browser will read it (entities decoded).
    a: (tagName, attribs) => {
      const href = attribs.href;
      const kept: sanitizeHtml.Attributes = {};
      if (href !== undefined && checkWebUrl(href, { mailto: true }).ok) kept.href = href;
      return { tagName, attribs: kept };
    },
  },
};

/** HTML reduced to the allow-list. Idempotent: cleaning clean HTML changes nothing. */
export function cleanHtml(html: string): string {
  // Text with nothing HTML would change comes out as it went in: skip the parser.
  if (!/[<>&"]/.test(html)) return html;
  return sanitizeHtml(html, OPTIONS);
}

/** An optional HTML field (hero caption, bio): null and undefined pass through. */
export function cleanOptionalHtml<T extends string | null | undefined>(html: T): T {
  return (typeof html === "string" ? cleanHtml(html) : html) as T;
}

// ─── Fields by key ───────────────────────────────────────────────────────────────────────────

/** Keys that hold a link: `url`, `page-url`, `file_url`, `avatarUrl`, `href`, `src`, `link`, `links`… */
const URL_KEY = /(?:^|[-_])(?:url|urls|href|src|link|links|uri)$|(?:Url|Urls|Href|Src|Link|Links|Uri)$/;
const TOKEN_KEYS = new Set([
  "id",
  "type",
  "subtype",
  "family-id",
  "video-id",
  "tweet-id",
  "image-s3-key",
  "content-id",
  "content-version-id",
  "mime-type",
]);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Free-form objects nest at most this deep (deeper is refused, not walked). */
const MAX_DEPTH = 16;

type Walk = { details: ErrorDetail[] };

function cleanUrl(value: string, field: string, walk: Walk): string {
  if (value === "") return value;
  const result = checkWebUrl(value);
  if (result.ok) return result.href;
  walk.details.push({ field, issue: result.issue });
  return value;
}

/** An identifier is used as it is (in class names, image URLs, switches): it may not carry markup. */
const MARKUP_OR_CONTROL = /[<>"'`&\p{Cc}]/u;
const TOKEN_ISSUE = "is an identifier: it must not contain < > \" ' ` & or control characters";

function cleanToken(value: string, field: string, walk: Walk): string {
  if (MARKUP_OR_CONTROL.test(value)) walk.details.push({ field, issue: TOKEN_ISSUE });
  return value;
}

function cleanEmbed(value: string, field: string, walk: Walk): string {
  if (!BASE64.test(value)) {
    walk.details.push({ field, issue: "must be base64-encoded embed markup" });
    return value;
  }
  return Buffer.from(cleanHtml(Buffer.from(value, "base64").toString("utf8")), "utf8").toString("base64");
}

/** One value of a free-form object under `key`, cleaned by what the key says it holds. */
function cleanValue(value: unknown, key: string, field: string, walk: Walk, depth: number, isUrl: boolean): unknown {
  if (typeof value === "string") {
    if (isUrl) return cleanUrl(value, field, walk);
    if (key === "embed-js") return cleanEmbed(value, field, walk);
    if (TOKEN_KEYS.has(key)) return cleanToken(value, field, walk);
    return cleanHtml(value);
  }
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) {
    walk.details.push({ field, issue: `nests deeper than ${MAX_DEPTH} levels` });
    return value;
  }
  // A list under a link key is a list of links; under any other key, its items are judged by the key too.
  if (Array.isArray(value))
    return value.map((item, i) => cleanValue(item, key, `${field}.${i}`, walk, depth + 1, isUrl));
  const out = nullPrototypeRecord<unknown>();
  for (const [k, v] of Object.entries(value as Record<string, unknown>))
    out[k] = cleanValue(v, k, `${field}.${k}`, walk, depth + 1, URL_KEY.test(k));
  return out;
}

function cleanObject(value: Record<string, unknown>, field: string, walk: Walk): Record<string, unknown> {
  const out = nullPrototypeRecord<unknown>();
  for (const [key, item] of Object.entries(value))
    out[key] = cleanValue(item, key, field ? `${field}.${key}` : key, walk, 1, URL_KEY.test(key));
  return out;
}

// ─── Entry points ────────────────────────────────────────────────────────────────────────────

/**
 * A story element made safe: every field cleaned by its key (above). Unsafe URLs are added to
 * `details` as `<field>.<key path>`; the element returned keeps them, for the caller to refuse.
 */
export function cleanStoryElement(element: TStoryElement, field: string, details: ErrorDetail[]): TStoryElement {
  return cleanObject(element, field, { details }) as TStoryElement;
}

/**
 * A card's own fields made safe: its metadata (free-form) and its status (an identifier). Problems
 * are added to `details` as `<field>.<key path>`.
 */
export function cleanCardFields(
  card: { status: string; metadata: Record<string, unknown> },
  field: string,
  details: ErrorDetail[],
): { status: string; metadata: Record<string, unknown> } {
  const walk = { details };
  return {
    status: cleanToken(card.status, `${field}.status`, walk),
    metadata: cleanObject(card.metadata, `${field}.metadata`, walk),
  };
}

/**
 * What is wrong with cards as they would be stored. Encoding entities lengthens text ("&" becomes
 * "&amp;"), and the dashboard reads cards back through the card schema, so its limits must hold
 * for the sanitised form too.
 */
export function storedCardIssues(cards: readonly TCard[]): ErrorDetail[] {
  const result = ZCards.safeParse(cards);
  if (result.success) return [];
  return zodIssuesToDetails(result.error, "cards").map((d) => ({ ...d, issue: `${d.issue} once sanitised` }));
}

/**
 * A free-form metadata object (collection, collection item, entity) made safe; throws BAD_REQUEST
 * naming every unsafe link (`<field>.<key path>`).
 */
export function cleanMetadataOrThrow<T extends Record<string, unknown> | undefined>(value: T, field: string): T {
  if (value === undefined) return value;
  const details: ErrorDetail[] = [];
  const cleaned = cleanObject(value, field, { details });
  if (details.length) throw new AppError("BAD_REQUEST", "Some links are not safe.", { details });
  return cleaned as T;
}
