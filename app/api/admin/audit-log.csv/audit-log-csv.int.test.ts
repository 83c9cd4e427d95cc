/**
 * GET /api/admin/audit-log.csv on PGlite and PostgreSQL: every entry the filters keep, across
 * pages, newest first, times in UTC, text a spreadsheet would run defused; owners only; bad
 * filters a 400.
 */
import { describe, expect, it, vi } from "vitest";

import type { AdminSession } from "@/server/auth/admin-session";
import { getDb } from "@/server/db";
import { createTestTeam } from "@/server/testing/staff";

import { GET } from "./route";

const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

const download = (query = "") =>
  GET(new Request(`http://localhost/api/admin/audit-log.csv${query}`), { params: Promise.resolve({}) });

describe("the audit log as CSV", () => {
  it("downloads every entry the filters keep, and only the owner's account's", async () => {
    const db = await getDb();
    const { owner, moderator } = await createTestTeam(db, "alpha", { owner: ["OWNER"], moderator: ["MODERATOR"] });
    const other = await createTestTeam(db, "beta", { owner: ["OWNER"] });
    const accountId = owner.account.id;
    const start = Date.parse("2026-11-22T12:00:00Z");
    for (let i = 0; i < 130; i++)
      await db.auditLog.create({
        data: {
          accountId,
          actorId: owner.user.id,
          action: i % 2 ? "story.update" : "story.publish",
          targetType: "story",
          targetId: String(i),
          createdAt: new Date(start - i * 1000),
          metadata: i === 0 ? { headline: "=HYPERLINK(1)", changed: ["headline"] } : {},
        },
      });
    await db.auditLog.create({ data: { accountId: other.owner.account.id, action: "story.update" } });

    session.current = owner.session;
    const all = await download();
    expect(all.status).toBe(200);
    expect(all.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await all.text())
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter(Boolean);
    expect(lines[0]).toBe("time_utc,action,by_name,by_email,target_type,target_id,ip,details");
    expect(lines).toHaveLength(131);
    expect(lines[1]).toBe(
      `2026-11-22T12:00:00.000Z,story.publish,owner,owner@alpha.test,story,0,,"{""changed"":[""headline""],""headline"":""=HYPERLINK(1)""}"`,
    );

    const updates = await download("?action=story.update&from=2026-11-22&to=2026-11-22");
    const updateLines = (await updates.text()).split("\r\n").filter(Boolean);
    expect(updateLines).toHaveLength(66);
    expect(updateLines.slice(1).every((line) => line.includes(",story.update,"))).toBe(true);

    expect((await download("?from=yesterday")).status).toBe(400);
    expect((await download("?from=2026-11-23&to=2026-11-22")).status).toBe(400);
    session.current = moderator.session;
    expect((await download()).status).toBe(403);
    session.current = null;
    expect((await download()).status).toBe(401);
  });
});
