/**
 * The stories of another site's content API imported into an account, on PGlite and PostgreSQL,
 * against a local HTTP server serving a fixture site (content-api-site.json, two stories a page):
 * every element kind, sanitised as the editor saves; authors, sections and tags; access; images
 * on the old site's CDN; old URLs answering 301; a story whose cards are not Masthead's and one
 * that is not a story refused; a page answering 500 once read again; a dry run and a second run
 * changing nothing; a run killed mid-way ending as an uninterrupted one; the address guard
 * refusing 127.0.0.1 unless allowed; a base URL that is not a content API refused whole; the
 * collections it shows and those the operator names, children first, their items the imported
 * stories, automated ones' rules by slug.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { GET as getCollection } from "@/app/api/v1/collections/[slug]/route";
import { GET as getCustomUrl } from "@/app/api/v1/custom-urls/[...path]/route";
import { getEnv } from "@/env.js";
import { systemActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { runImport, type RunImportArgs } from "@/server/imports/runner";
import { IMPORT_SOURCES } from "@/server/imports/sources";
import { ImportAborted, ImportFileError } from "@/server/imports/types";
import { contentImportAccount, FIXTURES, importedStory, tableCounts } from "@/server/testing/imports";

import { contentApiOpener } from "./content-api";
import { contentSource } from "./source";

const SITE = JSON.parse(fs.readFileSync(path.join(FIXTURES, "content-api-site.json"), "utf8")) as {
  config: unknown;
  stories: { id: string }[];
  collections: Record<string, { items: unknown[] }>;
};
const ID = (n: number) => `0b8f0a52-1111-4c6e-9a57-00000000000${n}`;

/** The fixture site: /site/api/v1/stories (limit, offset), /site/api/v1/config; /html/ is not an API. */
let server: http.Server;
let base = "";
let failOnce = new Set<string>();
let storyPages: string[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/site/api/v1/stories") {
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const limit = Number(url.searchParams.get("limit") ?? 20);
      storyPages.push(`${offset}`);
      if (failOnce.delete(`stories ${offset}`)) return json(500, { error: "busy" });
      return json(200, { stories: SITE.stories.slice(offset, offset + limit) });
    }
    if (url.pathname === "/site/api/v1/config") return json(200, SITE.config);
    const collection = /^\/site\/api\/v1\/collections\/([^/]+)$/.exec(url.pathname);
    if (collection) {
      const found = SITE.collections[decodeURIComponent(collection[1]!)];
      if (!found) return json(404, { error: { code: "NOT_FOUND", message: "No collection with this slug." } });
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const limit = Number(url.searchParams.get("limit") ?? 20);
      return json(200, {
        ...found,
        "total-count": found.items.length,
        items: found.items.slice(offset, offset + limit),
      });
    }
    if (url.pathname === "/broken/api/v1/stories") return json(500, { error: "down" });
    if (url.pathname === "/other/api/v1/stories") return json(200, { posts: [] });
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><body>A blog</body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The source as registered, reading the fixture site: 127.0.0.1 allowed explicitly, two stories a page. */
const SOURCE = {
  ...contentSource(
    "content-api",
    "test",
    contentApiOpener({ allowPrivate: true, pageSize: 2, backoffMs: 1, retries: 2 }),
    { collections: true },
  ),
};

function importSite(db: Db, accountId: number, over: Partial<RunImportArgs> & { sitePath?: string } = {}) {
  const url = `${base}/${over.sitePath ?? "site"}/`;
  return runImport(db, {
    source: SOURCE,
    file: { path: url, name: url },
    accountId,
    actor: systemActor(accountId, "import"),
    dryRun: false,
    ...over,
  });
}

const account = (db: Db) => contentImportAccount(db, ["images.old.example.com"]);

const storyOf = (db: Db, accountId: number, sourceId: string) => importedStory(db, accountId, "content-api", sourceId);

type Element = { id?: string; type: string; [key: string]: unknown };
const elementsOf = (story: { cards: unknown }) =>
  (story.cards as { "story-elements": Element[] }[]).flatMap((card) => card["story-elements"]);

