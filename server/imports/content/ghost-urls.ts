/**
 * The old Ghost site's own addresses in its export, and the paywall split point of a post's body
 * (docs/migration.md, "Ghost posts → stories"). Pure.
 *
 * - Ghost 4 and later write the site's own URL as `__GHOST_URL__` (in html, mobiledoc, lexical,
 *   feature_image, og_image…); older exports write root-relative paths ("/content/images/…").
 *   Both become absolute on the old site's address (`--ghost-url`, else the account's site URL):
 *   without one, an export that needs it is refused before anything is written (ghost.ts).
 * - The paywall: Ghost's `<!--members-only-->` comment (what its Mobiledoc and Lexical `paywall`
 *   cards render to, ghost-render.ts) ends the free part of the body.
 */
import { z } from "zod";

import { nullPrototypeRecord } from "@/server/own-keys";

const GHOST_URL = "__GHOST_URL__";

const GHOST_URL_MESSAGE =
  "--ghost-url is the old Ghost site's address, https://… (and its path when Ghost was in a folder).";

/** The old site's address as the operator gives it: http(s), no query or fragment; without its trailing slash. */
export const ZGhostUrl = z
  .string()
  .trim()
  .max(500, GHOST_URL_MESSAGE)
  .pipe(z.url({ protocol: /^https?$/, hostname: z.regexes.domain, error: GHOST_URL_MESSAGE }))
  .refine((url) => !/[?#\s"'<>\\]/.test(url), GHOST_URL_MESSAGE)
  .transform((url) => url.replace(/\/+$/, ""));

/** The marker Ghost writes where the free part of a members' post ends. */
export const MEMBERS_ONLY = "<!--members-only-->";
const MEMBERS_ONLY_PATTERN = /<!--\s*members-only\s*-->/i;

type Json = Record<string, unknown>;

/** A root-relative path ("/content/…", never "//host/…"). */
const ROOT_RELATIVE = /^\/(?!\/)/;
/** src, href and data-src attributes holding a root-relative path. */
const RELATIVE_ATTRIBUTE = /(\s(?:src|href|data-src)\s*=\s*["'])\/(?!\/)/gi;

/** The old site's address without a trailing slash, or null: `--ghost-url`, else the account's site URL. */
export function ghostBase(options: { ghostUrl?: string | null; siteUrl?: string | null }): string | null {
  const url = options.ghostUrl?.trim() || options.siteUrl?.trim() || "";
  return url ? url.replace(/\/+$/, "") : null;
}

/** Whether a post row (or its posts_meta row) names the site by __GHOST_URL__ or by root-relative image paths. */
export function needsBase(row: Json, meta: Json | undefined): boolean {
  for (const record of [row, meta ?? {}]) {
    for (const value of Object.values(record)) {
      if (typeof value !== "string") continue;
      if (value.includes(GHOST_URL)) return true;
    }
  }
  const feature = row.feature_image;
  return (
    (typeof feature === "string" && ROOT_RELATIVE.test(feature)) ||
    (typeof row.html === "string" && /\ssrc\s*=\s*["']\/(?!\/)/i.test(row.html))
  );
}

/** `text` with every __GHOST_URL__ the old site's address (escaped for JSON when `json`). */
function replaceToken(text: string, base: string, json = false): string {
  if (!text.includes(GHOST_URL)) return text;
  return text.split(GHOST_URL).join(json ? JSON.stringify(base).slice(1, -1) : base);
}

/** A URL field (feature_image, og_image): __GHOST_URL__ or a root-relative path made absolute. */
export function ghostUrlOf(value: string, base: string | null): string {
  if (!base) return value;
  const replaced = replaceToken(value, base);
  return ROOT_RELATIVE.test(replaced) ? `${base}${replaced}` : replaced;
}

/**
 * A post row with the old site's address in its string fields: html (and its root-relative src
 * and href), mobiledoc and lexical (JSON text), the rest as text.
 */
export function withGhostUrls(row: Json, base: string | null): Json {
  if (!base) return row;
  const out: Json = nullPrototypeRecord(
    Object.entries(row).map(([key, value]) => [
      key,
      typeof value === "string" ? replaceToken(value, base, key === "mobiledoc" || key === "lexical") : value,
    ]),
  );
  if (typeof out.feature_image === "string") out.feature_image = ghostUrlOf(out.feature_image, base);
  return out;
}

/** Rendered HTML with its root-relative src and href made absolute (a Mobiledoc image card's "/content/…"). */
export function absoluteHtml(html: string, base: string | null): string {
  return base ? html.replace(RELATIVE_ATTRIBUTE, `$1${base}/`) : html;
}

/** The src of each img that html-to-elements cannot keep (not an http(s) address). */
export function unkeptImages(html: string): string[] {
  const out: string[] = [];
  for (const match of html.matchAll(/<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    const src = (match[1] ?? match[2] ?? "").trim();
    if (!/^https?:\/\//i.test(src)) out.push(src.slice(0, 300) || "(empty)");
  }
  return out;
}

/** The body split at its first members-only marker: the free part and the rest; null without one. */
export function splitAtPaywall(html: string): { free: string; locked: string } | null {
  const match = MEMBERS_ONLY_PATTERN.exec(html);
  if (!match) return null;
  return { free: html.slice(0, match.index), locked: html.slice(match.index + match[0].length) };
}
