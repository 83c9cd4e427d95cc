import { XMLParser, XMLValidator } from "fast-xml-parser";
import { beforeEach, describe, expect, it } from "vitest";

import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import {
  createTestPublisher,
  insertAuthor,
  insertSection,
  insertStory,
  insertTag,
  textCards,
} from "@/server/testing/publishing-factories";

import { GET as instantArticles } from "../api/instant-articles.rss/route";
import { POST, GET as storiesRss } from "./route";

type Item = Record<string, unknown> & { title: string; guid: { "#text": string }; "content:encoded": string };
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  htmlEntities: true,
  isArray: (name) => name === "item" || name === "category" || name === "dc:creator",
});
const ctx = { params: Promise.resolve({}) };

async function feed(handler: typeof storiesRss, url: string, headers: Record<string, string> = {}) {
  const response = await handler(new Request(url, { headers }), ctx);
  const text = await response.text();
  return { response, text };
}

function parse(text: string) {
  expect(XMLValidator.validate(text)).toBe(true);
  const doc = parser.parse(text) as {
    rss: { "@version": string; channel: Record<string, unknown> & { item?: Item[] } };
  };
  return { rss: doc.rss, items: doc.rss.channel.item ?? [] };
}

async function seed() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  await db.publisherConfig.update({
    where: { accountId: account.id },
    data: { settings: { title: "Gazette & Co", description: "All the <news>" } },
  });
  const politics = await insertSection(db, account.id, { name: "Politics", slug: "politics", withCollection: true });
  const sport = await insertSection(db, account.id, { name: "Sport", slug: "sport" });
  const author = await insertAuthor(db, account.id, { name: "Ann O'Writer" });
  const tag = await insertTag(db, account.id, { name: "Elections", slug: "elections" });
  const day = 24 * 3600 * 1000;
  const base = Date.now() - 10 * day;
  const older = await insertStory(db, account.id, {
    headline: `Tom & Jerry <b>"win"</b> \u0007 ]]> again`,
    summary: "Cats & mice",
    cards: textCards("First ]]> paragraph & more", "<script>alert(1)</script>"),
    sectionIds: [politics.id],
    authorIds: [author.id],
    tagIds: [tag.id],
    publishedAt: new Date(base + day),
    heroImageS3Key: "demo/hero one.png",
  });
  const newer = await insertStory(db, account.id, {
    headline: "Newest sport story",
    sectionIds: [sport.id],
    authorIds: [author.id],
    publishedAt: new Date(base + 3 * day),
  });
  const middle = await insertStory(db, account.id, {
    headline: "Middle politics story",
    sectionIds: [politics.id],
    publishedAt: new Date(base + 2 * day),
  });
  const draft = await insertStory(db, account.id, {
    headline: "SECRET DRAFT",
    status: "DRAFT",
    sectionIds: [politics.id],
    tagIds: [tag.id],
  });
  const submitted = await insertStory(db, account.id, {
    headline: "SECRET SUBMITTED",
    status: "SUBMITTED",
    sectionIds: [politics.id],
  });
  const retracted = await insertStory(db, account.id, {
    headline: "SECRET RETRACTED",
    status: "RETRACTED",
    sectionIds: [politics.id],
  });
  return { account, politics, sport, tag, older, newer, middle, hidden: [draft, submitted, retracted] };
}

beforeEach(() => forgetPublisherCache());

