/**
 * The publication's settings, as the Settings page edits them (owners): the name, the site's public
 * URL and the other domains of the publication, the image CDN host, the external image hosts, the logo, the menu, the SEO
 * defaults and the language. They are what `GET /api/v1/config` serves (config-view.ts), stored in
 * the Account and its PublisherConfig row; keys the page does not edit (theme, social links, AMP,
 * other settings and layout keys) are kept as they are.
 *
 * A save that changes something, in one transaction:
 *   - the Account and PublisherConfig rows;
 *   - an audit entry "settings.update" with the names of the fields that changed;
 *   - the CONTENT webhook event "config-update" {changed, "changed-by", "purge-keys", "purge-all",
 *     "updated-at"}: "purge-keys" is ["config"] (config, AMP config and menu groups carry it);
 *     "purge-all" is true when the name, site URL or CDN host changed, which every story, list
 *     and feed answer embeds (story URLs, section URLs), so a CDN should drop everything.
 * After the commit this process forgets its cached publisher (others within 5 s, publisher.ts).
 * A save that changes nothing writes nothing.
 */
import "server-only";

import { recordAudit } from "../audit/audit-log";
import type { StaffActor } from "../auth/actor";
import { changedBy } from "../auth/changed-by";
import { hasAnyRole } from "../auth/roles";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { emitWebhookEvent } from "../webhooks/deliveries";
import { EXTERNAL_IMAGE_HOSTS_SETTING } from "./editorial/image-refs";
import {
  ZPublisherSettingsInput,
  type TPublisherSettings,
  type TPublisherSettingsInput,
  type TPublisherSettingsView,
} from "./settings.schema";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  Boolean(value) && typeof value === "object" && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === "string" ? value : "");

/** Changes to these alter every story, list and feed answer (URLs, names): purge everything. */
const PURGE_ALL_FIELDS = ["name", "siteUrl", "cdnImage"];

type Stored = {
  account: { name: string; timeZone: string };
  config: {
    siteUrl: string;
    siteDomains: string[];
    cdnImage: string;
    languageIsoCode: string;
    languageIetfCode: string;
    languageDirection: string;
    settings: unknown;
    seo: unknown;
    layout: unknown;
    updatedAt: Date;
  } | null;
  sections: { id: number; slug: string }[];
};

async function load(db: Db, accountId: number): Promise<Stored> {
  const account = await db.account.findUnique({
    where: { id: accountId },
    select: {
      name: true,
      timeZone: true,
      publisherConfig: {
        select: {
          siteUrl: true,
          siteDomains: true,
          cdnImage: true,
          languageIsoCode: true,
          languageIetfCode: true,
          languageDirection: true,
          settings: true,
          seo: true,
          layout: true,
          updatedAt: true,
        },
      },
    },
  });
  if (!account) throw new AppError("NOT_FOUND", "Account not found.");
  const sections = await db.section.findMany({
    where: { accountId, deletedAt: null },
    select: { id: true, slug: true },
  });
  return { account: { name: account.name, timeZone: account.timeZone }, config: account.publisherConfig, sections };
}

/** The `home` SEO entry's data, wherever the stored SEO keeps it (an array of entries or an object by owner type). */
function homeSeo(seo: unknown): Json {
  if (Array.isArray(seo)) {
    const home = seo.find((e): e is Json => isObject(e) && e["owner-type"] === "home");
    return home && isObject(home.data) ? home.data : {};
  }
  return isObject(seo) && isObject(seo.home) ? seo.home : {};
}

/** The stored menu as the form edits it; items it cannot name (an unknown section) are left out. */
function menuOf(layout: unknown, sections: Stored["sections"]): TPublisherSettings["menu"] {
  if (!isObject(layout) || !Array.isArray(layout.menu)) return null;
  const bySlug = new Map(sections.map((s) => [s.slug, s.id]));
  const items: NonNullable<TPublisherSettings["menu"]> = [];
  for (const raw of layout.menu) {
    if (!isObject(raw)) continue;
    const title = str(raw.title);
    const type = str(raw["item-type"]) || (raw["section-id"] !== undefined || raw["section-slug"] ? "section" : "link");
    if (type === "section") {
      const id = typeof raw["section-id"] === "number" ? raw["section-id"] : bySlug.get(str(raw["section-slug"]));
      if (id !== undefined) items.push({ title, type: "section", sectionId: id });
      else if (str(raw.url)) items.push({ title, type: "link", url: str(raw.url) });
    } else if (type === "tag") {
      if (str(raw["tag-slug"])) items.push({ title, type: "tag", tagSlug: str(raw["tag-slug"]) });
    } else {
      const url = str(raw.url) || (isObject(raw.data) ? str(raw.data.link) : "");
      if (url) items.push({ title, type: "link", url });
    }
  }
  return items;
}

