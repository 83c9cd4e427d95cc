import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { WireAuthor } from "@/server/publishing/authors";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { createTestPublisher, insertAuthor, insertStory } from "@/server/testing/publishing-factories";
import { callGet as call, readJson as json } from "@/server/testing/route-calls";

import { GET as listBare } from "../../authors/route";
import { GET as getCollection } from "./[authorId]/collection/route";
import { GET as getOne } from "./[authorId]/route";
import { GET as listV1, POST as postV1 } from "./route";

type Page = { limit: number; offset: number; total: number; authors: WireAuthor[] };
type ErrorBody = { error: { code: string } };
type Item = { id: string; type: string; story: Record<string, unknown> & { authors: WireAuthor[] } };
type AuthorCollection = { id: number; slug: string; name: string; "total-count": number; items: Item[] };

beforeEach(() => forgetPublisherCache());

async function setup() {
  const db = await getDb();
  const publisher = await createTestPublisher(db);
  const other = await createTestPublisher(db, { domain: "other.test", siteUrl: "https://other.test" });
  const ada = await insertAuthor(db, publisher.id, { name: "Ada Lovelace", bio: "Analyst" });
  const grace = await insertAuthor(db, publisher.id, { name: "Grace Hopper" });
  const alan = await insertAuthor(db, publisher.id, { name: "Alan Turing" });
  const stranger = await insertAuthor(db, other.id, { name: "Another Paper's Writer" });
  return { db, publisher, other, ada, grace, alan, stranger };
}

describe("GET /api/v1/authors", () => {
  it("lists the host's authors by name with limit, offset and total", async () => {
    const { ada, alan, grace } = await setup();
    const res = await call(listV1, "/api/v1/authors");
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBeTruthy();
    const body = await json<Page>(res);
    expect(body).toMatchObject({ limit: 20, offset: 0, total: 3 });
    expect(body.authors.map((a: { id: number }) => a.id)).toEqual([ada.id, alan.id, grace.id]);
    expect(body.authors[0]).toEqual({
      id: ada.id,
      name: "Ada Lovelace",
      slug: "ada-lovelace",
      "avatar-url": null,
      "avatar-s3-key": null,
      "twitter-handle": null,
      bio: "Analyst",
      metadata: {},
    });

    const page = await json<Page>(await call(listV1, "/api/v1/authors?limit=1&offset=1"));
    expect(page).toMatchObject({ limit: 1, offset: 1, total: 3 });
    expect(page.authors.map((a: { name: string }) => a.name)).toEqual(["Alan Turing"]);

    const found = await json<Page>(await call(listV1, "/api/v1/authors?q=HOPP"));
    expect(found.total).toBe(1);
    expect(found.authors[0]?.id).toBe(grace.id);
  });

  it("matches q literally: % and _ are characters of the name, not wildcards", async () => {
    const { db, publisher } = await setup();
    const percent = await insertAuthor(db, publisher.id, { name: "Agent 100% Real" });
    const underscore = await insertAuthor(db, publisher.id, { name: "snake_case Sam" });
    const byPercent = await json<Page>(await call(listV1, "/api/v1/authors?q=%25"));
    expect(byPercent.authors.map((a) => a.id)).toEqual([percent.id]);
    const byUnderscore = await json<Page>(await call(listV1, "/api/v1/authors?q=_"));
    expect(byUnderscore.authors.map((a) => a.id)).toEqual([underscore.id]);
    expect((await json<Page>(await call(listV1, "/api/v1/authors?q=%5C"))).total).toBe(0);
  });

  it("serves each publisher its own authors, by host", async () => {
    const { stranger } = await setup();
    const body = await json<Page>(await call(listV1, "/api/v1/authors", {}, { host: "other.test" }));
    expect(body.total).toBe(1);
    expect(body.authors[0]?.id).toBe(stranger.id);
  });

  it("lowers a limit above 100 to 100, refuses bad paging with 400 and other methods with 405", async () => {
    await setup();
    expect((await json<Page>(await call(listV1, "/api/v1/authors?limit=101"))).limit).toBe(100);
    for (const query of ["limit=0", "limit=abc", "offset=-1", "limit=2.5", "offset=10001"]) {
      const res = await call(listV1, `/api/v1/authors?${query}`);
      expect(res.status, query).toBe(400);
      expect((await json<ErrorBody>(res)).error.code).toBe("BAD_REQUEST");
    }
    const res = await postV1(new Request("http://localhost/api/v1/authors", { method: "POST" }), {
      params: Promise.resolve({}),
    });
    expect(res.status).toBe(405);
  });
});

describe("GET /api/authors", () => {
  it("answers a bare JSON array of authors, paged", async () => {
    const { ada, alan } = await setup();
    const res = await call(listBare, "/api/authors?limit=2");
    expect(res.status).toBe(200);
    const body = await json<WireAuthor[]>(res);
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((a: { id: number }) => a.id)).toEqual([ada.id, alan.id]);
    expect(await json<WireAuthor[]>(await call(listBare, "/api/authors?offset=10"))).toEqual([]);
    expect((await call(listBare, "/api/authors?limit=500")).status).toBe(200);
    expect((await call(listBare, "/api/authors?limit=-5")).status).toBe(400);
  });
});

