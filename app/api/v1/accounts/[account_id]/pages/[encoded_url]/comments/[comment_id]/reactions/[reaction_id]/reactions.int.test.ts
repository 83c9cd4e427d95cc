/** POST and DELETE .../pages/{b64}/comments/{id}/reactions/{reaction_id}: one per reader, comment and reaction. */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { TCommentList, TCommentWire } from "@/server/engagement/comments.schema";
import { call, pageId, readerJwt, unsignedJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { POST as CREATE, GET as LIST } from "../../../../comments.json/route";
import { POST as HIDE } from "../../hide/route";
import { DELETE, POST } from "./route";

const URL_A = "https://news.example.com/politics/a-story";
const B64 = pageId(URL_A);

type Answer = { comment: TCommentWire };

async function post(id: string, text: string, jwt: string) {
  const res = await call(
    CREATE,
    "POST",
    "/x",
    { account_id: id, encoded_url: B64 },
    { comment: { body: { ops: [{ insert: text }] } }, jwt },
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as Answer).comment;
}

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const id = String(account.id);
  const jwt = await readerJwt({ id: "reader-1", name: "Ada" });
  const comment = await post(id, "Original", await readerJwt({ id: "author-1", name: "Bea" }));
  return { db, id, jwt, comment };
}

const params = (id: string, b64: string, commentId: number | string, reaction: string) => ({
  account_id: id,
  encoded_url: b64,
  comment_id: String(commentId),
  reaction_id: reaction,
});
const add = (id: string, b64: string, commentId: number | string, reaction: string, body: unknown) =>
  call(POST, "POST", "/x", params(id, b64, commentId, reaction), body);
const remove = (id: string, b64: string, commentId: number | string, reaction: string, jwt?: string) =>
  call(DELETE, "DELETE", jwt ? `/x?jwt=${jwt}` : "/x", params(id, b64, commentId, reaction));

