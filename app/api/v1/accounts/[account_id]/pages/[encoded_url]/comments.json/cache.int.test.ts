/**
 * The response cache of the engagement hot reads (docs/engagement.md "Response cache"): a page's
 * comments and the comment counts are kept until a write that can change them purges the account's
 * "comments" key. For each kind of write: the cache is filled (MISS then HIT), the write is made,
 * and the next read is built again (MISS) and shows it. A rollback purges nothing. A reader's
 * my_reactions are laid over the kept answer, the same JSON as a list built for that reader.
 */
import { describe, expect, it } from "vitest";

import { ownWritesHeard } from "@/server/cache/process-cache";
import { getDatabase, getDb } from "@/server/db";
import { withTransaction } from "@/server/db/transaction";
import { listComments } from "@/server/engagement/comments";
import { ZListCommentsQuery, type TCommentList } from "@/server/engagement/comments.schema";
import { REPORTS_TO_HOLD } from "@/server/engagement/reports.schema";
import { findJwtMember, findOrCreateJwtMember } from "@/server/members/identities";
import { updateMemberProfile } from "@/server/members/member-account";
import { listPageComments, postComment, setupPublisher } from "@/server/testing/comment-calls";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import { enableResponseCache } from "@/server/testing/response-cache";
import { createTestStaff } from "@/server/testing/staff";
import { connectToSchema } from "@/server/testing/test-database";

import { GET as COUNTS } from "../../route";
import { POST as HIDE } from "../comments/[comment_id]/hide/route";
import { POST as REACT, DELETE as UNREACT } from "../comments/[comment_id]/reactions/[reaction_id]/route";
import { POST as REPORT } from "../comments/[comment_id]/report/route";
import { PUT as EDIT } from "../comments/[comment_id]/route";
import { PUT as METADATA } from "../metadata/route";
import { GET } from "./route";

const URL_A = "https://news.example.com/politics/a-story";
const B64 = pageId(URL_A);
const ADA = { id: "reader-ada", name: "Ada" };
const BO = { id: "reader-bo", name: "Bo" };

// Integration tests run with the response cache off (fixtures written past the services that
// purge it): these are about it, so it is on.
enableResponseCache();

async function setup() {
  const { db, account, id } = await setupPublisher();
  const first = await post(id, "First", ADA);
  return { db, account, id, first };
}

const post = (id: string, text: string, reader = ADA, parent?: number) => postComment(id, URL_A, reader, text, parent);

const commentParams = (id: string, commentId: number) => ({
  account_id: id,
  encoded_url: B64,
  comment_id: String(commentId),
});

const list = (id: string, query = "") => listPageComments(id, URL_A, query);

async function counts(id: string) {
  const res = await call(COUNTS, "GET", `/api/v1/accounts/${id}/pages?page_ids=${encodeURIComponent(B64)}`, {
    account_id: id,
  });
  expect(res.status).toBe(200);
  return {
    cache: res.headers.get("x-cache"),
    count: ((await res.json()) as { comments_count: number }[])[0]!.comments_count,
  };
}

/** Both reads kept: built once (MISS), then answered from memory (HIT), after what the test wrote is heard. */
async function fill(id: string) {
  await ownWritesHeard(await getDb());
  expect((await list(id)).cache).toBe("MISS");
  expect((await counts(id)).cache).toBe("MISS");
  expect((await list(id)).cache).toBe("HIT");
  expect((await counts(id)).cache).toBe("HIT");
}

