/**
 * The retention job (./retention.ts) and Settings → Privacy (./privacy-settings.ts, tRPC privacy.*):
 * what is past each period goes (IP addresses cleared, delivery logs and deleted comments removed)
 * and nothing younger, nothing pending, no audit entry, no other account's rows; run twice and
 * concurrently it removes each row once; the job's pass goes on when a batch limit stops it; bad
 * settings are refused with nothing saved, saves are audited. Both databases.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { runJobsNow, testJobDeps } from "../../testing/jobs";
import { createTestStaff, trpcCodeOf } from "../../testing/staff";
import { applyRetention, retentionPass } from "./retention";

const NOW = new Date("2026-11-29T12:00:00Z");
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000);

/** One of everything the job looks at, old (past every default period) and young, in `accountId`. */
async function seed(db: Db, accountId: number, tag: string) {
  const user = await db.adminUser.create({
    data: { accountId, email: `${tag}@staff.test`, name: "Staff", roles: ["OWNER"], passwordHash: "-" },
  });
  for (const [age, name] of [
    [100, "old"],
    [10, "young"],
  ] as const) {
    await db.auditLog.create({
      data: { accountId, action: `test.${name}`, ip: "203.0.113.9", createdAt: daysAgo(age) },
    });
    await db.adminSession.create({
      data: { userId: user.id, ip: "203.0.113.9", createdAt: daysAgo(age), expiresAt: daysAgo(age - 1) },
    });
    await db.webhookEvent.create({
      data: {
        accountId,
        kind: "CONTENT",
        name: "story-publish",
        payload: {},
        occurredAt: daysAgo(age),
        createdAt: daysAgo(age),
      },
    });
    await db.outgoingEmail.create({
      data: {
        accountId,
        to: "a@example.com",
        subject: name,
        text: "x",
        kind: "test",
        status: "SENT",
        createdAt: daysAgo(age),
      },
    });
    await db.gatewayEvent.create({
      data: {
        accountId,
        provider: "test",
        externalEventId: `${tag}-${name}`,
        eventType: "x",
        payload: {},
        status: "processed",
        createdAt: daysAgo(age),
      },
    });
    await db.job.create({
      data: { name: "test.job", accountId, status: "SUCCEEDED", runAt: daysAgo(age), completedAt: daysAgo(age) },
    });
  }
  // Never removed: a pending mail and an unhandled gateway event, however old.
  await db.outgoingEmail.create({
    data: {
      accountId,
      to: "a@example.com",
      subject: "pending",
      text: "x",
      kind: "test",
      status: "PENDING",
      createdAt: daysAgo(100),
    },
  });
  await db.gatewayEvent.create({
    data: {
      accountId,
      provider: "test",
      externalEventId: `${tag}-received`,
      eventType: "x",
      payload: {},
      createdAt: daysAgo(100),
    },
  });
  const page = await db.page.create({ data: { accountId, url: `https://${tag}.example.com/a` } });
  const author = await db.member.create({
    data: { accountId, name: "Ada", email: `${tag}@example.com`, passwordHash: "-" },
  });
  const comment = (data: { deletedAt?: Date; parentCommentId?: number; createdAt?: Date }) =>
    db.comment.create({
      data: {
        accountId,
        pageId: page.id,
        authorId: author.id,
        body: { ops: [{ insert: "hi\n" }] },
        bodyDigest: "d",
        ...data,
      },
    });
  const oldDeleted = await comment({ deletedAt: daysAgo(40), createdAt: daysAgo(50) });
  const withReply = await comment({ deletedAt: daysAgo(40), createdAt: daysAgo(50) });
  await comment({ parentCommentId: withReply.id });
  const youngDeleted = await comment({ deletedAt: daysAgo(10) });
  const live = await comment({ createdAt: daysAgo(400) });
  return { oldDeleted, withReply, youngDeleted, live };
}

async function state(db: Db, accountId: number) {
  return {
    auditIps: await db.auditLog.count({ where: { accountId, ip: { not: null } } }),
    audits: await db.auditLog.count({ where: { accountId } }),
    sessionIps: await db.adminSession.count({ where: { user: { accountId }, ip: { not: null } } }),
    events: await db.webhookEvent.count({ where: { accountId } }),
    mails: await db.outgoingEmail.count({ where: { accountId } }),
    gateway: await db.gatewayEvent.count({ where: { accountId } }),
    jobs: await db.job.count({ where: { accountId } }),
    comments: (await db.comment.findMany({ where: { accountId }, select: { id: true }, orderBy: { id: "asc" } })).map(
      (c) => c.id,
    ),
  };
}

