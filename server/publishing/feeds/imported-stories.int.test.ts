/**
 * The feeds of imported stories, on PGlite and PostgreSQL: stories made by the WordPress (WXR),
 * Ghost and content-API imports keep their images at their old hosts' absolute URLs, and RSS,
 * instant articles and AMP show those URLs as they are (never under the image CDN's host); a
 * story for members or subscribers carries its free part only.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { systemActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { contentApiOpener } from "@/server/imports/content/content-api";
import { contentSource } from "@/server/imports/content/source";
import { runImport } from "@/server/imports/runner";
import { contentImportAccount, FIXTURES, importFixture } from "@/server/testing/imports";

import type { TCard, TStoryElement } from "../cards.schema";
import { buildAmpStory } from "./amp";
import { buildInstantArticlesFeed } from "./instant-articles";
import { buildStoriesRss } from "./rss";

const APP_URL = "http://localhost:3000";
const SITE = JSON.parse(fs.readFileSync(path.join(FIXTURES, "content-api-site.json"), "utf8")) as {
  stories: unknown[];
  config: unknown;
};

let server: http.Server;
let base = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    res.writeHead(url.pathname.startsWith("/site/api/v1/") ? 200 : 404, { "content-type": "application/json" });
    if (url.pathname === "/site/api/v1/stories") {
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const limit = Number(url.searchParams.get("limit") ?? 20);
      return res.end(JSON.stringify({ stories: SITE.stories.slice(offset, offset + limit) }));
    }
    if (url.pathname === "/site/api/v1/config") return res.end(JSON.stringify(SITE.config));
    res.end(JSON.stringify({ error: { code: "NOT_FOUND", message: "none" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const CONTENT_API = contentSource("content-api", "test", contentApiOpener({ allowPrivate: true }));

/** An account holding the stories of the three imports, its image CDN another host than theirs. */
async function importedAccount(db: Db) {
  const account = await contentImportAccount(db, ["news.example.com", "ghost.example.com", "images.old.example.com"]);
  await db.publisherConfig.update({ where: { accountId: account.id }, data: { cdnImage: "cdn.masthead.example" } });
  for (const [source, file] of [
    ["wxr", "wxr-content.xml"],
    ["ghost", "ghost-export.json"],
  ] as const) {
    const report = await importFixture(db, account.id, source, file);
    expect(report.status, `${source}: ${report.error ?? ""}`).toBe("completed");
  }
  const url = `${base}/site/`;
  const report = await runImport(db, {
    source: CONTENT_API,
    file: { path: url, name: url },
    accountId: account.id,
    actor: systemActor(account.id, "import"),
    dryRun: false,
  });
  expect(report.status, report.error ?? "").toBe("completed");
  return account;
}

/** Every image reference a story holds: its hero image and its image elements, galleries' included. */
function imageRefs(story: { heroImageS3Key: string | null; cards: unknown }): string[] {
  const refs = story.heroImageS3Key ? [story.heroImageS3Key] : [];
  const walk = (elements: readonly TStoryElement[]) => {
    for (const element of elements) {
      if (element.type === "image" && element["image-s3-key"]) refs.push(element["image-s3-key"]);
      walk(element["story-elements"] ?? []);
    }
  };
  for (const card of story.cards as TCard[]) walk(card["story-elements"] ?? []);
  return refs;
}

/** The image addresses of a document (img, amp-img, media:content and media:thumbnail), unescaped. */
function imageAddresses(doc: string): string[] {
  return [...doc.matchAll(/<(?:img|amp-img|media:content|media:thumbnail)\b[^>]*?\b(?:src|url)="([^"]*)"/g)].map((m) =>
    m[1]!.replace(/&amp;/g, "&"),
  );
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;");

describe("feeds of imported stories", () => {
  it("show every imported image at its own URL, and never the paid text", async () => {
    const db = await getDb();
    const account = await importedAccount(db);
    const stories = await db.story.findMany({ where: { accountId: account.id, status: "PUBLISHED" } });
    const refs = stories.flatMap(imageRefs);
    // The three imports' images: the WordPress uploads, Ghost's content/images, the old site's CDN.
    for (const host of ["news.example.com", "ghost.example.com", "images.old.example.com"]) {
      expect(
        refs.some((ref) => new URL(ref).host === host),
        host,
      ).toBe(true);
    }
    expect(refs.every((ref) => /^https:\/\//.test(ref))).toBe(true);

    const request = { accountId: account.id, appUrl: APP_URL, selfUrl: `${APP_URL}/stories.rss`, limit: 100 };
    const rss = (await buildStoriesRss(db, request)).xml;
    const instant = (await buildInstantArticlesFeed(db, request)).xml;
    const amp = await Promise.all(
      stories.map(
        async (s) => (await buildAmpStory(db, { accountId: account.id, appUrl: APP_URL, slug: s.slug })).html,
      ),
    );
    for (const [name, doc] of [
      ["rss", rss],
      ["instant articles", instant],
      ["amp", amp.join("\n")],
    ] as const) {
      const addresses = imageAddresses(doc);
      expect(addresses.length, name).toBeGreaterThan(0);
      for (const address of addresses) {
        expect(address, name).not.toContain("cdn.masthead.example");
        expect(address.match(/https?:/gi), `${name}: ${address}`).toHaveLength(1);
      }
    }
    // Every image of a public story reaches the RSS feed as it was imported.
    for (const story of stories.filter((s) => s.access === "public")) {
      for (const ref of imageRefs(story)) expect(rss, `${story.slug}: ${ref}`).toContain(escapeXml(ref));
    }

    // Stories for members or subscribers: the first element only, and a link to the rest.
    const paid = stories.filter((s) => s.access !== "public");
    expect(paid.map((s) => s.slug).sort()).toEqual(expect.arrayContaining(["for-members", "for-payers", "for-tiers"]));
    expect(paid.length).toBeGreaterThan(3);
    let paidTexts = 0;
    for (const story of paid) {
      const elements = (story.cards as TCard[]).flatMap((c) => c["story-elements"] ?? []);
      const later = elements.slice(1).flatMap((e) => (e.text ? [e.text.replace(/<[^>]+>/g, "").trim()] : []));
      const page = amp[stories.indexOf(story)]!;
      for (const text of later.filter((t) => t.length > 3)) {
        paidTexts++;
        for (const [name, doc] of [
          ["rss", rss],
          ["instant", instant],
          ["amp", page],
        ] as const) {
          expect(doc, `${name} ${story.slug}`).not.toContain(escapeXml(text));
        }
      }
      expect(page).toContain("The rest of this story is for");
    }
    expect(paidTexts).toBeGreaterThan(2);
  });
});
