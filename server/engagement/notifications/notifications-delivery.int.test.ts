/**
 * Readers hear back, the hard cases (docs/engagement.md "Notifications to readers"), on both
 * databases:
 * - a new comment's job is written by the comment's own statement: a process that stops right
 *   after the write still tells once, and a create that runs to the end tells once too;
 * - a clean edit that publishes a held reply or mention tells like a new comment, once;
 * - an edit of a published comment tells the readers it mentions anew, once each, under a
 *   create's rules; an edit that mentions nobody new, or leaves the comment held, tells nobody;
 * - the daily digest goes out at 07:00 on the reader's clocks (the zone the widget sent), on the
 *   test clock;
 * - two instances running the notification and mail jobs at once: one mail per event, as the
 *   SMTP server receives them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { PUT as PREFS } from "@/app/api/v1/accounts/[account_id]/notifications/preferences/route";
import { POST as CREATE } from "@/app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments.json/route";
import { PUT as EDIT } from "@/app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments/[comment_id]/route";
import { parseEnv } from "@/env.js";

import type { Db } from "../../db/client";
import { enqueueJob, setJobNotifier, type QueuedJob } from "../../jobs/queue";
import { mailTransportFromEnv } from "../../mail/transport";
import { now, resetClock, setClock } from "../../testing/clock";
import { call, pageId, readerJwt } from "../../testing/engagement";
import { testJobDeps } from "../../testing/jobs";
import {
  ADA,
  BO,
  CY,
  drainJobs as drain,
  mention,
  notificationsSetup as setup,
  notificationSummary as summary,
  type Reader,
} from "../../testing/notifications";
import { startSmtpServer, type TestSmtpServer } from "../../testing/smtp-server";
import type * as CommentWrite from "../comment-write";
import type { TCommentWire } from "../comments.schema";
import { moderateComment } from "../moderation/queue/queue";
import { notifyCommentJob } from "./notify";
import { setPrefs } from "./preferences";

/**
 * Set by a test: a create stops as soon as its write statement returns, before anything else of
 * the create runs, as a process killed there would.
 */
const crash = vi.hoisted(() => ({ afterWrite: false }));

vi.mock("../comment-write", async (importOriginal) => {
  const original = await importOriginal<typeof CommentWrite>();
  return {
    ...original,
    writeComment: async (...args: Parameters<typeof original.writeComment>) => {
      const written = await original.writeComment(...args);
      if (crash.afterWrite) throw new Error("the process stopped after the write");
      return written;
    },
  };
});

afterEach(() => {
  crash.afterWrite = false;
  setJobNotifier(undefined);
  resetClock();
});

const PAGE = "https://news.example.com/politics/a-story";

const TOXIC = "You are an idiot and everyone can see it.";

async function create(id: string, reader: Reader, ops: unknown[], parent?: number) {
  return call(
    CREATE,
    "POST",
    "/x",
    { account_id: id, encoded_url: pageId(PAGE) },
    { comment: { body: { ops }, parent_comment_id: parent }, jwt: await readerJwt(reader) },
  );
}

async function post(id: string, reader: Reader, ops: unknown[], parent?: number): Promise<TCommentWire> {
  const res = await create(id, reader, ops, parent);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return ((await res.json()) as { comment: TCommentWire }).comment;
}

async function edit(id: string, reader: Reader, commentId: number, ops: unknown[]): Promise<TCommentWire> {
  const res = await call(
    EDIT,
    "PUT",
    "/x",
    { account_id: id, encoded_url: pageId(PAGE), comment_id: String(commentId) },
    { comment: { ops }, jwt: await readerJwt(reader) },
  );
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  return ((await res.json()) as { comment: TCommentWire }).comment;
}

const notifyJobsOf = (db: Db, commentId: number) =>
  db.job.count({ where: { name: notifyCommentJob.name, payload: { path: ["commentId"], equals: commentId } } });

