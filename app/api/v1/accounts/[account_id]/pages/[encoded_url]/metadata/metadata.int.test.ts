/** PUT .../pages/{b64}/metadata: flat metadata, og:title/og:image, author_ids only from a publisher-signed metadata_jwt. */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { TCommentList, TCommentWire } from "@/server/engagement/comments.schema";
import type { TPageMetadataAnswer } from "@/server/engagement/page-metadata.schema";
import { call, pageId, readerJwt, unsignedJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { POST as CREATE, GET as LIST } from "../comments.json/route";
import { PUT } from "./route";

const URL_A = "https://news.example.com/politics/a-story";
const B64 = pageId(URL_A);

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  return { db, id: String(account.id) };
}

const put = (id: string, b64: string, body: unknown) =>
  call(PUT, "PUT", "/x", { account_id: id, encoded_url: b64 }, body);

/** What the publisher's back end signs for a page: its authors. */
const metadataJwt = (claims: Record<string, unknown>, options: { secret?: string; exp?: number } = {}) =>
  readerJwt(claims, options);

async function comment(id: string, jwt: string) {
  const res = await call(
    CREATE,
    "POST",
    "/x",
    { account_id: id, encoded_url: B64 },
    { comment: { body: { ops: [{ insert: "Hi" }] } }, jwt },
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { comment: TCommentWire }).comment;
}

