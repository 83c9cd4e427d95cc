/**
 * The moderators' queue and actions through tRPC (moderation.queue, counts, act, ban, liftBan,
 * history): tabs and counts, each action with its audit entry and webhook event, concurrency,
 * account scoping and roles, decisions through the author's edit, and bans enforced on the
 * reader's services. Comments are written through the services the REST routes call.
 */
import { describe, expect, it } from "vitest";

import { commentEventPayload } from "@/server/engagement/events";

import type { ApiUser } from "../../auth/api-auth";
import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { createComment, editComment, hideComment, listComments, pageCommentCounts } from "../../engagement/comments";
import { addReaction } from "../../engagement/reactions";
import { builtInToxicity, pageId } from "../../testing/engagement";
import { runJobsNow, testJobDeps } from "../../testing/jobs";
import { createModerationDesk, createTestStaff, trpcCodeOf } from "../../testing/staff";
import { fakeClock, startReceiver } from "../../testing/webhook-receiver";

const URL_A = "https://news.example.com/politics/a-story";
const B64 = pageId(URL_A);

const reader = (id: string, name = id): ApiUser => ({ id, name, email: null, avatarUrl: null, provider: null });
const ADA = reader("ada", "Ada");
const BO = reader("bo", "Bo");

async function setup() {
  const desk = await createModerationDesk(await getDb());
  const editor = await createTestStaff(desk.db, { account: desk.account.id, roles: ["EDITOR"] });
  return { ...desk, editor };
}

async function post(db: Db, accountId: number, user: ApiUser, text: string, now = new Date()) {
  const { response } = await createComment(db, {
    account: { id: accountId, slug: "x", name: "x" },
    user,
    encodedUrl: B64,
    input: { comment: { body: { ops: [{ insert: text }] } } },
    now,
  });
  return response.comment;
}

async function visibleCounts(db: Db, accountId: number) {
  const count = (await pageCommentCounts(db, { accountId, pageIds: [B64] }))[0]!.comments_count;
  const list = await pageComments(db, accountId);
  return { count, listed: list.total_count, ids: list.comments.map((c) => c.id) };
}

/** The page's first 20 comments as readers get them, newest first. */
function pageComments(db: Db, accountId: number) {
  return listComments(db, {
    accountId,
    encodedUrl: B64,
    query: {
      parent_comments_limit: 20,
      parent_comments_offset: 0,
      sort_order: "newest",
      child_comments_sort_order: "oldest",
    },
  });
}

const events = (db: Db, name: string) => db.webhookEvent.count({ where: { name } });

describe("moderation.queue and counts", () => {
  it("puts held comments in their tabs, with what a moderator needs, paged by a cursor", async () => {
    const { db, account, moderator } = await setup();
    const clean = await post(db, account.id, ADA, "A thoughtful point about the budget.");
    const toxic = await post(db, account.id, BO, "you idiot", new Date(Date.now() + 1000));
    const spam = await post(
      db,
      account.id,
      reader("cy"),
      "Click here to make money fast, dm me",
      new Date(Date.now() + 2000),
    );
    expect(clean.is_published).toBe(true);
    expect(toxic.is_published).toBe(false);
    expect(spam).toMatchObject({ is_published: false, is_spam: true });

    expect(await moderator.caller.moderation.counts()).toMatchObject({ pending: 2, reported: 0, spam: 1, toxic: 1 });
    const pending = await moderator.caller.moderation.queue({ tab: "pending" });
    expect(pending.items.map((i) => i.id)).toEqual([spam.id, toxic.id]);
    const item = pending.items[1]!;
    expect(item).toMatchObject({
      page: { url: URL_A },
      author: { name: "Bo", isNew: true, bannedUntil: null },
      toxicity: builtInToxicity("you idiot"),
      isSpam: false,
      isPublished: false,
      state: "undecided",
      reportCount: 0,
      ops: [{ insert: "you idiot\n" }],
    });
    expect(item.reasons).toContain("held.toxicity");
    expect(item.author.memberId).toBe(toxic.author_id);

    const first = await moderator.caller.moderation.queue({ tab: "pending", order: "oldest", limit: 1 });
    expect(first.items.map((i) => i.id)).toEqual([toxic.id]);
    const second = await moderator.caller.moderation.queue({
      tab: "pending",
      order: "oldest",
      limit: 1,
      cursor: first.nextCursor!,
    });
    expect(second.items.map((i) => i.id)).toEqual([spam.id]);
    expect(second.nextCursor).toBeNull();
    expect(await trpcCodeOf(moderator.caller.moderation.queue({ cursor: "nonsense" }))).toBe("BAD_REQUEST");
    expect((await moderator.caller.moderation.queue({ tab: "toxic" })).items.map((i) => i.id)).toEqual([toxic.id]);
    expect((await moderator.caller.moderation.queue({ tab: "spam" })).items.map((i) => i.id)).toEqual([spam.id]);

    // A lower threshold brings the clean-but-rude into the toxic tab; the tab follows the setting.
    await moderator.caller.moderation.updateSettings({ toxicityThreshold: 1 });
    expect((await moderator.caller.moderation.counts()).toxic).toBe(1);
  });

  it("keeps editors out (FORBIDDEN) and never shows another account's comments", async () => {
    const { db, account, editor } = await setup();
    await post(db, account.id, BO, "you idiot");
    expect(await trpcCodeOf(editor.caller.moderation.queue({}))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(editor.caller.moderation.counts())).toBe("FORBIDDEN");
    const other = await createTestStaff(db, { roles: ["MODERATOR"] });
    expect(await other.caller.moderation.counts()).toMatchObject({ pending: 0, reported: 0, spam: 0, toxic: 0 });
    expect((await other.caller.moderation.queue({})).items).toEqual([]);
  });
});