describe("GET /api/v1/authors/<id>", () => {
  it("answers {author}, 404 for unknown or another publisher's, 400 for a non-integer id", async () => {
    const { ada, stranger } = await setup();
    const res = await call(getOne, `/api/v1/authors/${ada.id}`, { authorId: String(ada.id) });
    expect(res.status).toBe(200);
    expect((await json<{ author: WireAuthor }>(res)).author).toMatchObject({
      id: ada.id,
      name: "Ada Lovelace",
      slug: "ada-lovelace",
    });

    for (const id of ["999999", String(stranger.id)]) {
      const missing = await call(getOne, `/api/v1/authors/${id}`, { authorId: id });
      expect(missing.status).toBe(404);
      expect((await json<ErrorBody>(missing)).error.code).toBe("NOT_FOUND");
    }
    for (const id of ["abc", "1.5", "-3", "0"]) {
      expect((await call(getOne, `/api/v1/authors/${id}`, { authorId: id })).status, id).toBe(400);
    }
  });

  it("answers 304 when If-None-Match holds the current ETag", async () => {
    const { ada } = await setup();
    const first = await call(getOne, `/api/v1/authors/${ada.id}`, { authorId: String(ada.id) });
    const etag = first.headers.get("etag")!;
    expect(first.headers.get("cache-tag")).toBe(`a/${ada.id}`);
    const again = await call(
      getOne,
      `/api/v1/authors/${ada.id}`,
      { authorId: String(ada.id) },
      { "if-none-match": etag },
    );
    expect(again.status).toBe(304);
  });
});

describe("GET /api/v1/authors/<id>/collection", () => {
  it("pages the author's published stories, newest first, as collection items; drafts never appear", async () => {
    const { db, publisher, ada, grace } = await setup();
    const old = await insertStory(db, publisher.id, {
      headline: "Old news",
      authorIds: [ada.id],
      publishedAt: new Date("2024-01-01T00:00:00Z"),
    });
    const recent = await insertStory(db, publisher.id, {
      headline: "Recent news",
      authorIds: [grace.id, ada.id],
      publishedAt: new Date("2025-06-01T00:00:00Z"),
    });
    const middle = await insertStory(db, publisher.id, {
      headline: "Middle news",
      authorIds: [ada.id],
      publishedAt: new Date("2024-06-01T00:00:00Z"),
    });
    await insertStory(db, publisher.id, { headline: "Draft", authorIds: [ada.id], status: "DRAFT" });
    await insertStory(db, publisher.id, { headline: "Retracted", authorIds: [ada.id], status: "RETRACTED" });
    await insertStory(db, publisher.id, { headline: "Not hers", authorIds: [grace.id] });

    const res = await call(getCollection, `/api/v1/authors/${ada.id}/collection`, { authorId: String(ada.id) });
    expect(res.status).toBe(200);
    const body = await json<AuthorCollection>(res);
    expect(body).toMatchObject({ id: ada.id, slug: "ada-lovelace", name: "Ada Lovelace", "total-count": 3 });
    expect(body.items.map((i: { id: string }) => i.id)).toEqual([recent.id, middle.id, old.id]);
    expect(body.items[0]).toMatchObject({
      id: recent.id,
      type: "story",
      story: { id: recent.id, headline: "Recent news", status: "published" },
    });
    expect(body.items[0]?.story.authors.map((a: { id: number }) => a.id)).toEqual([grace.id, ada.id]);
    expect(body.items[0]?.story.url).toBe("https://news.example.com/recent-news");
    expect(res.headers.get("surrogate-key")).toContain(`s/${recent.id}`);

    const page = await json<AuthorCollection>(
      await call(getCollection, `/api/v1/authors/${ada.id}/collection?limit=1&offset=1&story-fields=headline,slug`, {
        authorId: String(ada.id),
      }),
    );
    expect(page["total-count"]).toBe(3);
    expect(page.items).toEqual([
      { id: middle.id, type: "story", story: { id: middle.id, headline: "Middle news", slug: "middle-news" } },
    ]);
  });

  it("404 for an unknown author, 400 for bad input", async () => {
    await setup();
    expect((await call(getCollection, "/api/v1/authors/4242/collection", { authorId: "4242" })).status).toBe(404);
    expect((await call(getCollection, "/api/v1/authors/x/collection", { authorId: "x" })).status).toBe(400);
    expect((await call(getCollection, "/api/v1/authors/1/collection?limit=x", { authorId: "1" })).status).toBe(400);
    expect((await call(getCollection, "/api/v1/authors/1/collection?fields=a;b", { authorId: "1" })).status).toBe(400);
  });
});
