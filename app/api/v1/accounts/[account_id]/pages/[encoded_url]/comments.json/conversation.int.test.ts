/**
 * Conversation tools (docs/engagement.md "Conversation tools"): featured comments (moderators
 * feature and unfeature; the list shows them with featured=first only), the sorts (newest, oldest,
 * most reacted on the reaction count the database keeps; pages neither repeat nor skip), Q&A
 * pages (answered questions only; the asker's own awaiting), and the edit window (stated to the
 * author, enforced on edit).
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { listedParentIdsSql } from "@/server/engagement/comment-queries";
import type { TCommentList, TCommentWire } from "@/server/engagement/comments.schema";
import { Prisma } from "@/server/generated/prisma/client";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";

import { GET as COUNTS } from "../../route";
import { GET as RULES } from "../comment_rules.json/route";
import { GET as RSS } from "../comments.rss/route";
import { POST as REACT, DELETE as UNREACT } from "../comments/[comment_id]/reactions/[reaction_id]/route";
import { PUT as EDIT } from "../comments/[comment_id]/route";
import { GET, POST } from "./route";

const URL_A = "https://news.example.com/politics/a-story";
const B64 = pageId(URL_A);
const ADA = { id: "reader-ada", name: "Ada" };
const BO = { id: "reader-bo", name: "Bo" };
const CY = { id: "reader-cy", name: "Cy" };
/** The page's author in the publisher's system: their replies answer questions on a Q&A page. */
const STAFF = { id: "staff-writer-1", name: "The Writer" };

type Reader = { id: string; name: string };

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const staff = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
  return { db, account, id: String(account.id), moderator: staff.caller };
}
type Setup = Awaited<ReturnType<typeof setup>>;

async function post(s: Setup, text: string, reader: Reader = ADA, parent?: number): Promise<TCommentWire> {
  const res = await call(
    POST,
    "POST",
    "/x",
    { account_id: s.id, encoded_url: B64 },
    {
      comment: { body: { ops: [{ insert: text }] }, ...(parent ? { parent_comment_id: parent } : {}) },
      jwt: await readerJwt(reader),
    },
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { comment: TCommentWire }).comment;
}

