/**
 * The Community page through tRPC (community.*) and the reader's notices through their REST
 * routes: finding readers (search, filters, paging, counts), warning and acknowledging,
 * suspending and lifting, banning with the pending comments rejected, rejecting all of a
 * reader's comments (counts, webhook events as the queue's reject emits them, audit entries with
 * the actor), bad input, roles, and another account's readers kept out.
 */
import { describe, expect, it } from "vitest";

import { POST as ACKNOWLEDGE } from "@/app/api/v1/accounts/[account_id]/notices/[notice_id]/acknowledge/route";
import { GET as NOTICES } from "@/app/api/v1/accounts/[account_id]/notices/route";
import type { TNoticeWire } from "@/server/engagement/community/notices.schema";

import type { ApiUser } from "../../auth/api-auth";
import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { createComment, pageCommentCounts } from "../../engagement/comments";
import { call, pageId, readerJwt } from "../../testing/engagement";
import { createTestPublisher } from "../../testing/publishing-factories";
import { createModerationDesk, createTestStaff, trpcCodeOf } from "../../testing/staff";

const URL_A = "https://news.example.com/politics/a-story";
const B64 = pageId(URL_A);

const reader = (id: string, name = id): ApiUser => ({ id, name, email: null, avatarUrl: null, provider: null });
const ADA = reader("ada", "Ada Lovelace");
const BO = reader("bo", "Bo Diddley");

async function setup() {
  const desk = await createModerationDesk(await getDb());
  const editor = await createTestStaff(desk.db, { account: desk.account.id, roles: ["EDITOR"] });
  return { ...desk, editor };
}

async function post(db: Db, accountId: number, user: ApiUser, text: string) {
  const { response } = await createComment(db, {
    account: { id: accountId, slug: "x", name: "x" },
    user,
    encodedUrl: B64,
    input: { comment: { body: { ops: [{ insert: text }] } } },
    now: new Date(),
  });
  return response.comment;
}

async function memberIdOf(db: Db, accountId: number, externalId: string): Promise<number> {
  const identity = await db.memberIdentity.findFirstOrThrow({
    where: { accountId, provider: "publisher", externalId },
  });
  return identity.memberId;
}

const visibleOnPage = async (db: Db, accountId: number) =>
  (await pageCommentCounts(db, { accountId, pageIds: [B64] }))[0]!.comments_count;

async function notices(accountId: number, user: ApiUser): Promise<TNoticeWire[]> {
  const jwt = await readerJwt({ id: user.id, name: user.name });
  const res = await call(NOTICES, "GET", `/x?jwt=${jwt}`, { account_id: String(accountId) });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { notices: TNoticeWire[] }).notices;
}

async function acknowledge(accountId: number, user: ApiUser | null, noticeId: string | number) {
  const body = user ? { jwt: await readerJwt({ id: user.id, name: user.name }) } : {};
  return call(ACKNOWLEDGE, "POST", "/x", { account_id: String(accountId), notice_id: String(noticeId) }, body);
}

