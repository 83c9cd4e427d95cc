/** PUT .../pages/{b64}/comments/{id} and POST .../comments/{id}/hide: the author only, on this page only. */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { TCommentList, TCommentWire } from "@/server/engagement/comments.schema";
import { call, pageId, readerJwt, unsignedJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { POST as CREATE, GET } from "../../comments.json/route";
import { POST as HIDE } from "./hide/route";
import { PUT } from "./route";

const URL_A = "https://news.example.com/politics/a-story";
const B64 = pageId(URL_A);

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const id = String(account.id);
  const jwt = await readerJwt({ id: "author-1", name: "Ada" });
  const res = await call(
    CREATE,
    "POST",
    "/x",
    { account_id: id, encoded_url: B64 },
    { comment: { body: { ops: [{ insert: "Original" }] } }, jwt },
  );
  expect(res.status).toBe(201);
  const { comment } = (await res.json()) as { comment: TCommentWire };
  return { db, id, jwt, comment };
}

const edit = (id: string, b64: string, commentId: number | string, body: unknown) =>
  call(PUT, "PUT", "/x", { account_id: id, encoded_url: b64, comment_id: String(commentId) }, body);
const hide = (id: string, b64: string, commentId: number | string, body: unknown) =>
  call(HIDE, "POST", "/x", { account_id: id, encoded_url: b64, comment_id: String(commentId) }, body);

describe("PUT comments/{id}", () => {
  it("lets the author replace the ops, setting edited_at", async () => {
    const { db, id, jwt, comment } = await setup();
    const res = await edit(id, B64, comment.id, { comment: { ops: [{ insert: "Edited" }] }, jwt });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { comment: TCommentWire };
    expect(body.comment).toMatchObject({ id: comment.id, body: { ops: [{ insert: "Edited\n" }] } });
    expect(body.comment.edited_at).toMatch(/Z$/);
    expect((await db.comment.findUniqueOrThrow({ where: { id: comment.id } })).body).toEqual({
      ops: [{ insert: "Edited\n" }],
    });
  });

  it("answers 403 to another reader, 401 without or with a bad jwt, changing nothing", async () => {
    const { db, id, comment } = await setup();
    const ops = { comment: { ops: [{ insert: "Hijacked" }] } };
    expect(
      (await edit(id, B64, comment.id, { ...ops, jwt: await readerJwt({ id: "other", name: "Eve" }) })).status,
    ).toBe(403);
    expect((await edit(id, B64, comment.id, ops)).status).toBe(401);
    expect(
      (await edit(id, B64, comment.id, { ...ops, jwt: unsignedJwt({ id: "author-1", name: "Ada" }) })).status,
    ).toBe(401);
    expect((await db.comment.findUniqueOrThrow({ where: { id: comment.id } })).editedAt).toBeNull();
  });

  it("answers 404 for another page's or account's comment id, and 400 for bad ids and ops", async () => {
    const { id, jwt, comment } = await setup();
    const ops = { comment: { ops: [{ insert: "x" }] }, jwt };
    expect((await edit(id, pageId("https://news.example.com/other"), comment.id, ops)).status).toBe(404);
    expect((await edit(id, B64, comment.id + 1000, ops)).status).toBe(404);
    const other = await createTestPublisher(await getDb());
    const otherJwt = await readerJwt({ id: "author-1", name: "Ada" });
    expect((await edit(String(other.id), B64, comment.id, { ...ops, jwt: otherJwt })).status).toBe(404);
    expect((await edit(id, B64, "01", ops)).status).toBe(400);
    expect((await edit(id, "%%", comment.id, ops)).status).toBe(400);
    const js = { comment: { ops: [{ attributes: { link: "javascript:alert(1)" }, insert: "x" }] }, jwt };
    expect((await edit(id, B64, comment.id, js)).status).toBe(400);
  });
});

describe("POST comments/{id}/hide", () => {
  it("lets the author hide the comment; lists then leave it out", async () => {
    const { id, jwt, comment } = await setup();
    expect((await hide(id, B64, comment.id, { jwt: await readerJwt({ id: "other", name: "Eve" }) })).status).toBe(403);
    expect((await hide(id, B64, comment.id, {})).status).toBe(401);
    const res = await hide(id, B64, comment.id, { jwt });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { comment: TCommentWire };
    expect(body.comment).toMatchObject({ hidden: true, hidden_by_id: comment.author_id });
    expect(body.comment.hidden_at).toMatch(/Z$/);
    const again = (await (await hide(id, B64, comment.id, { jwt })).json()) as { comment: TCommentWire };
    expect(again.comment.hidden_at).toBe(body.comment.hidden_at);
    const listed = (await (await call(GET, "GET", "/x", { account_id: id, encoded_url: B64 })).json()) as TCommentList;
    expect(listed).toEqual({ total_count: 0, comments: [], total_parent_comments_count: 0 });
  });
});
