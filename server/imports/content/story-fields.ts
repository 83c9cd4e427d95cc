/**
 * The fields of an imported story beside its body (docs/migration.md, "WordPress posts and pages
 * → stories"), each judged on its own: a field that cannot be kept is left out and reported
 * (post, field, why), and the story is imported with the rest, its redirect and featured image
 * included.
 *
 * - Custom fields → the story's metadata, each made safe alone (sanitize.ts: HTML through the
 *   allow-list, a value under a link key such as `links` must be one URL).
 * - Subheadline and SEO (Story.seo as the content API serves it): plain text, cut to the
 *   dashboard's lengths (subheadline 1,000, titles 200, descriptions 500 characters; keywords up
 *   to 30 of at most 100), said when cut.
 * - Social images and the canonical URL: kept when they pass the URL rule (web-url.ts). A
 *   canonical URL that is the post's own old address is not kept: that address now redirects to
 *   the story, which is its own canonical page.
 */
import { nullPrototypeRecord } from "@/server/own-keys";

import { AppError } from "../../errors";
import { cleanMetadataOrThrow } from "../../publishing/editorial/sanitize";
import { graphemePrefix } from "../../text/graphemes";
import { checkWebUrl } from "../../web-url";
import { htmlToPlainText } from "./html-to-elements";
import type { ContentPost, ContentSeo } from "./records";

/** Says one thing about the post in the report ("custom field "x" left out: …"). */
type FieldNote = (message: string) => void;

const issuesOf = (error: AppError) =>
  (error.details ?? [])
    .map((d) => d.issue)
    .slice(0, 2)
    .join("; ") || error.message;

/** Custom fields as the story's metadata, each made safe alone (see the file's comment). */
export function keptMetadata(fields: Record<string, string>, note: FieldNote): Record<string, unknown> {
  const kept = nullPrototypeRecord<unknown>();
  for (const [key, value] of Object.entries(fields)) {
    try {
      kept[key] = cleanMetadataOrThrow(nullPrototypeRecord([[key, value]]), "metadata")[key];
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      note(`custom field "${key.slice(0, 100)}" left out: ${issuesOf(error)}`);
    }
  }
  return kept;
}

const TEXT_LIMITS = [
  ["meta-title", 200],
  ["meta-description", 500],
  ["og-title", 200],
  ["og-description", 500],
  ["twitter-title", 200],
  ["twitter-description", 500],
] as const;
const URL_FIELDS = ["og-image", "twitter-image"] as const;

/** Plain text of `value` within `max` characters; said when it was longer. */
function plainField(value: string, max: number, field: string, note: FieldNote): string | null {
  const text = htmlToPlainText(value);
  if (text.length > max) note(`its ${field} is ${text.length} characters: cut to ${max}`);
  return graphemePrefix(text, max).trim() || null;
}

/** A link field's URL as stored, or null (said) when it fails the URL rule. */
function urlField(value: string, field: string, note: FieldNote): string | null {
  const check = checkWebUrl(value.trim());
  if (check.ok) return check.href;
  note(`its ${field} "${value.trim().slice(0, 100)}" left out: ${check.issue}`);
  return null;
}

/** A URL as the URL rule stores it, without a trailing slash, for comparing two addresses. */
const sameAddress = (a: string, b: string) => {
  const norm = (url: string) => {
    const check = checkWebUrl(url.trim());
    return (check.ok ? check.href : url.trim()).replace(/\/+$/, "");
  };
  return norm(a) === norm(b);
};

/** The story's subheadline, seo object and canonical URL (see the file's comment). */
export function storySeoFields(
  post: Pick<ContentPost, "subheadline" | "seo" | "canonicalUrl" | "oldUrl">,
  note: FieldNote,
): { subheadline: string | null; seo: Record<string, unknown>; canonicalUrl: string | null } {
  const seo = nullPrototypeRecord<unknown>();
  const given: ContentSeo = post.seo ?? {};
  for (const [field, max] of TEXT_LIMITS) {
    const value = given[field];
    const text = typeof value === "string" ? plainField(value, max, field, note) : null;
    if (text) seo[field] = text;
  }
  for (const field of URL_FIELDS) {
    const value = given[field];
    const url = value?.trim() ? urlField(value, field, note) : null;
    if (url) seo[field] = url;
  }
  const keywords = (given["meta-keywords"] ?? []).map((k) => htmlToPlainText(k).slice(0, 100)).filter(Boolean);
  if (keywords.length > 0) seo["meta-keywords"] = [...new Set(keywords)].slice(0, 30);
  const canonical = post.canonicalUrl?.trim() ? urlField(post.canonicalUrl, "canonical URL", note) : null;
  const own = canonical !== null && post.oldUrl !== null && sameAddress(canonical, post.oldUrl);
  return {
    subheadline: post.subheadline ? plainField(post.subheadline, 1_000, "subheadline", note) : null,
    seo,
    canonicalUrl: own ? null : canonical,
  };
}