describe("community: finding readers", () => {
  it("searches by name, username, e-mail and member id, filters, pages, and counts comments", async () => {
    const { db, account, moderator } = await setup();
    await post(db, account.id, BO, "A thoughtful remark about the story.");
    await moderator.caller.moderation.updateSettings({ mode: "pre_moderation" });
    await post(db, account.id, ADA, "First held comment.");
    await post(db, account.id, ADA, "Second held comment.");
    const cy = await db.member.create({
      data: {
        accountId: account.id,
        name: "Cy Twombly",
        username: "cyclist",
        email: "cy@example.com",
        passwordHash: "unused",
      },
    });
    // Another account's reader of the same name is never found.
    const other = await createTestPublisher(db);
    await post(db, other.id, ADA, "Elsewhere.");

    const ada = await memberIdOf(db, account.id, "ada");
    const bo = await memberIdOf(db, account.id, "bo");

    const all = await moderator.caller.community.readers({});
    expect(all.items.map((r) => r.memberId)).toEqual([cy.id, ada, bo]);
    expect(all.nextCursor).toBeNull();
    const rowOf = (id: number) => all.items.find((r) => r.memberId === id)!;
    expect(rowOf(ada)).toMatchObject({
      name: "Ada Lovelace",
      status: "active",
      suspendedUntil: null,
      counts: { published: 0, pending: 2, rejected: 0 },
    });
    expect(rowOf(bo).counts).toEqual({ published: 1, pending: 0, rejected: 0 });
    expect(rowOf(cy.id)).toMatchObject({ email: "cy@example.com", username: "cyclist" });
    // A JWT reader's sign-in e-mail is a placeholder: not shown.
    expect(rowOf(ada).email).toBeNull();

    const ids = async (input: Parameters<typeof moderator.caller.community.readers>[0]) =>
      (await moderator.caller.community.readers(input)).items.map((r) => r.memberId);
    expect(await ids({ q: "lovelace" })).toEqual([ada]);
    expect(await ids({ q: "CYCLIST" })).toEqual([cy.id]);
    expect(await ids({ q: "cy@example" })).toEqual([cy.id]);
    expect(await ids({ q: `#${bo}` })).toEqual([bo]);
    // A bare number is the member id, and also any text containing it (an e-mail, an identity).
    expect(await ids({ q: String(bo) })).toContain(bo);
    expect(await ids({ q: "publisher:ada" })).toEqual([ada]);
    expect(await ids({ q: "%" })).toEqual([]);
    expect(await ids({ hasPending: true })).toEqual([ada]);
    expect(await ids({ q: "bo", hasPending: true })).toEqual([]);

    // Paged by a cursor, newest first.
    const first = await moderator.caller.community.readers({ limit: 2 });
    expect(first.items.map((r) => r.memberId)).toEqual([cy.id, ada]);
    const second = await moderator.caller.community.readers({ limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((r) => r.memberId)).toEqual([bo]);
    expect(second.nextCursor).toBeNull();

    // Filters by standing.
    await moderator.caller.community.warn({ memberId: bo, message: "Keep it civil." });
    await moderator.caller.community.suspend({
      memberId: ada,
      reason: "Flooding",
      until: new Date(Date.now() + 2 * 86_400_000),
    });
    await moderator.caller.community.ban({ memberId: cy.id, reason: "Spam" });
    expect(await ids({ status: "warned" })).toEqual([bo]);
    expect(await ids({ status: "suspended" })).toEqual([ada]);
    expect(await ids({ status: "banned" })).toEqual([cy.id]);
    const after = await moderator.caller.community.readers({});
    expect(after.items.map((r) => r.status)).toEqual(["banned", "suspended", "warned"]);
  });

  it("refuses bad input as BAD_REQUEST, keeps editors out and another account's readers invisible", async () => {
    const { db, account, moderator, owner, editor } = await setup();
    await post(db, account.id, ADA, "Hello.");
    const ada = await memberIdOf(db, account.id, "ada");
    const stranger = await createTestStaff(db, { roles: ["MODERATOR"] });

    for (const bad of [
      { limit: 0 },
      { limit: 51 },
      { status: "everyone" },
      { q: "x".repeat(201) },
      { cursor: "not-a-cursor" },
    ]) {
      expect(await trpcCodeOf(moderator.caller.community.readers(bad as never)), JSON.stringify(bad)).toBe(
        "BAD_REQUEST",
      );
    }
    expect(await trpcCodeOf(moderator.caller.community.reader({ memberId: 0 }))).toBe("BAD_REQUEST");
    expect(await trpcCodeOf(moderator.caller.community.warn({ memberId: ada, message: "   " }))).toBe("BAD_REQUEST");
    expect(await trpcCodeOf(moderator.caller.community.warn({ memberId: ada, message: "bell\u0007" }))).toBe(
      "BAD_REQUEST",
    );
    expect(
      await trpcCodeOf(moderator.caller.community.suspend({ memberId: ada, reason: "x", until: "soon" as never })),
    ).toBe("BAD_REQUEST");
    expect(
      await trpcCodeOf(
        moderator.caller.community.suspend({ memberId: ada, reason: "x", until: new Date(Date.now() - 1000) }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");
    expect(
      await trpcCodeOf(
        moderator.caller.community.suspend({
          memberId: ada,
          reason: "x",
          until: new Date(Date.now() + 3651 * 86_400_000),
        }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");
    expect(await trpcCodeOf(moderator.caller.community.rejectComments({ memberId: ada, scope: "some" as never }))).toBe(
      "BAD_REQUEST",
    );

    // Owners pass; editors do not.
    expect(await trpcCodeOf(owner.caller.community.reader({ memberId: ada }))).toBe("OK");
    expect(await trpcCodeOf(editor.caller.community.readers({}))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(editor.caller.community.reader({ memberId: ada }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(editor.caller.community.warn({ memberId: ada, message: "Hi" }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(editor.caller.community.rejectComments({ memberId: ada }))).toBe("FORBIDDEN");

    // Another account's moderator: the reader does not exist for them.
    expect((await stranger.caller.community.readers({ q: "Ada" })).items).toEqual([]);
    expect(await trpcCodeOf(stranger.caller.community.reader({ memberId: ada }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(stranger.caller.community.warn({ memberId: ada, message: "Hi" }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(stranger.caller.community.ban({ memberId: ada, reason: "x" }))).toBe("NOT_FOUND");
    expect(
      await trpcCodeOf(
        stranger.caller.community.suspend({ memberId: ada, reason: "x", until: new Date(Date.now() + 60_000) }),
      ),
    ).toBe("NOT_FOUND");
    expect(await trpcCodeOf(stranger.caller.community.rejectComments({ memberId: ada }))).toBe("NOT_FOUND");
    expect(await db.memberNotice.count()).toBe(0);
    expect(await db.commentBan.count()).toBe(0);
  });
});

describe("community: warnings and the reader's notices", () => {
  it("a warning is shown to the reader once, acknowledged, audited with the moderator", async () => {
    const { db, account, moderator } = await setup();
    await post(db, account.id, BO, "Hello.");
    await post(db, account.id, ADA, "Hello too.");
    const bo = await memberIdOf(db, account.id, "bo");

    const warning = await moderator.caller.community.warn({ memberId: bo, message: "  Please keep it civil.  " });
    expect(warning).toMatchObject({ kind: "warning", message: "Please keep it civil.", createdBy: "Mo" });
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "member.warn" } });
    expect(audit).toMatchObject({ actorId: moderator.user.id, targetType: "member", targetId: String(bo) });

    const shown = await notices(account.id, BO);
    expect(shown).toEqual([
      {
        id: warning.id,
        kind: "warning",
        message: "Please keep it civil.",
        created_at: warning.createdAt.toISOString(),
        until: null,
        acknowledged_at: null,
      },
    ]);
    // Nobody else sees it; a reader never seen has none.
    expect(await notices(account.id, ADA)).toEqual([]);
    expect(await notices(account.id, reader("nobody"))).toEqual([]);

    // Another reader cannot acknowledge it; without a jwt: 401; a bad id: 400.
    expect((await acknowledge(account.id, ADA, warning.id)).status).toBe(404);
    expect((await acknowledge(account.id, null, warning.id)).status).toBe(401);
    expect((await acknowledge(account.id, BO, "abc")).status).toBe(400);
    expect((await acknowledge(account.id, BO, 999_999)).status).toBe(404);
    const noJwt = await call(NOTICES, "GET", "/x", { account_id: String(account.id) });
    expect(noJwt.status).toBe(401);

    const acked = await acknowledge(account.id, BO, warning.id);
    expect(acked.status).toBe(200);
    const first = ((await acked.json()) as { notice: TNoticeWire }).notice;
    expect(first.acknowledged_at).not.toBeNull();
    expect(await notices(account.id, BO)).toEqual([]);
    // Again: the same answer, the first time kept.
    const again = ((await (await acknowledge(account.id, BO, warning.id)).json()) as { notice: TNoticeWire }).notice;
    expect(again.acknowledged_at).toBe(first.acknowledged_at);

    const card = await moderator.caller.community.reader({ memberId: bo });
    expect(card.reader.status).toBe("warned");
    expect(card.notices).toEqual([
      expect.objectContaining({ kind: "warning", createdBy: "Mo", acknowledgedAt: new Date(first.acknowledged_at!) }),
    ]);
  });
});

describe("community: suspensions and bans", () => {
  it("suspends until a time with a message, refuses the reader's comments, and lifts", async () => {
    const { db, account, moderator } = await setup();
    await post(db, account.id, ADA, "Hello.");
    const ada = await memberIdOf(db, account.id, "ada");
    const until = new Date(Date.now() + 3 * 86_400_000);

    const result = await moderator.caller.community.suspend({
      memberId: ada,
      reason: "Flooding the thread",
      message: "You are suspended for flooding.",
      until,
    });
    expect(result.rejected).toBe(0);
    expect(result.ban).toMatchObject({
      reason: "Flooding the thread",
      expiresAt: until,
      active: true,
      createdBy: "Mo",
    });
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "comment_ban.create" } });
    expect(audit.actorId).toBe(moderator.user.id);
    expect(audit.metadata).toMatchObject({ kind: "suspension", expiresAt: until.toISOString() });

    const card = await moderator.caller.community.reader({ memberId: ada });
    expect(card.reader).toMatchObject({ status: "suspended", suspendedUntil: until });
    expect(card.history.activeBan).toMatchObject({ expiresAt: until });

    expect(await notices(account.id, ADA)).toEqual([
      expect.objectContaining({
        kind: "suspension",
        message: "You are suspended for flooding.",
        until: until.toISOString(),
      }),
    ]);
    await expect(post(db, account.id, ADA, "Let me in.")).rejects.toMatchObject({ code: "FORBIDDEN" });

    expect(await moderator.caller.community.lift({ memberId: ada })).toEqual({ lifted: true });
    expect(await moderator.caller.community.lift({ memberId: ada })).toEqual({ lifted: false });
    expect(await db.auditLog.count({ where: { action: "comment_ban.lift", actorId: moderator.user.id } })).toBe(1);
    // A lifted suspension has nothing left to tell the reader.
    expect(await notices(account.id, ADA)).toEqual([]);
    expect((await moderator.caller.community.reader({ memberId: ada })).reader.status).toBe("active");
    await post(db, account.id, ADA, "Back again.");
  });

  it("bans for good and rejects the pending comments in one step: counts, events and audit as the queue's reject", async () => {
    const { db, account, moderator } = await setup();
    await moderator.caller.moderation.updateSettings({ mode: "pre_moderation" });
    await post(db, account.id, ADA, "Held one.");
    await post(db, account.id, ADA, "Held two.");
    const control = await post(db, account.id, BO, "Held control.");
    const ada = await memberIdOf(db, account.id, "ada");

    // What one reject from the queue emits, as a measure.
    const eventsBefore = await db.webhookEvent.count({ where: { accountId: account.id } });
    await moderator.caller.moderation.act({ commentId: control.id, action: "reject" });
    const perReject = (await db.webhookEvent.count({ where: { accountId: account.id } })) - eventsBefore;
    const names = async () =>
      (await db.webhookEvent.findMany({ where: { accountId: account.id }, select: { name: true } })).map((e) => e.name);
    const namesBefore = await names();

    const result = await moderator.caller.community.ban({
      memberId: ada,
      reason: "Troll",
      message: "You are banned.",
      rejectPending: true,
    });
    expect(result.rejected).toBe(2);
    expect(result.ban).toMatchObject({ expiresAt: null, active: true });
    expect((await names()).length - namesBefore.length).toBe(2 * perReject);

    const rejects = await db.auditLog.findMany({ where: { action: "comment.reject", targetType: "comment" } });
    expect(rejects).toHaveLength(3);
    expect(rejects.every((e) => e.actorId === moderator.user.id)).toBe(true);
    const batch = await db.auditLog.findFirstOrThrow({ where: { action: "member.reject_comments" } });
    expect(batch).toMatchObject({ actorId: moderator.user.id, targetId: String(ada) });
    expect(batch.metadata).toMatchObject({ scope: "pending", rejected: 2 });
    expect(await db.auditLog.count({ where: { action: "comment_ban.create", actorId: moderator.user.id } })).toBe(1);

    const card = await moderator.caller.community.reader({ memberId: ada });
    expect(card.reader).toMatchObject({ status: "banned", counts: { published: 0, pending: 0, rejected: 2 } });
    expect(card.decisions).toHaveLength(2);
    expect(card.decisions.every((d) => d.state === "rejected" && d.decidedBy === "Mo")).toBe(true);
    expect(card.notices[0]).toMatchObject({ kind: "ban", message: "You are banned." });
    expect((await moderator.caller.moderation.counts()).pending).toBe(0);
    expect(await notices(account.id, ADA)).toEqual([expect.objectContaining({ kind: "ban", until: null })]);
  });

  it("rejecting a reader's pending comments while another moderator approves one: both decisions hold, one at a time", async () => {
    const { db, account, moderator, owner } = await setup();
    await moderator.caller.moderation.updateSettings({ mode: "pre_moderation" });
    const first = await post(db, account.id, ADA, "Held one.");
    await post(db, account.id, ADA, "Held two.");
    const ada = await memberIdOf(db, account.id, "ada");

    const [all, approve] = await Promise.allSettled([
      moderator.caller.community.rejectComments({ memberId: ada }),
      owner.caller.moderation.act({ commentId: first.id, action: "approve" }),
    ]);
    if (all.status !== "fulfilled") throw all.reason;
    const approvedFirst = approve.status === "fulfilled";
    // The approval came first: the reject skips that comment. Or the reject did: the approval is a conflict.
    if (!approvedFirst) expect((approve.reason as { code?: unknown }).code).toBe("CONFLICT");
    expect(all.value.rejected).toBe(approvedFirst ? 1 : 2);
    const after = await db.comment.findUniqueOrThrow({ where: { id: first.id } });
    expect(after.moderationState).toBe(approvedFirst ? "APPROVED" : "REJECTED");
    expect(all.value.counts).toEqual({ published: approvedFirst ? 1 : 0, pending: 0, rejected: approvedFirst ? 1 : 2 });
  });

  it("rejects all of a reader's comments, published and approved too, and their comments leave the page", async () => {
    const { db, account, moderator } = await setup();
    const a = await post(db, account.id, ADA, "Published one.");
    const b = await post(db, account.id, ADA, "Published two.");
    await post(db, account.id, BO, "Someone else's.");
    await moderator.caller.moderation.act({ commentId: b.id, action: "approve" });
    await moderator.caller.moderation.updateSettings({ mode: "pre_moderation" });
    await post(db, account.id, ADA, "Held three.");
    const ada = await memberIdOf(db, account.id, "ada");
    expect(a.is_published).toBe(true);
    expect(await visibleOnPage(db, account.id)).toBe(3);

    // Pending only: the published ones stay.
    const pending = await moderator.caller.community.rejectComments({ memberId: ada });
    expect(pending).toEqual({ rejected: 1, counts: { published: 2, pending: 0, rejected: 1 } });
    expect(await visibleOnPage(db, account.id)).toBe(3);

    const all = await moderator.caller.community.rejectComments({ memberId: ada, scope: "all" });
    expect(all).toEqual({ rejected: 2, counts: { published: 0, pending: 0, rejected: 3 } });
    expect(await visibleOnPage(db, account.id)).toBe(1);
    // Again: nothing left to reject, nothing written.
    const audits = await db.auditLog.count();
    expect(await moderator.caller.community.rejectComments({ memberId: ada, scope: "all" })).toMatchObject({
      rejected: 0,
    });
    expect(await db.auditLog.count()).toBe(audits);
  });
});
