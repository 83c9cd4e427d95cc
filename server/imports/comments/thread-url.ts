/**
 * A thread's link as every comment source (Disqus, WordPress, Remark42, Coral) places it, so that
 * one article is one page however its links were written (docs/migration.md, "Threads → pages").
 *
 * - `threadUrlKey`: what two links of one page share. The page URL normalisation of the
 *   engagement API (pages.ts normalizePageUrl: host lower case, no default port, no fragment, no
 *   tracking parameter, query sorted), then also: scheme https, no "www.", no trailing "/" on the
 *   path, no directory index file ("index.html", "index.php"), and none of the parameters that
 *   only say where a reader came from or which rendering they saw (IMPORT_ONLY_PARAMS: ref, amp,
 *   replytocom…). Other parameters stay: "?p=123" is a page.
 * - `threadPageUrl`: the URL an import creates a page at: the normalised link without those
 *   parameters and index file, in the scheme and host of the publication's site URL when it is
 *   that host ("www." or not).
 * - `findThreadPage`: the account's page at any form of a link (the other scheme, "www." or not,
 *   a trailing "/" or not): the exact one first.
 * Pure but for the last.
 */
import "server-only";

import type { Db } from "../../db/client";
import { findPage, findPageByAnyForm, isTrackingParam, normalizePageUrl } from "../../engagement/pages";
import { AppError } from "../../errors";
import type { Page } from "../../generated/prisma/client";
import type { Publisher } from "../../publishing/publisher";

/**
 * Parameters that do not name a page in a comment export's links (compared lower-cased), besides
 * the engagement API's tracking parameters: referrers, AMP and print renderings, WordPress's
 * reply-to-comment and share links, Facebook's actions, Matomo/Piwik and HubSpot campaigns.
 */
const IMPORT_ONLY_PARAMS: ReadonlySet<string> = new Set([
  "ref",
  "referrer",
  "amp",
  "noamp",
  "outputtype",
  "replytocom",
  "share",
  "spm",
  "cmpid",
  "ocid",
  "sr_share",
  "fb_action_ids",
  "fb_action_types",
  "fb_ref",
  "fb_source",
  "action_object_map",
  "action_type_map",
  "action_ref_map",
]);
const IMPORT_ONLY_PREFIXES = ["utm_", "pk_", "mtm_", "hsa_", "itm_"];

/** Whether a query parameter says nothing about which page a link is. */
export function isThreadNoiseParam(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    isTrackingParam(lower) || IMPORT_ONLY_PARAMS.has(lower) || IMPORT_ONLY_PREFIXES.some((p) => lower.startsWith(p))
  );
}

/** `url` normalised as a page URL, then without IMPORT_ONLY_PARAMS; BAD_REQUEST naming `field` when it is none. */
function cleanLink(url: string, field: string): URL {
  const parsed = new URL(normalizePageUrl(url.trim(), field));
  // A directory's index file is the directory ("/2013/hello/index.html" is "/2013/hello/").
  parsed.pathname = parsed.pathname.replace(/\/index\.(?:html?|php)$/i, "/");
  if (parsed.search) {
    const kept = [...parsed.searchParams].filter(([name]) => !isThreadNoiseParam(name));
    parsed.search = kept.length ? new URLSearchParams(kept).toString() : "";
  }
  return parsed;
}

const bareHost = (host: string) => host.toLowerCase().replace(/^www\./, "");

/** What two links of one page share (see the file's comment); BAD_REQUEST naming `field` when it is no page URL. */
export function threadUrlKey(url: string, field = "link"): string {
  const parsed = cleanLink(url, field);
  const path = parsed.pathname.replace(/\/+$/, "") || "/";
  return `https://${bareHost(parsed.host)}${path}${parsed.search}`;
}

/** The URL an import creates the page of `url` at (see the file's comment). */
export function threadPageUrl(url: string, publisher: Pick<Publisher, "siteUrl">, field = "link"): string {
  const parsed = cleanLink(url, field);
  try {
    const site = new URL(publisher.siteUrl);
    if (bareHost(site.host) === bareHost(parsed.host)) {
      parsed.protocol = site.protocol;
      parsed.host = site.host;
    }
  } catch {
    // no usable site URL: the link's own scheme and host
  }
  return normalizePageUrl(parsed.toString(), field);
}

/** The account's page of `url` (threadPageUrl's), by any of its forms; the exact one when several answer. */
export async function findThreadPage(db: Db, accountId: number, url: string): Promise<Page | null> {
  try {
    return await findPageByAnyForm(db, accountId, url, "link");
  } catch (error) {
    if (error instanceof AppError && error.code === "CONFLICT") return findPage(db, accountId, url);
    throw error;
  }
}