describe("GET /stories.rss", () => {
  it("is a valid RSS 2.0 feed of published stories only, newest first, everything escaped", async () => {
    const data = await seed();
    const { response, text } = await feed(storiesRss, "http://localhost/stories.rss");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    expect(response.headers.get("etag")).toBeTruthy();
    expect(response.headers.get("cache-control")).toContain("public");
    const { rss, items } = parse(text);
    expect(rss["@version"]).toBe("2.0");
    const channel = rss.channel;
    expect(channel.title).toBe("Gazette & Co");
    expect(channel.description).toBe("All the <news>");
    expect(channel.link).toBe("https://news.example.com");
    expect(channel.language).toBe("en-US");
    expect(typeof channel.lastBuildDate).toBe("string");
    expect((channel["atom:link"] as Record<string, string>)["@rel"]).toBe("self");
    expect(items.map((i) => i.guid["#text"])).toEqual([data.newer.id, data.middle.id, data.older.id]);
    expect(text).not.toContain("SECRET");
    for (const hidden of data.hidden) expect(text).not.toContain(hidden.id);

    const old = items[2]!;
    expect(old.title).toBe(`Tom & Jerry <b>"win"</b>  ]]> again`);
    expect(old.link).toBe(`https://news.example.com/${data.older.slug}`);
    expect(old.comments).toBe(`https://news.example.com/${data.older.slug}#comments`);
    expect(old.guid).toEqual({ "#text": data.older.id, "@isPermaLink": "false" });
    expect(new Date(old.pubDate as string).getTime()).toBe(Math.floor(data.older.publishedAt!.getTime() / 1000) * 1000);
    expect(old["dc:creator"]).toEqual(["Ann O'Writer"]);
    expect(
      (old.category as ({ "#text": string; "@domain": string } | string)[]).map((c) =>
        typeof c === "string" ? c : `${c["#text"]} (${c["@domain"]})`,
      ),
    ).toEqual(["Politics (https://news.example.com/politics)", "Elections"]);
    expect(old.description).toBe("Cats & mice");
    expect(old["content:encoded"]).toContain("First ]]&gt; paragraph &amp; more");
    expect(old["content:encoded"]).not.toContain("<script");
    expect((old["media:content"] as Record<string, string>)["@url"]).toBe(
      "https://images.example.com/demo/hero%20one.png",
    );
    expect((old["media:thumbnail"] as Record<string, string>)["@url"]).toBe(
      "https://images.example.com/demo/hero%20one.png",
    );
  });

  it("filters by section and tag, honours limit, and 404s unknown slugs", async () => {
    const data = await seed();
    // Asked at the address the server is bound to: the feed's self link is at the app's public URL.
    const bySection = parse((await feed(storiesRss, "http://0.0.0.0:4411/stories.rss?section=politics")).text);
    expect(bySection.items.map((i) => i.guid["#text"])).toEqual([data.middle.id, data.older.id]);
    expect((bySection.rss.channel["atom:link"] as Record<string, string>)["@href"]).toBe(
      new URL("/stories.rss?section=politics", getEnv().APP_URL).toString(),
    );
    expect(bySection.rss.channel.title).toBe("Gazette & Co: Politics");
    const byTag = parse((await feed(storiesRss, "http://localhost/stories.rss?tag=elections")).text);
    expect(byTag.items.map((i) => i.guid["#text"])).toEqual([data.older.id]);
    const limited = parse((await feed(storiesRss, "http://localhost/stories.rss?limit=1")).text);
    expect(limited.items.map((i) => i.guid["#text"])).toEqual([data.newer.id]);
    expect((await feed(storiesRss, "http://localhost/stories.rss?section=nope")).response.status).toBe(404);
    expect((await feed(storiesRss, "http://localhost/stories.rss?tag=nope")).response.status).toBe(404);
  });

  it("answers 400 for bad parameters, 405 for other methods, 304 for a matching ETag", async () => {
    await seed();
    for (const query of ["limit=0", "limit=101", "limit=abc", "section=", "section=a&section=b"]) {
      const { response, text } = await feed(storiesRss, `http://localhost/stories.rss?${query}`);
      expect(response.status, query).toBe(400);
      expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe("BAD_REQUEST");
    }
    expect((await POST(new Request("http://localhost/stories.rss", { method: "POST" }), ctx)).status).toBe(405);
    const first = await feed(storiesRss, "http://localhost/stories.rss", { accept: "application/rss+xml" });
    const etag = first.response.headers.get("etag")!;
    const again = await feed(storiesRss, "http://localhost/stories.rss", { "if-none-match": etag });
    expect(again.response.status).toBe(304);
    expect(again.text).toBe("");
  });

  it("takes limit only in canonical decimal digits, like every JSON route (no hex, exponent, sign, spaces)", async () => {
    await seed();
    const taken: string[] = [];
    for (const limit of ["0x10", "1e1", "+5", "%205", "5%20", "05", "", "1.0", "-1", "9007199254740993"]) {
      for (const [name, handler, path] of [
        ["rss", storiesRss, "/stories.rss"],
        ["instant-articles", instantArticles, "/api/instant-articles.rss"],
      ] as const) {
        const { response } = await feed(handler, `http://localhost${path}?limit=${limit}`);
        if (response.status !== 400) taken.push(`${name} limit=${limit} → ${response.status}`);
      }
    }
    expect(taken).toEqual([]);
    expect((await feed(storiesRss, "http://localhost/stories.rss?limit=1")).response.status).toBe(200);
    expect((await feed(instantArticles, "http://localhost/api/instant-articles.rss?limit=100")).response.status).toBe(
      200,
    );
  });

  it("is an empty but valid feed when nothing is published", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    await insertStory(db, account.id, { headline: "SECRET DRAFT", status: "DRAFT" });
    const { response, text } = await feed(storiesRss, "http://localhost/stories.rss");
    expect(response.status).toBe(200);
    expect(parse(text).items).toEqual([]);
    expect(text).not.toContain("SECRET");
  });
});

describe("GET /api/instant-articles.rss", () => {
  it("carries one full Instant Article document per published story", async () => {
    const data = await seed();
    const { response, text } = await feed(instantArticles, "http://localhost/api/instant-articles.rss");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const { items } = parse(text);
    expect(items.map((i) => i.guid["#text"])).toEqual([data.newer.id, data.middle.id, data.older.id]);
    expect(text).not.toContain("SECRET");
    const article = items[2]!["content:encoded"];
    expect(article.startsWith("<!doctype html>")).toBe(true);
    expect(article).toContain('prefix="op: http://media.facebook.com/op#"');
    expect(article).toContain(`<link rel="canonical" href="https://news.example.com/${data.older.slug}">`);
    expect(article).toContain('<meta property="op:markup_version" content="v1.0">');
    expect(article).toContain(`<h1>Tom &amp; Jerry &lt;b&gt;&quot;win&quot;&lt;/b&gt;  ]]&gt; again</h1>`);
    expect(article).toContain(`<time class="op-published" datetime="${data.older.publishedAt!.toISOString()}">`);
    expect(article).toContain("<address>Ann O&#39;Writer</address>");
    expect(article).toContain('<figure><img src="https://images.example.com/demo/hero%20one.png"');
    expect(article).not.toContain("alert(1)");
  });
});
