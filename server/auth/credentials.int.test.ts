import type { User } from "next-auth";
import { describe, expect, it } from "vitest";

import { getDb } from "../db";
import { MemoryRateLimitStore } from "../rate-limit";
import { authorizeAdminCredentials } from "./credentials";
import { authOptions } from "./next-auth";
import { hashPassword } from "./password";
import { createSignInThrottle } from "./sign-in-rate-limit";

// A cheap scrypt cost keeps the suite quick; verification reads the cost from the stored hash.
const FAST = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = "correct horse battery staple";

async function createAdmin(
  overrides: { email?: string; roles?: ("OWNER" | "EDITOR" | "MODERATOR" | "REVENUE")[]; disabled?: boolean } = {},
) {
  const db = await getDb();
  const account = await db.account.create({
    data: { slug: `acc-${crypto.randomUUID().slice(0, 8)}`, name: "The Gazette", jwtSecret: "x".repeat(32) },
  });
  const user = await db.adminUser.create({
    data: {
      accountId: account.id,
      email: overrides.email ?? "editor@gazette.test",
      name: "Ed Itor",
      roles: overrides.roles ?? ["EDITOR"],
      passwordHash: await hashPassword(PASSWORD, FAST),
      disabledAt: overrides.disabled ? new Date() : null,
    },
  });
  return { db, account, user };
}

/** A throttle on a store of its own (a fresh process's memory). */
function ownThrottle(options: { perEmailAndIp: number; perEmail: number }) {
  const store = new MemoryRateLimitStore();
  return createSignInThrottle(async () => store, options);
}
const throttle = () => ownThrottle({ perEmailAndIp: 1000, perEmail: 1000 });

describe("authorizeAdminCredentials", () => {
  it("signs in with the right password: returns the session user, records the sign-in, updates lastLoginAt", async () => {
    const { db, account, user } = await createAdmin();
    const now = new Date("2026-11-22T10:00:00.000Z");
    const result = await authorizeAdminCredentials(
      db,
      { email: "  Editor@Gazette.TEST ", password: PASSWORD },
      { ip: "203.0.113.7", throttle: throttle(), now: () => now },
    );

    expect(result).toEqual({
      id: user.id,
      name: "Ed Itor",
      email: "editor@gazette.test",
      accountId: account.id,
      accountName: "The Gazette",
      roles: ["EDITOR"],
    });
    expect((await db.adminUser.findUniqueOrThrow({ where: { id: user.id } })).lastLoginAt).toEqual(now);
    const entries = await db.auditLog.findMany();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      accountId: account.id,
      actorId: user.id,
      action: "admin.sign_in",
      targetType: "admin_user",
      targetId: user.id,
      ip: "203.0.113.7",
      createdAt: now,
    });
  });

  it("gives the same answer (null), and records nothing, for a wrong password, an unknown e-mail and a disabled user", async () => {
    const { db } = await createAdmin();
    await createAdmin({ email: "gone@gazette.test", disabled: true });
    const options = { ip: "203.0.113.7", throttle: throttle() };

    const wrongPassword = await authorizeAdminCredentials(
      db,
      { email: "editor@gazette.test", password: "not the password" },
      options,
    );
    const unknownUser = await authorizeAdminCredentials(
      db,
      { email: "nobody@gazette.test", password: PASSWORD },
      options,
    );
    const disabledUser = await authorizeAdminCredentials(
      db,
      { email: "gone@gazette.test", password: PASSWORD },
      options,
    );

    expect(wrongPassword).toBeNull();
    expect(unknownUser).toBeNull();
    expect(disabledUser).toBeNull();
    expect(await db.auditLog.count()).toBe(0);
    expect(await db.adminUser.count({ where: { lastLoginAt: { not: null } } })).toBe(0);
  });

  it("refuses malformed credentials without touching the database", async () => {
    const db = await getDb();
    for (const credentials of [
      undefined,
      {},
      { email: "", password: "x" },
      { email: "a@b.test", password: "" },
      { email: "a@b.test", password: "x".repeat(2000) },
      // Text the database cannot store: no user has it.
      { email: "a\u0000b@b.test", password: "x" },
      { email: "a@b.test", password: "x\u0000" },
    ]) {
      expect(await authorizeAdminCredentials(db, credentials, { ip: null, throttle: throttle() })).toBeNull();
    }
  });

  it("rate-limits attempts per e-mail and IP, known e-mail or not, right password or not", async () => {
    const { db } = await createAdmin();
    const limited = ownThrottle({ perEmailAndIp: 3, perEmail: 1000 });
    for (let i = 0; i < 3; i++) {
      expect(
        await authorizeAdminCredentials(
          db,
          { email: "editor@gazette.test", password: "wrong" },
          { ip: "198.51.100.1", throttle: limited },
        ),
      ).toBeNull();
    }
    await expect(
      authorizeAdminCredentials(
        db,
        { email: "editor@gazette.test", password: PASSWORD },
        { ip: "198.51.100.1", throttle: limited },
      ),
    ).rejects.toMatchObject({ code: "RATE_LIMITED" });
    // Another address is counted apart.
    expect(
      await authorizeAdminCredentials(
        db,
        { email: "editor@gazette.test", password: PASSWORD },
        { ip: "198.51.100.2", throttle: limited },
      ),
    ).not.toBeNull();

    for (let i = 0; i < 3; i++)
      await authorizeAdminCredentials(
        db,
        { email: "nobody@gazette.test", password: "x" },
        { ip: "198.51.100.1", throttle: limited },
      );
    await expect(
      authorizeAdminCredentials(
        db,
        { email: "nobody@gazette.test", password: "x" },
        { ip: "198.51.100.1", throttle: limited },
      ),
    ).rejects.toMatchObject({
      code: "RATE_LIMITED",
    });
  });
});