describe("a new comment's notification job is written with the comment", () => {
  it("a process that stops right after the write still tells once; the engine is woken after the commit", async () => {
    const { db, account, id } = await setup();
    const top = await post(id, ADA, [{ insert: "First." }]);
    const woken: QueuedJob[] = [];
    setJobNotifier((jobs) => void woken.push(...jobs));
    crash.afterWrite = true;
    const res = await create(id, BO, [{ insert: "A reply that outlives its process." }], top.id);
    expect(res.status).toBe(500);
    crash.afterWrite = false;
    const reply = await db.comment.findFirstOrThrow({ where: { accountId: account.id, parentCommentId: top.id } });
    expect(await notifyJobsOf(db, reply.id)).toBe(1);
    expect(woken.map((j) => j.name)).toEqual([notifyCommentJob.name]);
    await drain(db);
    expect(await summary(db, account.id)).toEqual(["ada@example.com replies"]);
    await drain(db);
    expect(await summary(db, account.id)).toEqual(["ada@example.com replies"]);
  });

  it("a create that runs to the end tells once, whichever runners take the job; a repeat adds no job", async () => {
    const { db, account, id } = await setup();
    const top = await post(id, ADA, [{ insert: "First." }]);
    const cy = await post(id, CY, [{ insert: "Hello." }]);
    const ops = [{ insert: "Agreed, " }, mention(cy.author_id, "Cy")];
    const reply = await post(id, BO, ops, top.id);
    // The same post again within the duplicate window answers the same comment, and writes no job.
    expect((await post(id, BO, ops, top.id)).id).toBe(reply.id);
    expect(await notifyJobsOf(db, reply.id)).toBe(1);
    await Promise.all([drain(db, testJobDeps(), "worker-a"), drain(db, testJobDeps(), "worker-b")]);
    expect(await summary(db, account.id)).toEqual(["ada@example.com replies", "cy@example.com mentions"]);
  });

  it("a comment that tells nobody writes no job: top-level without mentions, or held", async () => {
    const { db, id } = await setup();
    const top = await post(id, ADA, [{ insert: "First." }]);
    const held = await post(id, BO, [{ insert: TOXIC }], top.id);
    expect(held.is_published).toBe(false);
    expect(await db.job.count({ where: { name: notifyCommentJob.name } })).toBe(0);
  });
});

describe("a clean edit that publishes a held comment", () => {
  it("tells the parent's author and the mentioned readers, once however often it is held and published again", async () => {
    const { db, account, id } = await setup();
    const top = await post(id, ADA, [{ insert: "First." }]);
    const cy = await post(id, CY, [{ insert: "Hello." }]);
    const held = await post(id, BO, [{ insert: TOXIC }, mention(cy.author_id, "Cy")], top.id);
    expect(held.is_published).toBe(false);
    await drain(db);
    expect(await summary(db, account.id)).toEqual([]);
    const clean = [{ insert: "On reflection, I agree with " }, mention(cy.author_id, "Cy")];
    expect((await edit(id, BO, held.id, clean)).is_published).toBe(true);
    await drain(db);
    expect(await summary(db, account.id)).toEqual(["ada@example.com replies", "cy@example.com mentions"]);
    const mails = await db.outgoingEmail.findMany({ where: { accountId: account.id, to: "ada@example.com" } });
    expect(mails[0]!.text).toContain("On reflection, I agree with @Cy");
    // Held again by a toxic edit, published again by a clean one: nobody is told twice.
    expect((await edit(id, BO, held.id, [{ insert: TOXIC }])).is_published).toBe(false);
    expect((await edit(id, BO, held.id, clean)).is_published).toBe(true);
    await drain(db);
    expect(await summary(db, account.id)).toEqual(["ada@example.com replies", "cy@example.com mentions"]);
  });

  it("an edit of a published comment that mentions nobody new, or one that stays held, queues nothing", async () => {
    const { db, id } = await setup();
    const top = await post(id, ADA, [{ insert: "First." }]);
    const reply = await post(id, BO, [{ insert: "A reply." }], top.id);
    const held = await post(id, CY, [{ insert: TOXIC }], top.id);
    await drain(db);
    const before = await db.job.count({ where: { name: notifyCommentJob.name } });
    await edit(id, BO, reply.id, [{ insert: "A reply, edited." }]);
    expect((await edit(id, CY, held.id, [{ insert: `${TOXIC} Still.` }])).is_published).toBe(false);
    expect(await db.job.count({ where: { name: notifyCommentJob.name } })).toBe(before);
  });
});

