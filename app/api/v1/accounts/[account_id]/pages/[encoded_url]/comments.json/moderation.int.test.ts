/**
 * Moderation on create and edit: toxicity and spam scored, held comments unpublished and seen only
 * by their author's create answer, pre-moderation, banned words, links from new readers, edits
 * re-scored, and every count unaffected by held comments.
 */
import { afterEach, describe, expect, it } from "vitest";

import type { getDb } from "@/server/db";
import type { TCommentList, TCommentWire } from "@/server/engagement/comments.schema";
import { setCommentScorer } from "@/server/engagement/moderation/scorer/registry";
import { setupPublisher } from "@/server/testing/comment-calls";
import { builtInToxicity, call, pageId, readerJwt } from "@/server/testing/engagement";
import { createTestStaff } from "@/server/testing/staff";

import { GET as COUNTS } from "../../route";
import { PUT } from "../comments/[comment_id]/route";
import { GET, POST } from "./route";

const URL_A = "https://news.example.com/politics/a-story";
const B64 = pageId(URL_A);

type Created = { total_count: number; comment: TCommentWire; total_parent_comments_count: number };
type ErrorBody = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

const ADA = { id: "reader-ada", name: "Ada" };
const BO = { id: "reader-bo", name: "Bo" };

function post(id: string, ops: unknown[], reader = ADA, extra: Record<string, unknown> = {}) {
  return readerJwt(reader).then((jwt) =>
    call(POST, "POST", "/x", { account_id: id, encoded_url: B64 }, { comment: { body: { ops }, ...extra }, jwt }),
  );
}

async function created(id: string, text: string, reader = ADA, extra: Record<string, unknown> = {}) {
  const res = await post(id, [{ insert: text }], reader, extra);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return (await res.json()) as Created;
}

async function list(id: string): Promise<TCommentList> {
  const res = await call(GET, "GET", "/x", { account_id: id, encoded_url: B64 });
  expect(res.status).toBe(200);
  return (await res.json()) as TCommentList;
}

async function pageCount(id: string): Promise<number> {
  const res = await call(COUNTS, "GET", `/x?page_ids=${encodeURIComponent(B64)}`, { account_id: id });
  expect(res.status).toBe(200);
  return ((await res.json()) as { comments_count: number }[])[0]!.comments_count;
}

async function edit(id: string, commentId: number, text: string, reader = ADA) {
  return call(
    PUT,
    "PUT",
    "/x",
    { account_id: id, encoded_url: B64, comment_id: String(commentId) },
    { comment: { ops: [{ insert: text }] }, jwt: await readerJwt(reader) },
  );
}

/** Make a reader established: first comment a week ago, three published comments. */
async function establish(db: Awaited<ReturnType<typeof getDb>>, id: string, reader = ADA) {
  for (const text of ["one", "two", "three"]) await created(id, `Comment ${text}`, reader);
  await db.comment.updateMany({ data: { createdAt: new Date(Date.now() - 7 * 24 * 3600 * 1000) } });
}

afterEach(() => setCommentScorer(null));