describe("moderation.act", () => {
  it("approves: published, counted, audited, comment.published once; repeating is a no-op", async () => {
    const { db, account, moderator } = await setup();
    await post(db, account.id, ADA, "Fine words.");
    const toxic = await post(db, account.id, BO, "you idiot");
    expect(await visibleCounts(db, account.id)).toMatchObject({ count: 1, listed: 1 });

    const done = await moderator.caller.moderation.act({ commentId: toxic.id, action: "approve" });
    expect(done).toMatchObject({ changed: true, comment: { state: "approved", isPublished: true } });
    expect(await visibleCounts(db, account.id)).toMatchObject({ count: 2, listed: 2 });
    const again = await moderator.caller.moderation.act({ commentId: toxic.id, action: "approve" });
    expect(again.changed).toBe(false);
    expect(await events(db, "comment.published")).toBe(1);
    const audit = await db.auditLog.findMany({ where: { action: "comment.approve" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actorId).toBe(moderator.user.id);
    expect(audit[0]!.metadata).toMatchObject({
      from: "undecided",
      to: "approved",
      published: { from: false, to: true },
    });
    expect(await moderator.caller.moderation.counts()).toMatchObject({ pending: 0, reported: 0, spam: 0, toxic: 0 });

    // realm_comment_count of the comment object follows too.
    const list = await pageComments(db, account.id);
    expect(list.comments[0]!.realm_comment_count).toBe(2);

    // Another decision without override: 409; with it, the comment leaves the counts again.
    expect(await trpcCodeOf(moderator.caller.moderation.act({ commentId: toxic.id, action: "reject" }))).toBe(
      "CONFLICT",
    );
    const rejected = await moderator.caller.moderation.act({ commentId: toxic.id, action: "reject", override: true });
    expect(rejected.comment).toMatchObject({ state: "rejected", isPublished: false });
    expect(await visibleCounts(db, account.id)).toMatchObject({ count: 1, listed: 1 });
    expect(await moderator.caller.moderation.counts()).toMatchObject({ pending: 0 });
  });

  it("rejects (out of pending), deletes (staff id, final), marks spam and not spam, with counts after each", async () => {
    const { db, account, moderator, owner } = await setup();
    const a = await post(db, account.id, ADA, "you idiot");
    const b = await post(db, account.id, BO, "A fine comment.");
    const c = await post(db, account.id, reader("cy"), "Another fine comment here.");

    await moderator.caller.moderation.act({ commentId: a.id, action: "reject" });
    expect(await moderator.caller.moderation.counts()).toMatchObject({ pending: 0, toxic: 0 });
    expect(await visibleCounts(db, account.id)).toMatchObject({ count: 2 });

    const deleted = await owner.caller.moderation.act({ commentId: b.id, action: "delete" });
    expect(deleted.comment).toMatchObject({ deleted: true });
    const row = await db.comment.findUniqueOrThrow({ where: { id: b.id } });
    expect(row.deletedById).toBe(owner.user.id);
    expect(row.deletedAt).not.toBeNull();
    expect(await visibleCounts(db, account.id)).toMatchObject({ count: 1, ids: [c.id] });
    expect(await events(db, "comment.deleted")).toBe(1);
    expect((await owner.caller.moderation.act({ commentId: b.id, action: "delete" })).changed).toBe(false);
    expect(await events(db, "comment.deleted")).toBe(1);
    expect(await trpcCodeOf(owner.caller.moderation.act({ commentId: b.id, action: "approve", override: true }))).toBe(
      "CONFLICT",
    );

    await moderator.caller.moderation.act({ commentId: c.id, action: "spam" });
    expect(await visibleCounts(db, account.id)).toMatchObject({ count: 0 });
    expect(await db.comment.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({
      isSpam: true,
      isPublished: false,
    });
    expect(await trpcCodeOf(moderator.caller.moderation.act({ commentId: c.id, action: "not_spam" }))).toBe("CONFLICT");
    const notSpam = await moderator.caller.moderation.act({ commentId: c.id, action: "not_spam", override: true });
    expect(notSpam.comment).toMatchObject({ isSpam: false, state: "undecided", isPublished: false });
    expect(await moderator.caller.moderation.counts()).toMatchObject({ pending: 1, spam: 0 });
    await moderator.caller.moderation.act({ commentId: c.id, action: "approve" });
    expect(await visibleCounts(db, account.id)).toMatchObject({ count: 1 });
    expect(await db.auditLog.count({ where: { action: { startsWith: "comment." } } })).toBe(5);
  });

  it("answers NOT_FOUND for another account's comment, FORBIDDEN for an editor, and changes nothing", async () => {
    const { db, account, editor } = await setup();
    const held = await post(db, account.id, BO, "you idiot");
    const other = await createTestStaff(db, { roles: ["MODERATOR"] });
    expect(await trpcCodeOf(other.caller.moderation.act({ commentId: held.id, action: "approve" }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(other.caller.moderation.act({ commentId: held.id, action: "delete" }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(editor.caller.moderation.act({ commentId: held.id, action: "approve" }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(other.caller.moderation.act({ commentId: 0, action: "approve" }))).toBe("BAD_REQUEST");
    expect(await db.comment.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({
      isPublished: false,
      deletedAt: null,
      moderationState: "UNDECIDED",
    });
    expect(await db.auditLog.count({ where: { action: { startsWith: "comment." } } })).toBe(0);
  });

  it("serves two moderators at once: one decision, one webhook event", async () => {
    const { db, account, moderator, owner } = await setup();
    const held = await post(db, account.id, BO, "you idiot");
    const twice = await Promise.all([
      moderator.caller.moderation.act({ commentId: held.id, action: "approve" }),
      owner.caller.moderation.act({ commentId: held.id, action: "approve" }),
    ]);
    expect(twice.map((r) => r.changed).sort()).toEqual([false, true]);
    expect(await events(db, "comment.published")).toBe(1);
    expect(await db.auditLog.count({ where: { action: "comment.approve" } })).toBe(1);

    const other = await post(db, account.id, ADA, "you moron");
    const raced = await Promise.allSettled([
      moderator.caller.moderation.act({ commentId: other.id, action: "approve" }),
      owner.caller.moderation.act({ commentId: other.id, action: "delete" }),
    ]);
    const final = await db.comment.findUniqueOrThrow({ where: { id: other.id } });
    expect(final.deletedAt).not.toBeNull();
    expect(await events(db, "comment.deleted")).toBe(1);
    // Either the approval came first (then the delete), or the delete did and the approval was refused.
    if (raced[0].status === "rejected") {
      expect((raced[0].reason as { code?: string }).code).toBe("CONFLICT");
      expect(await events(db, "comment.published")).toBe(1);
    } else {
      expect(await events(db, "comment.published")).toBe(2);
    }
    expect(raced[1].status).toBe("fulfilled");
    expect(await visibleCounts(db, account.id)).toMatchObject({ count: 1 });
  });
});

describe("decisions through the author's edit", () => {
  const edit = (db: Db, accountId: number, user: ApiUser, commentId: number, text: string) =>
    editComment(db, { accountId, user, encodedUrl: B64, commentId, ops: [{ insert: text }], now: new Date() });

  it("keeps rejected and spam comments unpublished, re-holds an approved comment edited into a toxic one", async () => {
    const { db, account, moderator } = await setup();
    const rejected = await post(db, account.id, BO, "you idiot");
    await moderator.caller.moderation.act({ commentId: rejected.id, action: "reject" });
    const cleaned = await edit(db, account.id, BO, rejected.id, "I take that back, sorry.");
    expect(cleaned.comment).toMatchObject({ is_published: false });
    expect(await moderator.caller.moderation.counts()).toMatchObject({ pending: 0 });

    const spam = await post(db, account.id, ADA, "Nice one, honestly.");
    await moderator.caller.moderation.act({ commentId: spam.id, action: "spam" });
    expect((await edit(db, account.id, ADA, spam.id, "Nice one, truly.")).comment).toMatchObject({
      is_published: false,
      is_spam: true,
    });

    const approved = await post(db, account.id, reader("cy"), "you moron");
    await moderator.caller.moderation.act({ commentId: approved.id, action: "approve" });
    expect((await edit(db, account.id, reader("cy"), approved.id, "you moron, truly")).comment.is_published).toBe(
      false,
    );
    expect(await db.comment.findUniqueOrThrow({ where: { id: approved.id } })).toMatchObject({
      moderationState: "UNDECIDED",
    });
    expect((await moderator.caller.moderation.queue({ tab: "pending" })).items.map((i) => i.id)).toEqual([approved.id]);
    // Approved again, then a clean edit keeps it published.
    await moderator.caller.moderation.act({ commentId: approved.id, action: "approve" });
    expect(
      (await edit(db, account.id, reader("cy"), approved.id, "Fair enough, I was wrong.")).comment.is_published,
    ).toBe(true);
    expect(await visibleCounts(db, account.id)).toMatchObject({ count: 1 });
  });
});

describe("bans", () => {
  it("bars a banned reader's create, edit, hide and reactions (403, until when), until lifted", async () => {
    const { db, account, moderator } = await setup();
    const mine = await post(db, account.id, BO, "My first comment.");
    const theirs = await post(db, account.id, ADA, "Someone else's comment.");
    const ban = await moderator.caller.moderation.ban({ memberId: mine.author_id, reason: "Insults", durationDays: 7 });
    expect(ban).toMatchObject({ active: true, reason: "Insults" });
    const until = ban.expiresAt!.toISOString();

    const refused = (promise: Promise<unknown>) =>
      promise.then(
        () => "OK",
        (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
      );
    expect(await refused(post(db, account.id, BO, "Another one."))).toBe(
      `FORBIDDEN: You are banned from commenting here until ${until}.`,
    );
    expect(
      await refused(
        editComment(db, {
          accountId: account.id,
          user: BO,
          encodedUrl: B64,
          commentId: mine.id,
          ops: [{ insert: "x" }],
          now: new Date(),
        }),
      ),
    ).toMatch(/^FORBIDDEN/);
    expect(
      await refused(
        hideComment(db, { accountId: account.id, user: BO, encodedUrl: B64, commentId: mine.id, now: new Date() }),
      ),
    ).toMatch(/^FORBIDDEN/);
    expect(
      await refused(
        addReaction(db, {
          accountId: account.id,
          user: BO,
          encodedUrl: B64,
          commentId: theirs.id,
          reactionId: "like",
          now: new Date(),
        }),
      ),
    ).toMatch(/^FORBIDDEN/);
    expect(await db.comment.count({ where: { accountId: account.id } })).toBe(2);
    expect((await moderator.caller.moderation.queue({ tab: "pending" })).items).toEqual([]);
    const history = await moderator.caller.moderation.history({ memberId: mine.author_id });
    expect(history.activeBan).toMatchObject({ reason: "Insults", createdBy: "Mo" });

    expect(await moderator.caller.moderation.liftBan({ memberId: mine.author_id })).toEqual({ lifted: true });
    expect(await moderator.caller.moderation.liftBan({ memberId: mine.author_id })).toEqual({ lifted: false });
    expect((await post(db, account.id, BO, "Back again.")).is_published).toBe(true);
    expect(await db.auditLog.count({ where: { action: { in: ["comment_ban.create", "comment_ban.lift"] } } })).toBe(2);
  });

  it("expires by time, bans for good, replaces an active ban, and stays in the account", async () => {
    const { db, account, moderator } = await setup();
    const mine = await post(db, account.id, BO, "Hello there.");
    // A one-day ban that started two days ago is over.
    await db.commentBan.create({
      data: {
        accountId: account.id,
        memberId: mine.author_id,
        reason: "old",
        expiresAt: new Date(Date.now() - 86_400_000),
        createdById: moderator.user.id,
        createdAt: new Date(Date.now() - 2 * 86_400_000),
      },
    });
    expect((await post(db, account.id, BO, "Still here.")).id).toBeGreaterThan(0);
    await moderator.caller.moderation.ban({ memberId: mine.author_id, reason: "Spam", durationDays: 1 });
    const forever = await moderator.caller.moderation.ban({
      memberId: mine.author_id,
      reason: "Spam again",
      durationDays: null,
    });
    expect(forever.expiresAt).toBeNull();
    expect(await db.commentBan.count({ where: { memberId: mine.author_id, liftedAt: null } })).toBe(2); // the expired one and forever
    await expect(post(db, account.id, BO, "Let me in.")).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "You are banned from commenting here.",
    });
    const queue = await moderator.caller.moderation.queue({ tab: "pending" });
    expect(queue.items).toEqual([]);
    const other = await createTestStaff(db, { roles: ["MODERATOR"] });
    expect(
      await trpcCodeOf(other.caller.moderation.ban({ memberId: mine.author_id, reason: "x", durationDays: 1 })),
    ).toBe("NOT_FOUND");
    expect(await trpcCodeOf(other.caller.moderation.history({ memberId: mine.author_id }))).toBe("NOT_FOUND");
    expect(
      await trpcCodeOf(moderator.caller.moderation.ban({ memberId: mine.author_id, reason: " ", durationDays: 1 })),
    ).toBe("BAD_REQUEST");
    const history = await moderator.caller.moderation.history({ memberId: mine.author_id });
    expect(history.bans.map((b) => [b.reason, b.active])).toEqual([
      ["Spam again", true],
      ["Spam", false],
      ["old", false],
    ]);
    expect(history.comments).toHaveLength(2);
  });
});

describe("engagement webhooks", () => {
  it("emits comment.created once per comment, to endpoints subscribed to it", async () => {
    const { db, account } = await setup();
    const endpoint = await db.webhookEndpoint.create({
      data: {
        accountId: account.id,
        kind: "ENGAGEMENT",
        url: "https://hooks.example.com/c",
        events: ["comment.created"],
      },
    });
    const now = new Date();
    const comment = await post(db, account.id, ADA, "Hello, world.", now);
    await post(db, account.id, ADA, "Hello, world.", now); // a repeat within 10 s: the same comment
    const rows = await db.webhookEvent.findMany({ where: { accountId: account.id, name: "comment.created" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.kind).toBe("ENGAGEMENT");
    expect(rows[0]!.payload).toMatchObject({
      comment: {
        id: comment.id,
        page_url: URL_A,
        is_published: true,
        moderation_state: "undecided",
        author_id: comment.author_id,
      },
    });
    // The statement that wrote the comment wrote the event: its data is the stored comment's, id included.
    const stored = await db.comment.findUniqueOrThrow({ where: { id: comment.id } });
    const page = await db.page.findUniqueOrThrow({ where: { id: stored.pageId } });
    expect(rows[0]!.payload).toEqual(JSON.parse(JSON.stringify(commentEventPayload(stored, page))));
    expect(await db.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(1);
    expect(await db.job.count({ where: { name: "webhook.deliver" } })).toBe(1);
  });

  it("lets an owner subscribe to engagement events in the dashboard, and delivers a moderator's approval", async () => {
    const { db, account, owner, moderator } = await setup();
    expect((await owner.caller.webhooks.catalog()).ENGAGEMENT).toEqual([
      "comment.created",
      "comment.published",
      "comment.unpublished",
      "comment.deleted",
      "comment.reported",
      "comment.featured",
      "comment.unfeatured",
      "page.surge_started",
      "page.surge_ended",
    ]);
    expect(
      await trpcCodeOf(
        owner.caller.webhooks.create({ kind: "ENGAGEMENT", url: "https://example.org/h", events: ["story-publish"] }),
      ),
    ).toBe("BAD_REQUEST");
    const receiver = await startReceiver();
    try {
      const { endpoint } = await owner.caller.webhooks.create({
        kind: "ENGAGEMENT",
        url: receiver.url,
        events: ["comment.published"],
      });
      expect(endpoint.kind).toBe("ENGAGEMENT");
      const held = await post(db, account.id, BO, "you idiot");
      await moderator.caller.moderation.act({ commentId: held.id, action: "approve" });
      await moderator.caller.moderation.act({ commentId: held.id, action: "approve" });
      await runJobsNow(db, testJobDeps({ clock: fakeClock(new Date(Date.now() + 1000)) }));
      expect(receiver.requests).toHaveLength(1);
      const request = receiver.requests[0]!;
      expect(request.headers["x-masthead-event"]).toBe("comment.published");
      expect(JSON.parse(request.body)).toMatchObject({
        event: "comment.published",
        data: {
          comment: { id: held.id, is_published: true, moderation_state: "approved" },
          moderator_id: moderator.user.id,
        },
      });
    } finally {
      await receiver.close();
    }
  });
});
