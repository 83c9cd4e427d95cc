import { beforeEach, describe, expect, it } from "vitest";

import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import type { MenuItem } from "@/server/publishing/config-view";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { createTestPublisher, insertSection } from "@/server/testing/publishing-factories";

import { GET as getAmpConfig } from "../amp/config/route";
import { GET as getMenuGroups } from "../menu-groups/route";
import { GET as getConfig, POST as postConfig } from "./route";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const call = (handler: Handler, path: string, headers: Record<string, string> = {}) =>
  handler(new Request(`http://localhost${path}`, { headers: { host: "localhost", ...headers } }), {
    params: Promise.resolve({}),
  });
type Json = Record<string, unknown>;
type Config = Json & {
  sections: (Json & { id: number; slug: string })[];
  layout: Json & { menu: MenuItem[]; stacks: unknown[] };
  domains: Json[];
  "publisher-settings": Json & { "publisher-logo": Json };
  "seo-metadata": (Json & { data: Json })[];
  "theme-attributes": Json;
};
type MenuGroups = { "menu-groups": Record<string, Json & { items: MenuItem[] }> };
type AmpConfig = Json & {
  fonts: Record<string, Json>;
  colors: Json;
  menu: Json;
  "menu-groups": MenuGroups["menu-groups"];
};

beforeEach(() => forgetPublisherCache());

