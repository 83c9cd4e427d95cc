import { describe, expect, it } from "vitest";

import { findApiKey } from "../auth/api-keys";
import { verifyPassword } from "../auth/password";
import { getDb } from "../db";
import { createOwner } from "./bootstrap";

describe("createOwner (npm run admin:create)", () => {
  it("creates the account with fresh keys, shown once, and an owner", async () => {
    const db = await getDb();
    const created = await createOwner(db, {
      email: "Boss@Example.com",
      name: "Boss",
      password: "a-long-password-1",
      accountName: "Gazette",
    });
    expect(created.newAccount?.clientKey).toMatch(/^mh_pk_[0-9A-Za-z]{32}$/);
    expect(created.newAccount?.serverKey).toMatch(/^mh_sk_[0-9A-Za-z]{32}$/);
    expect((await findApiKey(db, created.newAccount!.serverKey, "SERVER"))?.accountId).toBe(created.accountId);
    expect(await findApiKey(db, created.newAccount!.serverKey, "CLIENT")).toBeNull();

    const user = await db.adminUser.findUniqueOrThrow({
      where: { email: "boss@example.com" },
      omit: { passwordHash: false },
    });
    expect(user.roles).toEqual(["OWNER"]);
    expect(await verifyPassword("a-long-password-1", user.passwordHash)).toBe(true);
    const account = await db.account.findUniqueOrThrow({
      where: { id: created.accountId },
      omit: { jwtSecret: false },
    });
    expect(account.jwtSecret).toBe(created.newAccount!.jwtSecret);
    expect(await db.auditLog.count({ where: { action: "admin_user.create" } })).toBe(1);
  });

  it("adds a second owner to the existing account without new keys", async () => {
    const db = await getDb();
    const first = await createOwner(db, { email: "a@example.com", name: "A", password: "a-long-password-1" });
    const second = await createOwner(db, { email: "b@example.com", name: "B", password: "a-long-password-2" });
    expect(second.accountId).toBe(first.accountId);
    expect(second.newAccount).toBeUndefined();
    expect(await db.apiKey.count()).toBe(2);
  });

  it("refuses a duplicate e-mail and a weak password, changing nothing", async () => {
    const db = await getDb();
    await createOwner(db, { email: "a@example.com", name: "A", password: "a-long-password-1" });
    await expect(
      createOwner(db, { email: "A@example.com", name: "A2", password: "a-long-password-2" }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(createOwner(db, { email: "c@example.com", name: "C", password: "short" })).rejects.toThrow(
      /at least 12/,
    );
    expect(await db.adminUser.count()).toBe(1);
  });
});