describe("authOptions (next-auth wiring)", () => {
  type Authorize = (
    credentials: Record<string, string> | undefined,
    req: { headers: Record<string, string> },
  ) => Promise<unknown>;
  const authorize = (authOptions.providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;
  const req = { headers: { "x-forwarded-for": "192.0.2.10" } };

  it("authorizes through the Credentials provider, with the same null for every kind of failure", async () => {
    const { user } = await createAdmin();
    await createAdmin({ email: "gone@gazette.test", disabled: true });
    expect(await authorize({ email: "editor@gazette.test", password: PASSWORD }, req)).toMatchObject({
      id: user.id,
      roles: ["EDITOR"],
    });
    expect(await authorize({ email: "editor@gazette.test", password: "wrong" }, req)).toBeNull();
    expect(await authorize({ email: "nobody@gazette.test", password: PASSWORD }, req)).toBeNull();
    expect(await authorize({ email: "gone@gazette.test", password: PASSWORD }, req)).toBeNull();
    const db = await getDb();
    expect((await db.auditLog.findFirstOrThrow()).ip).toBe("192.0.2.10");
  });

  it("returns from signing in or out to a path or a URL of the site only, whatever callbackUrl says", async () => {
    const redirect = authOptions.callbacks!.redirect!;
    const baseUrl = "https://news.example";
    const cases: [string, string][] = [
      ["/admin/content/stories?tab=drafts", "https://news.example/admin/content/stories?tab=drafts"],
      ["https://news.example/admin", "https://news.example/admin"],
      ["https://news.example.evil.test/", baseUrl],
      ["https://news.examplex/", baseUrl],
      ["https://evil.test/admin", baseUrl],
      ["javascript:alert(1)", baseUrl],
      ["x", baseUrl],
      ["", baseUrl],
    ];
    for (const [url, expected] of cases) expect(await redirect({ url, baseUrl }), url).toBe(expected);
  });

  it("turns the rate limit into the sign-in page's RateLimited code", async () => {
    await createAdmin();
    for (let i = 0; i < 10; i++) await authorize({ email: "editor@gazette.test", password: "wrong" }, req);
    await expect(authorize({ email: "editor@gazette.test", password: PASSWORD }, req)).rejects.toThrow(/^RateLimited$/);
  });

  it("re-reads the user on each request: roles follow the database, and disabling ends the session", async () => {
    const { db, user } = await createAdmin({ roles: ["EDITOR"] });
    const signedIn = (await authorize({ email: "editor@gazette.test", password: PASSWORD }, req)) as User;
    const jwt = authOptions.callbacks!.jwt!;
    const session = authOptions.callbacks!.session!;
    const expires = new Date(Date.now() + 3600_000).toISOString();
    const asSession = async (token: Awaited<ReturnType<typeof jwt>>) =>
      session({ session: { expires }, token, user: undefined as never, newSession: undefined, trigger: "update" });

    let token = await jwt({ token: {}, user: signedIn, account: null });
    expect(token).toMatchObject({ sub: user.id, roles: ["EDITOR"] });

    await db.adminUser.update({ where: { id: user.id }, data: { roles: ["EDITOR", "MODERATOR"], name: "Edith Itor" } });
    token = await jwt({ token, user: undefined as never, account: null });
    expect((await asSession(token)).user).toMatchObject({
      id: user.id,
      name: "Edith Itor",
      roles: ["EDITOR", "MODERATOR"],
    });

    await db.adminUser.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    token = await jwt({ token, user: undefined as never, account: null });
    expect(token).toEqual({ revoked: true });
    expect((await asSession(token)).user).toBeUndefined();

    // Re-enabling the user does not revive a revoked cookie.
    await db.adminUser.update({ where: { id: user.id }, data: { disabledAt: null } });
    token = await jwt({ token, user: undefined as never, account: null });
    expect((await asSession(token)).user).toBeUndefined();
  });
});
