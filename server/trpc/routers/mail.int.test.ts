import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";

import { getDb } from "../../db";
import { queueEmail } from "../../mail/outbox";
import { createAnonymousCaller, createTestTeam } from "../../testing/staff";

/** An account with an owner and an editor. */
async function accountWithAdmins(slug: string) {
  const team = await createTestTeam(await getDb(), slug, { owner: ["OWNER"], editor: ["EDITOR"] });
  return { account: team.owner.account, ...team };
}

describe("mail router", () => {
  it("shows an owner their account's outgoing mail, newest first, with bodies and counts", async () => {
    const a = await accountWithAdmins("alpha");
    const b = await accountWithAdmins("beta");
    const db = await getDb();
    const t0 = Date.parse("2026-05-01T08:00:00Z");
    const older = await queueEmail(db, {
      accountId: a.account.id,
      to: "r1@example.com",
      subject: "Reset",
      text: "https://news.example.com/reset-password?token=abc",
      kind: "member.password_reset",
      now: new Date(t0),
    });
    const newer = await queueEmail(db, {
      accountId: a.account.id,
      to: "r2@example.com",
      subject: "Reset 2",
      text: "second",
      html: '<!doctype html>\n<html lang="ar" dir="rtl"><body>ثانية</body></html>',
      kind: "member.password_reset",
      now: new Date(t0 + 1000),
    });
    await queueEmail(db, {
      accountId: b.account.id,
      to: "x@example.com",
      subject: "Not yours",
      text: "x",
      kind: "test",
      now: new Date(t0 + 2000),
    });
    await db.outgoingEmail.update({ where: { id: older.id }, data: { status: "SENT", sentAt: new Date(t0 + 5) } });

    const caller = a.owner.caller;
    const page = await caller.mail.list({});
    expect(page.items.map((m) => m.id)).toEqual([newer.id, older.id]);
    expect(page.items[1]).toMatchObject({
      to: "r1@example.com",
      status: "SENT",
      text: "https://news.example.com/reset-password?token=abc",
      kind: "member.password_reset",
      language: null,
    });
    // The language the HTML part declares on its root.
    expect(page.items[0]!.language).toEqual({ lang: "ar", dir: "rtl" });
    expect(page.items[1]!.sentAt).toBeInstanceOf(Date);
    expect(page.nextCursor).toBeNull();
    expect((await caller.mail.list({ status: "PENDING" })).items.map((m) => m.id)).toEqual([newer.id]);
    expect(await caller.mail.counts()).toEqual({ PENDING: 1, SENT: 1, FAILED: 0 });

    const second = await caller.mail.list({ limit: 1 });
    expect(second.items.map((m) => m.id)).toEqual([newer.id]);
    expect((await caller.mail.list({ limit: 1, cursor: second.nextCursor })).items.map((m) => m.id)).toEqual([
      older.id,
    ]);
  });

  it("is for owners only, and refuses bad input", async () => {
    const a = await accountWithAdmins("alpha");
    await expect(a.editor.caller.mail.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(createAnonymousCaller(await getDb()).mail.list({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const owner = a.owner.caller;
    await expect(owner.mail.list({ limit: 1000 })).rejects.toBeInstanceOf(TRPCError);
    await expect(owner.mail.list({ limit: 1000 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(owner.mail.list({ cursor: "not-a-cursor" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("gives an owner one mail's HTML part by id, never another account's", async () => {
    const a = await accountWithAdmins("alpha");
    const b = await accountWithAdmins("beta");
    const db = await getDb();
    const now = new Date("2026-05-01T08:00:00Z");
    const html = '<!doctype html><html lang="ar" dir="rtl"><body><p>مرحبا</p></body></html>';
    const rich = await queueEmail(db, {
      accountId: a.account.id,
      to: "r@example.com",
      subject: "S",
      text: "t",
      html,
      kind: "test",
      now,
    });
    const plain = await queueEmail(db, {
      accountId: a.account.id,
      to: "r@example.com",
      subject: "S",
      text: "t",
      kind: "test",
      now,
    });
    const theirs = await queueEmail(db, {
      accountId: b.account.id,
      to: "x@example.com",
      subject: "S",
      text: "t",
      html,
      kind: "test",
      now,
    });

    expect(await a.owner.caller.mail.html({ id: rich.id })).toEqual({ id: rich.id, html });
    expect(await a.owner.caller.mail.html({ id: plain.id })).toEqual({ id: plain.id, html: null });
    await expect(a.owner.caller.mail.html({ id: theirs.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(a.owner.caller.mail.html({ id: "not-a-uuid" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(a.editor.caller.mail.html({ id: rich.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
