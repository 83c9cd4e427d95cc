import { describe, expect, it } from "vitest";

import { createAdminSession, findActiveAdminSession } from "../../auth/admin-sessions";
import { createApiKey, findApiKey } from "../../auth/api-keys";
import { authorizeAdminCredentials } from "../../auth/credentials";
import { getSignInThrottle } from "../../auth/sign-in-rate-limit";
import { ADMIN_FORGOT_PASSWORD_LIMIT, requestAdminPasswordReset, resetAdminPassword } from "../../auth/staff-passwords";
import { getDb } from "../../db";
import { createAnonymousCaller, createTestTeam, trpcCodeOf } from "../../testing/staff";

const APP = "http://localhost:3000";

/** The token of the newest mail to `to` (from its link), and the mail. */
async function lastLinkTo(to: string) {
  const db = await getDb();
  const mail = await db.outgoingEmail.findFirstOrThrow({ where: { to }, orderBy: { createdAt: "desc" } });
  const match = /\/admin\/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(mail.text);
  expect(match, mail.text).not.toBeNull();
  return { mail, token: decodeURIComponent(match![1]!) };
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("staff router", () => {
  it("lets an owner invite and add users, change roles, disable and enable them, all audited", async () => {
    const db = await getDb();
    const { owner, editor } = await createTestTeam(db, "alpha", { owner: ["OWNER"], editor: ["EDITOR"] });
    const caller = owner.caller;

    const invited = await caller.staff.create({
      name: "Ivy Invited",
      email: " Ivy@Example.com ",
      roles: ["MODERATOR"],
    });
    expect(invited.invited).toBe(true);
    expect(invited.user).toMatchObject({ email: "ivy@example.com", roles: ["MODERATOR"], invitePending: true });
    const { mail } = await lastLinkTo("ivy@example.com");
    expect(mail.kind).toBe("admin.invitation");
    expect(mail.text).toContain("/admin/reset-password?token=");

    const added = await caller.staff.create({
      name: "Rita Revenue",
      email: "rita@example.com",
      roles: ["REVENUE", "EDITOR"],
      password: "a long enough password",
    });
    expect(added).toMatchObject({ invited: false, user: { roles: ["EDITOR", "REVENUE"], invitePending: false } });
    const signedIn = await authorizeAdminCredentials(
      db,
      { email: "rita@example.com", password: "a long enough password" },
      { ip: "1.2.3.4", throttle: getSignInThrottle() },
    );
    expect(signedIn?.id).toBe(added.user.id);

    // Taken e-mail, bad input: client errors.
    expect(await trpcCodeOf(caller.staff.create({ name: "X", email: "rita@example.com", roles: ["EDITOR"] }))).toBe(
      "CONFLICT",
    );
    expect(await trpcCodeOf(caller.staff.create({ name: "X", email: "not an email", roles: ["EDITOR"] }))).toBe(
      "BAD_REQUEST",
    );
    expect(await trpcCodeOf(caller.staff.create({ name: "X", email: "x@example.com", roles: [] }))).toBe("BAD_REQUEST");
    expect(
      await trpcCodeOf(
        caller.staff.create({ name: "X", email: "x@example.com", roles: ["EDITOR"], password: "short" }),
      ),
    ).toBe("BAD_REQUEST");

    // Roles change and end the user's sessions.
    const session = await createAdminSession(db, { userId: added.user.id, now: new Date() });
    expect(await caller.staff.setRoles({ userId: added.user.id, roles: ["MODERATOR"] })).toMatchObject({
      changed: true,
      revokedSessions: 1,
    });
    expect(
      await findActiveAdminSession(db, { sessionId: session.id, userId: added.user.id, now: new Date() }),
    ).toBeNull();

    expect(await caller.staff.disable({ userId: added.user.id })).toMatchObject({ changed: true });
    expect((await caller.staff.list()).at(-1)).toMatchObject({ id: added.user.id });
    expect(
      await authorizeAdminCredentials(
        db,
        { email: "rita@example.com", password: "a long enough password" },
        { ip: "1.2.3.4", throttle: getSignInThrottle() },
      ),
    ).toBeNull();
    expect(await caller.staff.enable({ userId: added.user.id })).toMatchObject({ changed: true });

    const list = await caller.staff.list();
    expect(list.map((u) => u.email).sort()).toEqual(
      ["editor@alpha.test", "ivy@example.com", "owner@alpha.test", "rita@example.com"].sort(),
    );

    const actions = (
      await db.auditLog.findMany({ where: { accountId: owner.account.id }, orderBy: { createdAt: "asc" } })
    )
      .map((a) => a.action)
      .filter((a) => a.startsWith("admin_user."));
    expect(actions).toEqual([
      "admin_user.create",
      "admin_user.create",
      "admin_user.roles_change",
      "admin_user.disable",
      "admin_user.enable",
    ]);

    // Non-owners and strangers are refused; another account's user is NOT_FOUND.
    expect(await trpcCodeOf(editor.caller.staff.list())).toBe("FORBIDDEN");
    expect(await trpcCodeOf(createAnonymousCaller(db).staff.list())).toBe("UNAUTHORIZED");
    const beta = await createTestTeam(db, "beta", { owner: ["OWNER"] });
    expect(await trpcCodeOf(beta.owner.caller.staff.disable({ userId: added.user.id }))).toBe("NOT_FOUND");
  });

  it("keeps the last active owner: no demotion, no disabling, with a clear error", async () => {
    const db = await getDb();
    const { owner, editor } = await createTestTeam(db, "solo", { owner: ["OWNER"], editor: ["EDITOR"] });
    const demote = owner.caller.staff.setRoles({ userId: owner.user.id, roles: ["EDITOR"] });
    await expect(demote).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    await expect(owner.caller.staff.setRoles({ userId: owner.user.id, roles: ["EDITOR"] })).rejects.toThrow(
      /needs an owner/,
    );
    await expect(owner.caller.staff.disable({ userId: owner.user.id })).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
    });
    // With a second owner, the first may go.
    await owner.caller.staff.setRoles({ userId: editor.user.id, roles: ["OWNER"] });
    expect(await owner.caller.staff.disable({ userId: owner.user.id })).toMatchObject({ changed: true });
  });

  it("resets a password by e-mail: owner-sent or forgotten, single use, ends sessions, reveals nothing", async () => {
    const db = await getDb();
    const { owner, editor } = await createTestTeam(db, "gamma", { owner: ["OWNER"], editor: ["EDITOR"] });
    const session = await createAdminSession(db, { userId: editor.user.id, now: new Date() });

    await owner.caller.staff.sendPasswordReset({ userId: editor.user.id });
    const sent = await lastLinkTo("editor@gamma.test");
    expect(sent.mail.kind).toBe("admin.password_reset");

    // Forgot password: the same (no) answer for an unknown e-mail, a mail for a known one.
    await requestAdminPasswordReset(db, { email: "nobody@gamma.test", appUrl: APP });
    expect(await db.outgoingEmail.count({ where: { to: "nobody@gamma.test" } })).toBe(0);
    await requestAdminPasswordReset(db, { email: "EDITOR@gamma.test", appUrl: APP });
    const forgotten = await lastLinkTo("editor@gamma.test");
    expect(forgotten.mail.text).toContain(`${APP}/admin/reset-password?token=`);

    await expect(resetAdminPassword(db, { token: "nonsense", password: "brand new password" })).rejects.toMatchObject({
      code: "UNPROCESSABLE",
    });
    await expect(resetAdminPassword(db, { token: forgotten.token, password: "short" })).rejects.toThrow();
    const done = await resetAdminPassword(db, { token: forgotten.token, password: "brand new password" });
    expect(done.userId).toBe(editor.user.id);
    // Used once; and the owner's earlier link died with it.
    await expect(
      resetAdminPassword(db, { token: forgotten.token, password: "another password!" }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(resetAdminPassword(db, { token: sent.token, password: "another password!" })).rejects.toMatchObject({
      code: "UNPROCESSABLE",
    });
    expect(
      await findActiveAdminSession(db, { sessionId: session.id, userId: editor.user.id, now: new Date() }),
    ).toBeNull();
    expect(
      await authorizeAdminCredentials(
        db,
        { email: "editor@gamma.test", password: "brand new password" },
        { ip: null, throttle: getSignInThrottle() },
      ),
    ).not.toBeNull();

    // Throttled per e-mail, known or not.
    for (let i = 0; i < ADMIN_FORGOT_PASSWORD_LIMIT.limit; i++)
      await requestAdminPasswordReset(db, { email: "flood@gamma.test", appUrl: APP });
    await expect(requestAdminPasswordReset(db, { email: "flood@gamma.test", appUrl: APP })).rejects.toMatchObject({
      code: "RATE_LIMITED",
    });
  });

  it("lists API keys by prefix and rotates them with a 24-hour grace", async () => {
    const db = await getDb();
    const { owner, editor } = await createTestTeam(db, "delta", { owner: ["OWNER"], editor: ["EDITOR"] });
    const server = await createApiKey(db, { accountId: owner.account.id, kind: "SERVER", name: "Server" });

    const keys = await owner.caller.staff.apiKeys.list();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: server.id, prefix: server.prefix, live: true, expiresAt: null });
    expect(JSON.stringify(keys)).not.toContain(server.key);

    const rotated = await owner.caller.staff.apiKeys.rotate({ keyId: server.id });
    expect(rotated.key).toMatch(/^mh_sk_/);
    expect(rotated.previous.expiresAt!.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    // Both work during the grace; the old one stops after it.
    expect(await findApiKey(db, server.key, "SERVER")).not.toBeNull();
    expect(await findApiKey(db, rotated.key, "SERVER")).not.toBeNull();
    expect(await findApiKey(db, server.key, "SERVER", new Date(Date.now() + 25 * 3600_000))).toBeNull();
    expect(await findApiKey(db, rotated.key, "SERVER", new Date(Date.now() + 25 * 3600_000))).not.toBeNull();

    expect(await trpcCodeOf(owner.caller.staff.apiKeys.rotate({ keyId: server.id }))).toBe("UNPROCESSABLE_CONTENT");
    expect(await trpcCodeOf(editor.caller.staff.apiKeys.rotate({ keyId: rotated.created.id }))).toBe("FORBIDDEN");
    const beta = await createTestTeam(db, "epsilon", { owner: ["OWNER"] });
    expect(await trpcCodeOf(beta.owner.caller.staff.apiKeys.rotate({ keyId: rotated.created.id }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(owner.caller.staff.apiKeys.rotate({ keyId: "nope" }))).toBe("BAD_REQUEST");
    expect(
      await db.auditLog.count({
        where: { accountId: owner.account.id, action: "api_key.rotate", targetId: server.id },
      }),
    ).toBe(1);
  });
});