/** Both reads built again after a write (heard, as a request's is before it is answered): MISS, with what the write changed. */
async function afterWrite(id: string) {
  await ownWritesHeard(await getDb());
  const listed = await list(id);
  expect(listed.cache).toBe("MISS");
  const counted = await counts(id);
  expect(counted.cache).toBe("MISS");
  return { list: listed.body, count: counted.count };
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("the engagement reads through the response cache", () => {
  it("are kept and answered from memory, sent as no-store; a no-cache request builds afresh", async () => {
    const { id } = await setup();
    await fill(id);
    const hit = await list(id);
    expect(hit.cache).toBe("HIT");
    expect(hit.res.headers.get("cache-control")).toBe("no-store");
    expect(hit.res.headers.get("etag")).toBeTruthy();
    expect(hit.body.comments.map((c) => c.body.ops)).toEqual([[{ insert: "First\n" }]]);
    const fresh = await call(
      GET,
      "GET",
      `/api/v1/accounts/${id}/pages/${B64}/comments.json`,
      { account_id: id, encoded_url: B64 },
      undefined,
      { "cache-control": "no-cache" },
    );
    expect(fresh.headers.get("x-cache")).toBe("MISS");
    // Another page's list is its own entry.
    const other = pageId("https://news.example.com/other");
    const res = await call(GET, "GET", `/api/v1/accounts/${id}/pages/${other}/comments.json`, {
      account_id: id,
      encoded_url: other,
    });
    expect(res.headers.get("x-cache")).toBe("MISS");
    expect(((await res.json()) as TCommentList).comments).toEqual([]);
  });

  it("are purged by a new comment", async () => {
    const { id } = await setup();
    await fill(id);
    await post(id, "Second", BO);
    const { list: after, count } = await afterWrite(id);
    expect(after.comments.map((c) => c.body.ops[0])).toEqual([{ insert: "Second\n" }, { insert: "First\n" }]);
    expect(count).toBe(2);
  });

  it("show a comment in the next read at once: the write answers once its own instance heard it", async () => {
    const { id } = await setup();
    await fill(id);
    await post(id, "Second", BO);
    // No wait here: on PostgreSQL the route waited for this process's listener before answering.
    const next = await list(id);
    expect(next.cache).toBe("MISS");
    expect(next.body.comments.map((c) => c.body.ops[0])).toEqual([{ insert: "Second\n" }, { insert: "First\n" }]);
  });

  it("are purged by a reply", async () => {
    const { id, first } = await setup();
    await fill(id);
    await post(id, "A reply", BO, first.id);
    const { list: after, count } = await afterWrite(id);
    expect(after.comments[0]!.replies!.map((r) => r.body.ops[0])).toEqual([{ insert: "A reply\n" }]);
    expect(count).toBe(2);
  });

  it("are purged by an edit", async () => {
    const { id, first } = await setup();
    await fill(id);
    const res = await call(EDIT, "PUT", "/x", commentParams(id, first.id), {
      comment: { ops: [{ insert: "Edited" }] },
      jwt: await readerJwt(ADA),
    });
    expect(res.status).toBe(200);
    const { list: after } = await afterWrite(id);
    expect(after.comments[0]!.body.ops).toEqual([{ insert: "Edited\n" }]);
    expect(after.comments[0]!.edited_at).not.toBeNull();
  });

  it("are purged when the author hides a comment", async () => {
    const { id, first } = await setup();
    await fill(id);
    const res = await call(HIDE, "POST", "/x", commentParams(id, first.id), { jwt: await readerJwt(ADA) });
    expect(res.status).toBe(200);
    const { list: after, count } = await afterWrite(id);
    expect(after.comments).toEqual([]);
    expect(count).toBe(0);
  });

  it.each(["delete", "reject", "spam"] as const)("are purged by a moderator's %s", async (action) => {
    const { db, account, id, first } = await setup();
    const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
    await fill(id);
    const result = await moderator.caller.moderation.act({ commentId: first.id, action });
    expect(result.changed).toBe(true);
    const { list: after, count } = await afterWrite(id);
    expect(after.comments).toEqual([]);
    expect(count).toBe(0);
  });

  it("are purged by a moderator's approval of a held comment", async () => {
    const { db, account, id } = await setup();
    const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
    const held = await post(id, "Held for now", BO);
    await db.comment.update({ where: { id: held.id }, data: { isPublished: false } });
    await fill(id);
    expect((await counts(id)).count).toBe(1);
    await moderator.caller.moderation.act({ commentId: held.id, action: "approve" });
    const { list: after, count } = await afterWrite(id);
    expect(after.comments.map((c) => c.id)).toContain(held.id);
    expect(count).toBe(2);
  });

  it("are purged by the report that holds a comment, not by the reports before it", async () => {
    const { id, first } = await setup();
    await fill(id);
    for (let n = 1; n <= REPORTS_TO_HOLD; n++) {
      const res = await call(REPORT, "POST", "/x", commentParams(id, first.id), {
        jwt: await readerJwt({ id: `reporter-${n}`, name: `Reporter ${n}` }),
        reason: "spam",
      });
      expect(res.status).toBe(201);
      if (n < REPORTS_TO_HOLD) expect((await list(id)).cache).toBe("HIT");
    }
    const { list: after, count } = await afterWrite(id);
    expect(after.comments).toEqual([]);
    expect(count).toBe(0);
  });

  it("are purged by a reaction given and taken back", async () => {
    const { id, first } = await setup();
    const params = { ...commentParams(id, first.id), reaction_id: "like" };
    const jwt = await readerJwt(BO);
    await fill(id);
    expect((await call(REACT, "POST", "/x", params, { jwt })).status).toBe(200);
    expect((await afterWrite(id)).list.comments[0]!.reactions).toEqual({ like: 1 });
    // Giving it again changes nothing: the kept answer stays.
    expect((await call(REACT, "POST", "/x", params, { jwt })).status).toBe(200);
    expect((await list(id)).cache).toBe("HIT");
    expect((await call(UNREACT, "DELETE", `/x?jwt=${jwt}`, params)).status).toBe(200);
    expect((await afterWrite(id)).list.comments[0]!.reactions).toEqual({});
  });

  it("are purged by the page's metadata: headline, hero image and authors", async () => {
    const { id } = await setup();
    await fill(id);
    const metadata = { "og:title": "A story", "og:image": "https://images.example.com/hero.jpg" };
    const signed = await readerJwt({ page_url: URL_A, author_ids: [ADA.id] });
    const res = await call(
      METADATA,
      "PUT",
      "/x",
      { account_id: id, encoded_url: B64 },
      { metadata, metadata_jwt: signed },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const { list: after } = await afterWrite(id);
    expect(after.comments[0]).toMatchObject({
      headline: "A story",
      hero_image_url: "https://images.example.com/hero.jpg",
      is_page_author: true,
    });
  });

  it("are purged when an author's jwt claims rename them", async () => {
    const { db, account, id } = await setup();
    await fill(id);
    await findOrCreateJwtMember(db, {
      accountId: account.id,
      user: { ...ADA, name: "Ada L.", email: null, avatarUrl: "https://images.example.com/ada.png", provider: null },
      now: new Date(),
    });
    const { list: after } = await afterWrite(id);
    expect(after.comments[0]!.author).toMatchObject({ name: "Ada L.", avatar: "https://images.example.com/ada.png" });
  });

  it("are purged when an author changes their profile (name, bio)", async () => {
    const { db, account, id } = await setup();
    const member = (await findJwtMember(db, { accountId: account.id, userId: ADA.id }))!;
    await fill(id);
    await updateMemberProfile(db, { member, input: { bio: "Reads everything" } });
    const { list: after } = await afterWrite(id);
    expect(after.comments[0]!.author).toMatchObject({ name: "Ada", bio: "Reads everything" });
    // A change of fields comments do not show keeps them (kept again by the reads just made).
    expect((await list(id)).cache).toBe("HIT");
    await updateMemberProfile(db, { member: { ...member, bio: "Reads everything" }, input: { "first-name": "Ada" } });
    expect((await list(id)).cache).toBe("HIT");
  });

  it("are not purged by a write that rolls back", async () => {
    const { db, account, id, first } = await setup();
    const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
    await fill(id);
    await expect(
      withTransaction(db, async (tx) => {
        await tx.comment.update({ where: { id: first.id }, data: { deletedAt: new Date() } });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    // A moderator's action that fails (already decided otherwise) purges nothing either.
    await moderator.caller.moderation.act({ commentId: first.id, action: "approve" });
    await fill(id);
    await expect(moderator.caller.moderation.act({ commentId: first.id, action: "reject" })).rejects.toThrow();
    const listed = await list(id);
    expect(listed.cache).toBe("HIT");
    expect(listed.body.comments.map((c) => c.id)).toEqual([first.id]);
    expect((await counts(id)).cache).toBe("HIT");
  });
});

describe("a reader's list (jwt)", () => {
  it("is the kept anonymous answer with their my_reactions laid over it: the same JSON as built for them", async () => {
    const { db, account, id, first } = await setup();
    const reply = await post(id, "A reply", BO, first.id);
    const second = await post(id, "Second", BO);
    const jwt = await readerJwt(ADA);
    for (const [commentId, reaction] of [
      [first.id, "love"],
      [first.id, "like"],
      [reply.id, "haha"],
    ] as const) {
      const res = await call(REACT, "POST", "/x", { ...commentParams(id, commentId), reaction_id: reaction }, { jwt });
      expect(res.status).toBe(200);
    }
    const query = ZListCommentsQuery.parse({});
    const expected = async (user: typeof ADA | null) =>
      JSON.stringify(
        await listComments(db, {
          accountId: account.id,
          encodedUrl: B64,
          query,
          viewer: user ? { ...user, email: null, avatarUrl: null, provider: null } : null,
        }),
      );

    const miss = await list(id, `?jwt=${jwt}`);
    expect(miss.cache).toBe("MISS");
    expect(miss.text).toBe(await expected(ADA));
    expect(miss.body.comments.find((c) => c.id === first.id)!.my_reactions).toEqual(["love", "like"]);
    expect(miss.body.comments.find((c) => c.id === second.id)!.my_reactions).toEqual([]);
    expect(miss.body.comments.find((c) => c.id === first.id)!.replies![0]!.my_reactions).toEqual(["haha"]);

    // The kept answer is the anonymous one, for every reader: no my_reactions in it.
    const anonymous = await list(id);
    expect(anonymous.cache).toBe("HIT");
    expect(anonymous.text).toBe(await expected(null));
    expect(anonymous.text).not.toContain("my_reactions");

    const hit = await list(id, `?jwt=${jwt}`);
    expect(hit.cache).toBe("HIT");
    expect(hit.text).toBe(await expected(ADA));
    expect(hit.res.headers.get("etag")).not.toBe(anonymous.res.headers.get("etag"));

    // Another reader, and one who never did anything here: their own (none).
    const bo = await list(id, `?jwt=${await readerJwt(BO)}`);
    expect(bo.cache).toBe("HIT");
    expect(bo.text).toBe(await expected(BO));
    const stranger = { id: "reader-new", name: "New" };
    const fresh = await list(id, `?jwt=${await readerJwt(stranger)}`);
    expect(fresh.cache).toBe("HIT");
    expect(fresh.text).toBe(await expected(stranger));
    expect(fresh.body.comments.every((c) => Array.isArray(c.my_reactions) && c.my_reactions.length === 0)).toBe(true);

    // Paged and sorted lists too.
    const paged = await list(id, `?jwt=${jwt}&parent_comments_limit=1&sort_order=oldest`);
    expect(paged.text).toBe(
      JSON.stringify(
        await listComments(db, {
          accountId: account.id,
          encodedUrl: B64,
          query: ZListCommentsQuery.parse({ parent_comments_limit: "1", sort_order: "oldest" }),
          viewer: { ...ADA, email: null, avatarUrl: null, provider: null },
        }),
      ),
    );
  });
});

describe.runIf(process.env.TEST_DB === "postgres")("another instance's write", () => {
  it("drops the kept lists and counts when another connection's write to a comment commits (the database announces it), not on its rollback", async () => {
    const database = await getDatabase();
    if (database.config.kind !== "postgresql") throw new Error("PostgreSQL only");
    const { schema } = database.config;
    const { account, id, first } = await setup();
    await fill(id);

    /**
     * Another instance's moderator deleting the comment, or SQL by hand: the row only. The
     * database's trigger sends the purge notice (migration changes_announced_by_the_database).
     */
    const otherInstance = async (commit: boolean) => {
      const client = await connectToSchema(schema);
      try {
        await client.query("BEGIN");
        await client.query("UPDATE comments SET deleted_at = now() WHERE id = $1 AND account_id = $2", [
          first.id,
          account.id,
        ]);
        await client.query(commit ? "COMMIT" : "ROLLBACK");
      } finally {
        await client.end();
      }
    };

    await otherInstance(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await list(id)).cache).toBe("HIT");
    expect((await counts(id)).cache).toBe("HIT");

    await otherInstance(true);
    await expect.poll(async () => (await list(id)).body.comments.length, { timeout: 5_000 }).toBe(0);
    expect((await counts(id)).count).toBe(0);
  });
});
