/**
 * Shifts and surges (docs/engagement.md "Shifts and surges") on a test clock: the watch job starts
 * a page's surge when comments arrive faster than moderators clear them, the create path holds or
 * slows comments on that page (the stricter of the surge and the page's own rules, which the surge
 * never overwrites), comment_rules.json says so, and the surge ends once the queue stayed cleared;
 * the off-shift surge from the schedule; every switch audited as the system with a webhook event;
 * the queue-age alert sent once per episode, also by two watches at once; the settings validated.
 */
import { describe, expect, it } from "vitest";

import { GET as RULES } from "@/app/api/v1/accounts/[account_id]/pages/[encoded_url]/comment_rules.json/route";
import { POST } from "@/app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments.json/route";
import { ownWritesHeard } from "@/server/cache/process-cache";
import { getDb } from "@/server/db";
import type { TCommentWire } from "@/server/engagement/comments.schema";
import { ZPublicPageRules, type TPublicPageRules } from "@/server/engagement/moderation/rules/page-rules.schema";
import { ensureRecurringJobs } from "@/server/jobs/engine";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";

import { openSurgesOf, watchAccount } from "./surges";

const URL_A = "https://news.example.com/politics/surging-story";
const URL_B = "https://news.example.com/sport/quiet-story";
const URL_NEW = "https://news.example.com/culture/never-commented";
const MINUTE = 60_000;
const TEXT = "A considered comment about the council budget and its effect on the libraries.";

async function setup(surge: Record<string, unknown> = {}) {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"], name: "Mo" });
  const pageA = await db.page.create({ data: { accountId: account.id, url: URL_A, headline: "Surging" } });
  const pageB = await db.page.create({ data: { accountId: account.id, url: URL_B } });
  if (Object.keys(surge).length) {
    await db.moderationSurgeSettings.create({ data: { accountId: account.id, updatedAt: new Date(), ...surge } });
  }
  const author = await db.member.create({
    data: {
      accountId: account.id,
      name: "Earlier reader",
      email: `earlier-${account.id}@example.com`,
      passwordHash: "unused",
    },
  });
  return { db, account, id: String(account.id), moderator, pageA, pageB, author };
}
type Setup = Awaited<ReturnType<typeof setup>>;

/** `n` pending comments on `pageId`, created at `at`. */
async function pending(s: Setup, pageId: number, n: number, at: Date) {
  for (let i = 0; i < n; i++) {
    await s.db.comment.create({
      data: {
        accountId: s.account.id,
        pageId,
        authorId: s.author.id,
        body: { ops: [{ insert: `Waiting ${i}\n` }] },
        bodyDigest: `p-${i}-${Math.random()}`,
        isPublished: false,
        createdAt: at,
      },
    });
  }
}

/** A moderator approves every pending comment on the page at `at`. */
async function clear(s: Setup, pageId: number, at: Date) {
  await s.db.comment.updateMany({
    where: { pageId, isPublished: false, moderationState: "UNDECIDED" },
    data: { isPublished: true, moderationState: "APPROVED", decidedAt: at, decidedById: s.moderator.user.id },
  });
}

let readers = 0;
let posts = 0;
async function post(s: Setup, url: string, reader = `reader-${++readers}`) {
  const jwt = await readerJwt({ id: reader, name: "Reader" });
  return call(
    POST,
    "POST",
    "/x",
    { account_id: s.id, encoded_url: pageId(url) },
    // A text of its own each time: a repeat of the comment just sent is answered with it, never slowed.
    { comment: { body: { ops: [{ insert: `${TEXT} (${reader}, ${++posts})\n` }] } }, jwt },
  );
}

async function created(s: Setup, url: string, reader?: string): Promise<TCommentWire> {
  const res = await post(s, url, reader);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return ((await res.json()) as { comment: TCommentWire }).comment;
}