async function contentSnapshot(db: Db, accountId: number) {
  const records = await db.importRecord.findMany({
    where: { accountId },
    orderBy: [{ kind: "asc" }, { sourceId: "asc" }],
  });
  const stories = await db.story.findMany({
    where: { accountId },
    orderBy: { slug: "asc" },
    select: { slug: true, headline: true, status: true, publishedAt: true, access: true, plainText: true },
  });
  const redirects = await db.customUrl.findMany({
    where: { accountId },
    orderBy: { sourcePath: "asc" },
    select: { sourcePath: true, destinationPath: true, statusCode: true },
  });
  return { records: records.map((r) => `${r.kind}:${r.sourceId}:${r.created}`), stories, redirects };
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("importing the stories of another content API", () => {
  it("lands them field by field, reading a page that answered 500 again", async () => {
    const db = await getDb();
    const acc = await account(db);
    failOnce = new Set(["stories 2"]);
    storyPages = [];
    const report = await importSite(db, acc.id);
    // Counted on the first read, listed again on the second; offset 2 answered 500 once.
    expect(storyPages).toEqual(["0", "2", "2", "4", "0", "2", "4"]);
    expect(report.problems).toEqual([]);
    expect(report.kinds).toEqual({
      story: { create: 3, update: 0, skip: 0, refuse: 2 },
      author: { create: 2, update: 0, skip: 0, refuse: 0 },
      section: { create: 2, update: 0, skip: 0, refuse: 0 },
      tag: { create: 2, update: 0, skip: 0, refuse: 0 },
      redirect: { create: 1, update: 0, skip: 0, refuse: 0 },
      // home and politics-picks (found from home); section-politics, which the import made with its section.
      collection: { create: 2, update: 0, skip: 1, refuse: 0 },
    });
    expect(report.lines.refuse.map((l) => l.reason)).toEqual([
      expect.stringMatching(/^its cards are not Masthead's: 0\.story-elements\.0\.type /),
      expect.stringMatching(/^it is not a story of the content API: headline .*; cards /),
    ]);
    expect(report.notes).toEqual([
      `story ${ID(5)}: its access "vip" is not known: imported as public`,
      `story ${ID(5)} has no author`,
      `collection politics-picks: its item "home" holds it in turn (a loop): left out`,
      `collection home: 2 of its stories were not imported (refused, or not listed): left out`,
    ]);

    const every = await storyOf(db, acc.id, ID(1));
    expect(every).toMatchObject({
      headline: "Every element kind",
      slug: "politics-every-element",
      summary: "All of them, in one story.",
      status: "PUBLISHED",
      access: "subscription",
      publishedAt: new Date(1717236000000),
      firstPublishedAt: new Date(1717236000000),
      heroImageS3Key: "https://images.old.example.com/old/2024/06/hero.jpg",
      heroImageCaption: "The chamber",
      heroImageMetadata: { alt: "An empty chamber" },
      externalId: `content-api:${base.replace(/^http:\/\//, "")}/site:${ID(1)}`,
      metadata: { "imported-from": "content-api", "source-type": "story" },
    });
    expect(every.authors.map((a) => [a.author.slug, a.author.name, a.author.bio])).toEqual([
      ["asha-rao", "Asha Rao", "Covers politics."],
      ["ben-okafor", "Ben Okafor", null],
    ]);
    expect(every.sections.map((s) => s.section.slug)).toEqual(["politics"]);
    expect(every.tags.map((t) => [t.tag.slug, t.tag.name])).toEqual([
      ["elections", "Elections"],
      ["parliament", "Parliament"],
    ]);
    const elements = elementsOf(every);
    expect(elements.map((e) => `${e.type}/${String(e.subtype)}`)).toEqual([
      "title/null",
      "text/null",
      "image/null",
      "youtube-video/null",
      "jsembed/tweet",
      "quote/null",
      "blockquote/null",
      "summary/null",
      "bigfact/null",
      "composite/image-gallery",
      "file/null",
    ]);
    const [title, text, image, youtube, tweet, quote, blockquote, summary, bigfact, gallery, file] = elements;
    expect(title).toMatchObject({ text: "The title element" });
    // Sanitised as the editor saves: the script and the handler gone, the link kept.
    expect(text!.text).not.toMatch(/script|onerror|alert/);
    expect(text!.text).toContain('<a href="https://example.org/a"');
    expect(text!.text).toContain("<strong>bold</strong>");
    expect(image).toMatchObject({
      "image-s3-key": "https://images.old.example.com/old/2024/06/photo.jpg",
      title: "A photo",
      metadata: { alt: "Alt text" },
    });
    expect(youtube).toMatchObject({ url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "video-id": "dQw4w9WgXcQ" });
    expect(tweet).toMatchObject({ "tweet-id": "20" });
    expect(quote).toMatchObject({ text: "<p>A quote</p>", metadata: { attribution: "Someone" } });
    // The editor's save keeps a blockquote's and a big fact's content as their text.
    expect(blockquote).toMatchObject({ metadata: { content: "<p>A blockquote</p>", attribution: "Another" } });
    expect(summary).toMatchObject({ text: "<p>In short</p>" });
    expect(bigfact).toMatchObject({ metadata: { content: "<p>42 %</p>", attribution: "of voters" } });
    expect((gallery!["story-elements"] as Element[]).map((e) => e["image-s3-key"])).toEqual([
      "https://images.old.example.com/old/g1.jpg",
      "https://images.old.example.com/old/g2.jpg",
    ]);
    expect(file).toMatchObject({ "file-url": "https://old.example.com/report.pdf", "file-name": "report.pdf" });

    const members = await storyOf(db, acc.id, ID(2));
    expect(members).toMatchObject({ slug: "members-read-this", access: "login", heroImageS3Key: null, summary: null });
    expect(members.authors.map((a) => a.author.id)).toEqual([every.authors[0]!.author.id]);
    expect(members.sections.map((s) => s.section.id)).toEqual([every.sections[0]!.section.id]);
    const sports = await storyOf(db, acc.id, ID(5));
    expect(sports).toMatchObject({ slug: "sports-night", access: "public" });
    expect(sports.sections.map((s) => s.section.slug)).toEqual(["sports"]);
    // An old path that is the new story's own needs no redirect; a story without a URL has none.
    expect(await db.customUrl.findMany({ where: { accountId: acc.id } })).toEqual([
      expect.objectContaining({
        sourcePath: "/politics/every-element",
        destinationPath: "/politics-every-element",
        statusCode: 301,
      }),
    ]);
  });

  it("imports the collections it finds and those named, children first, their items the imported stories", async () => {
    const db = await getDb();
    const acc = await account(db);
    const named = contentSource(
      "content-api",
      "test",
      contentApiOpener({
        allowPrivate: true,
        pageSize: 2,
        backoffMs: 1,
        retries: 2,
        collections: ["by-asha", "by-nobody", "missing", "Bad Slug!"],
      }),
      { collections: true },
    );
    const dry = await importSite(db, acc.id, { source: named, dryRun: true });
    const report = await importSite(db, acc.id, { source: named });
    expect(dry.kinds.collection).toEqual(report.kinds.collection);
    expect(report.problems).toEqual([
      { where: "collection missing", message: "the site has no collection of this slug" },
    ]);
    expect(report.kinds.collection).toEqual({ create: 3, update: 0, skip: 1, refuse: 2 });
    const collectionLines = (action: "create" | "skip" | "refuse") =>
      report.lines[action].filter((l) => l.kind === "collection").map((l) => `${l.sourceId}: ${l.reason}`);
    expect(collectionLines("create")).toEqual([
      'by-asha: collection "by-asha" "By Asha", automated (author-ids, tag-slugs, sort)',
      'politics-picks: collection "politics-picks" "Politics picks", 2 items',
      'home: collection "home" "Home", 3 items',
    ]);
    expect(collectionLines("skip")).toEqual([
      expect.stringMatching(
        /^section-politics: the account has a collection "section-politics" \(#\d+\): left as it is$/,
      ),
    ]);
    expect(collectionLines("refuse")).toEqual([
      "by-nobody: its rules name the author ids 99, which no listed story names",
      expect.stringMatching(/^Bad Slug!: its slug is not one Masthead takes: /),
    ]);

    const collection = (slug: string) =>
      db.collection.findUniqueOrThrow({
        where: { accountId_slug: { accountId: acc.id, slug } },
        include: { items: { orderBy: { position: "asc" }, include: { childCollection: true } } },
      });
    const every = await storyOf(db, acc.id, ID(1));
    const members = await storyOf(db, acc.id, ID(2));
    const sports = await storyOf(db, acc.id, ID(5));
    const home = await collection("home");
    expect(home).toMatchObject({ name: "Home", summary: "The front page", template: "home", automated: false });
    // Sanitised as the dashboard saves metadata: the script gone.
    expect(JSON.stringify(home.metadata)).not.toContain("script");
    expect(home.items.map((i) => [i.storyId ?? i.childCollection?.slug, i.position, i.associatedMetadata])).toEqual([
      [every.id, 0, { layout: "hero" }],
      ["politics-picks", 1, { layout: "four-col" }],
      [sports.id, 2, {}],
    ]);
    const picks = await collection("politics-picks");
    expect(picks.items.map((i) => i.storyId)).toEqual([members.id, every.id]);
    const byAsha = await collection("by-asha");
    expect(byAsha).toMatchObject({
      automated: true,
      rules: { "author-ids": [every.authors[0]!.author.id], "tag-slugs": ["elections"], sort: "last-published-at" },
    });
    expect(await db.collection.count({ where: { accountId: acc.id, slug: "by-nobody" } })).toBe(0);

    // Read through the account's own content API as the old site served it.
    const res = await getCollection(new Request("http://localhost/api/v1/collections/home"), {
      params: Promise.resolve({ slug: "home" }),
    });
    expect(res.status).toBe(200);
    const wire = (await res.json()) as { items: { type: string; slug?: string; id: string }[] };
    expect(wire.items.map((i) => (i.type === "story" ? i.id : i.slug))).toEqual([
      every.id,
      "politics-picks",
      sports.id,
    ]);

    const counts = await tableCounts(db);
    const again = await importSite(db, acc.id, { source: named });
    expect(again.kinds.collection).toEqual({ create: 0, update: 0, skip: 4, refuse: 2 });
    expect({ ...(await tableCounts(db)), import_runs: 0, audit_logs: 0 }).toEqual({
      ...counts,
      import_runs: 0,
      audit_logs: 0,
    });
  });

  it("answers the old URL with a 301 to the story", async () => {
    const db = await getDb();
    const acc = await account(db);
    await importSite(db, acc.id);
    const res = await getCustomUrl(
      new Request("http://localhost/api/v1/custom-urls/politics%2Fevery-element", { headers: { host: "localhost" } }),
      { params: Promise.resolve({ path: ["politics/every-element"] }) },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { page: Record<string, unknown> };
    expect(body.page).toMatchObject({
      type: "redirect",
      "status-code": 301,
      "destination-path": "/politics-every-element",
    });
  });

  it("changes nothing in a dry run nor on a second run", async () => {
    const db = await getDb();
    const acc = await account(db);
    const before = await tableCounts(db);
    const dry = await importSite(db, acc.id, { dryRun: true });
    expect(await tableCounts(db)).toEqual(before);
    const real = await importSite(db, acc.id);
    expect(dry.kinds).toEqual(real.kinds);
    const snapshot = await contentSnapshot(db, acc.id);
    const counts = await tableCounts(db);
    const again = await importSite(db, acc.id);
    expect(again.kinds.story).toEqual({ create: 0, update: 0, skip: 3, refuse: 2 });
    const after = await tableCounts(db);
    expect({ ...after, import_runs: 0, audit_logs: 0 }).toEqual({ ...counts, import_runs: 0, audit_logs: 0 });
    expect(await contentSnapshot(db, acc.id)).toEqual(snapshot);
  });

  it("ends a run killed mid-way and run again as an uninterrupted one", async () => {
    const db = await getDb();
    const whole = await account(db);
    await importSite(db, whole.id, { batchSize: 1 });
    const expected = await contentSnapshot(db, whole.id);
    const killed = await account(db);
    await expect(
      importSite(db, killed.id, {
        batchSize: 1,
        afterItem: (applied) => {
          if (applied === 2) throw new ImportAborted();
        },
      }),
    ).rejects.toBeInstanceOf(ImportAborted);
    // The second item's batch rolled back with the kill.
    expect(await db.story.count({ where: { accountId: killed.id } })).toBe(1);
    await importSite(db, killed.id, { batchSize: 1 });
    expect(await contentSnapshot(db, killed.id)).toEqual(expected);
  });

  it("refuses 127.0.0.1 unless the operator allows it, and a site that is not a content API", async () => {
    const db = await getDb();
    const acc = await account(db);
    // The registered source: IMPORT_ALLOW_PRIVATE_URLS is not set in tests.
    expect(getEnv().IMPORT_ALLOW_PRIVATE_URLS).toBe(false);
    const guarded = runImport(db, {
      source: IMPORT_SOURCES["content-api"]!,
      file: { path: `${base}/site/`, name: base },
      accountId: acc.id,
      actor: systemActor(acc.id, "import"),
      dryRun: true,
    });
    await expect(guarded).rejects.toBeInstanceOf(ImportFileError);
    await expect(guarded).rejects.toThrow(/127\.0\.0\.1 .*private or reserved address/);
    expect(IMPORT_SOURCES["content-api"]!.commandLineOnly).toMatch(/reads a site/);

    await expect(importSite(db, acc.id, { sitePath: "html" })).rejects.toThrow(
      /is not a content API: its answer is not JSON/,
    );
    await expect(importSite(db, acc.id, { sitePath: "other" })).rejects.toThrow(
      /did not answer \{stories: \[\.\.\.\]\}/,
    );
    await expect(importSite(db, acc.id, { sitePath: "broken" })).rejects.toThrow(/answered 500 3 times/);
    const small = contentSource("content-api", "test", contentApiOpener({ allowPrivate: true, maxBytes: 100 }));
    await expect(importSite(db, acc.id, { source: small })).rejects.toThrow(/its answer is larger than 100 bytes/);
    await expect(
      runImport(db, {
        source: SOURCE,
        file: { path: "ftp://old.example.com/", name: "ftp" },
        accountId: acc.id,
        actor: systemActor(acc.id, "import"),
        dryRun: true,
      }),
    ).rejects.toThrow(/is not an http\(s\) URL/);
    expect(await db.story.count({ where: { accountId: acc.id } })).toBe(0);
  });
});
