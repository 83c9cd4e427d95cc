/** POST and GET /api/v1/accounts/{id}/pages/{b64}/comments.json: create, reply, list, limits, JWTs. */
import { describe, expect, it } from "vitest";

import { getEnv } from "@/env.js";
import type { TCommentList, TCommentWire } from "@/server/engagement/comments.schema";
import { setupPublisher } from "@/server/testing/comment-calls";
import { builtInToxicity, call, pageId, readerJwt, unsignedJwt } from "@/server/testing/engagement";

import { GET, POST } from "./route";

const URL_A = "https://news.example.com/politics/a-story";

type Created = { total_count: number; comment: TCommentWire; total_parent_comments_count: number };
type ErrorBody = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

const path = (accountId: string, b64: string) => `/api/v1/accounts/${accountId}/pages/${b64}/comments.json`;

function post(accountId: string, b64: string, body: unknown) {
  return call(POST, "POST", path(accountId, b64), { account_id: accountId, encoded_url: b64 }, body);
}

function list(accountId: string, b64: string, query = "") {
  return call(GET, "GET", `${path(accountId, b64)}${query}`, { account_id: accountId, encoded_url: b64 });
}

const text = (insert: string) => ({ comment: { body: { ops: [{ insert }] } } });

async function comment(accountId: string, body: object, jwt?: string, url = URL_A) {
  const res = await post(accountId, pageId(url), { ...body, jwt: jwt ?? (await readerJwt()) });
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return (await res.json()) as Created;
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("POST comments.json", () => {
  it("creates the page and the comment, with every field of the spec", async () => {
    const { db, id, account } = await setupPublisher();
    const jwt = await readerJwt({ id: "reader-1", name: "Ada", "avatar-url": "https://cdn.example.com/a.png" });
    const res = await post(id, pageId(URL_A), { ...text("Hello"), jwt });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Created;
    expect(body.total_count).toBe(1);
    expect(body.total_parent_comments_count).toBe(1);
    const page = await db.page.findFirstOrThrow();
    expect(page).toMatchObject({ accountId: account.id, url: URL_A });
    const member = await db.member.findFirstOrThrow();
    expect(body.comment).toEqual({
      id: expect.any(Number) as number,
      comment_realm_id: account.id,
      page_id: page.id,
      body: { ops: [{ insert: "Hello\n" }] },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
      parent_comment_id: null,
      reply_to_id: null,
      author_id: member.id,
      hidden_by_id: null,
      hidden_at: null,
      deleted_by_id: null,
      deleted_at: null,
      reactions: {},
      edited_at: null,
      is_spam: false,
      is_published: true,
      toxicity: builtInToxicity("Hello"),
      page_url: URL_A,
      hero_image_url: null,
      headline: null,
      hidden: false,
      deleted: false,
      realm_comment_count: 1,
      is_page_author: false,
      author: {
        id: member.id,
        name: "Ada",
        avatar: "https://cdn.example.com/a.png",
        slug: `reader-${member.id}`,
        guest: false,
        bio: "",
        accounts: [],
      },
      mentions: [],
    });
  });

  it("takes btoa(url), and one article is one page whatever the tracking parameters and fragment", async () => {
    const { db, id } = await setupPublisher();
    await comment(id, text("one"));
    const res = await post(id, btoa(`HTTPS://News.Example.com:443/politics/a-story?utm_source=x&fbclid=1#c`), {
      ...text("two"),
      jwt: await readerJwt(),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as Created).total_count).toBe(2);
    expect(await db.page.count()).toBe(1);
  });

  it("stores link, mention and image ops as data, ending with a newline, and lists mentions", async () => {
    const { id } = await setupPublisher();
    const image = `${getEnv().APP_URL}/images/1/2026/01/x.png`;
    const ops = [
      { insert: "See " },
      { attributes: { link: "https://example.org/a?b=c" }, insert: "this" },
      {
        attributes: {
          mention: { name: "Bo", slug: "bo", avatar: null, id: "7", target: "_blank", class: "mention" },
          link: "bo",
        },
        insert: { mentions: true },
      },
      { insert: { image } },
      { insert: { image: "https://images.example.com/1/2026/01/y.png" } },
    ];
    const created = await comment(id, { comment: { body: { ops } } });
    expect(created.comment.body.ops).toEqual([...ops, { insert: "\n" }]);
    expect(created.comment.mentions).toEqual([{ id: "7", name: "Bo", slug: "bo" }]);
  });

  it("refuses unknown or nested op shapes, javascript: links and foreign images (400)", async () => {
    const { db, id } = await setupPublisher();
    const jwt = await readerJwt();
    for (const ops of [
      [{ insert: "x", attributes: { bold: true } }],
      [{ insert: { video: "https://example.org/v.mp4" } }],
      [{ insert: [{ insert: "nested" }] }],
      [{ insert: { image: "https://evil.example/x.png" } }],
      [{ insert: { image: "javascript:alert(1)" } }],
      [{ attributes: { link: "javascript:alert(1)" }, insert: "click" }],
      [{ attributes: { link: "data:text/html,<script>alert(1)</script>" }, insert: "click" }],
      // A mention is rendered as a link too: its slug, link and end-point take no other scheme.
      [
        {
          attributes: { mention: { name: "Bo", slug: "javascript:alert(1)", id: "7" }, link: "bo" },
          insert: { mentions: true },
        },
      ],
      [
        {
          attributes: { mention: { name: "Bo", slug: "bo", id: "7" }, link: "javascript:alert(1)" },
          insert: { mentions: true },
        },
      ],
      [
        {
          attributes: { mention: { name: "Bo", slug: "bo", id: "7", "end-point": "data:text/html,x" }, link: "bo" },
          insert: { mentions: true },
        },
      ],
      [{ insert: "bell\u0007" }],
      [{ insert: "nul\u0000" }],
      [{ insert: "   " }],
      [],
      "not ops",
    ]) {
      const res = await post(id, pageId(URL_A), { comment: { body: { ops } }, jwt });
      expect(res.status, JSON.stringify(ops)).toBe(400);
      const error = ((await res.json()) as ErrorBody).error;
      expect(error.code).toBe("BAD_REQUEST");
      expect(error.details?.[0]?.field).toMatch(/^body\.comment\.body\.ops/);
    }
    expect(await db.comment.count()).toBe(0);
    expect(await db.page.count()).toBe(0);
  });

  it("answers 413 beyond 50 ops or 10,000 characters", async () => {
    const { db, id } = await setupPublisher();
    const jwt = await readerJwt();
    const many = await post(id, pageId(URL_A), {
      comment: { body: { ops: Array.from({ length: 51 }, () => ({ insert: "a" })) } },
      jwt,
    });
    expect(many.status).toBe(413);
    expect(((await many.json()) as ErrorBody).error.code).toBe("PAYLOAD_TOO_LARGE");
    const long = await post(id, pageId(URL_A), { ...text("a".repeat(10_001)), jwt });
    expect(long.status).toBe(413);
    expect((await post(id, pageId(URL_A), { ...text("a".repeat(9_999)), jwt })).status).toBe(201);
    expect(await db.comment.count()).toBe(1);
  });

  it("refuses bad page ids (400) and pages off the publication's hosts (403), creating nothing", async () => {
    const { db, id } = await setupPublisher();
    const jwt = await readerJwt();
    for (const b64 of [
      "%%%",
      "not-base64!",
      btoa("javascript:alert(1)"),
      btoa("data:text/html,x"),
      btoa("/relative"),
    ]) {
      const res = await post(id, b64, { ...text("x"), jwt });
      expect(res.status, b64).toBe(400);
      expect(((await res.json()) as ErrorBody).error.details?.[0]?.field).toBe("params.encoded_url");
    }
    const foreign = await post(id, pageId("https://elsewhere.example/a"), { ...text("x"), jwt });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as ErrorBody).error.message).toMatch(/news\.example\.com/);
    // A reply to a comment that is not on the page: 404.
    const orphan = await post(id, pageId(URL_A), {
      ...text("x"),
      jwt,
      comment: { ...text("x").comment, parent_comment_id: 999999 },
    });
    expect(orphan.status).toBe(404);
    expect(await db.page.count()).toBe(0);
    // Refused, so nothing is written for the reader either: no member record.
    expect(await db.member.count({ where: { accountId: Number(id) } })).toBe(0);
  });

  it("answers 401 without a jwt, and for forged, expired and alg:none tokens; 404 for an unknown account", async () => {
    const { db, id } = await setupPublisher();
    const b64 = pageId(URL_A);
    for (const jwt of [
      undefined,
      await readerJwt({ id: "r", name: "R" }, { secret: "not-the-publisher-secret-000000000" }),
      await readerJwt({ id: "r", name: "R" }, { exp: Math.floor(Date.now() / 1000) - 3600 }),
      unsignedJwt({ id: "r", name: "R" }),
      "garbage",
    ]) {
      const res = await post(id, b64, { ...text("x"), ...(jwt ? { jwt } : {}) });
      expect(res.status, String(jwt)).toBe(401);
    }
    expect((await post("999999", b64, { ...text("x"), jwt: await readerJwt() })).status).toBe(404);
    expect((await post("0x1", b64, { ...text("x"), jwt: await readerJwt() })).status).toBe(400);
    expect(await db.comment.count()).toBe(0);
    expect(await db.member.count()).toBe(0);
  });

  it("replies to a comment of the same page only, a reply to a reply under its top-level comment", async () => {
    const { id } = await setupPublisher();
    const parent = (await comment(id, text("top"))).comment;
    const reply = await comment(id, { comment: { body: { ops: [{ insert: "re" }] }, parent_comment_id: parent.id } });
    expect(reply.comment).toMatchObject({ parent_comment_id: parent.id, reply_to_id: parent.id });
    expect(reply.total_parent_comments_count).toBe(1);
    expect(reply.total_count).toBe(2);
    const jwt = await readerJwt();
    const deeper = await post(id, pageId(URL_A), {
      comment: { body: { ops: [{ insert: "re re" }] }, parent_comment_id: reply.comment.id },
      jwt,
    });
    // Replies nest one level: under the top-level comment, the reply it answers kept.
    expect(deeper.status).toBe(201);
    const deep = ((await deeper.json()) as Created).comment;
    expect(deep).toMatchObject({ parent_comment_id: parent.id, reply_to_id: reply.comment.id });
    const deepest = await comment(id, {
      comment: { body: { ops: [{ insert: "re re re" }] }, parent_comment_id: deep.id },
    });
    expect(deepest.comment).toMatchObject({ parent_comment_id: parent.id, reply_to_id: deep.id });
    // The list says so too.
    const listed = (await (await list(id, pageId(URL_A))).json()) as TCommentList;
    expect(listed.comments[0]!.replies).toEqual([
      expect.objectContaining({ id: reply.comment.id, reply_to_id: parent.id }),
      expect.objectContaining({ id: deep.id, reply_to_id: reply.comment.id }),
      expect.objectContaining({ id: deepest.comment.id, reply_to_id: deep.id }),
    ]);
    const otherPage = await post(id, pageId("https://news.example.com/other"), {
      comment: { body: { ops: [{ insert: "re" }] }, parent_comment_id: parent.id },
      jwt,
    });
    expect(otherPage.status).toBe(404);
    const other = await setupPublisher();
    const otherAccount = await post(other.id, pageId(URL_A), {
      comment: { body: { ops: [{ insert: "re" }] }, parent_comment_id: parent.id },
      jwt,
    });
    expect(otherAccount.status).toBe(404);
  });

  it("answers the first comment again for the same body within 10 s, also for two requests at once", async () => {
    const { db, id } = await setupPublisher();
    const jwt = await readerJwt();
    const first = await comment(id, text("Same"), jwt);
    const again = await comment(id, text("Same"), jwt);
    expect(again.comment.id).toBe(first.comment.id);
    const [a, b] = await Promise.all([
      post(id, pageId(URL_A), { ...text("Twice at once"), jwt }),
      post(id, pageId(URL_A), { ...text("Twice at once"), jwt }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const [ca, cb] = [(await a.json()) as Created, (await b.json()) as Created];
    expect(ca.comment.id).toBe(cb.comment.id);
    expect(await db.comment.count()).toBe(2);
    expect(await db.member.count()).toBe(1);
    // Another reader's identical words are their own comment.
    const other = await comment(id, text("Same"), await readerJwt({ id: "reader-2", name: "Bo" }));
    expect(other.comment.id).not.toBe(first.comment.id);
  });

  it("repeats only the reader's last comment, within 10 s, while it is not deleted; clicks at once write once", async () => {
    const { db, id } = await setupPublisher();
    const jwt = await readerJwt();
    const a = await comment(id, text("A"), jwt);
    await comment(id, text("B"), jwt);
    // Not the last comment any more: A again is a comment of its own.
    const again = await comment(id, text("A"), jwt);
    expect(again.comment.id).not.toBe(a.comment.id);
    expect((await comment(id, text("A"), jwt)).comment.id).toBe(again.comment.id);
    // The same body as a reply is another post.
    const reply = await comment(id, { comment: { ...text("A").comment, parent_comment_id: a.comment.id } }, jwt);
    expect(reply.comment.id).not.toBe(again.comment.id);
    // Past the window (the claim moved 11 s back), or once deleted, the same words are new again.
    const member = await db.member.findFirstOrThrow({ where: { comments: { some: { id: a.comment.id } } } });
    const late = await comment(id, text("Late"), jwt);
    await db.commentClaim.update({
      where: { memberId: member.id },
      data: { claimedAt: new Date(Date.now() - 11_000) },
    });
    const lateAgain = await comment(id, text("Late"), jwt);
    expect(lateAgain.comment.id).not.toBe(late.comment.id);
    await db.comment.update({ where: { id: lateAgain.comment.id }, data: { deletedAt: new Date() } });
    expect((await comment(id, text("Late"), jwt)).comment.id).not.toBe(lateAgain.comment.id);
    // Four clicks at once make one comment, round after round (another reader: the limit is 20 a
    // minute per reader, 30 per IP); three different posts at once make three.
    const before = await db.comment.count();
    const clicker = await readerJwt({ id: "reader-clicks", name: "Di" });
    for (const round of [1, 2, 3]) {
      const clicks = await Promise.all(
        [1, 2, 3, 4].map(() => post(id, pageId(URL_A), { ...text(`Burst ${round}`), jwt: clicker })),
      );
      expect(clicks.map((r) => r.status)).toEqual([201, 201, 201, 201]);
      const clicked = await Promise.all(clicks.map(async (r) => ((await r.json()) as Created).comment.id));
      expect(new Set(clicked).size, `round ${round}`).toBe(1);
    }
    const distinct = await Promise.all(["x", "y", "z"].map((t) => post(id, pageId(URL_A), { ...text(t), jwt })));
    expect(distinct.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(await db.comment.count()).toBe(before + 6);
    // A repeat of a comment deleted since is a new comment, also for several at once.
    const last = await comment(id, text("Final"), jwt);
    await db.comment.update({ where: { id: last.comment.id }, data: { deletedAt: new Date() } });
    const reposts = await Promise.all([1, 2, 3].map(() => post(id, pageId(URL_A), { ...text("Final"), jwt })));
    expect(reposts.map((r) => r.status)).toEqual([201, 201, 201]);
    const reposted = await Promise.all(reposts.map(async (r) => ((await r.json()) as Created).comment.id));
    expect(new Set(reposted).size).toBe(1);
    expect(reposted[0]).not.toBe(last.comment.id);
  });

  it("makes one page and one member when a new reader's first comments on a new page arrive at once", async () => {
    const { db, id } = await setupPublisher();
    const jwt = await readerJwt({ id: "new-reader", name: "Cy" });
    const results = await Promise.all(
      ["a", "b", "c"].map((t) => post(id, pageId("https://news.example.com/fresh"), { ...text(t), jwt })),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(await db.page.count()).toBe(1);
    expect(await db.member.count()).toBe(1);
    expect(await db.comment.count()).toBe(3);
  });

  it("marks confidential comments' author as null", async () => {
    const { id } = await setupPublisher();
    const created = await comment(id, { ...text("secret"), confidential: true });
    expect(created.comment.author).toBeNull();
    expect(created.comment.author_id).toEqual(expect.any(Number));
  });

  it("limits writes per IP (429)", async () => {
    const { id } = await setupPublisher();
    const jwt = await readerJwt();
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await post(id, pageId(URL_A), { ...text(`c${i}`), jwt })).status;
    expect(last).toBe(429);
  });
});

describe("GET comments.json", () => {
  it("answers an unknown page as empty, creating nothing", async () => {
    const { db, id } = await setupPublisher();
    const res = await list(id, pageId("https://news.example.com/nothing-yet"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ total_count: 0, comments: [], total_parent_comments_count: 0 });
    expect(await db.page.count()).toBe(0);
    expect((await list(id, "%%bad")).status).toBe(400);
  });

  it("nests replies, sorts, pages, and shows hidden parents only as placeholders with replies", async () => {
    const { db, id } = await setupPublisher();
    const t0 = Date.now();
    const first = (await comment(id, text("first"))).comment;
    const second = (await comment(id, text("second"))).comment;
    const third = (await comment(id, text("third"))).comment;
    await db.comment.update({ where: { id: first.id }, data: { createdAt: new Date(t0 - 3000) } });
    await db.comment.update({ where: { id: second.id }, data: { createdAt: new Date(t0 - 2000) } });
    await db.comment.update({ where: { id: third.id }, data: { createdAt: new Date(t0 - 1000) } });
    const r1 = (await comment(id, { comment: { body: { ops: [{ insert: "r1" }] }, parent_comment_id: first.id } }))
      .comment;
    const r2 = (await comment(id, { comment: { body: { ops: [{ insert: "r2" }] }, parent_comment_id: first.id } }))
      .comment;
    await db.comment.update({ where: { id: r1.id }, data: { createdAt: new Date(t0 - 500) } });
    // A hidden comment without replies disappears; a hidden one with replies stays as a placeholder.
    await db.comment.update({ where: { id: second.id }, data: { hiddenAt: new Date(), hiddenById: second.author_id } });
    await db.comment.update({ where: { id: first.id }, data: { hiddenAt: new Date(), hiddenById: first.author_id } });

    const res = await list(id, pageId(URL_A), "?sort_order=desc&child_comments_sort_order=asc");
    const body = (await res.json()) as TCommentList;
    expect(body.total_count).toBe(3); // third, r1, r2
    expect(body.total_parent_comments_count).toBe(2);
    expect(body.comments.map((c) => c.id)).toEqual([third.id, first.id]);
    const placeholder = body.comments[1]!;
    expect(placeholder).toMatchObject({ hidden: true, body: { ops: [] }, mentions: [] });
    expect(placeholder.replies!.map((r) => r.id)).toEqual([r1.id, r2.id]);
    expect(body.comments[0]!.replies).toEqual([]);

    const oldest = (await (
      await list(id, pageId(URL_A), "?sort_order=oldest&parent_comments_limit=1")
    ).json()) as TCommentList;
    expect(oldest.comments.map((c) => c.id)).toEqual([first.id]);
    const paged = (await (
      await list(id, pageId(URL_A), "?sort_order=oldest&parent_comments_limit=1&parent_comments_offset=1")
    ).json()) as TCommentList;
    expect(paged.comments.map((c) => c.id)).toEqual([third.id]);
    const countOnly = (await (await list(id, pageId(URL_A), "?parent_comments_limit=0")).json()) as TCommentList;
    expect(countOnly).toEqual({ total_count: 3, comments: [], total_parent_comments_count: 2 });
  });

  it("sorts by reactions", async () => {
    const { db, id } = await setupPublisher();
    const a = (await comment(id, text("a"))).comment;
    const b = (await comment(id, text("b"))).comment;
    const member = await db.member.findFirstOrThrow();
    await db.commentReaction.create({ data: { commentId: a.id, memberId: member.id, reactionId: "like" } });
    const body = (await (await list(id, pageId(URL_A), "?sort_order=most_reacted")).json()) as TCommentList;
    expect(body.comments.map((c) => c.id)).toEqual([a.id, b.id]);
    expect(body.comments[0]!.reactions).toEqual({ like: 1 });
  });

  it("orders replies as asked, with the reaction counts of every comment and reply and the realm's count", async () => {
    const { db, id } = await setupPublisher();
    const t0 = Date.now();
    const top = (await comment(id, text("top"))).comment;
    await comment(id, text("elsewhere"), undefined, "https://news.example.com/politics/b-story");
    const reply = async (insert: string, ago: number) => {
      const { comment: r } = await comment(id, { comment: { body: { ops: [{ insert }] }, parent_comment_id: top.id } });
      await db.comment.update({ where: { id: r.id }, data: { createdAt: new Date(t0 - ago) } });
      return r;
    };
    const [early, middle, late] = [await reply("early", 3000), await reply("middle", 2000), await reply("late", 1000)];
    const readers = await Promise.all(
      ["r1", "r2", "r3"].map((n) =>
        db.member.create({ data: { accountId: Number(id), email: `${n}@example.com`, name: n, passwordHash: "x" } }),
      ),
    );
    const react = (commentId: number, memberIds: number[], reactionId: string) =>
      db.commentReaction.createMany({ data: memberIds.map((memberId) => ({ commentId, memberId, reactionId })) });
    await react(middle.id, [readers[0]!.id, readers[1]!.id], "wow");
    await react(middle.id, [readers[2]!.id], "like");
    await react(top.id, [readers[0]!.id], "haha");
    // most_reacted counts on the reaction count the database keeps.
    await db.comment.update({ where: { id: middle.id }, data: { reactionCount: 3 } });

    const replies = async (order: string) => {
      const res = await list(id, pageId(URL_A), `?child_comments_sort_order=${order}`);
      const body = (await res.json()) as TCommentList;
      expect(body.comments).toHaveLength(1);
      return body.comments[0]!;
    };
    const oldest = await replies("oldest");
    expect(oldest.replies!.map((r) => r.id)).toEqual([early.id, middle.id, late.id]);
    expect((await replies("newest")).replies!.map((r) => r.id)).toEqual([late.id, middle.id, early.id]);
    expect((await replies("most_reacted")).replies!.map((r) => r.id)).toEqual([middle.id, late.id, early.id]);
    expect(oldest.reactions).toEqual({ haha: 1 });
    expect(Object.entries(oldest.replies![1]!.reactions)).toEqual([
      ["like", 1],
      ["wow", 2],
    ]);
    expect(oldest.replies![0]!.reactions).toEqual({});
    // Five visible comments in the realm: the top one, its three replies and the other page's.
    expect([oldest, ...oldest.replies!].map((c) => c.realm_comment_count)).toEqual([5, 5, 5, 5]);
    expect(oldest.replies!.map((r) => r.author?.name)).toEqual(["Ada", "Ada", "Ada"]);
  });

  it("refuses bad query parameters and caps the page size at 100", async () => {
    const { id } = await setupPublisher();
    for (const q of [
      "?sort_order=random",
      "?parent_comments_limit=-1",
      "?parent_comments_limit=1e1",
      "?parent_comments_offset=x",
    ]) {
      expect((await list(id, pageId(URL_A), q)).status, q).toBe(400);
    }
    expect((await list(id, pageId(URL_A), "?parent_comments_limit=5000")).status).toBe(200);
  });
});