describe("PUT pages/{b64}/metadata", () => {
  it("stores flat metadata, og:title as the headline and og:image as the hero image, shown in comments", async () => {
    const { db, id } = await setup();
    const metadata = {
      "og:title": "A story",
      "og:image": "https://images.example.com/hero.jpg",
      section: ["politics", "world"],
      word_count: 1200,
    };
    const res = await put(id, B64, { metadata });
    expect(res.status).toBe(200);
    const body = (await res.json()) as TPageMetadataAnswer;
    expect(body).toEqual({
      page: {
        id: expect.any(Number) as number,
        page_url: URL_A,
        headline: "A story",
        hero_image_url: "https://images.example.com/hero.jpg",
        metadata,
        author_ids_count: 0,
      },
      ignored: [],
    });
    const created = await comment(id, await readerJwt({ id: "reader-1", name: "Ada" }));
    expect(created).toMatchObject({
      headline: "A story",
      hero_image_url: "https://images.example.com/hero.jpg",
      is_page_author: false,
    });
    // Replaced: the metadata wholly, headline and hero image only when given.
    const again = (await (await put(id, B64, { metadata: { section: "sport" } })).json()) as TPageMetadataAnswer;
    expect(again.page).toMatchObject({ metadata: { section: "sport" }, headline: "A story" });
    expect(await db.page.count()).toBe(1);
  });

  it("takes author_ids only from a publisher-signed metadata_jwt for this page; is_page_author follows", async () => {
    const { db, id } = await setup();
    const author = await readerJwt({ id: "staff-9", name: "Editor" });
    // A reader claiming authorship in the metadata: ignored.
    const claimed = await put(id, B64, { metadata: { author_ids: ["staff-9", "reader-1"], section: "x" } });
    expect(claimed.status).toBe(200);
    const claimedBody = (await claimed.json()) as TPageMetadataAnswer;
    expect(claimedBody.ignored).toEqual(["author_ids"]);
    expect(claimedBody.page).toMatchObject({ metadata: { section: "x" }, author_ids_count: 0 });
    expect((await comment(id, author)).is_page_author).toBe(false);

    const signed = await metadataJwt({ page_url: URL_A, author_ids: ["staff-9", 42] });
    const res = await put(id, B64, { metadata: { author_ids: ["reader-1"] }, metadata_jwt: signed });
    expect(res.status).toBe(200);
    expect(((await res.json()) as TPageMetadataAnswer).page.author_ids_count).toBe(2);
    expect((await db.page.findFirstOrThrow()).authorIds).toEqual(["staff-9", "42"]);
    const list = (await (await call(LIST, "GET", "/x", { account_id: id, encoded_url: B64 })).json()) as TCommentList;
    expect(list.comments.map((c) => c.is_page_author)).toEqual([true]);
    const byReader = await comment(id, await readerJwt({ id: "reader-1", name: "Ada" }));
    expect(byReader.is_page_author).toBe(false);
    // A later call without a metadata_jwt keeps the authors.
    await put(id, B64, { metadata: {} });
    expect((await db.page.findFirstOrThrow()).authorIds).toEqual(["staff-9", "42"]);
  });

  it("counts a reader as the page's author by any of their publisher ids", async () => {
    const { db, id } = await setup();
    const byReader = await comment(id, await readerJwt({ id: "reader-1", name: "Ada" }));
    // The same member is also known to the publisher as staff-9 (a second publisher identity).
    await db.memberIdentity.create({
      data: { accountId: Number(id), provider: "publisher", externalId: "staff-9", memberId: byReader.author_id },
    });
    await put(id, B64, { metadata: {}, metadata_jwt: await metadataJwt({ page_url: URL_A, author_ids: ["staff-9"] }) });
    const list = (await (await call(LIST, "GET", "/x", { account_id: id, encoded_url: B64 })).json()) as TCommentList;
    expect(list.comments.map((c) => [c.id, c.is_page_author])).toEqual([[byReader.id, true]]);
  });

  it("refuses a metadata_jwt that is forged, unsigned, expired (401), for another page (403) or without the claims (400)", async () => {
    const { db, id } = await setup();
    const claims = { page_url: URL_A, author_ids: ["reader-1"] };
    const forged = await metadataJwt(claims, { secret: "a-reader-guessing-the-key-0000" });
    expect((await put(id, B64, { metadata: {}, metadata_jwt: forged })).status).toBe(401);
    expect((await put(id, B64, { metadata: {}, metadata_jwt: unsignedJwt(claims) })).status).toBe(401);
    const expired = await metadataJwt(claims, { exp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await put(id, B64, { metadata: {}, metadata_jwt: expired })).status).toBe(401);
    const elsewhere = await metadataJwt({ page_url: "https://news.example.com/other", author_ids: ["reader-1"] });
    expect((await put(id, B64, { metadata: {}, metadata_jwt: elsewhere })).status).toBe(403);
    // A reader's login token is no metadata_jwt.
    const login = await readerJwt({ id: "reader-1", name: "Ada" });
    expect((await put(id, B64, { metadata: {}, metadata_jwt: login })).status).toBe(400);
    // The same page written otherwise (tracking parameters, fragment) is this page.
    const same = await metadataJwt({ page_url: `${URL_A}?utm_source=x#top`, author_ids: ["a"] });
    expect((await put(id, B64, { metadata: {}, metadata_jwt: same })).status).toBe(200);
    expect((await db.page.findFirstOrThrow()).authorIds).toEqual(["a"]);
  });

  it("refuses nested, oversized and malformed metadata (400/413) and foreign hosts (403), creating nothing", async () => {
    const { db, id } = await setup();
    const bad = async (metadata: unknown, status = 400, field?: string) => {
      const res = await put(id, B64, { metadata });
      expect(res.status, JSON.stringify(metadata).slice(0, 80)).toBe(status);
      if (field) expect(JSON.stringify(await res.json())).toContain(field);
    };
    await bad({ author: { name: "x" } }, 400, "body.metadata.author");
    await bad({ tags: [["a"]] });
    await bad({ tags: [{ a: 1 }] });
    await bad({ flag: true });
    await bad({ nothing: null });
    await bad("a string");
    await bad(["a"]);
    await bad(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])));
    await bad({ "bad key": "x" });
    // "__proto__" as a JSON key (an object literal would set the prototype instead) is dropped, never stored.
    const proto = await put(id, B64, '{"metadata": {"__proto__": {"polluted": true}, "a": "b"}}');
    expect(proto.status).toBe(200);
    expect(((await proto.json()) as TPageMetadataAnswer).page.metadata).toEqual({ a: "b" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await db.page.deleteMany();
    await bad({ "og:image": "javascript:alert(1)" }, 400, "body.metadata.og:image");
    await bad({ "og:image": "data:image/png;base64,AAAA" }, 400, "body.metadata.og:image");
    await bad({ "og:title": ["a"] }, 400, "body.metadata.og:title");
    await bad({ text: "x".repeat(2001) });
    await bad({ ctl: "a\u0007b" });
    await bad(
      Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, "x".repeat(1100)])),
      413,
      "body.metadata",
    );
    expect((await put(id, B64, {})).status).toBe(400);
    expect((await put(id, "%%", { metadata: {} })).status).toBe(400);
    expect((await put(id, pageId("javascript:alert(1)"), { metadata: {} })).status).toBe(400);
    expect((await put(id, pageId("https://elsewhere.example.org/a"), { metadata: { a: "b" } })).status).toBe(403);
    expect((await put("999999", B64, { metadata: {} })).status).toBe(404);
    expect((await put(id, B64, { metadata: {}, jwt: unsignedJwt({ id: "r", name: "R" }) })).status).toBe(401);
    expect(await db.page.count()).toBe(0);
  });
});