function currentSettings(stored: Stored): TPublisherSettings {
  const { config } = stored;
  const settings = isObject(config?.settings) ? config.settings : {};
  const logo = isObject(settings["publisher-logo"]) ? settings["publisher-logo"] : {};
  const home = homeSeo(config?.seo);
  const keywords = home.keywords;
  return {
    name: stored.account.name,
    timeZone: stored.account.timeZone,
    siteUrl: config?.siteUrl ?? "",
    siteDomains: config?.siteDomains ?? [],
    cdnImage: config?.cdnImage ?? "",
    externalImageHosts: imageHostsOf(settings),
    logoUrl: str(logo.url),
    seo: {
      title: str(home.title) || str(home["page-title"]),
      description: str(home.description),
      keywords: Array.isArray(keywords) ? keywords.filter((k) => typeof k === "string").join(", ") : str(keywords),
    },
    language: {
      isoCode: config?.languageIsoCode ?? "en",
      ietfCode: config?.languageIetfCode ?? "en-US",
      direction: config?.languageDirection === "rtl" ? "rtl" : "ltr",
    },
    menu: menuOf(config?.layout, stored.sections),
  };
}

function toView(stored: Stored, env: { appUrl: string }): TPublisherSettingsView {
  const settings = currentSettings(stored);
  const appUrl = env.appUrl.replace(/\/+$/, "");
  return {
    settings,
    siteUrlSet: Boolean(settings.siteUrl) && originOf(settings.siteUrl) !== originOf(appUrl),
    appUrl,
    defaultCdnImage: `${new URL(appUrl).host}/images`,
    updatedAt: stored.config?.updatedAt ?? null,
  };
}