async function rules(s: Setup, url: string): Promise<TPublicPageRules> {
  const res = await call(RULES, "GET", "/x", { account_id: s.id, encoded_url: pageId(url) });
  expect(res.status).toBe(200);
  return ZPublicPageRules.parse(await res.json());
}

/** One pass of the job runner at `at`: the recurring watch scheduled (as the runner does at start) and every due job run. */
async function runWatch(s: Setup, at: Date) {
  await ensureRecurringJobs(s.db, at);
  await runJobsNow(s.db, testJobDeps({ clock: () => at }));
}

async function watch(s: Setup, at: Date) {
  return watchAccount(s.db, { accountId: s.account.id, now: at, appUrl: "https://masthead.example" });
}

describe("queue surges", () => {
  it("starts on a page whose comments outrun the moderators, holds its new comments, and ends once the queue stayed cleared", async () => {
    const s = await setup({ surgeAction: "PRE_MODERATION", surgePendingMin: 3, surgeCalmMinutes: 10 });
    const t0 = new Date();
    await pending(s, s.pageA.id, 3, new Date(t0.getTime() - 2 * MINUTE));
    await pending(s, s.pageB.id, 2, new Date(t0.getTime() - 2 * MINUTE));
    // Before the watch: open.
    expect(await rules(s, URL_A)).toEqual({ comment_mode: "open", slow_mode_seconds: 0, surge: null });

    // The recurring job runs (the engine queues it at the first pass) on the test clock.
    await runWatch(s, t0);
    const surges = await s.db.pageSurge.findMany();
    expect(surges).toHaveLength(1);
    expect(surges[0]).toMatchObject({
      pageId: s.pageA.id,
      reason: "QUEUE",
      action: "PRE_MODERATION",
      pendingAtStart: 3,
      startedAt: t0,
      endedAt: null,
    });
    // Recorded: audited as the system, a webhook event; the page's own rules untouched.
    const audit = await s.db.auditLog.findFirstOrThrow({ where: { action: "page_surge.start" } });
    expect(audit).toMatchObject({
      accountId: s.account.id,
      actorId: null,
      targetType: "page",
      targetId: String(s.pageA.id),
    });
    expect(audit.metadata).toMatchObject({
      system: "surge watch",
      reason: "queue",
      action: "pre_moderation",
      pending: 3,
    });
    const event = await s.db.webhookEvent.findFirstOrThrow({ where: { name: "page.surge_started" } });
    expect(event.payload).toMatchObject({ surge: { page_id: s.pageA.id, page_url: URL_A, reason: "queue" } });
    expect(await s.db.page.findUniqueOrThrow({ where: { id: s.pageA.id } })).toMatchObject({
      commentMode: "OPEN",
      slowModeSeconds: 0,
    });

    // The widget is told, and the create path holds; the quiet page publishes.
    const stated = await rules(s, URL_A);
    expect(stated).toMatchObject({
      comment_mode: "pre_moderation",
      slow_mode_seconds: 0,
      surge: { reason: "queue", action: "pre_moderation", slow_mode_seconds: 0, since: t0.toISOString() },
    });
    expect((await rules(s, URL_B)).surge).toBeNull();
    const held = await created(s, URL_A);
    expect(held.is_published).toBe(false);
    // Its reason names the surge, not the page's own rules.
    expect((await s.db.comment.findUniqueOrThrow({ where: { id: held.id } })).moderationReasons).toEqual([
      "held.surge",
    ]);
    expect((await created(s, URL_B)).is_published).toBe(true);

    // A second watch in the same minute changes nothing.
    expect(await watch(s, new Date(t0.getTime() + 30_000))).toEqual({ started: 0, ended: 0, alertsSent: 0 });

    // The moderators clear the queue: the calm starts, and the surge ends once it lasted.
    await clear(s, s.pageA.id, new Date(t0.getTime() + MINUTE));
    expect(await watch(s, new Date(t0.getTime() + 2 * MINUTE))).toMatchObject({ ended: 0 });
    expect((await s.db.pageSurge.findFirstOrThrow()).calmSince).toEqual(new Date(t0.getTime() + 2 * MINUTE));
    expect(await watch(s, new Date(t0.getTime() + 11 * MINUTE))).toMatchObject({ ended: 0 });
    expect(await watch(s, new Date(t0.getTime() + 12 * MINUTE))).toMatchObject({ ended: 1 });
    expect((await s.db.pageSurge.findFirstOrThrow()).endedAt).toEqual(new Date(t0.getTime() + 12 * MINUTE));
    expect(await s.db.auditLog.count({ where: { action: "page_surge.end" } })).toBe(1);
    expect(await s.db.webhookEvent.count({ where: { name: "page.surge_ended" } })).toBe(1);
    expect(await rules(s, URL_A)).toEqual({ comment_mode: "open", slow_mode_seconds: 0, surge: null });
    expect((await created(s, URL_A)).is_published).toBe(true);
  });

  it("two watches at once start a surge once, and end it once", async () => {
    const s = await setup({ surgeAction: "PRE_MODERATION", surgePendingMin: 2, surgeCalmMinutes: 1 });
    const t0 = new Date();
    await pending(s, s.pageA.id, 2, new Date(t0.getTime() - MINUTE));
    await pending(s, s.pageB.id, 2, new Date(t0.getTime() - MINUTE));
    const started = await Promise.all([watch(s, t0), watch(s, t0)]);
    expect(started.map((r) => r.started).reduce((a, b) => a + b)).toBe(2);
    expect(await s.db.pageSurge.count()).toBe(2);
    expect(await s.db.auditLog.count({ where: { action: "page_surge.start" } })).toBe(2);
    expect(await s.db.webhookEvent.count({ where: { name: "page.surge_started" } })).toBe(2);
    await clear(s, s.pageA.id, t0);
    await watch(s, new Date(t0.getTime() + MINUTE));
    const ended = await Promise.all([
      watch(s, new Date(t0.getTime() + 3 * MINUTE)),
      watch(s, new Date(t0.getTime() + 3 * MINUTE)),
    ]);
    expect(ended.map((r) => r.ended).reduce((a, b) => a + b)).toBe(1);
    expect(await s.db.auditLog.count({ where: { action: "page_surge.end" } })).toBe(1);
    expect(await s.db.pageSurge.count({ where: { endedAt: null } })).toBe(1);
  });

  it("a queue back over the threshold before the calm lasted keeps the surge", async () => {
    const s = await setup({ surgeAction: "PRE_MODERATION", surgePendingMin: 2, surgeCalmMinutes: 5 });
    const t0 = new Date();
    await pending(s, s.pageA.id, 2, new Date(t0.getTime() - MINUTE));
    expect(await watch(s, t0)).toMatchObject({ started: 1 });
    await clear(s, s.pageA.id, t0);
    await watch(s, new Date(t0.getTime() + MINUTE)); // calm since +1
    await pending(s, s.pageA.id, 2, new Date(t0.getTime() + 2 * MINUTE));
    await watch(s, new Date(t0.getTime() + 3 * MINUTE)); // unsettled
    expect((await s.db.pageSurge.findFirstOrThrow()).calmSince).toBeNull();
    expect(await watch(s, new Date(t0.getTime() + 7 * MINUTE))).toMatchObject({ ended: 0 });
  });

  it("slow mode as the surge's action: a reader's second comment waits; the page's own longer slow mode and a closed page stay", async () => {
    const s = await setup({
      surgeAction: "SLOW_MODE",
      surgeSlowModeSeconds: 120,
      surgePendingMin: 2,
    });
    const t0 = new Date();
    await pending(s, s.pageA.id, 2, new Date(t0.getTime() - MINUTE));
    await pending(s, s.pageB.id, 2, new Date(t0.getTime() - MINUTE));
    // A moderator closed page B before the surge: the surge never opens it.
    await s.db.page.update({ where: { id: s.pageB.id }, data: { commentMode: "CLOSED" } });
    await watch(s, t0);
    expect(await s.db.pageSurge.count({ where: { endedAt: null } })).toBe(2);
    expect(await rules(s, URL_A)).toMatchObject({
      comment_mode: "open",
      slow_mode_seconds: 120,
      surge: { reason: "queue", action: "slow_mode", slow_mode_seconds: 120 },
    });
    expect((await created(s, URL_A, "slow-reader")).is_published).toBe(true);
    const again = await post(s, URL_A, "slow-reader");
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("Retry-After"))).toBeGreaterThan(100);
    expect((await rules(s, URL_B)).comment_mode).toBe("closed");
    expect((await post(s, URL_B)).status).toBe(403);
    expect((await s.db.page.findUniqueOrThrow({ where: { id: s.pageB.id } })).commentMode).toBe("CLOSED");
  });

  it("turning surges off ends the open ones at once", async () => {
    const s = await setup({ surgeAction: "PRE_MODERATION", surgePendingMin: 1 });
    const t0 = new Date();
    await pending(s, s.pageA.id, 1, new Date(t0.getTime() - MINUTE));
    await watch(s, t0);
    const result = await s.moderator.caller.moderationSurges.updateSettings({ surgeAction: "off" });
    expect(result.changed).toEqual(["surgeAction"]);
    // Saving queued a watch of the account: it runs now.
    await runWatch(s, new Date(t0.getTime() + 1000));
    expect(await s.db.pageSurge.count({ where: { endedAt: null } })).toBe(0);
    expect((await rules(s, URL_A)).surge).toBeNull();
  });
});