async function setup() {
  const db = await getDb();
  const publisher = await createTestPublisher(db, { name: "The Test Gazette" });
  const world = await insertSection(db, publisher.id, { name: "World", slug: "world", withCollection: true });
  const europe = await insertSection(db, publisher.id, { name: "Europe", slug: "europe", parentId: world.id });
  const sport = await insertSection(db, publisher.id, { name: "Sport", slug: "sport" });
  await db.section.update({ where: { id: world.id }, data: { position: 0 } });
  await db.section.update({ where: { id: europe.id }, data: { position: 1, displayName: "Europe news" } });
  await db.section.update({ where: { id: sport.id }, data: { position: 2 } });
  const gone = await insertSection(db, publisher.id, { name: "Gone", slug: "gone" });
  await db.section.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
  await createTestPublisher(db, { domain: "other.test", name: "Other Paper" });
  return { db, publisher, world, europe, sport, gone };
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("GET /api/v1/config", () => {
  it("describes the publisher with defaults for everything not configured", async () => {
    const { publisher, world, europe, sport } = await setup();
    const res = await call(getConfig, "/api/v1/config");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-tag")).toBe("config");
    const config = (await res.json()) as Config;
    expect(config).toMatchObject({
      "publisher-id": publisher.id,
      "publisher-name": "The Test Gazette",
      "sketches-host": "https://news.example.com",
      domain: "localhost",
      "cdn-image": "images.example.com",
      "cdn-name": "https://images.example.com/",
      "image-cdn-format": "thumbor",
      "polltype-host": null,
      "story-slug-format": "{{slug}}",
      env: "development",
      domains: [],
      "publisher-settings": {
        title: "The Test Gazette",
        description: "",
        copyright: "© The Test Gazette",
        "publisher-logo": { url: null },
      },
      "social-links": {},
      language: { "iso-code": "en", "ietf-code": "en-US", direction: "ltr" },
      "public-integrations": {},
    });
    expect(config.sections.map((s) => s.slug)).toEqual(["world", "europe", "sport"]);
    expect(config.sections[0]).toEqual({
      id: world.id,
      name: "World",
      "display-name": "World",
      slug: "world",
      "parent-id": null,
      "domain-slug": null,
      "section-url": "https://news.example.com/world",
      collection: { id: world.collectionId, slug: "section-world", name: "World" },
    });
    expect(config.sections[1]).toMatchObject({ id: europe.id, "parent-id": world.id, collection: null });
    expect(config.layout.stacks).toEqual([]);
    expect(config.layout.menu.map((m) => [m.id, m.title, m["item-type"], m.url, m["parent-id"]])).toEqual([
      [world.id, "World", "section", "https://news.example.com/world", null],
      [europe.id, "Europe news", "section", "https://news.example.com/europe", world.id],
      [sport.id, "Sport", "section", "https://news.example.com/sport", null],
    ]);
    expect(config["seo-metadata"]).toEqual([
      {
        "owner-type": "home",
        "owner-id": null,
        data: { "page-title": "The Test Gazette", title: "The Test Gazette", description: "", keywords: "" },
      },
    ]);
    expect(typeof config["theme-attributes"]["cache-burst"]).toBe("number");
  });

  it("serves images from Masthead itself when no CDN is configured, with APP_URL's scheme", async () => {
    const { db, publisher } = await setup();
    await db.publisherConfig.update({ where: { accountId: publisher.id }, data: { cdnImage: "" } });
    const config = (await (await call(getConfig, "/api/v1/config")).json()) as Config;
    const app = new URL(getEnv().APP_URL);
    expect(config["cdn-image"]).toBe(`${app.host}/images`);
    expect(config["cdn-name"]).toBe(`${app.protocol}//${app.host}/images/`);
  });

  it("serves what the dashboard stored: settings, lifted keys, menu, stacks, domains, SEO, theme", async () => {
    const { db, publisher, world, sport } = await setup();
    await db.publisherConfig.update({
      where: { accountId: publisher.id },
      data: {
        languageIsoCode: "ar",
        languageIetfCode: "ar-EG",
        languageDirection: "rtl",
        settings: {
          title: "Gazette Online",
          description: "News that matters",
          copyright: "© 2026 Gazette Ltd",
          "publisher-logo": { url: "https://cdn.example.com/logo.png", width: 200 },
          "image-cdn-format": "gumlet",
          "polltype-host": "https://polls.example.com",
          "public-integrations": { "one-signal": { "app-id": "abc" } },
          env: "staging",
        },
        seo: { home: { title: "Home title" }, section: { description: "Sections" } },
        theme: { logo: "https://cdn.example.com/logo.svg", "cache-burst": 7 },
        socialLinks: { "twitter-url": "https://twitter.com/gazette" },
        layout: {
          menu: [
            { title: "Top stories", "item-type": "link", url: "/top" },
            { title: "Sport!", "item-type": "section", "section-slug": "sport" },
            { "item-type": "section", "section-id": world.id, rank: -1 },
            { title: "Ghost", "item-type": "section", "section-slug": "gone" },
            { title: "Elections", "item-type": "tag", "tag-slug": "elections" },
          ],
          stacks: [{ heading: "Latest", "collection-id": 3 }],
          domains: [
            { slug: "sports", name: "Sports", "host-url": "https://sports.example.com", "home-collection-id": 9 },
            { name: "no slug" },
          ],
          "no-of-visible-cards-in-a-blocked-story": 2,
        },
      },
    });
    const config = (await (await call(getConfig, "/api/v1/config")).json()) as Config;
    expect(config).toMatchObject({
      "image-cdn-format": "gumlet",
      "polltype-host": "https://polls.example.com",
      env: "staging",
      "public-integrations": { "one-signal": { "app-id": "abc" } },
      "publisher-settings": {
        title: "Gazette Online",
        description: "News that matters",
        copyright: "© 2026 Gazette Ltd",
        "publisher-logo": { url: "https://cdn.example.com/logo.png", width: 200 },
      },
      "theme-attributes": { logo: "https://cdn.example.com/logo.svg", "cache-burst": 7 },
      "social-links": { "twitter-url": "https://twitter.com/gazette" },
      language: { "iso-code": "ar", "ietf-code": "ar-EG", direction: "rtl" },
      domains: [{ slug: "sports", name: "Sports", "host-url": "https://sports.example.com", "home-collection-id": 9 }],
      layout: { stacks: [{ heading: "Latest", "collection-id": 3 }], "no-of-visible-cards-in-a-blocked-story": 2 },
    });
    expect(config["publisher-settings"]).not.toHaveProperty("image-cdn-format");
    expect(config.layout).not.toHaveProperty("domains");
    expect(config.layout.menu.map((m) => [m.title, m["item-type"], m.url, m["section-id"]])).toEqual([
      ["World", "section", "https://news.example.com/world", world.id],
      ["Top stories", "link", "https://news.example.com/top", null],
      ["Sport!", "section", "https://news.example.com/sport", sport.id],
      ["Elections", "tag", "https://news.example.com/topic/elections", null],
    ]);
    expect(config["seo-metadata"]).toEqual([
      {
        "owner-type": "home",
        "owner-id": null,
        data: { "page-title": "Gazette Online", title: "Home title", description: "News that matters", keywords: "" },
      },
      { "owner-type": "section", "owner-id": null, data: { description: "Sections" } },
    ]);
  });

  it("answers 304 to a matching If-None-Match, and a new ETag once something changes", async () => {
    const { db, publisher } = await setup();
    const first = await call(getConfig, "/api/v1/config");
    const etag = first.headers.get("etag")!;
    expect(first.headers.get("cache-control")).toContain("s-maxage=");
    const again = await call(getConfig, "/api/v1/config", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");

    await insertSection(db, publisher.id, { name: "Opinion", slug: "opinion" });
    const changed = await call(getConfig, "/api/v1/config", { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("serves each host its own publisher; 404 when no publisher matches; 405 for writes", async () => {
    await setup();
    const other = (await (await call(getConfig, "/api/v1/config", { host: "other.test" })).json()) as Config;
    expect(other["publisher-name"]).toBe("Other Paper");
    expect(other.sections).toEqual([]);
    expect((await call(getConfig, "/api/v1/config", { host: "unknown.test" })).status).toBe(404);
    expect(
      (
        await postConfig(new Request("http://localhost/api/v1/config", { method: "POST" }), {
          params: Promise.resolve({}),
        })
      ).status,
    ).toBe(405);
  });
});

describe("GET /api/v1/menu-groups", () => {
  it("answers the default group from the sections, plus stored groups", async () => {
    const { db, publisher, world, sport } = await setup();
    const derived = (await (await call(getMenuGroups, "/api/v1/menu-groups")).json()) as MenuGroups;
    expect(Object.keys(derived["menu-groups"])).toEqual(["default"]);
    expect(derived["menu-groups"].default).toMatchObject({ id: 1, slug: "default", name: "Default" });
    expect(derived["menu-groups"].default!.items).toHaveLength(3);

    await db.publisherConfig.update({
      where: { accountId: publisher.id },
      data: {
        layout: {
          menu: [{ "item-type": "section", "section-id": sport.id }],
          "menu-groups": { footer: { name: "Footer", items: [{ title: "World", "section-slug": "world" }] } },
        },
      },
    });
    forgetPublisherCache();
    const stored = (await (await call(getMenuGroups, "/api/v1/menu-groups")).json()) as MenuGroups;
    expect(stored["menu-groups"].default!.items.map((i) => i["section-id"])).toEqual([sport.id]);
    expect(stored["menu-groups"].footer).toMatchObject({ slug: "footer", name: "Footer" });
    expect(stored["menu-groups"].footer!.items[0]).toMatchObject({
      "section-id": world.id,
      url: "https://news.example.com/world",
      "menu-group-slug": "footer",
    });
  });
});

describe("GET /api/v1/amp/config", () => {
  it("has both fonts, colours, logo, menu and the strategy by default", async () => {
    await setup();
    const res = await call(getAmpConfig, "/api/v1/amp/config");
    expect(res.status).toBe(200);
    const amp = (await res.json()) as AmpConfig;
    for (const font of ["primary", "secondary"]) {
      expect(amp.fonts[font]).toEqual({
        family: expect.any(String) as string,
        url: expect.stringMatching(/^https:\/\//) as string,
      });
    }
    expect(amp).toMatchObject({
      colors: {
        primary: "#1a1a1a",
        secondary: "#ffffff",
        "header-background": "#1a1a1a",
        "footer-background": "#1a1a1a",
        "footer-text-color": "#ffffff",
        "section-text-color": "#1a1a1a",
      },
      "logo-url": null,
      menu: { enabled: true },
      "related-collection-id": null,
      "invalid-elements-strategy": "redirect-to-web-version",
    });
    expect(amp["menu-groups"].default!.items).toHaveLength(3);
  });

  it("merges the stored AMP config over the defaults, and keeps both fonts objects whatever is stored", async () => {
    const { db, publisher } = await setup();
    await db.publisherConfig.update({
      where: { accountId: publisher.id },
      data: {
        theme: { "primary-color": "#aa0000", logo_url: "https://cdn.example.com/amp-logo.png" },
        ampConfig: {
          colors: { "footer-background": "#000000" },
          fonts: { primary: { family: "Lora", url: "https://fonts.example.com/lora.css" }, secondary: "broken" },
          menu: { enabled: false },
          "related-collection-id": "amp-related",
          "google-analytics-tracking-id": "UA-1",
        },
      },
    });
    const amp = (await (await call(getAmpConfig, "/api/v1/amp/config")).json()) as AmpConfig;
    expect(amp).toMatchObject({
      colors: {
        primary: "#aa0000",
        "header-background": "#aa0000",
        "footer-background": "#000000",
        "footer-text-color": "#ffffff",
      },
      fonts: {
        primary: { family: "Lora", url: "https://fonts.example.com/lora.css" },
        secondary: { family: expect.stringContaining("Merriweather") as string },
      },
      "logo-url": "https://cdn.example.com/amp-logo.png",
      menu: { enabled: false },
      "related-collection-id": "amp-related",
      "google-analytics-tracking-id": "UA-1",
      "invalid-elements-strategy": "redirect-to-web-version",
    });

    // A stored font replaces the default whole: a system font needs no stylesheet.
    await db.publisherConfig.update({
      where: { accountId: publisher.id },
      data: { ampConfig: { fonts: { primary: { family: "Georgia, serif" } } } },
    });
    forgetPublisherCache();
    const system = (await (await call(getAmpConfig, "/api/v1/amp/config")).json()) as AmpConfig;
    expect(system.fonts.primary).toEqual({ family: "Georgia, serif" });
    expect(system.fonts.secondary).toMatchObject({ url: expect.stringMatching(/^https:\/\//) as string });
  });
});
