import { randomUUID } from "node:crypto";

import { XMLValidator } from "fast-xml-parser";
import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { TCard } from "@/server/publishing/cards.schema";
import { AMP_BOILERPLATE } from "@/server/publishing/feeds/amp";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { createTestPublisher, insertAuthor, insertStory } from "@/server/testing/publishing-factories";

import { GET } from "./route";

const ctx = { params: Promise.resolve({}) };
const get = (query: string, headers: Record<string, string> = {}) =>
  GET(new Request(`http://localhost/api/v1/amp/story${query}`, { headers }), ctx);

const element = (fields: Record<string, unknown>) => ({ id: randomUUID(), subtype: null, metadata: {}, ...fields });
const cards = [
  {
    id: randomUUID(),
    status: "draft",
    version: 1,
    metadata: {},
    "story-elements": [
      element({
        type: "text",
        text: `<p style="color:red">Opening & <em>more</em><script>steal()</script><iframe src="https://evil.test"></iframe><img src="https://evil.test/x.png"></p>`,
      }),
      element({
        type: "image",
        "image-s3-key": "demo/inline.png",
        "image-metadata": { width: 640, height: 480 },
        title: "Inline",
      }),
      element({ type: "youtube-video", url: "https://youtu.be/dQw4w9WgXcQ" }),
      element({ type: "jsembed", subtype: "tweet", url: "https://twitter.com/someone/status/1234567890" }),
    ],
  },
] as unknown as TCard[];

beforeEach(() => forgetPublisherCache());

describe("GET /api/v1/amp/story", () => {
  it("renders a published story as AMP HTML with the required markup and AMP components only", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const author = await insertAuthor(db, account.id, { name: "Ann & Bo" });
    const story = await insertStory(db, account.id, {
      headline: `Fish & "chips" <now>`,
      slug: "world/fish-and-chips",
      cards,
      authorIds: [author.id],
      heroImageS3Key: "demo/hero.png",
    });

    const response = await get("?slug=world/fish-and-chips");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("etag")).toBeTruthy();
    expect(response.headers.get("cache-tag")).toContain(`s/${story.id}`);
    const html = await response.text();

    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toMatch(/<html ⚡ lang="en">/);
    expect(html).toMatch(/<head>\n<meta charset="utf-8">/);
    expect(html).toContain('<script async src="https://cdn.ampproject.org/v0.js"></script>');
    expect(html).toContain('<link rel="canonical" href="https://news.example.com/world/fish-and-chips">');
    expect(html).toContain('<meta name="viewport" content="width=device-width">');
    expect(html).toContain(AMP_BOILERPLATE);
    expect(html).toContain("<style amp-custom>");
    expect(html).toContain("<h1>Fish &amp; &quot;chips&quot; &lt;now&gt;</h1>");
    expect(html).toContain(
      '<amp-img src="https://images.example.com/demo/hero.png" width="1200" height="675" layout="responsive"',
    );
    expect(html).toContain(
      '<amp-img src="https://images.example.com/demo/inline.png" width="640" height="480" layout="responsive"',
    );
    expect(html).toContain('<amp-youtube data-videoid="dQw4w9WgXcQ"');
    expect(html).toContain('<amp-twitter data-tweetid="1234567890"');
    expect(html).not.toMatch(/<img[\s>/]/);
    expect(html).not.toMatch(/<iframe/);
    expect(html).not.toMatch(/ style=|steal|evil\.test/);
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.length).toBe(4); // runtime, amp-youtube, amp-twitter, JSON-LD
    for (const attributes of scripts)
      expect(attributes).toMatch(
        /^ async (custom-element="amp-[a-z]+" )?src="https:\/\/cdn\.ampproject\.org\/[^"]+"$|^ type="application\/ld\+json"$/,
      );

    // Well-formed: with void elements closed and the doctype dropped, the page parses as XML.
    const asXml = html
      .replace("<!doctype html>", "")
      .replace(/<(meta|link)([^>]*)>/g, "<$1$2/>")
      .replace(" ⚡", ' amp=""');
    expect(XMLValidator.validate(asXml, { allowBooleanAttributes: true })).toBe(true);
  });

  it("answers 404 for unknown and unpublished slugs, 400 without a slug, 304 for a matching ETag", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    await insertStory(db, account.id, { headline: "Draft", slug: "a-draft", status: "DRAFT" });
    await insertStory(db, account.id, { headline: "Approved", slug: "approved", status: "APPROVED" });
    await insertStory(db, account.id, { headline: "Live", slug: "live" });

    for (const slug of ["a-draft", "approved", "nope"]) {
      const response = await get(`?slug=${slug}`);
      expect(response.status, slug).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    }
    for (const query of ["", "?slug=", "?slug=a&slug=b"]) {
      const response = await get(query);
      expect(response.status, query).toBe(400);
    }
    const first = await get("?slug=live", { accept: "text/html" });
    expect(first.status).toBe(200);
    const again = await get("?slug=live", { "if-none-match": first.headers.get("etag")! });
    expect(again.status).toBe(304);
  });

  it("answers JSON holding the page and the story's identifiers when Accept prefers JSON; HTML otherwise", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const story = await insertStory(db, account.id, { headline: "Tram line opens", slug: "city/tram", cards });
    const html = await (await get("?slug=city/tram")).text();

    for (const accept of ["application/json", "application/json, text/plain, */*", "text/html;q=0.5, application/*"]) {
      const response = await get("?slug=city/tram", { accept });
      expect(response.status, accept).toBe(200);
      expect(response.headers.get("content-type"), accept).toBe("application/json; charset=utf-8");
      expect(response.headers.get("vary"), accept).toBe("Accept, Accept-Encoding");
      expect(response.headers.get("cache-tag"), accept).toContain(`s/${story.id}`);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toEqual({
        id: story.id,
        "story-content-id": story.id,
        slug: "city/tram",
        headline: "Tram line opens",
        url: "https://news.example.com/city/tram",
        "canonical-url": "https://news.example.com/city/tram",
        "published-at": expect.any(Number) as number,
        "last-published-at": expect.any(Number) as number,
        "amp-html": html,
      });
    }

    // A browser, no Accept, */*, or JSON at a lower quality: the page itself.
    for (const accept of [
      "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      "*/*",
      "application/json;q=0.4, text/html",
      "application/json;q=0, */*",
      null,
    ]) {
      const response = await get("?slug=city/tram", accept === null ? {} : { accept });
      expect(response.status, String(accept)).toBe(200);
      expect(response.headers.get("content-type"), String(accept)).toBe("text/html; charset=utf-8");
      expect(response.headers.get("vary"), String(accept)).toBe("Accept, Accept-Encoding");
      expect(await response.text()).toBe(html);
    }

    // The two representations have different ETags, so a cached one is never revalidated as the other.
    const jsonResponse = await get("?slug=city/tram", { accept: "application/json" });
    const htmlEtag = (await get("?slug=city/tram")).headers.get("etag");
    expect(jsonResponse.headers.get("etag")).not.toBe(htmlEtag);
    const revalidated = await get("?slug=city/tram", {
      accept: "application/json",
      "if-none-match": jsonResponse.headers.get("etag")!,
    });
    expect(revalidated.status).toBe(304);

    // Errors stay JSON either way.
    const missing = await get("?slug=nope", { accept: "application/json" });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  });
});