describe("shifts", () => {
  it("nobody on shift: every page of the account is held, a page not yet made too; a shift starting ends it", async () => {
    const s = await setup();
    const t0 = new Date();
    const weekday = ((t0.getUTCDay() + 6) % 7) + 1; // Monday 1
    const otherDay = (weekday % 7) + 1;
    // Shifts only tomorrow: off shift now.
    await s.moderator.caller.moderationSurges.updateSettings({
      timeZone: "UTC",
      shifts: [{ day: otherDay, from: "00:00", to: "24:00" }],
      surgeAction: "pre_moderation",
    });
    const settings = await s.moderator.caller.moderationSurges.surges({});
    expect(settings.onShift).toBe(false);
    // Saving queued a watch of the account, due now.
    await runWatch(s, new Date());
    const surge = await s.db.pageSurge.findFirstOrThrow({ where: { endedAt: null } });
    expect(surge).toMatchObject({ pageId: null, reason: "OFF_SHIFT", action: "PRE_MODERATION" });
    expect(await rules(s, URL_NEW)).toMatchObject({
      comment_mode: "pre_moderation",
      surge: { reason: "off_shift", action: "pre_moderation" },
    });
    expect((await created(s, URL_NEW)).is_published).toBe(false);
    expect((await created(s, URL_B)).is_published).toBe(false);
    const listed = await s.moderator.caller.moderationSurges.surges({});
    expect(listed.surges).toMatchObject([{ pageId: null, url: null, reason: "off_shift" }]);
    const audit = await s.db.auditLog.findFirstOrThrow({ where: { action: "page_surge.start" } });
    expect(audit).toMatchObject({ targetType: "account", targetId: String(s.account.id) });

    // Today is on the schedule now: the shift has started, the surge ends.
    await s.moderator.caller.moderationSurges.updateSettings({
      shifts: [
        { day: otherDay, from: "00:00", to: "24:00" },
        { day: weekday, from: "00:00", to: "24:00" },
      ],
    });
    await runWatch(s, new Date());
    expect(await s.db.pageSurge.count({ where: { endedAt: null } })).toBe(0);
    expect((await created(s, URL_NEW)).is_published).toBe(true);
  });

  it("validates the settings at the edge (400, nothing written) and lets only moderators in", async () => {
    const s = await setup();
    const bad = [
      { timeZone: "Mars/Olympus" },
      { shifts: [{ day: 9, from: "09:00", to: "17:00" }] },
      { shifts: [{ day: 1, from: "9am", to: "17:00" }] },
      { surgePendingMin: 0 },
      { alertAfterMinutes: -5 },
      { surgeAction: "panic" },
      { unknown: true },
    ];
    for (const input of bad) {
      expect(await trpcCodeOf(s.moderator.caller.moderationSurges.updateSettings(input as never))).toBe("BAD_REQUEST");
    }
    expect(await s.db.moderationSurgeSettings.count()).toBe(0);
    expect(await s.db.auditLog.count({ where: { action: "moderation_surges.update" } })).toBe(0);
    const editor = await createTestStaff(s.db, { account: s.account.id, roles: ["EDITOR"] });
    expect(await trpcCodeOf(editor.caller.moderationSurges.settings())).toBe("FORBIDDEN");
    expect(await trpcCodeOf(editor.caller.moderationSurges.updateSettings({ surgeAction: "off" }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(s.moderator.caller.moderationSurges.stats({ days: 40 }))).toBe("BAD_REQUEST");

    // A good save is audited with what changed; saving it again writes nothing.
    const saved = await s.moderator.caller.moderationSurges.updateSettings({
      timeZone: "Europe/Madrid",
      alertAfterMinutes: 30,
    });
    expect(saved.changed.sort()).toEqual(["alertAfterMinutes", "timeZone"]);
    expect(saved.settings).toMatchObject({ timeZone: "Europe/Madrid", alertAfterMinutes: 30, surgeAction: "off" });
    const again = await s.moderator.caller.moderationSurges.updateSettings({ timeZone: "Europe/Madrid" });
    expect(again.changed).toEqual([]);
    expect(await s.db.auditLog.count({ where: { action: "moderation_surges.update" } })).toBe(1);
  });
});

describe("queue-age alert", () => {
  async function alerting() {
    const s = await setup({ alertAfterMinutes: 30 });
    await s.moderator.caller.moderationSurges.setAlertSubscription({ subscribed: true });
    // Another moderator who did not ask, and an editor who asked once but does not moderate.
    await createTestStaff(s.db, { account: s.account.id, roles: ["MODERATOR"] });
    const editor = await createTestStaff(s.db, { account: s.account.id, roles: ["EDITOR"] });
    await s.db.moderationAlertSubscriber.create({ data: { adminUserId: editor.user.id, accountId: s.account.id } });
    return s;
  }

  it("sends one e-mail per episode to the staff who asked, even from two watches at once", async () => {
    const s = await alerting();
    const t0 = new Date();
    await pending(s, s.pageA.id, 1, new Date(t0.getTime() - 20 * MINUTE));
    expect(await watch(s, t0)).toMatchObject({ alertsSent: 0 });

    // 31 minutes old: two watches at once (two instances, or a retried job beside the next one).
    await pending(s, s.pageB.id, 2, new Date(t0.getTime() - 31 * MINUTE));
    const results = await Promise.all([watch(s, t0), watch(s, t0)]);
    expect(results.map((r) => r.alertsSent).sort()).toEqual([0, 1]);
    expect(await s.db.moderationAlertEpisode.count()).toBe(1);
    const mails = await s.db.outgoingEmail.findMany({ where: { kind: "moderation.queue_alert" } });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(s.moderator.user.email);
    expect(mails[0]!.text).toContain("3 comments are waiting for a moderator");
    expect(mails[0]!.text).toContain("The oldest has waited 31 min");
    expect(mails[0]!.text).toContain("https://masthead.example/admin/engagement/moderation?order=oldest");
    // Its sending is queued with it.
    expect(await s.db.job.count({ where: { name: "mail.send" } })).toBe(1);

    // Every minute after: still the same episode, nothing more.
    await watch(s, new Date(t0.getTime() + MINUTE));
    await watch(s, new Date(t0.getTime() + 5 * MINUTE));
    expect(await s.db.outgoingEmail.count({ where: { kind: "moderation.queue_alert" } })).toBe(1);

    // Cleared below the age: the episode ends; a new old comment starts a new one, one more mail.
    await clear(s, s.pageB.id, new Date(t0.getTime() + 6 * MINUTE));
    await watch(s, new Date(t0.getTime() + 6 * MINUTE));
    expect((await s.db.moderationAlertEpisode.findFirstOrThrow()).endedAt).toEqual(new Date(t0.getTime() + 6 * MINUTE));
    // The page-A comment (20 minutes old at t0) passes 30 minutes at t0 + 10.
    expect(await watch(s, new Date(t0.getTime() + 11 * MINUTE))).toMatchObject({ alertsSent: 1 });
    expect(await s.db.moderationAlertEpisode.count()).toBe(2);
    expect(await s.db.outgoingEmail.count({ where: { kind: "moderation.queue_alert" } })).toBe(2);
    expect(await s.db.auditLog.count({ where: { action: "moderation_alert.send" } })).toBe(2);
  });

  it("is off by default, and a moderator who stops it gets nothing", async () => {
    const s = await setup();
    await s.moderator.caller.moderationSurges.setAlertSubscription({ subscribed: true });
    await pending(s, s.pageA.id, 1, new Date(Date.now() - 600 * MINUTE));
    await watch(s, new Date());
    expect(await s.db.moderationAlertEpisode.count()).toBe(0);

    const on = await alerting();
    expect((await on.moderator.caller.moderationSurges.settings()).alertSubscribed).toBe(true);
    await on.moderator.caller.moderationSurges.setAlertSubscription({ subscribed: false });
    expect((await on.moderator.caller.moderationSurges.settings()).alertSubscribed).toBe(false);
    await pending(on, on.pageA.id, 1, new Date(Date.now() - 60 * MINUTE));
    await watch(on, new Date());
    expect(await on.db.moderationAlertEpisode.count()).toBe(1);
    expect(await on.db.outgoingEmail.count({ where: { kind: "moderation.queue_alert" } })).toBe(0);
    expect(
      await on.db.auditLog.count({
        where: { action: { in: ["moderation_alert.subscribe", "moderation_alert.unsubscribe"] } },
      }),
    ).toBe(3);
  });
});

describe("open surges in memory", () => {
  it("are read once, and dropped by any write of page_surges (a write by hand too) when it commits", async () => {
    const s = await setup();
    await ownWritesHeard(s.db);
    expect(await openSurgesOf(s.db, s.account.id)).toEqual([]);
    // By hand, outside the watch: the table's trigger announces it.
    await s.db.$executeRaw`
      INSERT INTO page_surges (account_id, page_id, reason, action, slow_mode_seconds, started_at)
      VALUES (${s.account.id}, ${s.pageA.id}, 'queue', 'slow_mode', 30, now())`;
    await ownWritesHeard(s.db);
    expect(await openSurgesOf(s.db, s.account.id)).toMatchObject([
      { pageId: s.pageA.id, reason: "queue", action: "slow_mode", slowModeSeconds: 30 },
    ]);
    expect(await rules(s, URL_A)).toMatchObject({ comment_mode: "open", slow_mode_seconds: 30 });
    await s.db.$executeRaw`UPDATE page_surges SET ended_at = now() WHERE account_id = ${s.account.id}`;
    await ownWritesHeard(s.db);
    expect(await openSurgesOf(s.db, s.account.id)).toEqual([]);
    expect((await rules(s, URL_A)).surge).toBeNull();
  });
});
