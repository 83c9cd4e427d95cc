import { describe, expect, it } from "vitest";

import { GET as GROUPS_JSON } from "@/app/api/v1/subscription_groups.json/route";

import { createApiKey, findApiKey } from "../../auth/api-keys";
import { getDb } from "../../db";
import { callGet } from "../../testing/route-calls";
import { createTestTeam, trpcCodeOf } from "../../testing/staff";

const groups = (headers: Record<string, string>) =>
  callGet(GROUPS_JSON, "/api/v1/subscription_groups.json", {}, headers);

describe("staff.apiKeys: create and revoke", () => {
  it("creates a named key shown once and stored hashed, then revokes it: the API refuses it at once", async () => {
    const db = await getDb();
    const { owner } = await createTestTeam(db, "keys-one", { owner: ["OWNER"] });
    const first = await createApiKey(db, { accountId: owner.account.id, kind: "SERVER", name: "Main" });

    const made = await owner.caller.staff.apiKeys.create({ kind: "SERVER", name: "  Newsletter tool " });
    expect(made.key).toMatch(/^mh_sk_[0-9A-Za-z]{32}$/);
    expect(made.created).toMatchObject({ kind: "SERVER", name: "Newsletter tool", live: true, lastUsedAt: null });
    expect(made.created.prefix).toBe(made.key.slice(0, 10));
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: made.created.id } });
    expect(JSON.stringify(row)).not.toContain(made.key);
    const listed = await owner.caller.staff.apiKeys.list();
    expect(listed.map((k) => k.name).sort()).toEqual(["Main", "Newsletter tool"]);
    expect(JSON.stringify(listed)).not.toContain(made.key);

    // The new key works through a real API route, and its use is noted.
    expect((await groups({ "x-subauth": made.key })).status).toBe(200);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: made.created.id } })).lastUsedAt).not.toBeNull();

    const revoked = await owner.caller.staff.apiKeys.revoke({ keyId: made.created.id });
    expect(revoked).toMatchObject({ id: made.created.id, live: false });
    expect(revoked.revokedAt).not.toBeNull();
    const refused = await groups({ "x-subauth": made.key });
    expect(refused.status).toBe(401);
    expect(await findApiKey(db, made.key, "SERVER")).toBeNull();
    // The other key still works.
    expect((await groups({ "x-subauth": first.key })).status).toBe(200);

    const audits = await db.auditLog.findMany({
      where: { accountId: owner.account.id, targetId: made.created.id },
      orderBy: { createdAt: "asc" },
    });
    expect(audits.map((a) => a.action)).toEqual(["api_key.create", "api_key.revoke"]);
    expect(JSON.stringify(audits)).not.toContain(made.key);
  });

  it("refuses revoking the last working key of a kind, a revoked key, and a key in its rotation grace counts as ending", async () => {
    const db = await getDb();
    const { owner } = await createTestTeam(db, "keys-two", { owner: ["OWNER"] });
    const client = await createApiKey(db, { accountId: owner.account.id, kind: "CLIENT", name: "Widgets" });
    // A server key does not stand in for a client key.
    await createApiKey(db, { accountId: owner.account.id, kind: "SERVER", name: "Server" });

    const last = owner.caller.staff.apiKeys.revoke({ keyId: client.id });
    expect(await trpcCodeOf(last)).toBe("UNPROCESSABLE_CONTENT");
    await expect(owner.caller.staff.apiKeys.revoke({ keyId: client.id })).rejects.toThrow(
      /last working client key: create another client key first/,
    );
    // A rotated key works only for its grace: it does not count as a replacement either.
    const rotated = await owner.caller.staff.apiKeys.rotate({ keyId: client.id });
    expect(await trpcCodeOf(owner.caller.staff.apiKeys.revoke({ keyId: rotated.created.id }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    // The old one, in its grace, can be revoked: the new one keeps working.
    await owner.caller.staff.apiKeys.revoke({ keyId: client.id });
    expect(await findApiKey(db, client.key, "CLIENT")).toBeNull();
    expect(await findApiKey(db, rotated.key, "CLIENT")).not.toBeNull();
    expect(await trpcCodeOf(owner.caller.staff.apiKeys.revoke({ keyId: client.id }))).toBe("UNPROCESSABLE_CONTENT");
    expect(await db.apiKey.count({ where: { accountId: owner.account.id, revokedAt: { not: null } } })).toBe(1);
  });

  it("is for owners only, scoped to the account, and refuses bad input with nothing changed", async () => {
    const db = await getDb();
    const { owner, editor } = await createTestTeam(db, "keys-three", { owner: ["OWNER"], editor: ["EDITOR"] });
    const other = await createTestTeam(db, "keys-four", { owner: ["OWNER"] });
    const key = await createApiKey(db, { accountId: owner.account.id, kind: "SERVER", name: "Server" });
    await createApiKey(db, { accountId: owner.account.id, kind: "SERVER", name: "Spare" });
    const before = await db.apiKey.count();

    expect(await trpcCodeOf(editor.caller.staff.apiKeys.create({ kind: "SERVER", name: "Mine" }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(editor.caller.staff.apiKeys.revoke({ keyId: key.id }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(other.owner.caller.staff.apiKeys.revoke({ keyId: key.id }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(owner.caller.staff.apiKeys.create({ kind: "SERVER", name: "   " }))).toBe("BAD_REQUEST");
    expect(await trpcCodeOf(owner.caller.staff.apiKeys.create({ kind: "ADMIN" as "SERVER", name: "Nope" }))).toBe(
      "BAD_REQUEST",
    );
    expect(await trpcCodeOf(owner.caller.staff.apiKeys.create({ kind: "SERVER", name: "x".repeat(101) }))).toBe(
      "BAD_REQUEST",
    );
    expect(await trpcCodeOf(owner.caller.staff.apiKeys.revoke({ keyId: "nope" }))).toBe("BAD_REQUEST");

    expect(await db.apiKey.count()).toBe(before);
    expect(await db.apiKey.count({ where: { accountId: owner.account.id, revokedAt: { not: null } } })).toBe(0);
    expect(
      await db.auditLog.count({
        where: { accountId: owner.account.id, action: { in: ["api_key.create", "api_key.revoke"] } },
      }),
    ).toBe(0);
  });

  it("revokes at most all but one working key of a kind when revocations race", async () => {
    const db = await getDb();
    const { owner } = await createTestTeam(db, "keys-race", { owner: ["OWNER"] });
    const a = await createApiKey(db, { accountId: owner.account.id, kind: "SERVER", name: "A" });
    const b = await createApiKey(db, { accountId: owner.account.id, kind: "SERVER", name: "B" });
    const results = await Promise.allSettled([
      owner.caller.staff.apiKeys.revoke({ keyId: a.id }),
      owner.caller.staff.apiKeys.revoke({ keyId: b.id }),
      owner.caller.staff.apiKeys.revoke({ keyId: a.id }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const live = await db.apiKey.count({ where: { accountId: owner.account.id, revokedAt: null } });
    expect(live).toBe(1);
    expect(await db.auditLog.count({ where: { accountId: owner.account.id, action: "api_key.revoke" } })).toBe(1);
  });
});
