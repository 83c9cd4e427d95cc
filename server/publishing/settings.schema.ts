/**
 * The Settings page (owners): what `GET /api/v1/config` serves that the dashboard edits. zod only,
 * so the form imports it. The service is server/publishing/settings.ts.
 */
import { z } from "zod";

import { isSlug } from "../text/slug";
import { zWebUrl } from "../web-url";

/** A host name, lower case, no scheme, port or path: "news.example.com", "localhost". */
const HOST = /^(?=.{1,253}$)(?:localhost|(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9])$/;

const ZHost = z.string().trim().toLowerCase().regex(HOST, "is not a host name (like news.example.com)");

/** An external image host: a host name, or "*.example.org" for its subdomains; a pasted https:// and path dropped. */
const ZImageHost = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/^https?:\/\//, "").replace(/\/.*$/, ""))
  .pipe(
    z
      .string()
      .refine(
        (host) => HOST.test(host.startsWith("*.") ? host.slice(2) : host) && host !== "*.localhost",
        "is not a host name (like images.example.com, or *.example.com for its subdomains)",
      ),
  );

/** The site's public URL: http(s), no query or fragment, kept without a trailing slash. */
/** An IANA time zone this runtime knows ("Europe/Madrid", "UTC"). */
export const ZTimeZone = z
  .string()
  .trim()
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, "is not a time zone (Europe/Madrid, America/New_York, UTC …)");

const ZSiteUrl = zWebUrl({ maxLength: 500 })
  .refine((href) => {
    const url = new URL(href);
    return !url.search && !url.hash;
  }, "must not have a query (?…) or a fragment (#…)")
  .transform((href) => href.replace(/\/+$/, ""));

/**
 * The image CDN host (config `cdn-image`): a host and optional path, no scheme; a pasted
 * `https://` and trailing slashes are dropped. Empty: Masthead serves the images itself.
 */
const ZCdnHost = z
  .string()
  .trim()
  .transform((value) => value.replace(/^https?:\/\//i, "").replace(/\/+$/, ""))
  .pipe(
    z
      .string()
      .max(300, "must be at most 300 characters")
      .regex(
        /^$|^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?(?:\/[A-Za-z0-9._~%-]+)*$/,
        "is not a host (like images.example.com or cdn.example.com/images)",
      ),
  );

const MENU_ITEM_TYPES = ["section", "tag", "link"] as const;

/**
 * One menu item, stored in layout.menu as the config's menu reads it (docs/publishing.md, Menus):
 * a section by id, a tag by slug, or a link (absolute http(s) URL or a path on the site).
 */
const ZMenuItemInput = z
  .object({
    title: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
    type: z.enum(MENU_ITEM_TYPES),
    sectionId: z.number().int().positive().max(2_147_483_647).optional(),
    tagSlug: z
      .string()
      .trim()
      .toLowerCase()
      .normalize("NFC")
      .max(100)
      .refine((slug) => isSlug(slug), "is not a tag slug")
      .optional(),
    url: z.string().trim().max(2_000).optional(),
  })
  .superRefine((item, ctx) => {
    if (item.type === "section" && item.sectionId === undefined)
      ctx.addIssue({ code: "custom", path: ["sectionId"], message: "choose a section" });
    if (item.type === "tag" && !item.tagSlug)
      ctx.addIssue({ code: "custom", path: ["tagSlug"], message: "give the tag's slug" });
    if (item.type === "link") {
      const url = item.url ?? "";
      const isPath = /^\/(?!\/)[^\s\\]*$/.test(url) && url.length <= 500;
      if (!isPath && !zWebUrl().safeParse(url).success)
        ctx.addIssue({
          code: "custom",
          path: ["url"],
          message: "must be a path on the site (/about) or an http(s) URL",
        });
    }
  });

export const ZPublisherSettingsInput = z.object({
  /** The publication's name (config publisher-name). */
  name: z.string().trim().min(1, "is required").max(200, "must be at most 200 characters"),
  /** Empty: none set (Masthead's own address, APP_URL, stands in for it). */
  siteUrl: z.union([z.literal(""), ZSiteUrl]).default(""),
  /** Other hosts of the publication (www., m. …); duplicates and the site URL's own host dropped. */
  siteDomains: z.array(ZHost).max(20, "at most 20 domains").default([]),
  cdnImage: ZCdnHost.default(""),
  /**
   * Hosts whose image URLs stories, collections and imports may use (settings "external-image-hosts",
   * server/publishing/editorial/image-refs.ts); duplicates dropped.
   */
  externalImageHosts: z.array(ZImageHost).max(100, "at most 100 image hosts").default([]),
  /** Empty: none (the theme's logo, if any). */
  logoUrl: z.union([z.literal(""), zWebUrl({ maxLength: 2_000 })]).default(""),
  seo: z
    .object({
      title: z.string().trim().max(200, "must be at most 200 characters").default(""),
      description: z.string().trim().max(500, "must be at most 500 characters").default(""),
      keywords: z.string().trim().max(500, "must be at most 500 characters").default(""),
    })
    .prefault({}),
  language: z
    .object({
      isoCode: z
        .string()
        .trim()
        .toLowerCase()
        .regex(/^[a-z]{2,3}$/, "is not a language code (en, fr, hi …)"),
      ietfCode: z
        .string()
        .trim()
        .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, "is not a language tag (en-US, fr-FR …)"),
      direction: z.enum(["ltr", "rtl"]),
    })
    .prefault({ isoCode: "en", ietfCode: "en-US", direction: "ltr" }),
  /** null: the sections are the menu (the default). A list: exactly this menu. */
  menu: z.array(ZMenuItemInput).max(100, "at most 100 menu items").nullable().default(null),
  /** The zone the dashboard shows times in, for every staff member of the account. */
  timeZone: ZTimeZone.default("UTC"),
});
export type TPublisherSettingsInput = z.input<typeof ZPublisherSettingsInput>;
export type TPublisherSettings = z.output<typeof ZPublisherSettingsInput>;

/** What the page loads: the stored values, and what applies while something is not set. */
export const ZPublisherSettingsView = z.object({
  settings: z.object({
    name: z.string(),
    timeZone: z.string(),
    siteUrl: z.string(),
    siteDomains: z.array(z.string()),
    cdnImage: z.string(),
    externalImageHosts: z.array(z.string()),
    logoUrl: z.string(),
    seo: z.object({ title: z.string(), description: z.string(), keywords: z.string() }),
    language: z.object({ isoCode: z.string(), ietfCode: z.string(), direction: z.enum(["ltr", "rtl"]) }),
    menu: z
      .array(
        z.object({
          title: z.string(),
          type: z.enum(MENU_ITEM_TYPES),
          sectionId: z.number().int().optional(),
          tagSlug: z.string().optional(),
          url: z.string().optional(),
        }),
      )
      .nullable(),
  }),
  /** False while the site URL is unset or Masthead's own: story and reset links then lead nowhere. */
  siteUrlSet: z.boolean(),
  /** Masthead's own address (APP_URL): the site URL used while none is set. */
  appUrl: z.string(),
  /** The image host used while cdnImage is empty. */
  defaultCdnImage: z.string(),
  updatedAt: z.date().nullable(),
});
export type TPublisherSettingsView = z.infer<typeof ZPublisherSettingsView>;

export const ZUpdatePublisherSettingsResult = z.object({
  /** Names of the fields that changed (empty: nothing to save, nothing recorded). */
  changed: z.array(z.string()),
  view: ZPublisherSettingsView,
});
