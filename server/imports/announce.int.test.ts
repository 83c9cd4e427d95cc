/**
 * --announce, on PGlite and PostgreSQL: an import is quiet by default (no webhook event, no
 * notification job, no e-mail) and says so in its report; announced, each published story sends
 * its "story-publish" webhook and each imported reply queues the notification a live reply
 * queues, which the jobs then mail to the verified reader it answers.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { formatReport } from "@/server/imports/report";
import { contentImportAccount, importFixture } from "@/server/testing/imports";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";

async function account(db: Db) {
  const acc = await contentImportAccount(db);
  // A webhook taking story-publish, and Ada, whose comments the sample's readers answer, a member
  // with a verified address before the import (so the import's comments are hers).
  await db.webhookEndpoint.create({
    data: {
      accountId: acc.id,
      kind: "CONTENT",
      // Nothing listens there: the delivery fails at once and waits for its retry.
      url: "http://127.0.0.1:9/in",
      events: ["story-publish"],
      secret: "whsec_test",
    },
  });
  await db.member.create({
    data: { accountId: acc.id, name: "Ada", email: "ada@example.com", emailVerified: true, passwordHash: "" },
  });
  return acc;
}

async function drain(db: Db): Promise<void> {
  for (let pass = 0; pass < 10; pass++) {
    const { claimed } = await runJobsNow(db, testJobDeps(), "announce-test");
    if (claimed === 0) return;
  }
  throw new Error("jobs kept coming");
}

const sent = async (db: Db, accountId: number) => ({
  events: (await db.webhookEvent.findMany({ where: { accountId }, select: { name: true } })).map((e) => e.name),
  deliveries: await db.webhookDelivery.count({ where: { endpoint: { accountId } } }),
  notificationJobs: await db.job.count({ where: { accountId, name: "notifications.comment" } }),
  mails: (
    await db.outgoingEmail.findMany({
      where: { accountId, kind: { startsWith: "engagement.notification." } },
      select: { to: true },
    })
  ).map((m) => m.to),
});

describe("announcing an import", () => {
  it("is quiet by default: no webhook, no notification, and the report says so", async () => {
    const db = await getDb();
    const acc = await account(db);
    const dry = await importFixture(db, acc.id, "wxr", "wxr-content.xml", { dryRun: true });
    expect(formatReport(dry)).toContain("quiet: no webhook and no e-mail is sent (--announce to send them)");
    const stories = await importFixture(db, acc.id, "wxr", "wxr-content.xml");
    expect(stories.announce).toBe(false);
    expect(stories.kinds.story!.create).toBeGreaterThan(3);
    const comments = await importFixture(db, acc.id, "wxr-comments", "wxr-sample.xml");
    expect(comments.kinds.comment!.create).toBeGreaterThan(5);
    await drain(db);
    expect(await sent(db, acc.id)).toEqual({ events: [], deliveries: 0, notificationJobs: 0, mails: [] });
  });

  it("announced, sends each published story's webhook and mails the replies' notifications", async () => {
    const db = await getDb();
    const acc = await account(db);
    const dry = await importFixture(db, acc.id, "wxr", "wxr-content.xml", { dryRun: true, announce: true });
    expect(formatReport(dry)).toContain("announced: webhooks and e-mails are sent as for live writes");
    expect((await sent(db, acc.id)).events).toEqual([]);

    const stories = await importFixture(db, acc.id, "wxr", "wxr-content.xml", { announce: true });
    const published = await db.story.count({ where: { accountId: acc.id, status: "PUBLISHED" } });
    expect(published).toBeGreaterThan(1);
    expect(stories.announce).toBe(true);
    const afterStories = await sent(db, acc.id);
    // One story-publish per published story (drafts and the scheduled one send nothing now).
    expect(afterStories.events).toEqual(Array.from({ length: published }, () => "story-publish"));
    expect(afterStories.deliveries).toBe(published);

    await importFixture(db, acc.id, "wxr-comments", "wxr-sample.xml", { announce: true });
    await drain(db);
    const after = await sent(db, acc.id);
    expect(after.notificationJobs).toBeGreaterThan(0);
    // A reply tells the author of the comment it answers: Ada is told of Bob's answer to her
    // comment and of Carol's answer to her reply (two mails), not of replies answering others;
    // none about her own replies, none to the unverified readers the import created.
    expect(after.mails).toEqual(["ada@example.com", "ada@example.com"]);

    // A second announced run imports nothing and so sends nothing again.
    await importFixture(db, acc.id, "wxr", "wxr-content.xml", { announce: true });
    await importFixture(db, acc.id, "wxr-comments", "wxr-sample.xml", { announce: true });
    await drain(db);
    const again = await sent(db, acc.id);
    expect(again.events.length).toBe(published);
    expect(again.mails.length).toBe(2);
  });
});