describe("an edit of a published comment that mentions a reader anew", () => {
  const DEE = { id: "reader-dee", name: "Dee", email: "dee@example.com" } satisfies Reader;
  const rowsOf = (db: Db, commentId: number) =>
    db.readerNotification.findMany({
      where: { commentId },
      select: { memberId: true, eventKey: true, status: true },
      orderBy: { id: "asc" },
    });

  it("tells the new reader only, once: one notification and one mail; re-editing and re-mentioning tell nobody again", async () => {
    const { db, account, id } = await setup();
    const top = await post(id, ADA, [{ insert: "First." }]);
    const cy = await post(id, CY, [{ insert: "Hello." }]);
    const dee = await post(id, DEE, [{ insert: "Hi." }]);
    const reply = await post(id, BO, [{ insert: "Agreed, " }, mention(cy.author_id, "Cy")], top.id);
    await drain(db);
    expect(await summary(db, account.id)).toEqual(["ada@example.com replies", "cy@example.com mentions"]);
    const withDee = [
      { insert: "Agreed, " },
      mention(cy.author_id, "Cy"),
      { insert: " and " },
      mention(dee.author_id, "Dee"),
    ];
    expect((await edit(id, BO, reply.id, withDee)).is_published).toBe(true);
    // The edit's job names the new reader only.
    const jobs = await db.job.findMany({
      where: { name: notifyCommentJob.name, payload: { path: ["commentId"], equals: reply.id } },
      orderBy: { createdAt: "asc" },
    });
    expect(jobs.map((j) => j.payload)).toEqual([
      { commentId: reply.id },
      { commentId: reply.id, newlyMentioned: [dee.author_id] },
    ]);
    await drain(db);
    expect(await summary(db, account.id)).toEqual([
      "ada@example.com replies",
      "cy@example.com mentions",
      "dee@example.com mentions",
    ]);
    expect(await rowsOf(db, reply.id)).toEqual([
      { memberId: top.author_id, eventKey: `reply:${reply.id}`, status: "SENT" },
      { memberId: cy.author_id, eventKey: `mention:${reply.id}`, status: "SENT" },
      { memberId: dee.author_id, eventKey: `mention:${reply.id}`, status: "SENT" },
    ]);
    const [toDee, ...more] = await db.outgoingEmail.findMany({
      where: { accountId: account.id, to: "dee@example.com" },
    });
    expect(more).toEqual([]);
    expect(toDee!.kind).toBe("engagement.notification.mentions");
    expect(toDee!.text).toContain("Agreed, @Cy and @Dee");

    // The same body again, a body without Dee, Dee mentioned again: only the last queues a job
    // (Dee is new to the body it replaced), and it tells nobody twice.
    const queued = await notifyJobsOf(db, reply.id);
    await edit(id, BO, reply.id, withDee);
    await edit(id, BO, reply.id, [{ insert: "Agreed, " }, mention(cy.author_id, "Cy")]);
    expect(await notifyJobsOf(db, reply.id)).toBe(queued);
    await edit(id, BO, reply.id, withDee);
    expect(await notifyJobsOf(db, reply.id)).toBe(queued + 1);
    await drain(db);
    expect(await summary(db, account.id)).toEqual([
      "ada@example.com replies",
      "cy@example.com mentions",
      "dee@example.com mentions",
    ]);
    expect(await rowsOf(db, reply.id)).toHaveLength(3);
  });

  it("applies a create's rules: not the author, not a stranger, not a banned reader or one who turned mentions off", async () => {
    const { db, account, id, moderator } = await setup();
    const ada = await post(id, ADA, [{ insert: "First." }]);
    const cy = await post(id, CY, [{ insert: "Hello." }]);
    const dee = await post(id, DEE, [{ insert: "Hi." }]);
    const bo = await post(id, BO, [{ insert: "A comment." }]);
    await drain(db);
    // The author themself and an id that is no member of the account: nobody new, no job.
    await edit(id, BO, bo.id, [{ insert: "Me, " }, mention(bo.author_id, "Bo"), mention(2_000_000_000, "Nobody")]);
    expect(await notifyJobsOf(db, bo.id)).toBe(0);
    // Cy turned mentions off, Ada is banned: the job runs and tells neither.
    await setPrefs(db, { memberId: cy.author_id, prefs: { mentions: "off" }, now: new Date() });
    await db.commentBan.create({
      data: { accountId: account.id, memberId: ada.author_id, reason: "spam", createdById: moderator.id },
    });
    const withCyAda = [{ insert: "To " }, mention(cy.author_id, "Cy"), mention(ada.author_id, "Ada")];
    await edit(id, BO, bo.id, withCyAda);
    expect(await notifyJobsOf(db, bo.id)).toBe(1);
    await drain(db);
    expect(await summary(db, account.id)).toEqual([]);
    expect(await rowsOf(db, bo.id)).toEqual([]);
    // Cy turns mentions on again and Ada's ban ends; an edit that mentions Dee anew tells Dee only,
    // not the readers an earlier edit mentioned.
    await setPrefs(db, { memberId: cy.author_id, prefs: { mentions: "immediate" }, now: new Date() });
    await db.commentBan.deleteMany({ where: { memberId: ada.author_id } });
    await edit(id, BO, bo.id, [...withCyAda, mention(dee.author_id, "Dee")]);
    await drain(db);
    expect(await summary(db, account.id)).toEqual(["dee@example.com mentions"]);
  });

  it("an edit that holds the comment, or keeps a held one held, tells nobody; a moderator's approval then tells", async () => {
    const { db, account, id, moderator } = await setup();
    const top = await post(id, ADA, [{ insert: "First." }]);
    const cy = await post(id, CY, [{ insert: "Hello." }]);
    const dee = await post(id, DEE, [{ insert: "Hi." }]);
    const published = await post(id, BO, [{ insert: "A comment." }]);
    const held = await post(id, BO, [{ insert: TOXIC }], top.id);
    expect(held.is_published).toBe(false);
    await drain(db);
    const jobs = await db.job.count({ where: { name: notifyCommentJob.name } });
    const heldAgain = await edit(id, BO, published.id, [{ insert: `${TOXIC} ` }, mention(cy.author_id, "Cy")]);
    expect(heldAgain.is_published).toBe(false);
    const stillHeld = await edit(id, BO, held.id, [{ insert: `${TOXIC} ` }, mention(dee.author_id, "Dee")]);
    expect(stillHeld.is_published).toBe(false);
    expect(await db.job.count({ where: { name: notifyCommentJob.name } })).toBe(jobs);
    await drain(db);
    expect(await summary(db, account.id)).toEqual([]);
    expect(await db.readerNotification.count({ where: { accountId: account.id } })).toBe(0);
    // A moderator approving the held reply tells as its create would have: the parent's author,
    // the mentioned reader and the author of the decision.
    await moderateComment(db, { actor: moderator, input: { commentId: held.id, action: "approve" }, now: new Date() });
    await drain(db);
    expect((await summary(db, account.id)).sort()).toEqual([
      "ada@example.com replies",
      "bo@example.com decisions",
      "dee@example.com mentions",
    ]);
  });
});