describe("retention", () => {
  it("removes what is past each period and nothing younger, once, run twice and run concurrently", async () => {
    const db = await getDb();
    const staff = await createTestStaff(db, { roles: ["OWNER"] });
    const other = await createTestStaff(db, { roles: ["OWNER"] });
    const accountId = staff.account.id;
    const kept = await seed(db, accountId, "a");
    await seed(db, other.account.id, "b");
    const otherBefore = await state(db, other.account.id);

    const args = { accountId, now: NOW, deploymentLogDays: 3650, batchSize: 1 };
    const [first, second] = await Promise.all([applyRetention(db, args), applyRetention(db, args)]);
    const removed = Object.fromEntries(
      Object.keys(first.removed).map((k) => [k, first.removed[k as "jobs"] + second.removed[k as "jobs"]]),
    );
    expect(removed).toEqual({
      auditIps: 1,
      sessionIps: 1,
      webhookEvents: 1,
      mails: 1,
      gatewayEvents: 1,
      jobs: 1,
      deletedComments: 1,
    });
    const after = await state(db, accountId);
    expect(after).toEqual({
      auditIps: 1,
      audits: 2,
      sessionIps: 1,
      events: 1,
      mails: 2,
      gateway: 2,
      jobs: 1,
      comments: [kept.withReply.id, kept.withReply.id + 1, kept.youngDeleted.id, kept.live.id],
    });
    expect(after.comments).not.toContain(kept.oldDeleted.id);
    // Again: nothing left to remove.
    expect(Object.values((await applyRetention(db, args)).removed).every((n) => n === 0)).toBe(true);
    expect(await state(db, accountId)).toEqual(after);
    expect(await state(db, other.account.id)).toEqual(otherBefore);
  });

  it("follows the account's periods, and the job's passes go on past their batch limit", async () => {
    const db = await getDb();
    const staff = await createTestStaff(db, { roles: ["OWNER"] });
    const accountId = staff.account.id;
    await seed(db, accountId, "c");
    await staff.caller.privacy.updateSettings({
      ipRetentionDays: 5,
      logRetentionDays: 200,
      deletedCommentRetentionDays: 5,
      erasedReaderComments: "remove",
    });
    const pass = await retentionPass(db, { now: NOW, deploymentLogDays: 3650, batchSize: 1 });
    expect(pass.more).toBe(true);
    expect(pass.removed.get(accountId)).toMatchObject({
      auditIps: 1,
      sessionIps: 1,
      webhookEvents: 0,
      deletedComments: 1,
    });
    let run = await db.retentionRun.findUniqueOrThrow({ where: { accountId } });
    expect(run.complete).toBe(false);
    const next = await retentionPass(db, { now: NOW, deploymentLogDays: 3650, batchSize: 1 });
    expect(next.removed.get(accountId)).toMatchObject({ auditIps: 1, sessionIps: 1, deletedComments: 1 });
    run = await db.retentionRun.findUniqueOrThrow({ where: { accountId } });
    expect(run.removed).toMatchObject({ auditIps: 2, sessionIps: 2, deletedComments: 2 });
    expect(await db.auditLog.count({ where: { accountId, ip: { not: null } } })).toBe(0);
    // The deployment's shorter WEBHOOK_RETENTION_DAYS wins over the account's 200 days.
    const capped = await applyRetention(db, { accountId, now: NOW, deploymentLogDays: 30 });
    expect(capped.removed).toMatchObject({ webhookEvents: 1, mails: 1, gatewayEvents: 1, jobs: 1 });
  });

  it("runs as the privacy.retention job and shows its last run on the settings page", async () => {
    const db = await getDb();
    const staff = await createTestStaff(db, { roles: ["OWNER"] });
    await seed(db, staff.account.id, "d");
    await db.job.create({ data: { name: "privacy.retention", runAt: NOW, key: "test-retention" } });
    await runJobsNow(db, testJobDeps({ clock: () => NOW, webhookRetentionDays: 3650 }));
    const view = await staff.caller.privacy.settings();
    expect(view.saved).toBe(false);
    expect(view.settings).toEqual(view.defaults);
    expect(view.lastRun).toMatchObject({ complete: true, removed: { auditIps: 1, mails: 1, deletedComments: 1 } });
  });

  it("refuses bad settings with nothing saved, lets only owners in, and audits a save", async () => {
    const db = await getDb();
    const owner = await createTestStaff(db, { roles: ["OWNER"] });
    const revenue = await createTestStaff(db, { account: owner.account.id, roles: ["REVENUE"] });
    const good = {
      ipRetentionDays: 30,
      logRetentionDays: 90,
      deletedCommentRetentionDays: 30,
      erasedReaderComments: "keep" as const,
    };
    for (const bad of [
      { ...good, ipRetentionDays: 0 },
      { ...good, logRetentionDays: 3651 },
      { ...good, deletedCommentRetentionDays: 1.5 },
      { ...good, erasedReaderComments: "shred" },
      { ...good, extra: true },
    ]) {
      expect(await trpcCodeOf(owner.caller.privacy.updateSettings(bad as typeof good))).toBe("BAD_REQUEST");
    }
    expect(await trpcCodeOf(revenue.caller.privacy.updateSettings(good))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(revenue.caller.privacy.settings())).toBe("FORBIDDEN");
    expect(await db.privacySettings.count()).toBe(0);
    expect(await db.auditLog.count({ where: { action: "privacy_settings.update" } })).toBe(0);

    const saved = await owner.caller.privacy.updateSettings({
      ...good,
      ipRetentionDays: 7,
      erasedReaderComments: "remove",
    });
    expect(saved).toMatchObject({ saved: true, settings: { ipRetentionDays: 7, erasedReaderComments: "remove" } });
    await owner.caller.privacy.updateSettings({ ...good, ipRetentionDays: 7, erasedReaderComments: "remove" });
    const audits = await db.auditLog.findMany({ where: { action: "privacy_settings.update" } });
    expect(audits).toHaveLength(1);
    expect(audits[0]!.metadata).toEqual({
      changed: ["ipRetentionDays", "erasedReaderComments"],
      before: { ipRetentionDays: 30, erasedReaderComments: "keep" },
      after: { ipRetentionDays: 7, erasedReaderComments: "remove" },
    });
  });
});
