import { describe, expect, it } from "vitest";

import { findApiKey } from "../auth/api-keys";
import { verifyPassword } from "../auth/password";
import { getDb } from "../db";
import { DEMO, demoCredentials, seedDemoPublisher } from "./demo";
import { assertSeedAllowed, SeedRefusedError } from "./run";

describe("demo seed", () => {
  it("creates the documented publisher, keys and one admin per role", async () => {
    const db = await getDb();
    const report = { created: [] as string[] };
    const accountId = await seedDemoPublisher(db, report);
    expect(report.created.length).toBe(2 + 1 + DEMO.users.length);
    expect((await findApiKey(db, DEMO.subauthKey, "SERVER"))?.accountId).toBe(accountId);
    expect((await findApiKey(db, DEMO.accountKey, "CLIENT"))?.accountId).toBe(accountId);
    const owner = await db.adminUser.findUniqueOrThrow({
      where: { email: DEMO.owner.email },
      omit: { passwordHash: false },
    });
    expect(owner.roles).toEqual(["OWNER"]);
    expect(await verifyPassword(DEMO.owner.password, owner.passwordHash)).toBe(true);
    const credentials = demoCredentials(accountId, "http://localhost:3000");
    expect(credentials).toMatchObject({
      accountId,
      accountKey: DEMO.accountKey,
      subauthKey: DEMO.subauthKey,
      jwtSecret: DEMO.jwtSecret,
      admin: { email: DEMO.owner.email, password: DEMO.owner.password },
      baseUrl: "http://localhost:3000",
    });
  });

  it("changes nothing when run twice, keeping what the dashboard changed", async () => {
    const db = await getDb();
    await seedDemoPublisher(db);
    await db.adminUser.update({ where: { email: DEMO.owner.email }, data: { name: "Renamed in the dashboard" } });
    const before = {
      accounts: await db.account.count(),
      keys: await db.apiKey.count(),
      users: await db.adminUser.count(),
    };
    const report = { created: [] as string[] };
    await seedDemoPublisher(db, report);
    expect(report.created).toEqual([]);
    expect({
      accounts: await db.account.count(),
      keys: await db.apiKey.count(),
      users: await db.adminUser.count(),
    }).toEqual(before);
    expect((await db.adminUser.findUniqueOrThrow({ where: { email: DEMO.owner.email } })).name).toBe(
      "Renamed in the dashboard",
    );
  });

  it("is refused in production unless explicitly allowed", () => {
    expect(() => assertSeedAllowed({ NODE_ENV: "production", ALLOW_DEMO_SEED: false })).toThrow(SeedRefusedError);
    expect(() => assertSeedAllowed({ NODE_ENV: "production", ALLOW_DEMO_SEED: true })).not.toThrow();
    expect(() => assertSeedAllowed({ NODE_ENV: "development", ALLOW_DEMO_SEED: false })).not.toThrow();
  });
});