describe("the daily digest on the reader's clocks", () => {
  async function choose(id: string, reader: Reader, body: Record<string, unknown>) {
    const res = await call(PREFS, "PUT", "/x", { account_id: id }, { jwt: await readerJwt(reader), ...body });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
    return (await res.json()) as { time_zone: string | null };
  }

  it("goes out at 07:00 in the zone the reader's widget sent; without one, at 07:00 UTC", async () => {
    const { db, account, id } = await setup();
    // A winter morning, after every job written with real time is due: Los Angeles is UTC−8.
    setClock(new Date("2030-01-15T10:00:00Z"));
    const deps = testJobDeps({ clock: now });
    const ada = await post(id, ADA, [{ insert: "First." }]);
    const bo = await post(id, BO, [{ insert: "Second." }]);
    expect(
      (await choose(id, ADA, { preferences: { replies: "digest" }, time_zone: "America/Los_Angeles" })).time_zone,
    ).toBe("America/Los_Angeles");
    expect((await choose(id, BO, { preferences: { replies: "digest" } })).time_zone).toBeNull();
    await post(id, CY, [{ insert: "To Ada." }], ada.id);
    await post(id, CY, [{ insert: "To Bo." }], bo.id);
    await drain(db, deps);
    const digests = await db.job.findMany({
      where: { name: "notifications.digest", status: "PENDING" },
      orderBy: { runAt: "asc" },
    });
    expect(digests.map((j) => [j.payload, j.runAt.toISOString()])).toEqual([
      [{ memberId: ada.author_id }, "2030-01-15T15:00:00.000Z"],
      [{ memberId: bo.author_id }, "2030-01-16T07:00:00.000Z"],
    ]);
    setClock(new Date("2030-01-15T14:59:59Z"));
    await drain(db, deps);
    expect(await summary(db, account.id)).toEqual([]);
    setClock(new Date("2030-01-15T15:00:00Z"));
    await drain(db, deps);
    expect(await summary(db, account.id)).toEqual(["ada@example.com digest"]);
    setClock(new Date("2030-01-16T07:00:00Z"));
    await drain(db, deps);
    expect(await summary(db, account.id)).toEqual(["ada@example.com digest", "bo@example.com digest"]);
  });

  it("leaves out a mention the comment no longer makes when the digest goes out, and tells the rest", async () => {
    const { db, account, id } = await setup();
    setClock(new Date("2030-01-15T10:00:00Z"));
    const deps = testJobDeps({ clock: now });
    const ada = await post(id, ADA, [{ insert: "First." }]);
    await choose(id, ADA, { preferences: { replies: "digest", mentions: "digest" } });
    const bo = await post(id, BO, [{ insert: "Ask " }, mention(ada.author_id, "Ada")]);
    await post(id, CY, [{ insert: "To Ada." }], ada.id);
    await drain(db, deps);
    const pending = () =>
      db.readerNotification.findMany({
        where: { memberId: ada.author_id },
        select: { kind: true, status: true },
        orderBy: { id: "asc" },
      });
    expect(await pending()).toEqual([
      { kind: "MENTION", status: "PENDING" },
      { kind: "REPLY", status: "PENDING" },
    ]);
    // Bo takes the mention out before the digest hour.
    await edit(id, BO, bo.id, [{ insert: "Ask the council." }]);
    setClock(new Date("2030-01-16T07:00:00Z"));
    await drain(db, deps);
    expect(await pending()).toEqual([
      { kind: "MENTION", status: "SKIPPED" },
      { kind: "REPLY", status: "SENT" },
    ]);
    expect(await summary(db, account.id)).toEqual(["ada@example.com digest"]);
  });

  it("follows the reader's zone change for the next digest (07:00 in summer time is an hour earlier in UTC)", async () => {
    const { db, account, id } = await setup();
    setClock(new Date("2030-07-01T12:00:00Z"));
    const deps = testJobDeps({ clock: now });
    const ada = await post(id, ADA, [{ insert: "First." }]);
    await choose(id, ADA, { preferences: { replies: "digest" }, time_zone: "Europe/Madrid" });
    await choose(id, ADA, { time_zone: "Asia/Kolkata" });
    await post(id, BO, [{ insert: "To Ada." }], ada.id);
    await drain(db, deps);
    const job = await db.job.findFirstOrThrow({ where: { name: "notifications.digest", status: "PENDING" } });
    // 07:00 in Kolkata (UTC+5:30) on 2 July is 01:30 UTC.
    expect(job.runAt.toISOString()).toBe("2030-07-02T01:30:00.000Z");
    setClock(job.runAt);
    await drain(db, deps);
    expect(await summary(db, account.id)).toEqual(["ada@example.com digest"]);
  });
});