describe("POST reactions/{reaction_id}", () => {
  it("counts one reaction per reader and reaction id; adding again changes nothing", async () => {
    const { db, id, jwt, comment } = await setup();
    const res = await add(id, B64, comment.id, "like", { jwt });
    expect(res.status).toBe(200);
    // The rule closest to its limit is shown: the reader's (60 a minute), not the IP's (120).
    expect(res.headers.get("ratelimit-limit")).toBe("60");
    expect(((await res.json()) as Answer).comment).toMatchObject({ id: comment.id, reactions: { like: 1 } });
    const again = await add(id, B64, comment.id, "like", { jwt });
    expect(again.status).toBe(200);
    expect(((await again.json()) as Answer).comment.reactions).toEqual({ like: 1 });
    await add(id, B64, comment.id, "love", { jwt });
    const other = await add(id, B64, comment.id, "like", { jwt: await readerJwt({ id: "reader-2", name: "Cy" }) });
    expect(((await other.json()) as Answer).comment.reactions).toEqual({ like: 2, love: 1 });
    expect(await db.commentReaction.count()).toBe(3);
    const listed = (await (await call(LIST, "GET", "/x", { account_id: id, encoded_url: B64 })).json()) as TCommentList;
    expect(listed.comments[0]!.reactions).toEqual({ like: 2, love: 1 });
  });

  it("makes one row when the same reader adds the same reaction many times at once", async () => {
    const { db, id, comment } = await setup();
    const jwt = await readerJwt({ id: "first-seen", name: "New" });
    const answers = await Promise.all(Array.from({ length: 6 }, () => add(id, B64, comment.id, "wow", { jwt })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await db.commentReaction.count({ where: { commentId: comment.id, reactionId: "wow" } })).toBe(1);
    expect(await db.memberIdentity.count({ where: { externalId: "first-seen" } })).toBe(1);
    const last = (await (await add(id, B64, comment.id, "wow", { jwt })).json()) as Answer;
    expect(last.comment.reactions).toEqual({ wow: 1 });
  });

  it("refuses unknown reaction ids and bad ids (400), readers without a valid jwt (401)", async () => {
    const { db, id, jwt, comment } = await setup();
    const bad = await add(id, B64, comment.id, "thumbsup", { jwt });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("params.reaction_id");
    expect((await add(id, B64, comment.id, "LIKE", { jwt })).status).toBe(400);
    expect((await add(id, B64, "01", "like", { jwt })).status).toBe(400);
    expect((await add(id, "%%", comment.id, "like", { jwt })).status).toBe(400);
    expect((await add(id, B64, comment.id, "like", {})).status).toBe(401);
    expect((await add(id, B64, comment.id, "like", { jwt: unsignedJwt({ id: "x", name: "X" }) })).status).toBe(401);
    const expired = await readerJwt({ id: "x", name: "X" }, { exp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await add(id, B64, comment.id, "like", { jwt: expired })).status).toBe(401);
    expect(await db.commentReaction.count()).toBe(0);
  });

  it("answers 404 for another page's or account's comment, and for a hidden comment", async () => {
    const { db, id, jwt, comment } = await setup();
    expect((await add(id, pageId("https://news.example.com/other"), comment.id, "like", { jwt })).status).toBe(404);
    expect((await add(id, B64, comment.id + 1000, "like", { jwt })).status).toBe(404);
    const other = await createTestPublisher(db);
    expect((await add(String(other.id), B64, comment.id, "like", { jwt })).status).toBe(404);
    expect((await add("999999", B64, comment.id, "like", { jwt })).status).toBe(404);
    const authorJwt = await readerJwt({ id: "author-1", name: "Bea" });
    const hidden = await call(
      HIDE,
      "POST",
      "/x",
      { account_id: id, encoded_url: B64, comment_id: String(comment.id) },
      { jwt: authorJwt },
    );
    expect(hidden.status).toBe(200);
    expect((await add(id, B64, comment.id, "like", { jwt })).status).toBe(404);
    await db.comment.update({ where: { id: comment.id }, data: { hiddenAt: null, deletedAt: new Date() } });
    expect((await add(id, B64, comment.id, "like", { jwt })).status).toBe(404);
    expect(await db.commentReaction.count()).toBe(0);
  });
});

describe("my_reactions", () => {
  it("tells the reader their own reactions: in the answers to their reaction calls and in the list with their jwt", async () => {
    const { id, jwt, comment } = await setup();
    const other = await readerJwt({ id: "reader-2", name: "Cy" });
    const given = ((await (await add(id, B64, comment.id, "love", { jwt })).json()) as Answer).comment;
    expect(given.my_reactions).toEqual(["love"]);
    await add(id, B64, comment.id, "haha", { jwt });
    const byOther = ((await (await add(id, B64, comment.id, "love", { jwt: other })).json()) as Answer).comment;
    expect(byOther).toMatchObject({ reactions: { love: 2, haha: 1 }, my_reactions: ["love"] });
    const list = async (query: string) =>
      ((await (await call(LIST, "GET", `/x${query}`, { account_id: id, encoded_url: B64 })).json()) as TCommentList)
        .comments[0]!;
    expect((await list(`?jwt=${jwt}`)).my_reactions?.sort()).toEqual(["haha", "love"]);
    expect((await list(`?jwt=${other}`)).my_reactions).toEqual(["love"]);
    // A reader never seen has none; without a jwt the field is not there.
    expect((await list(`?jwt=${await readerJwt({ id: "new", name: "N" })}`)).my_reactions).toEqual([]);
    expect(await list("")).not.toHaveProperty("my_reactions");
    const taken = ((await (await remove(id, B64, comment.id, "love", jwt)).json()) as Answer).comment;
    expect(taken.my_reactions).toEqual(["haha"]);
  });
});

describe("DELETE reactions/{reaction_id}", () => {
  it("takes the reader's reaction back; without one, answers 200 and changes nothing", async () => {
    const { db, id, jwt, comment } = await setup();
    const otherJwt = await readerJwt({ id: "reader-2", name: "Cy" });
    await add(id, B64, comment.id, "sad", { jwt });
    await add(id, B64, comment.id, "sad", { jwt: otherJwt });
    const res = await remove(id, B64, comment.id, "sad", jwt);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Answer).comment.reactions).toEqual({ sad: 1 });
    const again = await remove(id, B64, comment.id, "sad", jwt);
    expect(again.status).toBe(200);
    expect(((await again.json()) as Answer).comment.reactions).toEqual({ sad: 1 });
    // A reader never seen before has nothing to take back.
    const stranger = await remove(id, B64, comment.id, "sad", await readerJwt({ id: "never-seen", name: "N" }));
    expect(stranger.status).toBe(200);
    expect(await db.commentReaction.count()).toBe(1);
    expect((await remove(id, B64, comment.id, "sad")).status).toBe(401);
    expect((await remove(id, B64, comment.id, "nope", jwt)).status).toBe(400);
    expect((await remove(id, B64, comment.id + 1000, "sad", jwt)).status).toBe(404);
  });
});

describe("sort_order most_reacted", () => {
  it("lists the comments with the most reactions first", async () => {
    const { id, jwt, comment: first } = await setup();
    const second = await post(id, "Second", jwt);
    const third = await post(id, "Third", jwt);
    const readers = await Promise.all(["r1", "r2", "r3"].map((r) => readerJwt({ id: r, name: r })));
    for (const r of readers) await add(id, B64, first.id, "like", { jwt: r });
    await add(id, B64, third.id, "love", { jwt: readers[0] });
    await add(id, B64, third.id, "haha", { jwt: readers[0] });
    const res = await call(LIST, "GET", "/x?sort_order=most_reacted", { account_id: id, encoded_url: B64 });
    const listed = (await res.json()) as TCommentList;
    expect(listed.comments.map((c) => c.id)).toEqual([first.id, third.id, second.id]);
    expect(listed.comments.map((c) => c.reactions)).toEqual([{ like: 3 }, { love: 1, haha: 1 }, {}]);
  });
});