describe("moderation on create", () => {
  it("publishes a clean comment and holds a toxic one, which only its author's answer shows", async () => {
    const { db, id } = await setupPublisher();
    const clean = await created(id, "A careful, fair piece of reporting.");
    expect(clean.comment).toMatchObject({
      is_published: true,
      is_spam: false,
      toxicity: builtInToxicity("A careful, fair piece of reporting."),
    });

    const toxic = await created(id, "You are an idiot and everyone can see it.", BO);
    expect(toxic.comment).toMatchObject({
      is_published: false,
      is_spam: false,
      author_id: expect.any(Number) as number,
    });
    expect(toxic.comment.toxicity).toBeGreaterThanOrEqual(70);
    expect(toxic.comment.body.ops).toEqual([{ insert: "You are an idiot and everyone can see it.\n" }]);
    // The counts in the answer and elsewhere leave it out.
    expect(toxic).toMatchObject({ total_count: 1, total_parent_comments_count: 1 });
    expect(toxic.comment.realm_comment_count).toBe(1);
    const stored = await db.comment.findUniqueOrThrow({ where: { id: toxic.comment.id } });
    expect(stored.moderationReasons).toEqual(
      expect.arrayContaining(["toxicity.insult", "toxicity.aimed", "held.toxicity"]),
    );

    const listed = await list(id);
    expect(listed.comments.map((c) => c.id)).toEqual([clean.comment.id]);
    expect(listed).toMatchObject({ total_count: 1, total_parent_comments_count: 1 });
    expect(await pageCount(id)).toBe(1);
  });

  it("follows the account's toxicity threshold", async () => {
    const { id } = await setupPublisher({ toxicityThreshold: 30 });
    // An insult said of no one: 35.
    expect((await created(id, "Idiots everywhere today.")).comment).toMatchObject({
      toxicity: 35,
      is_published: false,
    });
  });

  it("marks spam and holds it", async () => {
    const { id } = await setupPublisher();
    const spam = await created(id, "Make money from home, click here: www.easy-cash.example.xyz");
    expect(spam.comment).toMatchObject({ is_spam: true, is_published: false });
    expect(spam.total_count).toBe(0);
  });

  it("holds every comment under pre-moderation", async () => {
    const { id } = await setupPublisher({ mode: "PRE_MODERATION" });
    const a = await created(id, "A careful, fair piece of reporting.");
    expect(a.comment).toMatchObject({
      is_published: false,
      toxicity: builtInToxicity("A careful, fair piece of reporting."),
      is_spam: false,
    });
    expect(a.total_count).toBe(0);
    expect(await list(id)).toMatchObject({ total_count: 0, comments: [] });
    expect(await pageCount(id)).toBe(0);
  });

  it("refuses a banned reject word (400, naming no word) and holds a banned hold word", async () => {
    const { db, id } = await setupPublisher({
      bannedWords: [
        { word: "gizmo", action: "reject" },
        { word: "acme widgets", action: "hold" },
      ],
    });
    const res = await post(id, [{ insert: "Buy a G1ZMO today" }]);
    expect(res.status).toBe(400);
    const body = (await res.json()) as ErrorBody;
    expect(body.error.code).toBe("BAD_REQUEST");
    expect(body.error.message).toBe(
      "This comment cannot be posted: it contains language this publication does not accept.",
    );
    expect(body.error.details).toEqual([
      { field: "body.comment.body.ops", issue: "contains language this publication does not accept" },
    ]);
    expect(JSON.stringify(body)).not.toMatch(/gizmo|widget/i);
    expect(await db.comment.count()).toBe(0);

    const held = await created(id, "Acme  Widgets are the best");
    expect(held.comment).toMatchObject({
      is_published: false,
      is_spam: false,
      toxicity: builtInToxicity("Acme  Widgets are the best"),
    });
    expect(await db.comment.findUniqueOrThrow({ where: { id: held.comment.id } })).toMatchObject({
      moderationReasons: ["held.banned_word"],
    });
    // A whole word or phrase only: "gizmology" (or "gizmos") is not "gizmo".
    expect((await created(id, "gizmology is a made-up science")).comment.is_published).toBe(true);
  });

  it("holds a link from a new reader, not from an established one, unless the account allows it", async () => {
    const { db, id } = await setupPublisher();
    const link = [{ insert: "Source: " }, { attributes: { link: "https://ons.example.gov/data" }, insert: "the ONS" }];
    const res = await post(id, link, BO);
    expect(res.status).toBe(201);
    expect(((await res.json()) as Created).comment).toMatchObject({ is_published: false, is_spam: false });

    await establish(db, id);
    const later = await post(id, [{ insert: "Figures here: https://ons.example.gov/more" }]);
    expect(((await later.json()) as Created).comment.is_published).toBe(true);

    // A moderator allows links from new readers in the dashboard: the next comment is moderated so.
    const { caller } = await createTestStaff(db, { roles: ["MODERATOR"], account: Number(id) });
    await caller.moderation.updateSettings({ holdLinksFromNewReaders: false });
    const allowed = await post(id, link, { id: "reader-cy", name: "Cy" });
    expect(((await allowed.json()) as Created).comment.is_published).toBe(true);
  });

  it("takes no reply to a held comment (404)", async () => {
    const { id } = await setupPublisher();
    const held = await created(id, "Shut up, you m0r0n", BO);
    expect(held.comment.is_published).toBe(false);
    const res = await post(id, [{ insert: "A reply" }], ADA, { parent_comment_id: held.comment.id });
    expect(res.status).toBe(404);
  });

  it("falls back to the lexicon scorer when a plugged-in scorer fails, and uses it when it answers", async () => {
    const { id } = await setupPublisher();
    setCommentScorer({ name: "broken", score: () => Promise.reject(new Error("model down")) });
    expect((await created(id, "You are an idiot")).comment).toMatchObject({ is_published: false });
    setCommentScorer({ name: "strict", score: () => ({ toxicity: 99.5, isSpam: false, reasons: ["model"] }) });
    expect((await created(id, "A lovely day", BO)).comment).toMatchObject({ toxicity: 99.5, is_published: false });
    setCommentScorer({ name: "invalid", score: () => ({ toxicity: 500, isSpam: false, reasons: [] }) });
    expect((await created(id, "A lovely day", { id: "reader-cy", name: "Cy" })).comment).toMatchObject({
      toxicity: builtInToxicity("A lovely day"),
      is_published: true,
    });
  });
});

