import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { describe, expect, it } from "vitest";

import type { AdminSession } from "../../auth/admin-session";
import { getDb } from "../../db";
import { createAnonymousCaller, createTestTeam } from "../../testing/staff";
import { appRouter } from "../root";
import type { TRPCContext } from "../trpc";

/** An account with an owner and a moderator. */
async function createAccountWithAdmins(slug: string) {
  const team = await createTestTeam(await getDb(), slug, { owner: ["OWNER"], moderator: ["MODERATOR"] });
  return { account: team.owner.account, ...team };
}

/** `count` entries one second apart, the newest at `newest`; returns their ids newest first. */
async function recordEntries(
  accountId: number,
  actorId: string,
  count: number,
  newest = Date.parse("2026-11-22T12:00:00Z"),
  action = "story.update",
) {
  const db = await getDb();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = await db.auditLog.create({
      data: { accountId, actorId, action, createdAt: new Date(newest - i * 1000), metadata: { n: i } },
    });
    ids.push(row.id);
  }
  return ids;
}

describe("auditLog.list", () => {
  it("shows an owner their own account's entries only, newest first, with the actor", async () => {
    const a = await createAccountWithAdmins("alpha");
    const b = await createAccountWithAdmins("beta");
    const aIds = await recordEntries(a.account.id, a.owner.user.id, 3);
    await recordEntries(b.account.id, b.owner.user.id, 4);

    const page = await a.owner.caller.auditLog.list({});
    expect(page.items.map((e) => e.id)).toEqual(aIds);
    expect(page.nextCursor).toBeNull();
    expect(page.items[0]).toMatchObject({
      action: "story.update",
      metadata: { n: 0 },
      actor: { id: a.owner.user.id, name: "owner", email: "owner@alpha.test" },
    });
    expect(page.items[0]!.createdAt).toBeInstanceOf(Date);
  });

  it("pages through every entry exactly once, ties on the timestamp included", async () => {
    const { account, owner } = await createAccountWithAdmins("alpha");
    const spread = await recordEntries(account.id, owner.user.id, 12);
    // Five entries in the same millisecond, older than the rest: the cursor must tell them apart.
    const db = await getDb();
    const sameInstant = new Date("2026-11-22T11:00:00Z");
    for (let i = 0; i < 5; i++)
      await db.auditLog.create({ data: { accountId: account.id, action: "story.update", createdAt: sameInstant } });

    const caller = owner.caller;
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof caller.auditLog.list>> = await caller.auditLog.list({ limit: 5, cursor });
      expect(page.items.length).toBeLessThanOrEqual(5);
      seen.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);

    expect(pages).toBe(4); // 17 entries: 5 + 5 + 5 + 2
    expect(seen).toHaveLength(17);
    expect(new Set(seen).size).toBe(17);
    expect(seen.slice(0, 12)).toEqual(spread);
    expect(await db.auditLog.count()).toBe(17);
  });

  it("filters by action", async () => {
    const { account, owner } = await createAccountWithAdmins("alpha");
    await recordEntries(account.id, owner.user.id, 3, undefined, "story.update");
    const signIns = await recordEntries(
      account.id,
      owner.user.id,
      2,
      Date.parse("2026-11-23T00:00:00Z"),
      "admin.sign_in",
    );
    const caller = owner.caller;

    const page = await caller.auditLog.list({ action: "admin.sign_in" });
    expect(page.items.map((e) => e.id)).toEqual(signIns);
    expect(await caller.auditLog.actions()).toEqual([
      { action: "admin.sign_in", count: 2 },
      { action: "story.update", count: 3 },
    ]);
  });

  it("filters by person (or the system) and by days on the account's clocks, and lists the people", async () => {
    const { account, owner, moderator } = await createAccountWithAdmins("alpha");
    const db = await getDb();
    await db.account.update({ where: { id: account.id }, data: { timeZone: "Europe/Madrid" } });
    const at = (iso: string, actorId: string | null, action = "story.update") =>
      db.auditLog.create({ data: { accountId: account.id, actorId, action, createdAt: new Date(iso) } });
    // 23:30 UTC on the 21st is 00:30 on the 22nd in Madrid; 23:30 UTC on the 22nd is the 23rd there.
    const early = await at("2026-11-21T23:30:00Z", owner.user.id);
    const late = await at("2026-11-22T22:59:59Z", moderator.user.id);
    await at("2026-11-22T23:30:00Z", owner.user.id);
    await at("2026-11-21T22:00:00Z", owner.user.id);
    const system = await at("2026-11-22T12:00:00Z", null, "subscription.renew");

    const ids = async (input: Parameters<typeof owner.caller.auditLog.list>[0]) =>
      (await owner.caller.auditLog.list(input)).items.map((e) => e.id);
    expect(await ids({ from: "2026-11-22", to: "2026-11-22" })).toEqual([late.id, system.id, early.id]);
    expect(await ids({ from: "2026-11-22", to: "2026-11-22", actor: owner.user.id })).toEqual([early.id]);
    expect(await ids({ from: "2026-11-22", to: "2026-11-22", actor: "system" })).toEqual([system.id]);
    expect(await ids({ to: "2026-11-21" })).toHaveLength(1);

    expect(await owner.caller.auditLog.actors()).toEqual([
      { id: moderator.user.id, name: "moderator", email: "moderator@alpha.test" },
      { id: owner.user.id, name: "owner", email: "owner@alpha.test" },
    ]);
    for (const bad of [
      { from: "2026-02-30" },
      { from: "22/11/2026" },
      { from: "2026-11-23", to: "2026-11-22" },
      { actor: "bob" },
    ])
      await expect(owner.caller.auditLog.list(bad)).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("refuses a moderator (FORBIDDEN) and a caller without a session (UNAUTHORIZED)", async () => {
    const { moderator } = await createAccountWithAdmins("alpha");
    await expect(moderator.caller.auditLog.list({})).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(moderator.caller.auditLog.actions()).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(createAnonymousCaller(await getDb()).auditLog.list({})).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });

  it("rejects bad input with BAD_REQUEST: limit above 100, a malformed action, a forged cursor", async () => {
    const { owner } = await createAccountWithAdmins("alpha");
    const caller = owner.caller;
    for (const input of [{ limit: 101 }, { limit: 0 }, { action: "DROP TABLE" }]) {
      const error = await caller.auditLog.list(input).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TRPCError);
      expect(error).toMatchObject({ code: "BAD_REQUEST" });
    }
    // A cursor that decodes to nothing this listing made: the service's AppError, mapped to BAD_REQUEST.
    await expect(caller.auditLog.list({ cursor: "bm90LWEtY3Vyc29y" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "The cursor is not one this listing returned.",
    });
  });
});

describe("tRPC over HTTP (errorFormatter)", () => {
  async function get(path: string, input: unknown, session: AdminSession | null) {
    const db = await getDb();
    const url = `http://localhost/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
    const response = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: new Request(url),
      router: appRouter,
      createContext: (): TRPCContext => ({ db, session }),
    });
    return {
      status: response.status,
      body: (await response.json()) as { error?: { json: { message: string; data: Record<string, unknown> } } },
    };
  }

  it("answers with the HTTP status of the code, zod's flattened errors and { field, issue } details", async () => {
    const { owner, moderator } = await createAccountWithAdmins("alpha");

    const bad = await get("auditLog.list", { limit: 500 }, owner.session);
    expect(bad.status).toBe(400);
    expect(bad.body.error?.json.message).toBe("The input is not valid.");
    const data = bad.body.error?.json.data as {
      code: string;
      httpStatus: number;
      zodError: { fieldErrors: Record<string, string[]> };
      appError: { code: string; details: { field: string; issue: string }[] };
    };
    expect(data.code).toBe("BAD_REQUEST");
    expect(data.httpStatus).toBe(400);
    expect(data.zodError.fieldErrors.limit).toEqual(["must be at most 100"]);
    expect(data.appError).toEqual({ code: "BAD_REQUEST", details: [{ field: "limit", issue: "must be at most 100" }] });

    const forgedCursor = await get("auditLog.list", { cursor: "bm90LWEtY3Vyc29y" }, owner.session);
    expect(forgedCursor.status).toBe(400);
    expect(forgedCursor.body.error?.json.data).toMatchObject({
      appError: { code: "BAD_REQUEST", details: [{ field: "cursor", issue: "is invalid" }] },
    });

    expect((await get("auditLog.list", {}, moderator.session)).status).toBe(403);
    expect((await get("auditLog.list", {}, null)).status).toBe(401);
    expect((await get("auditLog.list", {}, owner.session)).status).toBe(200);
  });
});
