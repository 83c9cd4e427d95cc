/**
 * A held comment stays visible to its author, and to nobody else (docs/engagement.md "Held
 * comments, seen by their author"): awaiting_review.json answers the JWT reader's own comments on
 * the page that wait for a moderator, as the list would show them, until a moderator decides or
 * the comment is deleted; never another reader's, another page's or another account's.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { TCommentList, TCommentWire } from "@/server/engagement/comments.schema";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";

import { GET as LIST, POST } from "../comments.json/route";
import { GET } from "./route";

const URL_A = "https://news.example.com/politics/a-story";
const URL_B = "https://news.example.com/sport/another-story";
const ADA = { id: "reader-ada", name: "Ada" };
const BO = { id: "reader-bo", name: "Bo" };
const TOXIC = "You are an idiot and everyone can see it.";
const CLEAN = "A careful, fair piece of reporting.";
const SPAM = "Make money from home, click here: www.easy-cash.example.xyz";

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
  return { db, account, id: String(account.id), moderator };
}

async function post(id: string, text: string, reader = ADA, url = URL_A): Promise<TCommentWire> {
  const res = await call(
    POST,
    "POST",
    "/x",
    { account_id: id, encoded_url: pageId(url) },
    { comment: { body: { ops: [{ insert: text }] } }, jwt: await readerJwt(reader) },
  );
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return ((await res.json()) as { comment: TCommentWire }).comment;
}

async function awaiting(id: string, reader: typeof ADA | null, url = URL_A): Promise<Response> {
  const jwt = reader ? `?jwt=${encodeURIComponent(await readerJwt(reader))}` : "";
  return call(GET, "GET", `/x${jwt}`, { account_id: id, encoded_url: pageId(url) });
}

async function awaitingIds(id: string, reader: typeof ADA, url = URL_A): Promise<number[]> {
  const res = await awaiting(id, reader, url);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return ((await res.json()) as { comments: TCommentWire[] }).comments.map((c) => c.id);
}

async function listed(id: string): Promise<number[]> {
  const res = await call(LIST, "GET", "/x", { account_id: id, encoded_url: pageId(URL_A) });
  expect(res.status).toBe(200);
  return ((await res.json()) as TCommentList).comments.map((c) => c.id);
}

describe("awaiting_review.json", () => {
  it("answers the author's held comments, as the list shows comments, to them alone", async () => {
    const { id } = await setup();
    const clean = await post(id, CLEAN);
    const held = await post(id, TOXIC);
    const spam = await post(id, SPAM);
    expect(held.is_published).toBe(false);
    expect(spam).toMatchObject({ is_published: false, is_spam: true });

    // The public list: the clean comment only.
    expect(await listed(id)).toEqual([clean.id]);

    // Its author, after a reload: both held comments, oldest first, in the list's shape.
    const res = await awaiting(id, ADA);
    expect(res.status).toBe(200);
    const { comments } = (await res.json()) as { comments: TCommentWire[] };
    expect(comments.map((c) => c.id)).toEqual([held.id, spam.id]);
    expect(comments[0]).toMatchObject({
      id: held.id,
      is_published: false,
      author_id: held.author_id,
      body: { ops: [{ insert: `${TOXIC}\n` }] },
      my_reactions: [],
    });

    // Another reader, a reader never seen, no jwt, another page.
    expect(await awaitingIds(id, BO)).toEqual([]);
    expect(await awaitingIds(id, { id: "reader-never-seen", name: "Cy" })).toEqual([]);
    expect((await awaiting(id, null)).status).toBe(401);
    expect(await awaitingIds(id, ADA, URL_B)).toEqual([]);
    expect(await awaitingIds(id, ADA, "https://news.example.com/never-commented")).toEqual([]);
  });

  it("drops a comment once a moderator decides or deletes it", async () => {
    const { id, moderator } = await setup();
    const rejected = await post(id, TOXIC);
    const approved = await post(id, `${TOXIC} Truly.`);
    const deleted = await post(id, `${TOXIC} Really.`);
    const waiting = await post(id, `${TOXIC} Again.`);
    expect(await awaitingIds(id, ADA)).toEqual([rejected.id, approved.id, deleted.id, waiting.id]);

    await moderator.caller.moderation.act({ commentId: rejected.id, action: "reject" });
    await moderator.caller.moderation.act({ commentId: approved.id, action: "approve" });
    await moderator.caller.moderation.act({ commentId: deleted.id, action: "delete" });
    expect(await awaitingIds(id, ADA)).toEqual([waiting.id]);
    // The approved one is in the public list now, for everyone.
    expect(await listed(id)).toEqual([approved.id]);
  });

  it("keeps each account's readers apart, and refuses a page id that is not one", async () => {
    const a = await setup();
    const b = await setup();
    const held = await post(a.id, TOXIC);
    expect(await awaitingIds(a.id, ADA)).toEqual([held.id]);
    // The same publisher id in another account is another reader.
    expect(await awaitingIds(b.id, ADA)).toEqual([]);

    const bad = await call(GET, "GET", `/x?jwt=${encodeURIComponent(await readerJwt(ADA))}`, {
      account_id: a.id,
      encoded_url: "%%%not-base64",
    });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { code: string; details?: { field: string }[] } };
    expect(body.error.code).toBe("BAD_REQUEST");
    expect(body.error.details?.[0]?.field).toBe("params.encoded_url");
  });
});
