import { describe, expect, it } from "vitest";

import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { submitUgc } from "../../engagement/ugc";
import { ZCreateUgcBody } from "../../engagement/ugc.schema";
import { createTestPublisher } from "../../testing/publishing-factories";
import { createAnonymousCaller, createTestStaff, trpcCodeOf } from "../../testing/staff";

async function submitAs(db: Db, accountId: number, reader: string, submission: Record<string, unknown>, now: Date) {
  const input = ZCreateUgcBody.parse({ submission: { topic_values: "x", text: "Hello", ...submission } });
  const user = { id: reader, name: reader, email: null, avatarUrl: null, provider: null };
  return (await submitUgc(db, { accountId, user, input, now })).submission;
}

describe("ugc router", () => {
  it("lists by status and topic type, decides with an audit entry, and never another account's", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const other = await createTestPublisher(db);
    const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"], name: "Mo" });
    const editor = await createTestStaff(db, { account: account.id, roles: ["EDITOR"] });
    const t0 = Date.now();
    const a = await submitAs(db, account.id, "r1", { topic_type: "tag", text: "First" }, new Date(t0));
    const b = await submitAs(db, account.id, "r2", { topic_type: "section", text: "Second" }, new Date(t0 + 1000));
    const c = await submitAs(db, account.id, "r1", { topic_type: "tag", text: "Third" }, new Date(t0 + 2000));
    const foreign = await submitAs(db, other.id, "r1", { topic_type: "tag", text: "Elsewhere" }, new Date(t0));

    const all = await moderator.caller.ugc.list({});
    expect(all.items.map((s) => s.id)).toEqual([c.id, b.id, a.id]);
    expect(all.items[0]).toMatchObject({ status: "PENDING", member: { name: "r1" }, decidedBy: null, text: "Third" });
    expect((await moderator.caller.ugc.list({ topicType: "tag" })).items.map((s) => s.id)).toEqual([c.id, a.id]);
    const page1 = await moderator.caller.ugc.list({ limit: 2 });
    const page2 = await moderator.caller.ugc.list({ limit: 2, cursor: page1.nextCursor });
    expect([...page1.items, ...page2.items].map((s) => s.id)).toEqual([c.id, b.id, a.id]);
    expect(page2.nextCursor).toBeNull();
    expect(await moderator.caller.ugc.topicTypes()).toEqual([
      { topicType: "section", count: 1 },
      { topicType: "tag", count: 2 },
    ]);

    const approved = await moderator.caller.ugc.decide({ id: a.id, decision: "APPROVED" });
    expect(approved.changed).toBe(true);
    expect(approved.submission).toMatchObject({ status: "APPROVED", decidedBy: { id: moderator.user.id, name: "Mo" } });
    // The same decision again, even twice at once, changes nothing and is audited once.
    const again = await Promise.all([
      moderator.caller.ugc.decide({ id: a.id, decision: "APPROVED" }),
      editor.caller.ugc.decide({ id: a.id, decision: "APPROVED" }),
    ]);
    expect(again.map((r) => r.changed)).toEqual([false, false]);
    expect(await editor.caller.ugc.decide({ id: b.id, decision: "REJECTED" })).toMatchObject({ changed: true });
    expect(await moderator.caller.ugc.counts()).toEqual({ PENDING: 1, APPROVED: 1, REJECTED: 1 });
    expect((await moderator.caller.ugc.list({ status: "REJECTED" })).items.map((s) => s.id)).toEqual([b.id]);
    const audits = await db.auditLog.findMany({ where: { accountId: account.id }, orderBy: { createdAt: "asc" } });
    expect(audits.map((e) => [e.action, e.targetId, e.actorId])).toEqual([
      ["ugc.approve", String(a.id), moderator.user.id],
      ["ugc.reject", String(b.id), editor.user.id],
    ]);

    // Another account's submission is not found, and does not move.
    expect(await trpcCodeOf(moderator.caller.ugc.decide({ id: foreign.id, decision: "APPROVED" }))).toBe("NOT_FOUND");
    expect((await db.ugcSubmission.findUniqueOrThrow({ where: { id: foreign.id } })).status).toBe("PENDING");
    expect(await trpcCodeOf(moderator.caller.ugc.list({ cursor: "garbage" }))).toBe("BAD_REQUEST");
  });

  it("is for moderators, editors and owners only", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const revenue = await createTestStaff(db, { account: account.id, roles: ["REVENUE"] });
    const owner = await createTestStaff(db, { account: account.id, roles: ["OWNER"] });
    expect(await trpcCodeOf(revenue.caller.ugc.list({}))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(revenue.caller.ugc.decide({ id: 1, decision: "APPROVED" }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(createAnonymousCaller(db).ugc.counts())).toBe("UNAUTHORIZED");
    expect(await trpcCodeOf(owner.caller.ugc.counts())).toBe("OK");
    expect(await trpcCodeOf(owner.caller.ugc.decide({ id: 0, decision: "APPROVED" }))).toBe("BAD_REQUEST");
  });
});