describe("moderation on edit", () => {
  it("re-scores: a toxic edit unpublishes (its replies leave the counts), a clean one publishes again", async () => {
    const { db, id } = await setupPublisher();
    await establish(db, id, BO);
    const top = await created(id, "I think the council is right.");
    const reply = await created(id, "Agreed.", BO, { parent_comment_id: top.comment.id });
    expect(reply.total_count).toBe(5);
    expect(await pageCount(id)).toBe(5);

    const toxic = await edit(id, top.comment.id, "fuck you all, you pathetic losers");
    expect(toxic.status).toBe(200);
    const held = ((await toxic.json()) as { comment: TCommentWire }).comment;
    expect(held).toMatchObject({ is_published: false, edited_at: expect.any(String) as string });
    expect(held.toxicity).toBeGreaterThanOrEqual(70);
    // The comment and its reply are gone from lists and counts.
    expect(await list(id)).toMatchObject({ total_count: 3, total_parent_comments_count: 3 });
    expect(await pageCount(id)).toBe(3);
    expect(held.realm_comment_count).toBe(3);

    const clean = await edit(id, top.comment.id, "On reflection, I think the council is right.");
    expect(((await clean.json()) as { comment: TCommentWire }).comment).toMatchObject({
      is_published: true,
      toxicity: builtInToxicity("On reflection, I think the council is right."),
    });
    expect(await list(id)).toMatchObject({ total_count: 5, total_parent_comments_count: 4 });
    expect(await pageCount(id)).toBe(5);
  });

  it("refuses a banned reject word in an edit and keeps the comment as it was", async () => {
    const { db, id } = await setupPublisher({ bannedWords: [{ word: "gizmo", action: "reject" }] });
    const c = await created(id, "Original");
    const res = await edit(id, c.comment.id, "now with gizmo");
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.details).toEqual([
      { field: "body.comment.ops", issue: "contains language this publication does not accept" },
    ]);
    expect(await db.comment.findUniqueOrThrow({ where: { id: c.comment.id } })).toMatchObject({
      body: { ops: [{ insert: "Original\n" }] },
      editedAt: null,
    });
  });
});
