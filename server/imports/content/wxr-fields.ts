/**
 * A WordPress post's custom fields (<wp:postmeta>), read field by field (docs/migration.md,
 * "WordPress posts and pages → stories"):
 *
 * - Subtitle: the first non-empty of `wps_subtitle` (WP Subtitle), `subtitle`, `_subtitle`,
 *   `sub_title`, `subheadline` → the story's subheadline.
 * - SEO, Yoast: `_yoast_wpseo_title` → meta-title, `_yoast_wpseo_metadesc` → meta-description,
 *   `_yoast_wpseo_focuskw` → meta-keywords, `_yoast_wpseo_canonical` → canonical URL,
 *   `_yoast_wpseo_opengraph-{title,description,image}` → og-*, `_yoast_wpseo_twitter-{title,
 *   description,image}` → twitter-*. Rank Math: `rank_math_title`, `rank_math_description`,
 *   `rank_math_focus_keyword` (comma-separated), `rank_math_canonical_url`,
 *   `rank_math_facebook_{title,description,image}`, `rank_math_twitter_{title,description}`. Where
 *   both plugins fill a field, Yoast's is kept. Their title variables are filled in (`%%title%%`,
 *   `%title%`, `sep`, `sitename`, `excerpt`, `category`) and any other variable is dropped.
 * - Other fields whose key does not start with "_" → the story's metadata, as text, except one
 *   holding serialized PHP (a plugin's array or object: Masthead cannot read it as text), which
 *   is left out and said; a key given twice keeps its first value, said. WordPress's and
 *   plugins' own ("_edit_lock", "_thumbnail_id", "_yoast_…") are not custom fields.
 */
import { nullPrototypeRecord } from "@/server/own-keys";

import { child, childText, type XmlNode } from "../xml-stream";
import type { ContentSeo } from "./records";

/** A post's <wp:postmeta>: each key's values, in the file's order. */
export function postmeta(node: XmlNode): Map<string, string[]> {
  const meta = new Map<string, string[]>();
  for (const c of node.children) {
    if (c.name !== "wp:postmeta") continue;
    const key = childText(c, "wp:meta_key");
    if (key) meta.set(key, [...(meta.get(key) ?? []), child(c, "wp:meta_value")?.text ?? ""]);
  }
  return meta;
}

const SUBTITLE_KEYS = ["wps_subtitle", "subtitle", "_subtitle", "sub_title", "subheadline"];

/** Fields of the SEO plugins, by the seo field they fill, Yoast's first. */
const SEO_KEYS: [Exclude<keyof ContentSeo, "meta-keywords">, string[]][] = [
  ["meta-title", ["_yoast_wpseo_title", "rank_math_title"]],
  ["meta-description", ["_yoast_wpseo_metadesc", "rank_math_description"]],
  ["og-title", ["_yoast_wpseo_opengraph-title", "rank_math_facebook_title"]],
  ["og-description", ["_yoast_wpseo_opengraph-description", "rank_math_facebook_description"]],
  ["og-image", ["_yoast_wpseo_opengraph-image", "rank_math_facebook_image"]],
  ["twitter-title", ["_yoast_wpseo_twitter-title", "rank_math_twitter_title"]],
  ["twitter-description", ["_yoast_wpseo_twitter-description", "rank_math_twitter_description"]],
  ["twitter-image", ["_yoast_wpseo_twitter-image"]],
];
const KEYWORD_KEYS = ["_yoast_wpseo_focuskw", "rank_math_focus_keyword"];
const CANONICAL_KEYS = ["_yoast_wpseo_canonical", "rank_math_canonical_url"];
/** Keys read here, never kept as custom fields. */
const MAPPED = new Set([...SUBTITLE_KEYS, ...SEO_KEYS.flatMap(([, keys]) => keys), ...KEYWORD_KEYS, ...CANONICAL_KEYS]);

/** PHP's serialize() output: an array, object, or scalar in its notation ("a:2:{…}", "s:3:"foo";"). */
const SERIALIZED = /^(?:[aO]:\d+:[{"]|[CsS]:\d+:"|[idb]:[^;]*;$|N;$)/;

/** What a template variable of Yoast or Rank Math stands for in this post. */
type SeoContext = { title: string; excerpt: string; siteName: string; category: string };

/** A title or description with its plugin's variables filled in (see the file's comment). */
function fillVariables(value: string, ctx: SeoContext): string {
  const known = new Map([
    ["title", ctx.title],
    ["sep", "–"],
    ["sitename", ctx.siteName],
    ["excerpt", ctx.excerpt],
    ["category", ctx.category],
    ["primary_category", ctx.category],
  ]);
  return value
    .replace(
      /%%([a-z_]+)%%|%([a-z_]+)%/gi,
      (_, a?: string, b?: string) => known.get((a ?? b ?? "").toLowerCase()) ?? "",
    )
    .replace(/\s+/g, " ")
    .trim();
}

const first = (meta: Map<string, string[]>, keys: readonly string[]) =>
  keys.map((k) => meta.get(k)?.[0]?.trim() ?? "").find((v) => v !== "") ?? null;

/** The post's subtitle, SEO fields and canonical URL (see the file's comment). */
export function wxrSeo(
  meta: Map<string, string[]>,
  ctx: SeoContext,
): { subheadline: string | null; seo: ContentSeo; canonicalUrl: string | null } {
  const seo: ContentSeo = {};
  for (const [field, keys] of SEO_KEYS) {
    const value = first(meta, keys);
    if (value === null) continue;
    if (field === "og-image" || field === "twitter-image") seo[field] = value;
    else seo[field] = fillVariables(value, ctx);
  }
  const keywords = first(meta, KEYWORD_KEYS);
  if (keywords)
    seo["meta-keywords"] = keywords
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean);
  return { subheadline: first(meta, SUBTITLE_KEYS), seo, canonicalUrl: first(meta, CANONICAL_KEYS) };
}

/** The post's custom fields kept as text, and a note for each left out (see the file's comment). */
export function wxrCustomFields(meta: Map<string, string[]>): { fields: Record<string, string>; notes: string[] } {
  const fields = nullPrototypeRecord<string>();
  const notes: string[] = [];
  for (const [key, values] of meta) {
    if (key.startsWith("_") || MAPPED.has(key)) continue;
    const value = values[0] ?? "";
    const name = key.slice(0, 100);
    if (SERIALIZED.test(value.trim())) {
      notes.push(`custom field "${name}" left out: it holds serialized PHP data (a plugin's), not text`);
      continue;
    }
    if (values.length > 1) notes.push(`custom field "${name}" has ${values.length} values: the first is kept`);
    fields[key] = value;
  }
  return { fields, notes };
}
