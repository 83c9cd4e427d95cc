/**
 * The publisher configuration that front ends load first (GET /api/v1/config), its AMP
 * counterpart (GET /api/v1/amp/config) and the menu groups (GET /api/v1/menu-groups).
 *
 * Fields are those the front-end libraries of the original API read (research: real-clients.md
 * §1.3, §4): @quintype/backend, framework, seo, amp and components. They come from the account,
 * its PublisherConfig row (through getPublisher, which fills defaults) and its sections. The
 * field table is in docs/publishing.md.
 */
import "server-only";

import { nullPrototypeRecord, ownValue } from "@/server/own-keys";

import type { Db } from "../db/client";
import type { Publisher } from "./publisher";
import { SECTION_SELECT, sectionToWire, type SectionRow } from "./story-view";

type Json = Record<string, unknown>;

/** Keys of PublisherConfig.settings that are top-level config fields, not publisher-settings. */
const LIFTED_SETTINGS = [
  "image-cdn-format",
  "polltype-host",
  "story-slug-format",
  "public-integrations",
  "env",
  "metype",
  "publisher-attributes",
] as const;
/** Keys of PublisherConfig.settings that are Masthead's own and never served (editorial/image-refs.ts). */
const PRIVATE_SETTINGS = ["external-image-hosts"];
/** Keys of PublisherConfig.layout that are served elsewhere (config domains, menu groups). */
const LAYOUT_OWN_KEYS = ["menu", "stacks", "domains", "menu-groups"];

const DEFAULT_AMP_FONTS = {
  primary: {
    family: '"Roboto", "Helvetica Neue", Arial, sans-serif',
    url: "https://fonts.googleapis.com/css?family=Roboto:400,700&display=swap",
  },
  secondary: {
    family: '"Merriweather", Georgia, serif',
    url: "https://fonts.googleapis.com/css?family=Merriweather:400,700&display=swap",
  },
};

const isObject = (value: unknown): value is Json =>
  Boolean(value) && typeof value === "object" && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === "string" && value.trim() ? value : undefined);

/** The account's sections that are not deleted, in menu order. */
async function loadSections(db: Db, accountId: number): Promise<SectionRow[]> {
  return db.section.findMany({
    where: { accountId, deletedAt: null },
    select: SECTION_SELECT,
    orderBy: [{ position: "asc" }, { name: "asc" }, { id: "asc" }],
  });
}

export type MenuItem = {
  id: number;
  title: string;
  "item-type": string;
  "section-id": number | null;
  "section-slug": string | null;
  "section-name": string | null;
  "tag-slug": string | null;
  url: string | null;
  "parent-id": number | null;
  rank: number;
  "menu-group-slug": string;
  data: Json;
};

/**
 * Menu items from a stored list (layout.menu, or a group of layout["menu-groups"]), or, when none
 * is stored, one item per section. Section items get the section's URL; items naming a deleted or
 * unknown section are dropped.
 */
export function menuItems(stored: unknown, sections: SectionRow[], siteUrl: string, groupSlug = "default"): MenuItem[] {
  const site = siteUrl.replace(/\/+$/, "");
  const bySlug = new Map(sections.map((s) => [s.slug, s]));
  const byId = new Map(sections.map((s) => [s.id, s]));
  if (!Array.isArray(stored)) {
    const ids = new Set(sections.map((s) => s.id));
    return sections.map((section, rank) => ({
      id: section.id,
      title: section.displayName || section.name,
      "item-type": "section",
      "section-id": section.id,
      "section-slug": section.slug,
      "section-name": section.name,
      "tag-slug": null,
      url: `${site}/${encodeURIComponent(section.slug)}`,
      "parent-id": section.parentId !== null && ids.has(section.parentId) ? section.parentId : null,
      rank,
      "menu-group-slug": groupSlug,
      data: {},
    }));
  }
  const items: MenuItem[] = [];
  stored.forEach((raw, index) => {
    if (!isObject(raw)) return;
    const type =
      str(raw["item-type"]) ??
      (raw["section-id"] !== undefined || raw["section-slug"] !== undefined ? "section" : "link");
    const id = typeof raw.id === "number" ? raw.id : index + 1;
    const base = {
      id,
      "item-type": type,
      "section-id": null as number | null,
      "section-slug": null as string | null,
      "section-name": null as string | null,
      "tag-slug": null as string | null,
      "parent-id": typeof raw["parent-id"] === "number" ? raw["parent-id"] : null,
      rank: typeof raw.rank === "number" ? raw.rank : index,
      "menu-group-slug": groupSlug,
      data: isObject(raw.data) ? raw.data : {},
    };
    if (type === "section") {
      const named = raw["section-id"] !== undefined || raw["section-slug"] !== undefined;
      const section = named
        ? ((typeof raw["section-id"] === "number" ? byId.get(raw["section-id"]) : undefined) ??
          bySlug.get(str(raw["section-slug"]) ?? ""))
        : bySlug.get(sectionSlugOfUrl(str(raw.url), site) ?? "");
      if (!section) {
        // A named section that is gone (or unknown) drops the item; a bare URL stays a link.
        const url = str(raw.url);
        if (!named && url)
          items.push({ ...base, title: str(raw.title) ?? "", url: url.startsWith("/") ? `${site}${url}` : url });
        return;
      }
      items.push({
        ...base,
        title: str(raw.title) ?? (section.displayName || section.name),
        "section-id": section.id,
        "section-slug": section.slug,
        "section-name": section.name,
        url: `${site}/${encodeURIComponent(section.slug)}`,
      });
    } else if (type === "tag") {
      const slug = str(raw["tag-slug"]);
      items.push({
        ...base,
        title: str(raw.title) ?? slug ?? "",
        "tag-slug": slug ?? null,
        url: str(raw.url) ?? (slug ? `${site}/topic/${encodeURIComponent(slug)}` : null),
      });
    } else {
      const url = str(raw.url) ?? (isObject(raw.data) ? str(raw.data.link) : undefined);
      items.push({
        ...base,
        title: str(raw.title) ?? "",
        url: url ? (url.startsWith("/") ? `${site}${url}` : url) : null,
      });
    }
  });
  return items.sort((a, b) => a.rank - b.rank);
}

