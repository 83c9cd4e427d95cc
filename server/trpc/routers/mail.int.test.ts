import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";

import type { AdminSession } from "../../auth/admin-session";
import type { AdminRole } from "../../auth/roles";
import { getDb } from "../../db";
import { queueEmail } from "../../mail/outbox";
import { createCaller } from "../root";

async function accountWithAdmins(slug: string) {
  const db = await getDb();
  const account = await db.account.create({ data: { slug, name: `The ${slug}`, jwtSecret: "x".repeat(32) } });
  const mk = (roles: AdminRole[], who: string) => db.adminUser.create({ data: { accountId: account.id, email: `${who}@${slug}.test`, name: who, roles, passwordHash: "unused" } });
  return { account, owner: await mk(["OWNER"], "owner"), editor: await mk(["EDITOR"], "editor") };
}

const sessionOf = (user: { id: string; name: string; email: string; accountId: number; roles: AdminRole[] }): AdminSession => ({
  user: { id: user.id, name: user.name, email: user.email, accountId: user.accountId, accountName: "", roles: user.roles },
});

const callerFor = async (session: AdminSession | null) => createCaller({ db: await getDb(), session });

describe("mail router", () => {
  it("shows an owner their account's outgoing mail, newest first, with bodies and counts", async () => {
    const a = await accountWithAdmins("alpha");
    const b = await accountWithAdmins("beta");
    const db = await getDb();
    const t0 = Date.parse("2026-05-01T08:00:00Z");
    const older = await queueEmail(db, { accountId: a.account.id, to: "r1@example.com", subject: "Reset", text: "https://news.example.com/reset-password?token=abc", kind: "member.password_reset", now: new Date(t0) });
    const newer = await queueEmail(db, { accountId: a.account.id, to: "r2@example.com", subject: "Reset 2", text: "second", kind: "member.password_reset", now: new Date(t0 + 1000) });
    await queueEmail(db, { accountId: b.account.id, to: "x@example.com", subject: "Not yours", text: "x", kind: "test", now: new Date(t0 + 2000) });
    await db.outgoingEmail.update({ where: { id: older.id }, data: { status: "SENT", sentAt: new Date(t0 + 5) } });

    const caller = await callerFor(sessionOf(a.owner));
    const page = await caller.mail.list({});
    expect(page.items.map((m) => m.id)).toEqual([newer.id, older.id]);
    expect(page.items[1]).toMatchObject({ to: "r1@example.com", status: "SENT", text: "https://news.example.com/reset-password?token=abc", kind: "member.password_reset" });
    expect(page.items[1]!.sentAt).toBeInstanceOf(Date);
    expect(page.nextCursor).toBeNull();
    expect((await caller.mail.list({ status: "PENDING" })).items.map((m) => m.id)).toEqual([newer.id]);
    expect(await caller.mail.counts()).toEqual({ PENDING: 1, SENT: 1, FAILED: 0 });

    const second = await caller.mail.list({ limit: 1 });
    expect(second.items.map((m) => m.id)).toEqual([newer.id]);
    expect((await caller.mail.list({ limit: 1, cursor: second.nextCursor })).items.map((m) => m.id)).toEqual([older.id]);
  });

  it("is for owners only, and refuses bad input", async () => {
    const a = await accountWithAdmins("alpha");
    await expect((await callerFor(sessionOf(a.editor))).mail.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await callerFor(null)).mail.list({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const owner = await callerFor(sessionOf(a.owner));
    await expect(owner.mail.list({ limit: 1000 })).rejects.toBeInstanceOf(TRPCError);
    await expect(owner.mail.list({ limit: 1000 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(owner.mail.list({ cursor: "not-a-cursor" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
