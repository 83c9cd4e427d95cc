/**
 * Which publisher a public content request is for, and that publisher's settings.
 *
 * The content API (spec §4.4) carries no key: a publisher's front end calls it on its own host.
 * So the account is found by the request's host (Account.domain, the host of its site URL, or one
 * of the publication's domains set in Settings),
 * then by PUBLISHING_ACCOUNT, then as the only account there is. Lookups are cached in the process
 * (they run on every public read) until a settings change commits on any instance
 * (server/cache/process-cache.ts).
 */
import "server-only";

import { getEnv } from "../../env.js";
import { ProcessCache } from "../cache/process-cache";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { PaidPartAccess } from "./paid-part";

export type Publisher = {
  accountId: number;
  name: string;
  domain: string | null;
  /** The account's IANA time zone (Settings → Site): the zone pages rendered on the server name times in. */
  timeZone: string;
  /** Public site, no trailing slash: story and section URLs start with it. */
  siteUrl: string;
  /**
   * Whether siteUrl is a front end of the publisher's own, set in Settings. False while it is
   * unset or Masthead's own APP_URL (the default), which serves no story or reset-password pages:
   * the dashboard then shows no "view" link and says to set it.
   */
  siteUrlSet: boolean;
  /** Hosts of the publication (lower case): the site URL's, the account's domain and Settings' domains. */
  publicationHosts: string[];
  /** Image CDN host (no scheme) that *-s3-key values are appended to. */
  cdnImage: string;
  language: { isoCode: string; ietfCode: string; direction: string };
  settings: Record<string, unknown>;
  seo: Record<string, unknown>;
  theme: Record<string, unknown>;
  socialLinks: Record<string, unknown>;
  layout: Record<string, unknown>;
  ampConfig: Record<string, unknown>;
  /** Where a closed story's free part ends when it sets no point: this many elements (./paywall-point.ts). */
  paywallDefaultElements: number;
  /** What the public content API serves of a closed story to a caller without access (./paid-part.ts). */
  contentApiAccess: PaidPartAccess;
  updatedAt: Date;
};

const TTL_MS = 5_000;
/** Host lookups kept at most: every Host header a client makes up is a key, so the map is bounded. */
export const HOST_CACHE_MAX = 1_000;
// Dropped on every instance when settings change (the database announces it: topic "publisher");
// the TTL is a backstop.
const byHost = new ProcessCache<string, number>("publisher", { ttlMs: TTL_MS, maxEntries: HOST_CACHE_MAX });
const byId = new ProcessCache<number, Publisher>("publisher", { ttlMs: TTL_MS, maxEntries: HOST_CACHE_MAX });

/** Forget cached lookups in this process (tests). */
export function forgetPublisherCache(): void {
  byHost.clear();
  byId.clear();
}

/** Entries in the caches (for tests). */
export function publisherCacheSizes(): { hosts: number; publishers: number } {
  return { hosts: byHost.size, publishers: byId.size };
}

/**
 * The account a public request is for. `host` is the request's Host (port ignored); `fallbackSlug`
 * is PUBLISHING_ACCOUNT. Throws NOT_FOUND when nothing matches.
 */
export async function resolvePublisherAccountId(
  db: Db,
  args: { host: string | null; fallbackSlug?: string; now?: number },
): Promise<number> {
  const now = args.now ?? Date.now();
  const hostname = (args.host ?? "").toLowerCase().replace(/:\d+$/, "");
  const key = `${hostname}|${args.fallbackSlug ?? ""}`;
  const hit = byHost.get(key, now);
  if (hit !== undefined) return hit;

  let accountId: number | undefined;
  if (hostname) {
    const candidates = await db.account.findMany({
      where: {
        OR: [
          { domain: hostname },
          { publisherConfig: { siteUrl: { contains: `//${hostname}` } } },
          { publisherConfig: { siteDomains: { has: hostname } } },
        ],
      },
      select: { id: true, domain: true, publisherConfig: { select: { siteUrl: true, siteDomains: true } } },
      take: 5,
    });
    accountId = candidates.find(
      (a) =>
        a.domain === hostname ||
        hostOf(a.publisherConfig?.siteUrl) === hostname ||
        a.publisherConfig?.siteDomains.includes(hostname),
    )?.id;
  }
  if (accountId === undefined && args.fallbackSlug) {
    accountId = (await db.account.findUnique({ where: { slug: args.fallbackSlug }, select: { id: true } }))?.id;
  }
  if (accountId === undefined) {
    const only = await db.account.findMany({ select: { id: true }, take: 2, orderBy: { id: "asc" } });
    if (only.length === 1) accountId = only[0]!.id;
  }
  if (accountId === undefined) {
    throw new AppError(
      "NOT_FOUND",
      "No publisher is served on this host. Set the account's domain, or PUBLISHING_ACCOUNT.",
    );
  }
  byHost.set(key, accountId, now);
  return accountId;
}

