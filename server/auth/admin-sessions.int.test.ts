import type { User } from "next-auth";
import type { JWT } from "next-auth/jwt";
import { describe, expect, it } from "vitest";

import { getDb } from "../db";
import { staffActor, type StaffActor } from "./actor";
import {
  createAdminSession,
  purgeExpiredAdminSessions,
  revokeAdminSession,
  revokeAdminSessionsOfUser,
} from "./admin-sessions";
import { authOptions } from "./next-auth";
import { hashPassword } from "./password";
import type { AdminRole } from "./roles";
import { changeAdminPassword, disableAdminUser, setAdminRoles } from "./staff";

// A cheap scrypt cost keeps the suite quick; verification reads the cost from the stored hash.
const FAST = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = "correct horse battery staple";
const HOUR = 3600_000;

type Authorize = (
  credentials: Record<string, string> | undefined,
  req: { headers: Record<string, string> },
) => Promise<User | null>;
const authorize = (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;
const jwtCallback = authOptions.callbacks!.jwt!;
const sessionCallback = authOptions.callbacks!.session!;
const signOutEvent = authOptions.events!.signOut!;

let accountSeq = 0;
async function createAccount() {
  const db = await getDb();
  return db.account.create({
    data: {
      slug: `acc-${++accountSeq}-${crypto.randomUUID().slice(0, 6)}`,
      name: "The Gazette",
      jwtSecret: "x".repeat(32),
    },
  });
}

async function createAdmin(
  accountId: number,
  options: { email?: string; roles?: AdminRole[]; disabled?: boolean } = {},
) {
  const db = await getDb();
  return db.adminUser.create({
    data: {
      accountId,
      email: options.email ?? `${crypto.randomUUID().slice(0, 8)}@gazette.test`,
      name: "Staff",
      roles: options.roles ?? ["EDITOR"],
      passwordHash: await hashPassword(PASSWORD, FAST),
      disabledAt: options.disabled ? new Date() : null,
    },
  });
}

/** A new account with an owner and one more user (an editor unless `roles` says otherwise). */
async function ownerAndUser(roles: AdminRole[] = ["EDITOR"]) {
  const db = await getDb();
  const account = await createAccount();
  const owner = await createAdmin(account.id, { roles: ["OWNER"] });
  const editor = await createAdmin(account.id, { roles });
  return { db, owner, editor };
}

/** Sign in through next-auth's Credentials provider and jwt callback: the token the cookie would carry. */
async function signIn(email: string, password = PASSWORD): Promise<JWT> {
  const user = await authorize(
    { email, password },
    { headers: { "x-forwarded-for": "192.0.2.10", "user-agent": "Vitest/1.0 (sessions)" } },
  );
  if (!user) throw new Error(`sign-in of ${email} failed`);
  return jwtCallback({ token: {}, user, account: null });
}

/** What the next request with this cookie gets: the refreshed token and the session user (if any). */
async function nextRequest(token: JWT) {
  const refreshed = await jwtCallback({ token: structuredClone(token), user: undefined as never, account: null });
  const expires = new Date(Date.now() + HOUR).toISOString();
  const session = await sessionCallback({
    session: { expires },
    token: refreshed,
    user: undefined as never,
    newSession: undefined,
    trigger: "update",
  });
  return { token: refreshed, user: session.user };
}

const isSignedIn = async (token: JWT) => (await nextRequest(token)).user !== undefined;

const actorOf = (user: { id: string; accountId: number; roles: AdminRole[] }, sessionId?: string): StaffActor =>
  staffActor({ ...user, sessionId });

describe("dashboard sessions through next-auth", () => {
  it("records each sign-in as a session row (who, from where, until when) that the cookie names", async () => {
    const db = await getDb();
    const account = await createAccount();
    const user = await createAdmin(account.id);
    const before = Date.now();
    const token = await signIn(user.email);

    expect(token.sid).toEqual(expect.any(String));
    const row = await db.adminSession.findUniqueOrThrow({ where: { id: token.sid! } });
    expect(row).toMatchObject({
      userId: user.id,
      ip: "192.0.2.10",
      userAgent: "Vitest/1.0 (sessions)",
      revokedAt: null,
    });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(12 * HOUR);
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await isSignedIn(token)).toBe(true);
  });

  it("signing out ends the session on the server: a copy of the cookie is signed out too, the user's other sign-ins are not", async () => {
    const db = await getDb();
    const account = await createAccount();
    const user = await createAdmin(account.id, { roles: ["OWNER"] });
    const cookie = await signIn(user.email);
    const copy = structuredClone(cookie);
    const otherBrowser = await signIn(user.email);
    expect(await isSignedIn(copy)).toBe(true);

    await signOutEvent({ token: cookie, session: undefined as never });

    expect((await nextRequest(copy)).token).toEqual({ revoked: true });
    expect((await nextRequest(copy)).user).toBeUndefined();
    expect(await isSignedIn(otherBrowser)).toBe(true);
    expect((await db.adminSession.findUniqueOrThrow({ where: { id: cookie.sid! } })).revokedAt).toBeInstanceOf(Date);
    expect(await db.auditLog.count({ where: { action: "admin.sign_out", actorId: user.id } })).toBe(1);

    // Signing out again with the dead copy changes nothing and records nothing.
    await signOutEvent({ token: copy, session: undefined as never });
    expect(await db.auditLog.count({ where: { action: "admin.sign_out" } })).toBe(1);
  });

  it("a session past its expiry, one whose row is gone, and a cookie naming no session are signed out", async () => {
    const db = await getDb();
    const account = await createAccount();
    const user = await createAdmin(account.id);

    const expiring = await signIn(user.email);
    await db.adminSession.update({ where: { id: expiring.sid! }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await isSignedIn(expiring)).toBe(false);

    const deleted = await signIn(user.email);
    await db.adminSession.delete({ where: { id: deleted.sid! } });
    expect(await isSignedIn(deleted)).toBe(false);

    // A cookie from before sessions were kept (it names the user only) cannot be revoked: not honoured.
    const { sid: _sid, ...withoutSession } = await signIn(user.email);
    expect(await isSignedIn(withoutSession)).toBe(false);

    // Another user's session id in a cookie (the JWT is signed, but still) is not honoured either.
    const other = await createAdmin(account.id);
    const othersCookie = await signIn(other.email);
    expect(await isSignedIn({ ...othersCookie, sub: user.id })).toBe(false);
  });
});

describe("changeAdminPassword", () => {
  it("users changing their own password keep the session they did it from; their other sessions end", async () => {
    const db = await getDb();
    const account = await createAccount();
    const user = await createAdmin(account.id);
    const here = await signIn(user.email);
    const elsewhere = await signIn(user.email);
    const now = new Date();

    const result = await changeAdminPassword(db, {
      actor: actorOf(user, here.sid),
      userId: user.id,
      currentPassword: PASSWORD,
      newPassword: "a brand new passphrase",
      now,
      ip: "198.51.100.4",
    });

    expect(result).toEqual({ userId: user.id, changed: true, revokedSessions: 1 });
    expect(await isSignedIn(here)).toBe(true);
    expect(await isSignedIn(elsewhere)).toBe(false);
    await expect(signIn(user.email)).rejects.toThrow(/sign-in .* failed/);
    expect((await signIn(user.email, "a brand new passphrase")).sid).toEqual(expect.any(String));
    expect(await db.auditLog.findFirstOrThrow({ where: { action: "admin_user.password_change" } })).toMatchObject({
      accountId: account.id,
      actorId: user.id,
      targetId: user.id,
      metadata: { self: true, revokedSessions: 1 },
      ip: "198.51.100.4",
      createdAt: now,
    });
  });

  it("an owner setting another user's password ends every session of that user", async () => {
    const { db, owner, editor } = await ownerAndUser();
    const first = await signIn(editor.email);
    const second = await signIn(editor.email);
    const ownersOwn = await signIn(owner.email);

    const result = await changeAdminPassword(db, {
      actor: actorOf(owner, ownersOwn.sid),
      userId: editor.id,
      newPassword: "set by the owner, 2026",
    });

    expect(result.revokedSessions).toBe(2);
    expect(await isSignedIn(first)).toBe(false);
    expect(await isSignedIn(second)).toBe(false);
    expect(await isSignedIn(ownersOwn)).toBe(true);
  });

  it("refuses a wrong or missing current password, another user's password for a non-owner, and another account's user", async () => {
    const db = await getDb();
    const account = await createAccount();
    const editor = await createAdmin(account.id);
    const colleague = await createAdmin(account.id);
    const token = await signIn(editor.email);
    const colleagueToken = await signIn(colleague.email);
    const outsider = await createAdmin((await createAccount()).id);
    const owner = await createAdmin(account.id, { roles: ["OWNER"] });

    for (const currentPassword of [undefined, "not the password"]) {
      await expect(
        changeAdminPassword(db, {
          actor: actorOf(editor),
          userId: editor.id,
          currentPassword,
          newPassword: "a brand new passphrase",
        }),
      ).rejects.toMatchObject({ code: "UNPROCESSABLE", details: [{ field: "currentPassword" }] });
    }
    await expect(
      changeAdminPassword(db, { actor: actorOf(editor), userId: colleague.id, newPassword: "a brand new passphrase" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      changeAdminPassword(db, { actor: actorOf(owner), userId: outsider.id, newPassword: "a brand new passphrase" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      changeAdminPassword(db, { actor: actorOf(owner), userId: editor.id, newPassword: "short" }),
    ).rejects.toMatchObject({ name: "ZodError" });

    expect(await isSignedIn(token)).toBe(true);
    expect(await isSignedIn(colleagueToken)).toBe(true);
    expect(await db.auditLog.count({ where: { action: "admin_user.password_change" } })).toBe(0);
  });
});

describe("setAdminRoles", () => {
  it("changing a user's roles ends their sessions and records from → to", async () => {
    const { db, owner, editor } = await ownerAndUser(["EDITOR"]);
    const token = await signIn(editor.email);

    const result = await setAdminRoles(db, {
      actor: actorOf(owner),
      userId: editor.id,
      roles: ["MODERATOR", "EDITOR", "EDITOR"],
    });

    expect(result).toEqual({ userId: editor.id, changed: true, revokedSessions: 1 });
    expect(await isSignedIn(token)).toBe(false);
    expect((await db.adminUser.findUniqueOrThrow({ where: { id: editor.id } })).roles).toEqual(["EDITOR", "MODERATOR"]);
    expect((await db.auditLog.findFirstOrThrow({ where: { action: "admin_user.roles_change" } })).metadata).toEqual({
      from: ["EDITOR"],
      to: ["EDITOR", "MODERATOR"],
      revokedSessions: 1,
    });
    // Signing in again gives a session with the new roles.
    expect(await nextRequest(await signIn(editor.email))).toMatchObject({
      user: { id: editor.id, roles: ["EDITOR", "MODERATOR"] },
    });
  });

  it("the same roles again change nothing and end no session", async () => {
    const { db, owner, editor } = await ownerAndUser(["EDITOR", "REVENUE"]);
    const token = await signIn(editor.email);
    const result = await setAdminRoles(db, { actor: actorOf(owner), userId: editor.id, roles: ["REVENUE", "EDITOR"] });
    expect(result).toEqual({ userId: editor.id, changed: false, revokedSessions: 0 });
    expect(await isSignedIn(token)).toBe(true);
    expect(await db.auditLog.count({ where: { action: "admin_user.roles_change" } })).toBe(0);
  });

  it("the last active owner cannot lose the Owner role; with another active owner they can (keeping the session they act from)", async () => {
    const db = await getDb();
    const account = await createAccount();
    const owner = await createAdmin(account.id, { roles: ["OWNER"] });
    await createAdmin(account.id, { roles: ["OWNER"], disabled: true });
    const here = await signIn(owner.email);
    const elsewhere = await signIn(owner.email);

    await expect(
      setAdminRoles(db, { actor: actorOf(owner, here.sid), userId: owner.id, roles: ["EDITOR"] }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE", details: [{ field: "roles" }] });
    expect((await db.adminUser.findUniqueOrThrow({ where: { id: owner.id } })).roles).toEqual(["OWNER"]);
    expect(await isSignedIn(elsewhere)).toBe(true);

    await createAdmin(account.id, { roles: ["OWNER", "EDITOR"] });
    const result = await setAdminRoles(db, { actor: actorOf(owner, here.sid), userId: owner.id, roles: ["EDITOR"] });
    expect(result.revokedSessions).toBe(1);
    expect(await isSignedIn(elsewhere)).toBe(false);
    expect(await nextRequest(here)).toMatchObject({ user: { id: owner.id, roles: ["EDITOR"] } });
  });

  it("only owners change roles, only in their own account", async () => {
    const { db, owner, editor } = await ownerAndUser(["EDITOR"]);
    const outsider = await createAdmin((await createAccount()).id, { roles: ["EDITOR"] });
    await expect(
      setAdminRoles(db, { actor: actorOf(editor), userId: editor.id, roles: ["OWNER"] }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      setAdminRoles(db, { actor: actorOf(owner), userId: outsider.id, roles: ["MODERATOR"] }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(setAdminRoles(db, { actor: actorOf(owner), userId: editor.id, roles: [] })).rejects.toMatchObject({
      name: "ZodError",
    });
    expect((await db.adminUser.findUniqueOrThrow({ where: { id: outsider.id } })).roles).toEqual(["EDITOR"]);
  });

  it("two owners removing each other's Owner role at once: one succeeds, the account keeps an owner", async () => {
    const db = await getDb();
    const account = await createAccount();
    const a = await createAdmin(account.id, { roles: ["OWNER"] });
    const b = await createAdmin(account.id, { roles: ["OWNER"] });

    const outcomes = await Promise.allSettled([
      setAdminRoles(db, { actor: actorOf(a), userId: b.id, roles: ["EDITOR"] }),
      setAdminRoles(db, { actor: actorOf(b), userId: a.id, roles: ["EDITOR"] }),
    ]);

    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.find((o) => o.status === "rejected")).toMatchObject({ reason: { code: "UNPROCESSABLE" } });
    expect(await db.adminUser.count({ where: { accountId: account.id, roles: { has: "OWNER" } } })).toBe(1);
  });
});

describe("disableAdminUser", () => {
  it("ends every session of the user, who can no longer sign in; twice is a no-op", async () => {
    const { db, owner, editor } = await ownerAndUser();
    const first = await signIn(editor.email);
    const second = await signIn(editor.email);
    const now = new Date();

    expect(await disableAdminUser(db, { actor: actorOf(owner), userId: editor.id, now })).toEqual({
      userId: editor.id,
      changed: true,
      revokedSessions: 2,
    });
    expect(await isSignedIn(first)).toBe(false);
    expect(await isSignedIn(second)).toBe(false);
    await expect(signIn(editor.email)).rejects.toThrow(/failed/);
    expect((await db.adminUser.findUniqueOrThrow({ where: { id: editor.id } })).disabledAt).toEqual(now);
    // Re-enabling (directly here; no UI yet) does not revive the revoked cookies.
    await db.adminUser.update({ where: { id: editor.id }, data: { disabledAt: null } });
    expect(await isSignedIn(first)).toBe(false);
    await db.adminUser.update({ where: { id: editor.id }, data: { disabledAt: now } });

    expect((await disableAdminUser(db, { actor: actorOf(owner), userId: editor.id })).changed).toBe(false);
    expect(await db.auditLog.findMany({ where: { action: "admin_user.disable" } })).toEqual([
      expect.objectContaining({ actorId: owner.id, targetId: editor.id, metadata: { revokedSessions: 2 } }),
    ]);
  });

  it("the last active owner cannot be disabled, by themselves or anyone; non-owners disable no one", async () => {
    const { db, owner, editor } = await ownerAndUser();
    const token = await signIn(owner.email);

    await expect(disableAdminUser(db, { actor: actorOf(owner), userId: owner.id })).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      details: [{ field: "userId" }],
    });
    await expect(disableAdminUser(db, { actor: actorOf(editor), userId: owner.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await isSignedIn(token)).toBe(true);

    const second = await createAdmin(editor.accountId, { roles: ["OWNER"] });
    await disableAdminUser(db, { actor: actorOf(second), userId: owner.id });
    expect(await isSignedIn(token)).toBe(false);
  });
});

describe("session rows", () => {
  it("revokeAdminSessionsOfUser ends the user's live sessions but the one kept; revokeAdminSession one", async () => {
    const db = await getDb();
    const account = await createAccount();
    const user = await createAdmin(account.id);
    const other = await createAdmin(account.id);
    const now = new Date("2026-11-22T10:00:00Z");
    const [kept, a, b] = await Promise.all([1, 2, 3].map(() => createAdminSession(db, { userId: user.id, now })));
    const others = await createAdminSession(db, { userId: other.id, now });

    const later = new Date(now.getTime() + HOUR);
    expect(await revokeAdminSessionsOfUser(db, { userId: user.id, exceptSessionId: kept!.id, now: later })).toBe(2);
    const rows = await db.adminSession.findMany({ select: { id: true, revokedAt: true } });
    const revokedAt = (id: string) => rows.find((r) => r.id === id)?.revokedAt;
    expect([revokedAt(a!.id), revokedAt(b!.id)]).toEqual([later, later]);
    expect([revokedAt(kept!.id), revokedAt(others.id)]).toEqual([null, null]);

    expect(await revokeAdminSession(db, { sessionId: kept!.id, userId: other.id, now: later })).toBe(false);
    expect(await revokeAdminSession(db, { sessionId: kept!.id, userId: user.id, now: later })).toBe(true);
    expect(await revokeAdminSession(db, { sessionId: kept!.id, now: later })).toBe(false);
    expect(await revokeAdminSession(db, { sessionId: "not-a-uuid", now: later })).toBe(false);
  });

  it("purgeExpiredAdminSessions deletes the rows past their expiry, revoked or not, and keeps the rest", async () => {
    const db = await getDb();
    const account = await createAccount();
    const user = await createAdmin(account.id);
    const t0 = new Date("2026-11-22T00:00:00Z");
    const old = await createAdminSession(db, { userId: user.id, now: t0 });
    const oldRevoked = await createAdminSession(db, { userId: user.id, now: t0 });
    await revokeAdminSession(db, { sessionId: oldRevoked.id, now: t0 });
    const fresh = await createAdminSession(db, { userId: user.id, now: new Date(t0.getTime() + 6 * HOUR) });

    expect(await purgeExpiredAdminSessions(db, { now: new Date(t0.getTime() + 12 * HOUR) })).toBe(2);
    expect((await db.adminSession.findMany({ select: { id: true } })).map((r) => r.id)).toEqual([fresh.id]);
    expect([old.id, oldRevoked.id]).not.toContain(fresh.id);
  });
});