async function list(s: Setup, query = ""): Promise<TCommentList & Record<string, unknown>> {
  const res = await call(GET, "GET", `/api/v1/accounts/${s.id}/pages/${B64}/comments.json${query}`, {
    account_id: s.id,
    encoded_url: B64,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as TCommentList & Record<string, unknown>;
}

const ids = (comments: TCommentWire[]) => comments.map((c) => c.id);

function react(s: Setup, commentId: number, reader: Reader, reaction: string, remove = false) {
  return readerJwt(reader).then((jwt) =>
    call(
      remove ? UNREACT : REACT,
      remove ? "DELETE" : "POST",
      remove ? `/x?jwt=${jwt}` : "/x",
      { account_id: s.id, encoded_url: B64, comment_id: String(commentId), reaction_id: reaction },
      remove ? undefined : { jwt },
    ),
  );
}

describe("featured comments", () => {
  it("a moderator features a comment: featured=first lists it apart and flags it; unfeaturing restores the list; audited, with webhook events", async () => {
    const s = await setup();
    const first = await post(s, "First");
    const second = await post(s, "Second", BO);
    const third = await post(s, "Third", CY);
    const before = await list(s);

    expect(await s.moderator.moderation.feature({ commentId: first.id, featured: true })).toMatchObject({
      changed: true,
      featured: true,
    });
    const featured = await list(s, "?featured=first");
    expect(ids(featured.featured_comments!)).toEqual([first.id]);
    expect(featured.featured_comments![0]).toMatchObject({ id: first.id, featured: true, body: first.body });
    // The list keeps its order; each top-level comment says whether it is featured.
    expect(ids(featured.comments)).toEqual([third.id, second.id, first.id]);
    expect(featured.comments.map((c) => c.featured)).toEqual([false, false, true]);

    // A client that does not ask gets the answer it always got.
    const plain = await list(s);
    expect(plain).toEqual(before);
    expect(Object.keys(plain).sort()).toEqual(["comments", "total_count", "total_parent_comments_count"]);
    expect(JSON.stringify(plain)).not.toContain("featured");

    // Featuring again changes nothing and writes nothing.
    expect(await s.moderator.moderation.feature({ commentId: first.id, featured: true })).toMatchObject({
      changed: false,
    });
    expect(await s.moderator.moderation.feature({ commentId: first.id, featured: false })).toMatchObject({
      changed: true,
      featured: false,
    });
    const after = await list(s, "?featured=first");
    expect(after.featured_comments).toEqual([]);
    expect(ids(after.comments)).toEqual([third.id, second.id, first.id]);

    const audits = await s.db.auditLog.findMany({
      where: { accountId: s.account.id, targetId: String(first.id) },
      orderBy: { createdAt: "asc" },
    });
    expect(audits.map((a) => a.action)).toEqual(["comment.feature", "comment.unfeature"]);
    const events = await s.db.webhookEvent.findMany({
      where: { accountId: s.account.id, name: { in: ["comment.featured", "comment.unfeatured"] } },
      orderBy: { id: "asc" },
    });
    expect(events.map((e) => e.name)).toEqual(["comment.featured", "comment.unfeatured"]);
    const payload = events[0]!.payload as { comment: { id: number }; moderator_id: string };
    expect(payload.comment.id).toBe(first.id);
    expect(typeof payload.moderator_id).toBe("string");
  });

  it("shows the newest featured first, with replies; refuses replies, held comments, other accounts and non-moderators", async () => {
    const s = await setup();
    const a = await post(s, "A");
    const b = await post(s, "B", BO);
    const reply = await post(s, "A reply", CY, a.id);
    await s.moderator.moderation.feature({ commentId: a.id, featured: true });
    await s.moderator.moderation.feature({ commentId: b.id, featured: true });
    const answer = await list(s, "?featured=first");
    expect(ids(answer.featured_comments!)).toEqual([b.id, a.id]);
    expect(ids(answer.featured_comments![1]!.replies!)).toEqual([reply.id]);

    expect(await trpcCodeOf(s.moderator.moderation.feature({ commentId: reply.id, featured: true }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    await s.db.comment.update({ where: { id: b.id }, data: { isPublished: false } });
    // A featured comment that is held leaves the strip; it cannot be featured while held.
    expect(ids((await list(s, "?featured=first")).featured_comments!)).toEqual([a.id]);
    await s.moderator.moderation.feature({ commentId: b.id, featured: false });
    expect(await trpcCodeOf(s.moderator.moderation.feature({ commentId: b.id, featured: true }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );

    const other = await createTestStaff(s.db, { roles: ["MODERATOR"] });
    expect(await trpcCodeOf(other.caller.moderation.feature({ commentId: a.id, featured: false }))).toBe("NOT_FOUND");
    const editor = await createTestStaff(s.db, { account: s.account.id, roles: ["EDITOR"] });
    expect(await trpcCodeOf(editor.caller.moderation.feature({ commentId: a.id, featured: false }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(s.moderator.moderation.feature({ commentId: -1, featured: true }))).toBe("BAD_REQUEST");
    expect((await s.db.comment.findUniqueOrThrow({ where: { id: a.id } })).featuredAt).not.toBeNull();
  });

  it("the moderation views hold every published comment (to feature) and the featured ones", async () => {
    const s = await setup();
    const a = await post(s, "A");
    const b = await post(s, "B", BO);
    const reply = await post(s, "A reply", CY, a.id);
    await s.db.comment.update({ where: { id: b.id }, data: { isPublished: false } });
    const published = await s.moderator.moderation.queue({ tab: "published" });
    expect(published.items.map((i) => i.id)).toEqual([reply.id, a.id]);
    expect(published.items.find((i) => i.id === a.id)).toMatchObject({
      featured: false,
      answered: false,
      qaPage: false,
    });
    expect(await s.moderator.moderation.counts()).toMatchObject({ published: 2, featured: 0 });

    await s.moderator.moderation.feature({ commentId: a.id, featured: true });
    const featured = await s.moderator.moderation.queue({ tab: "featured" });
    expect(featured.items.map((i) => [i.id, i.featured])).toEqual([[a.id, true]]);
    expect(await s.moderator.moderation.counts()).toMatchObject({ published: 2, featured: 1 });
  });

  it("a page nobody commented on answers an empty strip; a bad value of featured is 400", async () => {
    const s = await setup();
    expect(await list(s, "?featured=first")).toEqual({
      total_count: 0,
      comments: [],
      total_parent_comments_count: 0,
      featured_comments: [],
    });
    const res = await call(GET, "GET", `/x?featured=yes`, { account_id: s.id, encoded_url: B64 });
    expect(res.status).toBe(400);
  });
});

describe("sorting", () => {
  it("orders by newest, oldest and most reactions (kept by the database as reactions come and go), replies under their parents", async () => {
    const s = await setup();
    const [c1, c2, c3, c4] = [
      await post(s, "one"),
      await post(s, "two"),
      await post(s, "three"),
      await post(s, "four"),
    ];
    const reply = await post(s, "reply to two", BO, c2.id);
    for (const [comment, readers] of [
      [c2, [ADA, BO, CY]],
      [c4, [BO]],
      [c1, [ADA, BO]],
    ] as const) {
      for (const reader of readers) expect((await react(s, comment.id, reader, "like")).status).toBe(200);
    }
    expect((await react(s, reply.id, CY, "love")).status).toBe(200);
    const count = async (id: number) => (await s.db.comment.findUniqueOrThrow({ where: { id } })).reactionCount;
    expect([await count(c1.id), await count(c2.id), await count(c3.id), await count(c4.id)]).toEqual([2, 3, 0, 1]);

    expect(ids((await list(s, "?sort_order=newest")).comments)).toEqual([c4.id, c3.id, c2.id, c1.id]);
    expect(ids((await list(s, "?sort_order=oldest")).comments)).toEqual([c1.id, c2.id, c3.id, c4.id]);
    const reacted = await list(s, "?sort_order=most_reacted");
    expect(ids(reacted.comments)).toEqual([c2.id, c1.id, c4.id, c3.id]);
    expect(ids(reacted.comments[0]!.replies!)).toEqual([reply.id]);

    // A reaction taken back counts down: c1 falls below c4 on a tie broken by time (newest first).
    expect((await react(s, c1.id, BO, "like", true)).status).toBe(200);
    expect(await count(c1.id)).toBe(1);
    expect(ids((await list(s, "?sort_order=most_reacted")).comments)).toEqual([c2.id, c4.id, c1.id, c3.id]);
  });

  it("pages through each order without repeating or skipping a comment, ties broken by id", async () => {
    const s = await setup();
    const page = await post(s, "seed");
    const at = new Date(Date.UTC(2026, 10, 1, 12));
    // Seven comments at the same instant, some with the same reactions: only the id tells them apart.
    await s.db.comment.createMany({
      data: Array.from({ length: 7 }, (_, i) => ({
        accountId: s.account.id,
        pageId: page.page_id,
        authorId: page.author_id,
        body: { ops: [{ insert: `same time ${i}\n` }] },
        bodyDigest: `tie-${i}`,
        createdAt: at,
        reactionCount: i % 2,
      })),
    });
    for (const sort of ["newest", "oldest", "most_reacted"]) {
      const whole = ids((await list(s, `?sort_order=${sort}&parent_comments_limit=100`)).comments);
      expect(whole).toHaveLength(8);
      const paged: number[] = [];
      for (let offset = 0; offset < 8; offset += 3) {
        paged.push(
          ...ids(
            (await list(s, `?sort_order=${sort}&parent_comments_limit=3&parent_comments_offset=${offset}`)).comments,
          ),
        );
      }
      expect(paged, sort).toEqual(whole);
    }
  });

  describe.runIf(process.env.TEST_DB === "postgres")("on PostgreSQL, 2,000 comments on a page", () => {
    it("reads a page of each order from an index, not by counting or sorting every comment", async () => {
      const s = await setup();
      const seed = await post(s, "seed");
      await s.db.$executeRaw`
        INSERT INTO comments (account_id, page_id, author_id, body, body_digest, created_at, reaction_count)
        SELECT ${s.account.id}, ${seed.page_id}, ${seed.author_id}, '{"ops":[{"insert":"x\\n"}]}'::jsonb,
               'bulk-' || g, now() - (g || ' seconds')::interval, (g * 7919) % 50
        FROM generate_series(1, 2000) AS g`;
      await s.db.$executeRawUnsafe("ANALYZE comments");
      for (const sort of ["most_reacted", "newest", "oldest"] as const) {
        const sql = listedParentIdsSql({ accountId: s.account.id, pageId: seed.page_id, sort, offset: 40, limit: 20 });
        const plan = (await s.db.$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN ${sql}`))
          .map((r) => r["QUERY PLAN"])
          .join("\n");
        // The visible comments' branch is read in order from an index and cut at offset + limit:
        // never a full scan, never a sort of every comment of the page (a bounded incremental
        // sort of equal times is fine).
        expect(plan, plan).not.toMatch(/Seq Scan/);
        const visibleBranch = plan.slice(plan.indexOf('"*SELECT* 1"'), plan.indexOf('"*SELECT* 2"'));
        expect(visibleBranch, plan).toMatch(/Index (Only )?Scan/);
        expect(visibleBranch, plan).not.toMatch(/->\s+Sort\b/);
        if (sort === "most_reacted") expect(plan, plan).toMatch(/comments_reacted_idx/);
        expect(plan, plan).not.toMatch(/comment_reactions/);
      }
      const top = (await list(s, "?sort_order=most_reacted&parent_comments_limit=5")).comments;
      const counts = await s.db.comment.findMany({ where: { id: { in: ids(top) } }, select: { reactionCount: true } });
      expect(counts.every((c) => c.reactionCount === 49)).toBe(true);
    });
  });
});

describe("Q&A pages", () => {
  async function qaPage() {
    const s = await setup();
    const q1 = await post(s, "When does it open?", ADA);
    const q2 = await post(s, "How much is it?", BO);
    const q3 = await post(s, "Is it accessible?", CY);
    await s.db.page.update({ where: { id: q1.page_id }, data: { authorIds: [STAFF.id] } });
    const set = await s.moderator.pageRules.set({ url: URL_A, mode: "open", slowModeSeconds: 0, qaMode: true });
    expect(set).toMatchObject({ changed: true, page: { qaMode: true } });
    return { ...s, q1, q2, q3 };
  }

  it("readers see only answered questions (by the page's author, or marked by a moderator), with their answers", async () => {
    const s = await qaPage();
    expect(await list(s)).toEqual({ total_count: 0, comments: [], total_parent_comments_count: 0 });
    const rules = await call(RULES, "GET", "/x", { account_id: s.id, encoded_url: B64 });
    expect(await rules.json()).toMatchObject({ comment_mode: "open", qa_mode: true });

    // A reader's reply answers nothing; the page author's does.
    await post(s, "I think at nine.", BO, s.q1.id);
    expect((await list(s)).comments).toEqual([]);
    const answer = await post(s, "At ten, every day.", STAFF, s.q1.id);
    let shown = await list(s);
    expect(ids(shown.comments)).toEqual([s.q1.id]);
    expect(ids(shown.comments[0]!.replies!)).toContain(answer.id);
    expect(shown).toMatchObject({ total_parent_comments_count: 1, total_count: 3 });

    expect(await s.moderator.moderation.markAnswered({ commentId: s.q3.id, answered: true })).toMatchObject({
      changed: true,
      answered: true,
    });
    shown = await list(s, "?sort_order=oldest");
    expect(ids(shown.comments)).toEqual([s.q1.id, s.q3.id]);
    expect(shown).toMatchObject({ total_parent_comments_count: 2, total_count: 4 });
    // The counts endpoint counts what the list shows.
    const counts = await call(COUNTS, "GET", `/x?page_ids=${encodeURIComponent(B64)}`, { account_id: s.id });
    expect(await counts.json()).toEqual([{ url: URL_A, comments_count: 4 }]);
    const audit = await s.db.auditLog.findFirstOrThrow({
      where: { accountId: s.account.id, action: "comment.mark_answered" },
    });
    expect(audit.targetId).toBe(String(s.q3.id));

    // The page's RSS feed shows what the list shows: answered questions and their replies.
    const rss = await (await call(RSS, "GET", "/x", { account_id: s.id, encoded_url: B64 })).text();
    expect(rss).toContain("When does it open?");
    expect(rss).toContain("At ten, every day.");
    expect(rss).not.toContain("How much is it?");

    // Q&A off: every comment again.
    await s.moderator.pageRules.set({ url: URL_A, mode: "open", slowModeSeconds: 0, qaMode: false });
    expect((await list(s)).total_parent_comments_count).toBe(3);
    const plainRules = await call(RULES, "GET", "/x", { account_id: s.id, encoded_url: B64 });
    expect(await plainRules.json()).toEqual({ comment_mode: "open", slow_mode_seconds: 0, surge: null });
  });

  it("the asker sees their own unanswered question as awaiting an answer, and nobody else's", async () => {
    const s = await qaPage();
    const bo = await list(s, `?jwt=${await readerJwt(BO)}`);
    expect(bo.comments).toEqual([]);
    expect(ids(bo.awaiting_answer!)).toEqual([s.q2.id]);
    expect(bo.awaiting_answer![0]).toMatchObject({ body: s.q2.body, my_reactions: [] });
    const newcomer = await list(s, `?jwt=${await readerJwt({ id: "reader-new", name: "New" })}`);
    expect(newcomer.awaiting_answer).toEqual([]);
    // Answered: it is in the list, no longer awaiting.
    await s.moderator.moderation.markAnswered({ commentId: s.q2.id, answered: true });
    const later = await list(s, `?jwt=${await readerJwt(BO)}`);
    expect(ids(later.comments)).toEqual([s.q2.id]);
    expect(later.awaiting_answer).toEqual([]);
    // Anonymous readers get no awaiting_answer at all; nor does a page that is no Q&A page.
    expect(Object.keys(await list(s))).not.toContain("awaiting_answer");
    await s.moderator.pageRules.set({ url: URL_A, mode: "open", slowModeSeconds: 0, qaMode: false });
    expect(Object.keys(await list(s, `?jwt=${await readerJwt(BO)}`))).not.toContain("awaiting_answer");
  });

  it("marking answered is a moderator's, on a top-level comment of their account; setting it twice writes once", async () => {
    const s = await qaPage();
    const reply = await post(s, "a reply", BO, s.q1.id);
    expect(await trpcCodeOf(s.moderator.moderation.markAnswered({ commentId: reply.id, answered: true }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    await s.moderator.moderation.markAnswered({ commentId: s.q1.id, answered: true });
    expect(await s.moderator.moderation.markAnswered({ commentId: s.q1.id, answered: true })).toMatchObject({
      changed: false,
    });
    expect(await s.db.auditLog.count({ where: { accountId: s.account.id, action: "comment.mark_answered" } })).toBe(1);
    const other = await createTestStaff(s.db, { roles: ["MODERATOR"] });
    expect(await trpcCodeOf(other.caller.moderation.markAnswered({ commentId: s.q1.id, answered: false }))).toBe(
      "NOT_FOUND",
    );
  });
});

describe("the edit window", () => {
  async function windowed(minutes: number) {
    const s = await setup();
    if (minutes)
      await s.db.commentModerationSettings.create({ data: { accountId: s.account.id, editWindowMinutes: minutes } });
    const mine = await post(s, "Mine");
    const theirs = await post(s, "Theirs", BO);
    return { ...s, mine, theirs };
  }
  const edit = async (s: Setup, commentId: number, text: string, reader: Reader = ADA) =>
    call(
      EDIT,
      "PUT",
      "/x",
      { account_id: s.id, encoded_url: B64, comment_id: String(commentId) },
      { comment: { ops: [{ insert: text }] }, jwt: await readerJwt(reader) },
    );

  it("is stated on the reader's own comments as editable_until, and only on theirs", async () => {
    const s = await windowed(5);
    const answer = await list(s, `?jwt=${await readerJwt(ADA)}`);
    const mine = answer.comments.find((c) => c.id === s.mine.id)!;
    const theirs = answer.comments.find((c) => c.id === s.theirs.id)!;
    expect(mine.editable_until).toBe(new Date(Date.parse(s.mine.created_at) + 5 * 60_000).toISOString());
    expect(theirs).not.toHaveProperty("editable_until");
    expect(JSON.stringify(await list(s))).not.toContain("editable_until");
  });

  it("lets the author edit within it and refuses (403, unchanged) after it", async () => {
    const s = await windowed(5);
    expect((await edit(s, s.mine.id, "Mine, edited")).status).toBe(200);
    await s.db.comment.update({
      where: { id: s.mine.id },
      data: { createdAt: new Date(Date.now() - 5 * 60_000 - 1000) },
    });
    const late = await edit(s, s.mine.id, "Too late");
    expect(late.status).toBe(403);
    const body = (await late.json()) as { error: { code: string; message: string; details: unknown[] } };
    expect(body.error).toMatchObject({ code: "FORBIDDEN", details: [{ issue: "the edit window has passed" }] });
    expect(body.error.message).toMatch(/5 minutes/);
    expect((await s.db.comment.findUniqueOrThrow({ where: { id: s.mine.id } })).body).toEqual({
      ops: [{ insert: "Mine, edited\n" }],
    });
    // Another reader is still 403 for being another reader, whatever the window.
    expect((await edit(s, s.theirs.id, "Hijack")).status).toBe(403);
  });

  it("without a window (the default) edits are never refused and editable_until is null", async () => {
    const s = await windowed(0);
    await s.db.comment.update({ where: { id: s.mine.id }, data: { createdAt: new Date(Date.UTC(2020, 0, 1)) } });
    expect((await edit(s, s.mine.id, "Years later")).status).toBe(200);
    const answer = await list(s, `?jwt=${await readerJwt(ADA)}`);
    expect(answer.comments.find((c) => c.id === s.mine.id)!.editable_until).toBeNull();
  });

  it("is set by moderators in the settings, 0 to a week", async () => {
    const s = await setup();
    expect(await s.moderator.moderation.updateSettings({ editWindowMinutes: 15 })).toMatchObject({
      changed: ["editWindowMinutes"],
      settings: { editWindowMinutes: 15 },
    });
    expect(await trpcCodeOf(s.moderator.moderation.updateSettings({ editWindowMinutes: -1 }))).toBe("BAD_REQUEST");
    expect(await trpcCodeOf(s.moderator.moderation.updateSettings({ editWindowMinutes: 10_081 }))).toBe("BAD_REQUEST");
  });
});