/**
 * The publisher a public request is for, with its settings: by the request's host, then
 * PUBLISHING_ACCOUNT, then the only account (NOT_FOUND when none matches).
 */
export async function resolvePublisher(db: Db, args: { host: string | null }): Promise<Publisher> {
  const env = getEnv();
  const accountId = await resolvePublisherAccountId(db, { host: args.host, fallbackSlug: env.PUBLISHING_ACCOUNT });
  return getPublisher(db, accountId, { appUrl: env.APP_URL });
}

/** The publisher's settings, with defaults for whatever the dashboard has not set. */
export async function getPublisher(
  db: Db,
  accountId: number,
  defaults: { appUrl: string },
  now = Date.now(),
): Promise<Publisher> {
  const hit = byId.get(accountId, now);
  if (hit) return hit;
  const account = await db.account.findUnique({ where: { id: accountId }, include: { publisherConfig: true } });
  if (!account) throw new AppError("NOT_FOUND", "Publisher not found.");
  const config = account.publisherConfig;
  const siteUrl = (config?.siteUrl || defaults.appUrl).replace(/\/+$/, "");
  const siteHost = hostOf(siteUrl);
  const publisher: Publisher = {
    accountId: account.id,
    name: account.name,
    domain: account.domain,
    timeZone: account.timeZone,
    siteUrl,
    siteUrlSet: Boolean(config?.siteUrl) && originOf(siteUrl) !== originOf(defaults.appUrl),
    publicationHosts: [
      ...new Set(
        [siteHost, account.domain?.toLowerCase(), ...(config?.siteDomains ?? [])].filter((h): h is string =>
          Boolean(h),
        ),
      ),
    ],
    // Host and path, no scheme: the publisher's CDN when set, else IMAGE_PUBLIC_BASE_URL (a public
    // bucket or CDN in front of the image storage), else Masthead itself (GET /images/<key>).
    cdnImage: config?.cdnImage || defaultCdnImage(defaults.appUrl, getEnv().IMAGE_PUBLIC_BASE_URL),
    language: {
      isoCode: config?.languageIsoCode ?? "en",
      ietfCode: config?.languageIetfCode ?? "en-US",
      direction: config?.languageDirection ?? "ltr",
    },
    settings: asObject(config?.settings),
    seo: asObject(config?.seo),
    theme: asObject(config?.theme),
    socialLinks: asObject(config?.socialLinks),
    layout: asObject(config?.layout),
    ampConfig: asObject(config?.ampConfig),
    paywallDefaultElements: account.paywallDefaultElements,
    // Anything but "full" (the database allows only the two) serves the free part.
    contentApiAccess: account.contentApiAccess === "full" ? "full" : "free_part",
    updatedAt: config?.updatedAt ?? account.updatedAt,
  };
  byId.set(accountId, publisher, now);
  return publisher;
}

function hostOf(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host.toLowerCase().replace(/:\d+$/, "");
  } catch {
    return undefined;
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a page URL is on the publication (its host is one of `publicationHosts`): engagement
 * accepts comment pages only there. Ports and the case of the host are ignored.
 */
export function isPublicationUrl(publisher: Pick<Publisher, "publicationHosts">, pageUrl: string): boolean {
  const host = hostOf(pageUrl);
  return host !== undefined && publisher.publicationHosts.includes(host);
}

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `cdn-image` when the publisher set none: IMAGE_PUBLIC_BASE_URL's host and path, else `<APP_URL host>/images`. */
export function defaultCdnImage(appUrl: string, imagePublicBaseUrl: string | undefined): string {
  if (imagePublicBaseUrl) return imagePublicBaseUrl.replace(/^https?:\/\//, "").replace(/\/+$/, "");
  return `${new URL(appUrl).host}/images`;
}