function assertOwner(actor: StaffActor): void {
  if (!hasAnyRole(actor.roles, ["OWNER"])) throw new AppError("FORBIDDEN", "Only an owner can change the settings.");
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The Settings page's values (owners only). */
/**
 * The CONTENT webhook event "config-update" of a settings save: which fields changed and who
 * changed them; "purge-keys" ["config"], and "purge-all" when every kept answer embeds a changed
 * field (a CDN in front should drop everything).
 */
export async function emitConfigUpdate(
  tx: Db,
  args: { actor: StaffActor; changed: readonly string[]; purgeAll: boolean; now: Date },
): Promise<void> {
  await emitWebhookEvent(tx, {
    accountId: args.actor.accountId,
    kind: "CONTENT",
    name: "config-update",
    data: {
      changed: [...args.changed],
      "changed-by": await changedBy(tx, args.actor),
      "purge-keys": ["config"],
      "purge-all": args.purgeAll,
      "updated-at": args.now.getTime(),
    },
    occurredAt: args.now,
  });
}

export async function getPublisherSettings(
  db: Db,
  args: { actor: StaffActor; appUrl: string },
): Promise<TPublisherSettingsView> {
  assertOwner(args.actor);
  return toView(await load(db, args.actor.accountId), args);
}

/** Save the Settings page (owners only); see the header for what a change records. */
export async function updatePublisherSettings(
  db: Db,
  args: { actor: StaffActor; input: TPublisherSettingsInput; appUrl: string; now?: Date; ip?: string | null },
): Promise<{ changed: string[]; view: TPublisherSettingsView }> {
  const input = ZPublisherSettingsInput.parse(args.input);
  const { actor } = args;
  assertOwner(actor);
  const now = args.now ?? new Date();
  const siteHost = input.siteUrl ? new URL(input.siteUrl).hostname.toLowerCase() : null;
  const next: TPublisherSettings = {
    ...input,
    siteDomains: [...new Set(input.siteDomains)].filter((host) => host !== siteHost),
    externalImageHosts: [...new Set(input.externalImageHosts)],
    // Only the key of each item's type is kept (a form may send the others empty).
    menu:
      input.menu?.map(({ title, type, sectionId, tagSlug, url }) =>
        type === "section"
          ? { title, type, sectionId }
          : type === "tag"
            ? { title, type, tagSlug }
            : { title, type, url },
      ) ?? null,
  };

  return withTransaction(db, async (tx) => {
    const stored = await load(tx, actor.accountId);
    const knownSections = new Set(stored.sections.map((s) => s.id));
    const unknown = (next.menu ?? []).flatMap((item, index) =>
      item.type === "section" && item.sectionId !== undefined && !knownSections.has(item.sectionId)
        ? [{ field: `menu.${index}.sectionId`, issue: "is not a section of this publication" }]
        : [],
    );
    if (unknown.length)
      throw new AppError("UNPROCESSABLE", "A menu item names a section that does not exist.", { details: unknown });

    const before = currentSettings(stored);
    const changed = (Object.keys(next) as (keyof TPublisherSettings)[]).filter(
      (key) => JSON.stringify(before[key]) !== JSON.stringify(next[key]),
    );
    if (changed.length === 0) return { changed, view: toView(stored, args) };

    if (changed.includes("name") || changed.includes("timeZone"))
      await tx.account.update({
        where: { id: actor.accountId },
        data: { name: next.name, timeZone: next.timeZone },
        select: { id: true },
      });
    const data = {
      siteUrl: next.siteUrl,
      siteDomains: next.siteDomains,
      cdnImage: next.cdnImage,
      languageIsoCode: next.language.isoCode,
      languageIetfCode: next.language.ietfCode,
      languageDirection: next.language.direction,
      settings: withImageHosts(
        withLogo(stored.config?.settings, next.logoUrl),
        next.externalImageHosts,
      ) as Prisma.InputJsonObject,
      seo: withHomeSeo(stored.config?.seo, next.seo) as Prisma.InputJsonValue,
      layout: withMenu(stored.config?.layout, next.menu) as Prisma.InputJsonObject,
      updatedAt: now,
    };
    await tx.publisherConfig.upsert({
      where: { accountId: actor.accountId },
      create: { accountId: actor.accountId, ...data },
      update: data,
      select: { accountId: true },
    });
    await recordAudit(tx, {
      actor,
      action: "settings.update",
      targetType: "publisher_config",
      targetId: actor.accountId,
      metadata: {
        changed,
        ...(changed.includes("siteUrl") ? { siteUrl: { from: before.siteUrl, to: next.siteUrl } } : {}),
        ...(changed.includes("externalImageHosts")
          ? { externalImageHosts: { from: before.externalImageHosts, to: next.externalImageHosts } }
          : {}),
      },
      ip: args.ip,
      now,
    });
    const purgeAll = changed.some((field) => PURGE_ALL_FIELDS.includes(field));
    await emitConfigUpdate(tx, { actor, changed, purgeAll, now });
    return { changed, view: toView(await load(tx, actor.accountId), args) };
  });
}

/** The external image hosts the stored settings hold (strings only). */
function imageHostsOf(settings: Json): string[] {
  const hosts = settings[EXTERNAL_IMAGE_HOSTS_SETTING];
  return Array.isArray(hosts) ? hosts.filter((host): host is string => typeof host === "string") : [];
}

/** The stored settings with the external image hosts set (or removed when none), other keys kept. */
function withImageHosts(settings: Json, hosts: string[]): Json {
  const out = { ...settings };
  if (hosts.length) out[EXTERNAL_IMAGE_HOSTS_SETTING] = hosts;
  else delete out[EXTERNAL_IMAGE_HOSTS_SETTING];
  return out;
}

/** The stored settings with the logo URL set (or removed), other keys kept. */
function withLogo(stored: unknown, logoUrl: string): Json {
  const settings = isObject(stored) ? { ...stored } : {};
  const logo = isObject(settings["publisher-logo"]) ? { ...settings["publisher-logo"] } : {};
  if (logoUrl) logo.url = logoUrl;
  else delete logo.url;
  if (Object.keys(logo).length) settings["publisher-logo"] = logo;
  else delete settings["publisher-logo"];
  return settings;
}

/** The stored SEO with the `home` entry's title, description and keywords set; empty ones removed so defaults apply. */
function withHomeSeo(stored: unknown, seo: TPublisherSettings["seo"]): unknown {
  const apply = (data: Json): Json => {
    const out: Json = { ...data };
    for (const [key, value] of [
      ["title", seo.title],
      ["page-title", seo.title],
      ["description", seo.description],
      ["keywords", seo.keywords],
    ] as const) {
      if (value) out[key] = value;
      else delete out[key];
    }
    return out;
  };
  if (Array.isArray(stored)) {
    const entries = stored.filter(isObject).map((e) => ({ ...e }));
    const home = entries.find((e) => e["owner-type"] === "home");
    if (home) home.data = apply(isObject(home.data) ? home.data : {});
    else entries.unshift({ "owner-type": "home", "owner-id": null, data: apply({}) });
    return entries;
  }
  const object = isObject(stored) ? { ...stored } : {};
  object.home = apply(isObject(object.home) ? object.home : {});
  return object;
}

/** The stored layout with the menu replaced (or removed: the sections are the menu). */
function withMenu(stored: unknown, menu: TPublisherSettings["menu"]): Json {
  const layout = isObject(stored) ? { ...stored } : {};
  if (menu === null) {
    delete layout.menu;
    return layout;
  }
  layout.menu = menu.map((item, rank) => ({
    title: item.title,
    "item-type": item.type,
    rank,
    ...(item.type === "section" ? { "section-id": item.sectionId } : {}),
    ...(item.type === "tag" ? { "tag-slug": item.tagSlug } : {}),
    ...(item.type === "link" ? { url: item.url } : {}),
  }));
  return layout;
}
