/**
 * The moderators' figures (moderation-stats.ts; docs/engagement.md "Moderation figures"): queue
 * age, time to decision, decisions per moderator per day and per week in the account's time
 * zone, counted from the decisions moderators make through the queue (audited), scoped to the
 * account.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";

import { addDays, getModerationStats, localDate, periodsOf } from "./moderation-stats";

const MINUTE = 60_000;

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const ana = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"], name: "Ana" });
  const bo = await createTestStaff(db, { account: account.id, roles: ["OWNER"], name: "Bo" });
  const page = await db.page.create({ data: { accountId: account.id, url: "https://news.example.com/a" } });
  const author = await db.member.create({
    data: { accountId: account.id, name: "Reader", email: `r-${account.id}@example.com`, passwordHash: "unused" },
  });
  return { db, account, ana, bo, page, author };
}
type Setup = Awaited<ReturnType<typeof setup>>;

async function held(s: Setup, createdAt: Date) {
  return s.db.comment.create({
    data: {
      accountId: s.account.id,
      pageId: s.page.id,
      authorId: s.author.id,
      body: { ops: [{ insert: "Held\n" }] },
      bodyDigest: `s-${Math.random()}`,
      isPublished: false,
      createdAt,
    },
  });
}

describe("moderation figures", () => {
  it("queue age, time to decision and decisions per moderator, from the queue's own decisions", async () => {
    const s = await setup();
    const start = Date.now();
    // Three comments decided through the queue: created 10, 20 and 60 minutes before their decision.
    const decided = [
      await held(s, new Date(start - 10 * MINUTE)),
      await held(s, new Date(start - 20 * MINUTE)),
      await held(s, new Date(start - 60 * MINUTE)),
    ];
    await s.ana.caller.moderation.act({ commentId: decided[0]!.id, action: "approve" });
    await s.ana.caller.moderation.act({ commentId: decided[1]!.id, action: "reject" });
    const approved = await s.bo.caller.moderation.act({ commentId: decided[2]!.id, action: "approve" });
    // An undo is no decision of its own.
    await s.bo.caller.moderation.undo({ commentId: decided[2]!.id, version: approved.comment.version });
    // Still pending: 5, 15 and 40 minutes old (median 15).
    const now = new Date();
    await held(s, new Date(now.getTime() - 5 * MINUTE));
    await held(s, new Date(now.getTime() - 15 * MINUTE));
    await held(s, new Date(now.getTime() - 40 * MINUTE));
    // Another account's queue counts for nothing here.
    const other = await setup();
    await held(other, new Date(now.getTime() - 500 * MINUTE));

    const stats = await getModerationStats(s.db, { actor: actorOf(s.ana), now });
    expect(stats.timeZone).toBe("UTC");
    // The undone one is pending again: four pending, the oldest the undone comment (60+ minutes).
    expect(stats.queue.pending).toBe(4);
    expect(stats.queue.oldestAt).toEqual(decided[2]!.createdAt);
    expect(stats.queue.oldestAgeSeconds).toBeGreaterThanOrEqual(60 * 60);
    expect(stats.queue.medianAgeSeconds).toBeGreaterThanOrEqual(Math.round(27.5 * 60) - 1);
    expect(stats.queue.medianAgeSeconds).toBeLessThanOrEqual(Math.round(27.5 * 60) + 60);
    // Decided: two (the undone one has no decider now); 10 and 20 minutes → median 15, p90 19.
    expect(stats.timeToDecision).toMatchObject({ days: 7, decided: 2 });
    expect(stats.timeToDecision.medianSeconds).toBeGreaterThanOrEqual(15 * 60);
    expect(stats.timeToDecision.medianSeconds).toBeLessThan(15 * 60 + 60);
    expect(stats.timeToDecision.p90Seconds).toBeGreaterThanOrEqual(19 * 60);
    expect(stats.timeToDecision.p90Seconds).toBeLessThan(19 * 60 + 60);

    const today = localDate(now, "UTC");
    expect(stats.perDay.periods).toHaveLength(7);
    expect(stats.perDay.periods.at(-1)).toBe(today);
    expect(stats.perDay.moderators).toEqual([
      { moderatorId: s.ana.user.id, name: "Ana", counts: [0, 0, 0, 0, 0, 0, 2], total: 2 },
      { moderatorId: s.bo.user.id, name: "Bo", counts: [0, 0, 0, 0, 0, 0, 1], total: 1 },
    ]);
    expect(stats.perWeek.periods).toHaveLength(8);
    expect(stats.perWeek.moderators.map((m) => [m.name, m.counts.at(-1), m.total])).toEqual([
      ["Ana", 2, 2],
      ["Bo", 1, 1],
    ]);

    // Through tRPC, with its input checked.
    const viaTrpc = await s.ana.caller.moderationSurges.stats({ days: 3, weeks: 2 });
    expect(viaTrpc.perDay.periods).toHaveLength(3);
    expect(viaTrpc.perWeek.periods).toHaveLength(2);
  });

  it("counts days and weeks on the account's calendar (Settings → Site), not the shifts' zone", async () => {
    const s = await setup();
    await s.db.account.update({ where: { id: s.account.id }, data: { timeZone: "Pacific/Auckland" } });
    // The shifts' zone is another: the figures' days are still the account's, like every time shown.
    await s.ana.caller.moderationSurges.updateSettings({ timeZone: "America/Los_Angeles" });
    const comment = await held(s, new Date());
    await s.ana.caller.moderation.act({ commentId: comment.id, action: "approve" });
    const now = new Date();
    const stats = await s.ana.caller.moderationSurges.stats({});
    expect(stats.timeZone).toBe("Pacific/Auckland");
    expect(stats.perDay.periods.at(-1)).toBe(localDate(now, "Pacific/Auckland"));
    expect(stats.perDay.moderators[0]?.counts.at(-1)).toBe(1);
  });

  it("names the periods: the last days and the Mondays of the last weeks", () => {
    // Thursday 26 Nov 2026, 23:30 UTC is already Friday 27 in Auckland.
    const now = new Date("2026-11-26T23:30:00Z");
    expect(periodsOf(now, "UTC", 3, 2)).toEqual({
      days: ["2026-11-24", "2026-11-25", "2026-11-26"],
      weeks: ["2026-11-16", "2026-11-23"],
    });
    expect(periodsOf(now, "Pacific/Auckland", 1, 1)).toEqual({ days: ["2026-11-27"], weeks: ["2026-11-23"] });
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });
});

function actorOf(staff: Awaited<ReturnType<typeof createTestStaff>>) {
  return { kind: "staff" as const, id: staff.user.id, accountId: staff.account.id, roles: staff.user.roles };
}