describe("two instances, one SMTP server", () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer({ user: "mailer", pass: "secret-pass" });
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("run the same events' jobs at once and send one mail per event", async () => {
    const { db, account, id, moderator } = await setup();
    const top = await post(id, ADA, [{ insert: "First." }]);
    const cy = await post(id, CY, [{ insert: "Hello." }]);
    await post(id, BO, [{ insert: "A reply to Ada for " }, mention(cy.author_id, "Cy")], top.id);
    const held = await post(id, BO, [{ insert: TOXIC }]);
    await moderateComment(db, {
      actor: moderator,
      input: { commentId: held.id, action: "reject" },
      now: new Date(),
    });
    // The same events reaching both instances: every notification job queued a second time.
    const queued = await db.job.findMany({ where: { name: notifyCommentJob.name, accountId: account.id } });
    expect(queued).toHaveLength(2);
    for (const job of queued) {
      await enqueueJob(db, notifyCommentJob, job.payload as { commentId: number }, { accountId: account.id });
    }
    const instance = () =>
      testJobDeps({
        mail: mailTransportFromEnv(
          parseEnv({
            SMTP_URL: `smtp://mailer:secret-pass@127.0.0.1:${smtp.port}`,
            MAIL_FROM: "News <news@gazette.test>",
          }),
        ),
      });
    const [a, b] = [instance(), instance()];
    await Promise.all([drain(db, a, "instance-a"), drain(db, b, "instance-b")]);
    await Promise.all([drain(db, a, "instance-a"), drain(db, b, "instance-b")]);
    expect(smtp.received.map((m) => m.to.join(",")).sort()).toEqual([
      "ada@example.com",
      "bo@example.com",
      "cy@example.com",
    ]);
    expect(await summary(db, account.id)).toHaveLength(3);
  });
});