/** "/politics", "politics/" or "<site>/politics" → "politics" (one path segment only). */
function sectionSlugOfUrl(url: string | undefined, site: string): string | undefined {
  if (!url) return undefined;
  const path = url.startsWith(site) ? url.slice(site.length) : url;
  const match = /^\/?([^/?#]+)\/?$/.exec(path);
  return match ? decodeURIComponentSafe(match[1]!) : undefined;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function domainsOf(layout: Json): Json[] {
  const stored = layout.domains;
  if (!Array.isArray(stored)) return [];
  return stored.filter((d): d is Json => isObject(d) && typeof d.slug === "string");
}

/** The "home" page SEO entry front ends require, then any stored per-page entries. */
function seoMetadata(seo: unknown, title: string, description: string): Json[] {
  const entries: Json[] = [];
  if (Array.isArray(seo)) entries.push(...seo.filter(isObject));
  else if (isObject(seo)) {
    for (const [ownerType, data] of Object.entries(seo)) {
      if (isObject(data)) entries.push({ "owner-type": ownerType, "owner-id": null, data });
    }
  }
  const home = entries.find((e) => e["owner-type"] === "home");
  const homeDefaults = { "page-title": title, title, description, keywords: "" };
  if (home) home.data = { ...homeDefaults, ...(isObject(home.data) ? home.data : {}) };
  else entries.unshift({ "owner-type": "home", "owner-id": null, data: homeDefaults });
  return entries;
}

type ConfigEnv = { nodeEnv: string; appUrl: string };

/** `cdn-image` as a URL: https, unless it is Masthead's own image server on a plain-http APP_URL. */
function cdnName(cdnImage: string, appUrl: string): string {
  const host = cdnImage.replace(/\/+$/, "");
  let scheme = "https:";
  try {
    const app = new URL(appUrl);
    if (host.split("/")[0] === app.host) scheme = app.protocol;
  } catch {
    // APP_URL is validated by env.js; keep https.
  }
  return `${scheme}//${host}/`;
}

/** GET /api/v1/config: everything front ends read about the publisher. */
export async function buildPublisherConfig(db: Db, publisher: Publisher, env: ConfigEnv): Promise<Json> {
  const sections = await loadSections(db, publisher.accountId);
  const settings = publisher.settings;
  const layout = publisher.layout;
  const theme = publisher.theme;

  const title = str(settings.title) ?? publisher.name;
  const description = str(settings.description) ?? "";
  const logoUrl =
    str(isObject(settings["publisher-logo"]) ? settings["publisher-logo"].url : undefined) ??
    str(theme.logo_url) ??
    str(theme.logo) ??
    null;
  const publisherSettings: Json = Object.fromEntries(
    Object.entries(settings).filter(
      ([key]) => !(LIFTED_SETTINGS as readonly string[]).includes(key) && !PRIVATE_SETTINGS.includes(key),
    ),
  );

  const layoutRest = Object.fromEntries(Object.entries(layout).filter(([key]) => !LAYOUT_OWN_KEYS.includes(key)));
  const updatedAt = publisher.updatedAt.getTime();

  return {
    "publisher-id": publisher.accountId,
    "publisher-name": publisher.name,
    "sketches-host": publisher.siteUrl,
    domain: publisher.domain,
    "cdn-image": publisher.cdnImage,
    "cdn-name": cdnName(publisher.cdnImage, env.appUrl),
    "image-cdn-format": str(settings["image-cdn-format"]) ?? "thumbor",
    "polltype-host": str(settings["polltype-host"]) ?? null,
    "story-slug-format": str(settings["story-slug-format"]) ?? "{{slug}}",
    env: str(settings.env) ?? (env.nodeEnv === "production" ? "production" : "development"),
    sections: sections.map((s) => sectionToWire(s, publisher.siteUrl)),
    domains: domainsOf(layout),
    layout: {
      ...layoutRest,
      menu: menuItems(layout.menu, sections, publisher.siteUrl),
      stacks: Array.isArray(layout.stacks) ? layout.stacks : [],
    },
    "publisher-settings": {
      ...publisherSettings,
      title,
      description,
      copyright: str(settings.copyright) ?? `© ${publisher.name}`,
      "publisher-logo": { ...(isObject(settings["publisher-logo"]) ? settings["publisher-logo"] : {}), url: logoUrl },
    },
    "seo-metadata": seoMetadata(publisher.seo, title, description),
    "theme-attributes": { ...theme, "cache-burst": theme["cache-burst"] ?? updatedAt },
    "social-links": publisher.socialLinks,
    language: {
      "iso-code": publisher.language.isoCode,
      "ietf-code": publisher.language.ietfCode,
      direction: publisher.language.direction,
    },
    "public-integrations": isObject(settings["public-integrations"]) ? settings["public-integrations"] : {},
    ...(isObject(settings.metype) ? { metype: settings.metype } : {}),
    ...(isObject(settings["publisher-attributes"]) ? { "publisher-attributes": settings["publisher-attributes"] } : {}),
    "updated-at": updatedAt,
  };
}

/** Objects merged key by key (stored over defaults); anything else, arrays too, replaced. */
export function deepMerge(base: Json, over: Json): Json {
  const out: Json = nullPrototypeRecord(Object.entries(base));
  for (const [key, value] of Object.entries(over)) {
    const under = ownValue(base, key);
    out[key] = isObject(value) && isObject(under) ? deepMerge(under, value) : value;
  }
  return out;
}

/** GET /api/v1/menu-groups: the default group (layout.menu, or the sections) and any stored groups. */
export async function buildMenuGroups(db: Db, publisher: Publisher): Promise<{ "menu-groups": Record<string, Json> }> {
  const sections = await loadSections(db, publisher.accountId);
  return { "menu-groups": menuGroupsOf(publisher, sections) };
}

function menuGroupsOf(publisher: Publisher, sections: SectionRow[]): Record<string, Json> {
  const layout = publisher.layout;
  const groups = nullPrototypeRecord<Json>();
  const stored = isObject(layout["menu-groups"]) ? layout["menu-groups"] : {};
  let nextId = 2;
  for (const [slug, group] of Object.entries(stored)) {
    if (slug === "default" || !isObject(group)) continue;
    groups[slug] = {
      id: typeof group.id === "number" ? group.id : nextId++,
      slug,
      name: str(group.name) ?? slug,
      items: menuItems(group.items ?? [], sections, publisher.siteUrl, slug),
    };
  }
  return {
    default: { id: 1, slug: "default", name: "Default", items: menuItems(layout.menu, sections, publisher.siteUrl) },
    ...groups,
  };
}

/**
 * GET /api/v1/amp/config: what @quintype/amp and the framework's AMP handler read. Defaults that
 * render a valid page (both fonts, colours from the theme, the menu), with the stored
 * PublisherConfig.ampConfig merged over them.
 */
export async function buildAmpConfig(db: Db, publisher: Publisher): Promise<Json> {
  const sections = await loadSections(db, publisher.accountId);
  const theme = publisher.theme;
  const settings = publisher.settings;
  const primary =
    str(theme["primary-color"]) ?? str(isObject(theme.colors) ? theme.colors.primary : undefined) ?? "#1a1a1a";
  const secondary =
    str(theme["secondary-color"]) ?? str(isObject(theme.colors) ? theme.colors.secondary : undefined) ?? "#ffffff";
  const logoUrl =
    str(theme.logo_url) ??
    str(theme.logo) ??
    str(isObject(settings["publisher-logo"]) ? settings["publisher-logo"].url : undefined) ??
    null;
  const defaults: Json = {
    fonts: DEFAULT_AMP_FONTS,
    colors: {
      primary,
      secondary,
      "header-background": primary,
      "footer-background": "#1a1a1a",
      "footer-text-color": "#ffffff",
      "section-text-color": primary,
    },
    "logo-url": logoUrl,
    menu: { enabled: true },
    "menu-groups": { default: menuGroupsOf(publisher, sections).default },
    "related-collection-id": null,
    "invalid-elements-strategy": "redirect-to-web-version",
  };
  const merged = deepMerge(defaults, publisher.ampConfig);
  // A stored font replaces the default one whole (its family with the default's stylesheet would
  // load a font nobody uses), and both must stay objects: the AMP renderer fails without them.
  const stored = isObject(publisher.ampConfig.fonts) ? publisher.ampConfig.fonts : {};
  merged.fonts = {
    ...(isObject(merged.fonts) ? merged.fonts : {}),
    primary: isObject(stored.primary) ? stored.primary : DEFAULT_AMP_FONTS.primary,
    secondary: isObject(stored.secondary) ? stored.secondary : DEFAULT_AMP_FONTS.secondary,
  };
  return merged;
}
