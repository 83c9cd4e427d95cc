/**
 * Every ban tells the reader, once (docs/engagement.md "Bans", "Notices to readers"): a ban made
 * through `moderation.ban` (the API's) writes a notice with the ban, of kind suspension with its end
 * when it has one, ban when it is for good, which the reader's notices answer until acknowledged or
 * the ban ends; the Community page's ban writes exactly one, with the moderator's message.
 */
import { describe, expect, it } from "vitest";

import { GET as NOTICES } from "@/app/api/v1/accounts/[account_id]/notices/route";
import { POST } from "@/app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments.json/route";
import { getDb } from "@/server/db";
import type { TCommentWire } from "@/server/engagement/comments.schema";
import type { TNoticeWire } from "@/server/engagement/community/notices.schema";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";

const ADA = { id: "reader-ada", name: "Ada" };
const BO = { id: "reader-bo", name: "Bo" };

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"], name: "Mo" });
  return { db, account, id: String(account.id), moderator };
}

async function authorOf(id: string, reader: typeof ADA): Promise<number> {
  const res = await call(
    POST,
    "POST",
    "/x",
    { account_id: id, encoded_url: pageId("https://news.example.com/a") },
    { comment: { body: { ops: [{ insert: `Hello from ${reader.name}.` }] } }, jwt: await readerJwt(reader) },
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { comment: TCommentWire }).comment.author_id;
}

async function notices(id: string, reader: typeof ADA): Promise<TNoticeWire[]> {
  const res = await call(NOTICES, "GET", `/x?jwt=${await readerJwt(reader)}`, { account_id: id });
  expect(res.status).toBe(200);
  return ((await res.json()) as { notices: TNoticeWire[] }).notices;
}

describe("a ban's notice", () => {
  it("is written by moderation.ban: a suspension with its end, a ban for good, one per ban", async () => {
    const { db, id, moderator } = await setup();
    const ada = await authorOf(id, ADA);
    await authorOf(id, BO);

    const timed = await moderator.caller.moderation.ban({ memberId: ada, reason: "Insults", durationDays: 7 });
    expect(await notices(id, ADA)).toEqual([
      expect.objectContaining({ kind: "suspension", message: "", until: timed.expiresAt!.toISOString() }),
    ]);
    expect(await notices(id, BO)).toEqual([]);
    const row = await db.memberNotice.findFirstOrThrow({ where: { memberId: ada } });
    expect(row).toMatchObject({ banId: timed.id, createdById: moderator.user.id });

    // A ban for good replaces it: the suspension's notice has nothing left to say, the ban's does.
    await moderator.caller.moderation.ban({ memberId: ada, reason: "Again", durationDays: null });
    expect(await notices(id, ADA)).toEqual([expect.objectContaining({ kind: "ban", until: null })]);
    expect(await db.memberNotice.count({ where: { memberId: ada } })).toBe(2);

    // Lifted: nothing to tell.
    await moderator.caller.moderation.liftBan({ memberId: ada });
    expect(await notices(id, ADA)).toEqual([]);
  });

  it("is written once by the Community page's ban, with the moderator's message", async () => {
    const { db, id, moderator } = await setup();
    const bo = await authorOf(id, BO);
    await moderator.caller.community.ban({ memberId: bo, reason: "Spam", message: "Please stop posting adverts." });
    expect(await db.memberNotice.count({ where: { memberId: bo } })).toBe(1);
    expect(await notices(id, BO)).toEqual([
      expect.objectContaining({ kind: "ban", message: "Please stop posting adverts.", until: null }),
    ]);
  });
});
