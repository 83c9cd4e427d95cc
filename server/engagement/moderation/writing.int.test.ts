/**
 * The reader's history (readerHistory, a comment create's read after the reader's member) gives
 * what moderation needs: the first comment's time, the published comments and the ban in force,
 * in the account.
 */
import { describe, expect, it } from "vitest";

import type { ApiUser } from "@/server/auth/api-auth";
import { getDb } from "@/server/db";
import { findOrCreateJwtMember } from "@/server/members/identities";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";

import { moderateWriting, readerHistory } from "./writing";

/** What the rules read, when no rule asks for anything. */
const NO_RULE_READS = { decisionsInWindow: 0, rejectionsInWindow: 0, lastOnPageAt: null, textsElsewhere: [] };

const ADA: ApiUser = { id: "ada", name: "Ada", email: null, avatarUrl: null, provider: null };

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const other = await createTestPublisher(db);
  const staff = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
  const page = await db.page.create({ data: { accountId: account.id, url: "https://example.com/a" } });
  const otherPage = await db.page.create({ data: { accountId: other.id, url: "https://example.com/a" } });
  return { db, account, other, staff, page, otherPage };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** The member of `user` and its history with its bans, as a create reads them. */
async function historyRead(s: Setup, now: Date, user = ADA) {
  const member = await findOrCreateJwtMember(s.db, { accountId: s.account.id, user, now });
  return {
    member,
    history: await readerHistory(s.db, { accountId: s.account.id, memberId: member.id, now, bans: true }),
  };
}

async function comment(
  s: Setup,
  over: { authorId: number; createdAt: Date; isPublished?: boolean; deletedAt?: Date; other?: boolean },
) {
  await s.db.comment.create({
    data: {
      accountId: over.other ? s.other.id : s.account.id,
      pageId: over.other ? s.otherPage.id : s.page.id,
      authorId: over.authorId,
      body: { ops: [{ insert: "Hello\n" }] },
      bodyDigest: `d-${Math.random()}`,
      isPublished: over.isPublished ?? true,
      deletedAt: over.deletedAt ?? null,
      createdAt: over.createdAt,
    },
  });
}

describe("readerHistory", () => {
  it("is empty for a reader seen first, and for a returning one without comments", async () => {
    const s = await setup();
    const now = new Date("2026-11-25T10:00:00Z");
    const first = await historyRead(s, now);
    expect(first.history).toEqual({ firstCommentAt: null, publishedComments: 0, ban: null, ...NO_RULE_READS });
    const again = await historyRead(s, now);
    expect(again.member.id).toBe(first.member.id);
    expect(again.history).toEqual({ firstCommentAt: null, publishedComments: 0, ban: null, ...NO_RULE_READS });
    // Claims that changed are written in a transaction; the history is the same member's.
    const renamed = await historyRead(s, now, { ...ADA, name: "Ada L." });
    expect(renamed.member).toMatchObject({ id: first.member.id, name: "Ada L." });
    expect(renamed.history).toEqual({ firstCommentAt: null, publishedComments: 0, ban: null, ...NO_RULE_READS });
  });

  it("counts the account's published comments, not held, deleted or another account's, and the first one's time", async () => {
    const s = await setup();
    const now = new Date("2026-11-25T10:00:00Z");
    const { member } = await historyRead(s, now);
    const authorId = member.id;
    await comment(s, { authorId, createdAt: new Date("2026-11-20T08:00:00Z") });
    await comment(s, { authorId, createdAt: new Date("2026-11-21T08:00:00Z") });
    await comment(s, { authorId, createdAt: new Date("2026-11-19T08:00:00Z"), isPublished: false });
    await comment(s, { authorId, createdAt: new Date("2026-11-22T08:00:00Z"), deletedAt: now });
    await comment(s, { authorId, createdAt: new Date("2026-11-01T08:00:00Z"), other: true });
    expect((await historyRead(s, now)).history).toEqual({
      firstCommentAt: new Date("2026-11-19T08:00:00Z"),
      publishedComments: 2,
      ban: null,
      ...NO_RULE_READS,
    });
  });

  it("reads the ban in force: until when, for good, none once expired or lifted", async () => {
    const s = await setup();
    const now = new Date("2026-11-25T10:00:00Z");
    const { member } = await historyRead(s, now);
    const ban = (data: { expiresAt: Date | null; liftedAt?: Date }) =>
      s.db.commentBan.create({
        data: { accountId: s.account.id, memberId: member.id, reason: "r", createdById: s.staff.user.id, ...data },
      });
    await ban({ expiresAt: new Date("2026-11-24T10:00:00Z") });
    await ban({ expiresAt: null, liftedAt: new Date("2026-11-24T10:00:00Z") });
    expect((await historyRead(s, now)).history?.ban).toBeNull();
    await ban({ expiresAt: new Date("2026-11-30T10:00:00Z") });
    const dated = await historyRead(s, now);
    expect(new Date(dated.history.ban!.until!)).toEqual(new Date("2026-11-30T10:00:00Z"));
    // moderateWriting refuses it: 403 with the end of the ban.
    const write = () =>
      moderateWriting(s.db, {
        accountId: s.account.id,
        memberId: member.id,
        ops: [{ insert: "Hello\n" }],
        now,
        field: "body.comment.body.ops",
        refusal: "This comment cannot be posted",
        refuseBanned: true,
      });
    const refusal = "You are banned from commenting here until 2026-11-30T10:00:00.000Z.";
    await expect(write()).rejects.toThrow(refusal);
    await ban({ expiresAt: null });
    expect((await historyRead(s, now)).history?.ban).toEqual({ until: null });
  });
});
