/**
 * GET .../feed and GET .../feed/me: the account's visible comments and the reader's own activity
 * (own comments with held ones marked, replies, mentions), cursor-paged, never another account's.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { TCommentList, TCommentWire } from "@/server/engagement/comments.schema";
import type { TFeed, TFeedItem, TMyFeed, TMyFeedItem } from "@/server/engagement/feed.schema";
import { hideComment, setupPublisher } from "@/server/testing/comment-calls";
import { call, pageId, readerJwt } from "@/server/testing/engagement";

import { POST as CREATE, GET as LIST } from "../pages/[encoded_url]/comments.json/route";
import { PUT as METADATA } from "../pages/[encoded_url]/metadata/route";
import { GET as MINE } from "./me/route";
import { GET } from "./route";

const URL_A = "https://news.example.com/politics/a-story";
const URL_B = "https://news.example.com/sport/b-story";

const ADA = { id: "reader-ada", name: "Ada" };
const BO = { id: "reader-bo", name: "Bo" };
const CY = { id: "reader-cy", name: "Cy" };

type Created = { comment: TCommentWire };
type ErrorBody = { error: { code: string; details?: { field: string }[] } };

async function post(
  id: string,
  reader: { id: string; name: string },
  ops: unknown[],
  options: { url?: string; parent?: number } = {},
): Promise<TCommentWire> {
  const res = await call(
    CREATE,
    "POST",
    "/x",
    { account_id: id, encoded_url: pageId(options.url ?? URL_A) },
    { comment: { body: { ops }, parent_comment_id: options.parent }, jwt: await readerJwt(reader) },
  );
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return ((await res.json()) as Created).comment;
}

const text = (t: string) => [{ insert: t }];
const mentionOp = (memberId: number, name: string) => ({
  attributes: { mention: { name, slug: name.toLowerCase(), id: String(memberId) }, link: name.toLowerCase() },
  insert: { mentions: true },
});

async function feed(id: string, query = ""): Promise<TFeed> {
  const res = await call(GET, "GET", `/x${query}`, { account_id: id });
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  return (await res.json()) as TFeed;
}

async function mine(id: string, reader: { id: string; name: string }, query = ""): Promise<TMyFeed> {
  const jwt = await readerJwt(reader);
  const res = await call(MINE, "GET", `/x?jwt=${jwt}${query}`, { account_id: id });
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  return (await res.json()) as TMyFeed;
}

const ids = (items: TFeedItem[]) => items.map((i) => i.comment.id);

describe("GET /feed", () => {
  it("lists the account's visible comments newest first, each with its page, in the comments API's shape", async () => {
    const { id } = await setupPublisher();
    const meta = await call(
      METADATA,
      "PUT",
      "/x",
      { account_id: id, encoded_url: pageId(URL_B) },
      { metadata: { "og:title": "B story", "og:image": "https://news.example.com/b.jpg" } },
    );
    expect(meta.status).toBe(200);
    const first = await post(id, ADA, text("First on A"));
    const onB = await post(id, BO, text("On B"), { url: URL_B });
    const reply = await post(id, BO, text("A reply"), { parent: first.id });
    const held = await post(id, CY, text("You idiot"));
    expect(held.is_published).toBe(false);
    const hidden = await post(id, CY, text("Soon hidden"));
    const hide = await hideComment(id, URL_A, hidden.id, CY);
    expect(hide.status).toBe(200);

    const res = await call(GET, "GET", "/x", { account_id: id });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    // Reads are not rate-limited, as the comment lists are not (a per-IP limit is global without TRUST_PROXY).
    expect(res.headers.get("ratelimit-limit")).toBeNull();
    const body = (await res.json()) as TFeed;
    expect(ids(body.items)).toEqual([reply.id, onB.id, first.id]);
    expect(body.next_cursor).toBeNull();
    expect(body.items[1]!.page).toEqual({
      id: onB.page_id,
      url: URL_B,
      headline: "B story",
      hero_image_url: "https://news.example.com/b.jpg",
    });
    expect(body.items[1]!.comment).toMatchObject({ headline: "B story", page_url: URL_B, realm_comment_count: 3 });
    // The same comment object as the comments API gives (without the list's `replies`).
    const listed = (await (
      await call(LIST, "GET", "/x", { account_id: id, encoded_url: pageId(URL_A) })
    ).json()) as TCommentList;
    const { replies: _replies, ...listedFirst } = listed.comments.find((c) => c.id === first.id)!;
    expect(body.items[2]!.comment).toEqual(listedFirst);

    // Only one page's, by its page id; an unknown page is empty.
    expect(ids((await feed(id, `?page=${encodeURIComponent(pageId(URL_B))}`)).items)).toEqual([onB.id]);
    // A btoa id with a `+`, sent unencoded (the `+` arrives as a space), names the same page.
    const plusUrl = "https://news.example.com/sport/b-story?q=>>>";
    const plusId = btoa(plusUrl);
    expect(plusId).toContain("+");
    const onPlus = await post(id, BO, text("On the plus page"), { url: plusUrl });
    expect(ids((await feed(id, `?page=${plusId}`)).items)).toEqual([onPlus.id]);
    expect((await feed(id, `?page=${encodeURIComponent(pageId("https://news.example.com/none"))}`)).items).toEqual([]);
  });

  it("never shows another account's comments, and 404s an unknown account", async () => {
    const { id } = await setupPublisher();
    const { id: otherId } = await setupPublisher();
    const mineComment = await post(id, ADA, text("Mine"));
    const theirs = await post(otherId, ADA, text("Theirs"));
    expect(ids((await feed(id)).items)).toEqual([mineComment.id]);
    expect(ids((await feed(otherId)).items)).toEqual([theirs.id]);
    expect((await call(GET, "GET", "/x", { account_id: "99999999" })).status).toBe(404);
  });

  it("pages by cursor without repeating or skipping when comments arrive meanwhile", async () => {
    const { id } = await setupPublisher();
    const made: number[] = [];
    for (let i = 0; i < 7; i++) made.push((await post(id, ADA, text(`Comment ${i}`))).id);
    const newestFirst = [...made].reverse();
    const page1 = await feed(id, "?limit=3");
    expect(ids(page1.items)).toEqual(newestFirst.slice(0, 3));
    expect(page1.next_cursor).toEqual(expect.any(String));
    // A comment written while the reader pages does not shift the next page.
    const late = await post(id, BO, text("Late"));
    const page2 = await feed(id, `?limit=3&cursor=${page1.next_cursor}`);
    expect(ids(page2.items)).toEqual(newestFirst.slice(3, 6));
    const page3 = await feed(id, `?limit=3&cursor=${page2.next_cursor}`);
    expect(ids(page3.items)).toEqual(newestFirst.slice(6));
    expect(page3.next_cursor).toBeNull();
    expect(ids((await feed(id, "?limit=1")).items)).toEqual([late.id]);
    // Default 20.
    expect((await feed(id)).items).toHaveLength(8);
  });

  it("refuses bad limits, cursors and page ids (400)", async () => {
    const { id } = await setupPublisher();
    for (const query of [
      "?limit=0",
      "?limit=51",
      "?limit=05",
      "?limit=ten",
      "?cursor=nope",
      "?cursor=",
      `?cursor=${Buffer.from("f1.1.0").toString("base64url")}`,
      `?cursor=${Buffer.from("f1.1.99999999999").toString("base64url")}`,
      `?page=${encodeURIComponent(btoa("javascript:alert(1)"))}`,
    ]) {
      const res = await call(GET, "GET", `/x${query}`, { account_id: id });
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as ErrorBody).error.code).toBe("BAD_REQUEST");
    }
  });
});

describe("GET /feed/me", () => {
  it("answers 401 without a valid jwt", async () => {
    const { id } = await setupPublisher();
    expect((await call(MINE, "GET", "/x", { account_id: id })).status).toBe(401);
    const forged = await readerJwt(ADA, { secret: "not-the-shared-secret-0000000000000" });
    expect((await call(MINE, "GET", `/x?jwt=${forged}`, { account_id: id })).status).toBe(401);
  });

  it("lists the reader's comments (held ones marked), replies by others and mentions, for the right reader only", async () => {
    const { id } = await setupPublisher();
    const adaTop = await post(id, ADA, text("Ada's comment"));
    const adaMember = adaTop.author_id;
    const adaHeld = await post(id, ADA, text("You idiot"));
    expect(adaHeld.is_published).toBe(false);
    const boReply = await post(id, BO, text("Bo replies to Ada"), { parent: adaTop.id });
    const adaOwnReply = await post(id, ADA, text("Ada answers herself"), { parent: adaTop.id });
    const boMention = await post(id, BO, [{ insert: "Look, " }, mentionOp(adaMember, "Ada")], { url: URL_B });
    // A reply that also mentions Ada is one item: a reply.
    const cyReplyMention = await post(id, CY, [mentionOp(adaMember, "Ada"), { insert: " agreed" }], {
      parent: adaTop.id,
    });
    // Held, hidden and mentions of others are not Ada's activity.
    await post(id, CY, [mentionOp(adaMember, "Ada"), { insert: " you idiot" }]);
    const boTop = await post(id, BO, text("Bo's own"));
    await post(id, CY, [mentionOp(boTop.author_id, "Bo"), { insert: " hi" }]);
    const cyHidden = await post(id, CY, text("Cy replies, then hides it"), { parent: adaTop.id });
    await hideComment(id, URL_A, cyHidden.id, CY);

    const ada = await mine(id, ADA);
    expect(ada.items.map((i) => [i.comment.id, i.type, i.held])).toEqual([
      [cyReplyMention.id, "reply", false],
      [boMention.id, "mention", false],
      [adaOwnReply.id, "own_comment", false],
      [boReply.id, "reply", false],
      [adaHeld.id, "own_comment", true],
      [adaTop.id, "own_comment", false],
    ]);
    expect(ada.items[1]!.page.url).toBe(URL_B);
    expect(ada.items[1]!.comment.mentions).toEqual([{ id: String(adaMember), name: "Ada", slug: "ada" }]);
    expect(ada.next_cursor).toBeNull();
    // unread_count: replies and mentions newer than `since` (never the reader's own comments).
    expect(ada.unread_count).toBeNull();
    expect((await mine(id, ADA, "&since=2000-01-01T00:00:00.000Z")).unread_count).toBe(3);
    expect((await mine(id, ADA, "&since=2999-01-01T00:00:00Z")).unread_count).toBe(0);
    expect((await mine(id, BO, "&since=2000-01-01T00:00:00Z")).unread_count).toBe(1);
    const badSince = await call(MINE, "GET", `/x?jwt=${await readerJwt(ADA)}&since=yesterday`, { account_id: id });
    expect(badSince.status).toBe(400);

    // Bo sees his own comments, Ada's reply to his… none, and the mention by Cy; never Ada's held one.
    const bo = await mine(id, BO);
    expect(bo.items.map((i) => i.type)).toEqual(["mention", "own_comment", "own_comment", "own_comment"]);
    expect(bo.items.some((i) => i.comment.id === adaHeld.id)).toBe(false);
    // The public feed has no held comment.
    expect(ids((await feed(id)).items)).not.toContain(adaHeld.id);
    // A reader never seen has no activity (and reading creates no member).
    const nobody = { id: "never-seen", name: "N" };
    expect((await mine(id, nobody)).items).toEqual([]);
    const db = await getDb();
    expect(await db.memberIdentity.count({ where: { externalId: "never-seen" } })).toBe(0);
  });

  it("keeps accounts apart: the same jwt id in another account is another reader", async () => {
    const { id } = await setupPublisher();
    const { id: otherId } = await setupPublisher();
    const adaHere = await post(id, ADA, text("Here"));
    await post(id, BO, text("Reply here"), { parent: adaHere.id });
    const adaThere = await post(otherId, ADA, text("There"));
    const there = await mine(otherId, ADA);
    expect(ids(there.items)).toEqual([adaThere.id]);
    // A mention op naming a member of another account finds nobody here.
    await post(otherId, BO, [mentionOp(adaHere.author_id, "Ada"), { insert: " hi" }]);
    expect(ids((await mine(id, ADA)).items)).toHaveLength(2);
  });

  it("pages the reader's feed by cursor", async () => {
    const { id } = await setupPublisher();
    const top = await post(id, ADA, text("Top"));
    const made = [top.id];
    for (let i = 0; i < 4; i++) made.push((await post(id, BO, text(`Reply ${i}`), { parent: top.id })).id);
    const newestFirst = [...made].reverse();
    const seen: number[] = [];
    let cursor: string | null = null;
    for (let round = 0; round < 5; round++) {
      const page: TFeed<TMyFeedItem> = await mine(id, ADA, `&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...ids(page.items));
      cursor = page.next_cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(newestFirst);
    const bad = await call(MINE, "GET", `/x?jwt=${await readerJwt(ADA)}&limit=51`, { account_id: id });
    expect(bad.status).toBe(400);
  });
});
