// Sending a story to a newsletter through a real SMTP server on 127.0.0.1 (both databases): every mail
// checked, never twice across two workers and after a kill, bounces, retries, cancellation, idempotent creation.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { JOBS } from "@/server/background/job-list";

import { getDb } from "../db";
import type { Db } from "../db/client";
import { claimJobs } from "../jobs/engine";
import { PermanentMailError, smtpTransport, type MailTransport } from "../mail/transport";
import type { RateLimitStore } from "../rate-limit";
import { runJobsNow, testJobDeps } from "../testing/jobs";
import { insertNewsletter, insertSubscribers } from "../testing/newsletter-fixtures";
import { createTestPublisher, insertStory, textCards } from "../testing/publishing-factories";
import { parseReceivedMail, startSmtpServer, type TestSmtpServer } from "../testing/smtp-server";
import { cancelSend, createSend, listSends, sendStory, storyDedupeKey } from "./send";
import { CLAIM_LEASE_MS, runSendSlice, UNKNOWN_OUTCOME, type SliceOptions } from "./send-runner";
import { noThrottle } from "./throttle";
import { newsletterTokenKey, verifyNewsletterToken } from "./tokens";

const APP = "https://app.gazette.test";
let smtp: TestSmtpServer;
let mail: MailTransport;
let db: Db;

beforeAll(async () => {
  smtp = await startSmtpServer({ user: "mailer", pass: "pw" });
  mail = smtpTransport({ url: `smtp://mailer:pw@127.0.0.1:${smtp.port}`, from: "Masthead <mail@gazette.test>" });
});
afterAll(() => smtp.close());
beforeEach(async () => {
  db = await getDb();
  smtp.received.length = 0;
  smtp.setRcptBehaviour(() => "accept");
});

async function setUp(readers: number, overrides: Parameters<typeof insertNewsletter>[2] = {}) {
  const account = await createTestPublisher(db);
  const newsletter = await insertNewsletter(db, account.id, overrides);
  const story = await insertStory(db, account.id, {
    headline: "Council <votes> & decides",
    cards: textCards('First <a href="https://example.org/report">report</a>.', "Second paragraph."),
  });
  const subscribers = await insertSubscribers(db, {
    accountId: account.id,
    newsletterId: newsletter.id,
    count: readers,
  });
  return { account, newsletter, story, subscribers };
}

/** The setup's story sent to its newsletter now, as the dashboard sends it (a job per send). */
function sendToNewsletter(s: Pick<Awaited<ReturnType<typeof setUp>>, "account" | "newsletter" | "story">) {
  return sendStory(db, {
    accountId: s.account.id,
    storyId: s.story.id,
    newsletterIds: [s.newsletter.id],
    createdBy: null,
    appUrl: APP,
    now: new Date(),
  });
}

function slice(sendId: number, overrides: Partial<SliceOptions> = {}) {
  return runSendSlice(db, { sendId, clock: () => new Date(), mail, appUrl: APP, throttle: noThrottle, ...overrides });
}

async function runToEnd(sendId: number, overrides: Partial<SliceOptions> = {}) {
  // Another worker's claims: look again shortly, as the job would at the time the slice gives.
  for (let i = 0; i < 500; i++) {
    const result = await slice(sendId, overrides);
    if (result.state !== "continue") return result;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the send did not end");
}

const recipientsOf = () => smtp.received.flatMap((m) => m.to);

function expectEachOnce(addresses: string[]) {
  const got = recipientsOf().sort();
  expect(got).toEqual([...addresses].sort());
}

describe("a story sent to a newsletter", () => {
  it("mails every reader once, with their own links and one-click unsubscribe headers", async () => {
    const { account, newsletter, story, subscribers } = await setUp(12);
    const { sends } = await sendToNewsletter({ account, newsletter, story });
    // Through the job engine, as the app runs it.
    await runJobsNow(db, testJobDeps({ mail, appUrl: APP }));
    const send = await db.newsletterSend.findUniqueOrThrow({ where: { id: sends[0]!.id } });
    expect(send).toMatchObject({ status: "SENT", recipients: 12 });
    expect(send.finishedAt).not.toBeNull();
    expectEachOnce(subscribers.map((s) => s.email));

    const key = newsletterTokenKey();
    const deliveries = await db.newsletterDelivery.findMany({ where: { sendId: send.id } });
    expect(deliveries.every((d) => d.status === "SENT" && d.sentAt !== null)).toBe(true);
    for (const message of smtp.received) {
      const { headers, body } = parseReceivedMail(message.raw);
      const delivery = deliveries.find((d) => d.email === message.to[0])!;
      expect(headers.get("subject")).toBe("Council <votes> & decides");
      expect(headers.get("from")).toBe("The Gazette <briefing@gazette.test>");
      expect(headers.get("reply-to")).toBe("letters@gazette.test");
      expect(headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      const unsubscribe = /^<(https:\/\/app\.gazette\.test\/api\/newsletters\/unsubscribe\/([^>]+))>$/.exec(
        headers.get("list-unsubscribe") ?? "",
      );
      expect(unsubscribe).not.toBeNull();
      expect(verifyNewsletterToken(key, account.id, unsubscribe![2]!)).toEqual({
        purpose: "delivery",
        id: String(delivery.id),
      });
      // The headline escaped, the story's link and the story's own link through the click redirect.
      expect(body).toContain("Council &lt;votes&gt; &amp; decides");
      const clicks = [
        ...body.matchAll(/https:\/\/app\.gazette\.test\/api\/newsletters\/click\/([^?"\s]+)\?u=([^&"\s]+)/g),
      ];
      const urls = new Set(clicks.map((m) => decodeURIComponent(m[2]!)));
      expect(urls).toContain("https://example.org/report");
      expect(urls).toContain("https://news.example.com/council-votes-decides");
      for (const m of clicks) expect(verifyNewsletterToken(key, account.id, m[1]!)?.id).toBe(String(delivery.id));
      expect(body).toContain(unsubscribe![1]);
      expect(body).not.toMatch(/<script|<iframe/i);
    }
  });

  it("frames each reader's copy in the reader's language: Hindi, Arabic right to left, the rest the account's", async () => {
    const { account, newsletter, story, subscribers } = await setUp(3);
    const [hindi, arabic, plain] = subscribers as [{ id: number; email: string }, ...{ id: number; email: string }[]];
    await db.member.update({ where: { id: hindi.id }, data: { locale: "hi" } });
    await db.member.update({ where: { id: arabic!.id }, data: { locale: "ar" } });
    const { sends } = await sendToNewsletter({ account, newsletter, story });
    // The mails as the transport is handed them (the HTML part before any transfer encoding).
    const handed: { to: string; html?: string | null }[] = [];
    await runToEnd(sends[0]!.id, { mail: { name: "capture", send: async (m) => void handed.push(m) } });
    const bodyTo = (address: string) => handed.find((m) => m.to === address)!.html ?? "";
    const hi = bodyTo(hindi.email);
    expect(hi).toContain('<html lang="hi" dir="ltr">');
    expect(hi).toContain("वेबसाइट पर पढ़ें");
    expect(hi).toContain("सदस्यता छोड़ें");
    const ar = bodyTo(arabic!.email);
    expect(ar).toContain('<html lang="ar" dir="rtl">');
    // The newsroom's English story stays left to right inside the Arabic frame.
    expect(ar).toContain('lang="en" dir="ltr"');
    expect(ar).toContain("اقرأ على الموقع");
    expect(bodyTo(plain!.email)).toContain("Read on the site");
    expect(handed.map((m) => m.to).sort()).toEqual(subscribers.map((s) => s.email).sort());
  });

  it("is created once per newsletter and story, however many ask at once", async () => {
    const { account, newsletter, story } = await setUp(1);
    const ask = () =>
      sendStory(db, {
        accountId: account.id,
        storyId: story.id,
        newsletterIds: [newsletter.id],
        createdBy: null,
        appUrl: APP,
        now: new Date(),
      });
    const results = await Promise.all([ask(), ask(), ask(), ask()]);
    const ids = new Set(results.map((r) => r.sends[0]!.id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.sends[0]!.created)).toHaveLength(1);
    expect(await db.newsletterSend.count({ where: { newsletterId: newsletter.id } })).toBe(1);
    expect(await db.job.count({ where: { name: "newsletter.send" } })).toBe(1);
  });

  it("refuses a story that is not published, and another account's newsletter", async () => {
    const { account, newsletter } = await setUp(1);
    const draft = await insertStory(db, account.id, { status: "DRAFT" });
    await expect(
      sendStory(db, {
        accountId: account.id,
        storyId: draft.id,
        newsletterIds: [newsletter.id],
        createdBy: null,
        appUrl: APP,
        now: new Date(),
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const other = await createTestPublisher(db);
    const story = await insertStory(db, other.id);
    await expect(
      sendStory(db, {
        accountId: other.id,
        storyId: story.id,
        newsletterIds: [newsletter.id],
        createdBy: null,
        appUrl: APP,
        now: new Date(),
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

async function queuedSend(readers: number) {
  const setup = await setUp(readers);
  const { send } = await createSend(db, {
    accountId: setup.account.id,
    newsletterId: setup.newsletter.id,
    kind: "story",
    dedupeKey: storyDedupeKey(setup.story.id),
    subject: "Today",
    storyId: setup.story.id,
    scheduledAt: new Date(),
    now: new Date(),
  });
  return { ...setup, sendId: send.id };
}

describe("never twice", () => {
  it("two workers (two instances) sending one send at once mail each address exactly once", async () => {
    const { sendId, subscribers } = await queuedSend(40);
    const [a, b] = await Promise.all([runToEnd(sendId, { batchSize: 5 }), runToEnd(sendId, { batchSize: 5 })]);
    expect([a.state, b.state]).toEqual(["done", "done"]);
    expectEachOnce(subscribers.map((s) => s.email));
    expect(await db.newsletterDelivery.count({ where: { sendId, status: "SENT" } })).toBe(40);
    expect((await db.newsletterSend.findUniqueOrThrow({ where: { id: sendId } })).status).toBe("SENT");
  });

  it("a worker killed mid-send: after its lease lapses another finishes, each address exactly once", async () => {
    const { sendId, subscribers } = await queuedSend(30);
    let handedOff = 0;
    const killed = await slice(sendId, { batchSize: 10, killAfterHandoff: () => ++handedOff >= 7 });
    expect(killed.state).toBe("killed");
    const before = recipientsOf().length;
    expect(before).toBeGreaterThanOrEqual(7);
    expect(before).toBeLessThan(30);
    // Before the lease lapses, another worker takes none of the dead worker's rows.
    expect((await slice(sendId, { batchSize: 10 })).state).toBe("continue");
    expect(new Set(recipientsOf()).size).toBe(recipientsOf().length);
    const later = () => new Date(Date.now() + CLAIM_LEASE_MS + 1000);
    expect((await runToEnd(sendId, { clock: later })).state).toBe("done");
    expectEachOnce(subscribers.map((s) => s.email));
    // The handoffs whose outcome the dead worker never wrote count as sent, with the reason.
    const unknown = await db.newsletterDelivery.count({ where: { sendId, lastError: UNKNOWN_OUTCOME } });
    expect(unknown).toBeGreaterThanOrEqual(1);
    expect(await db.newsletterDelivery.count({ where: { sendId, status: "SENT" } })).toBe(30);
  });
});

describe("a crash of the instance running the job", () => {
  it("the job engine takes the send up once the job's lease lapses, and no address gets it twice", async () => {
    const { account, newsletter, story, subscribers } = await setUp(20);
    const { sends } = await sendToNewsletter({ account, newsletter, story });
    const sendId = sends[0]!.id;
    // A worker claims the job, sends 6 mails and dies (nothing more written, its job still held).
    const [held] = await claimJobs(db, { jobs: JOBS, workerId: "dead", now: new Date(), limit: 1 });
    expect(held?.name).toBe("newsletter.send");
    let handedOff = 0;
    expect((await slice(sendId, { batchSize: 10, killAfterHandoff: () => ++handedOff >= 6 })).state).toBe("killed");
    // Another instance's runner, now: the job is held, nothing happens.
    expect((await runJobsNow(db, testJobDeps({ mail, appUrl: APP }), "alive")).claimed).toBe(0);
    // After the job's lease (5 minutes) and the deliveries' leases have lapsed, it resumes.
    const later = () => new Date(Date.now() + 10 * 60_000);
    for (let i = 0; i < 5; i++) await runJobsNow(db, testJobDeps({ mail, appUrl: APP, clock: later }), "alive");
    expect((await db.newsletterSend.findUniqueOrThrow({ where: { id: sendId } })).status).toBe("SENT");
    expectEachOnce(subscribers.map((s) => s.email));
  });
});

describe("refusals and cancellation", () => {
  it("a 5xx fails the delivery and suppresses the address; a 4xx is retried later", async () => {
    const { account, sendId, subscribers } = await queuedSend(3);
    const [bounced, greylisted] = [subscribers[0]!.email, subscribers[1]!.email];
    smtp.setRcptBehaviour((address, n) => {
      if (address === bounced) return { code: 550, message: "No such user" };
      if (address === greylisted && n === 0) return { code: 451, message: "Try again later" };
      return "accept";
    });
    expect((await slice(sendId)).state).toBe("continue");
    const failed = await db.newsletterDelivery.findFirstOrThrow({ where: { sendId, email: bounced } });
    expect(failed.status).toBe("FAILED");
    expect(await db.emailSuppression.findFirst({ where: { accountId: account.id, email: bounced } })).toMatchObject({
      reason: "bounce",
    });
    const waiting = await db.newsletterDelivery.findFirstOrThrow({ where: { sendId, email: greylisted } });
    expect(waiting).toMatchObject({ status: "PENDING", attempts: 1, sentAt: null });
    expect(waiting.claimedUntil!.getTime()).toBeGreaterThan(Date.now());
    // At the retry's time it goes.
    const later = () => new Date(Date.now() + 3600_000);
    expect((await runToEnd(sendId, { clock: later })).state).toBe("done");
    expect(await db.newsletterDelivery.findFirstOrThrow({ where: { sendId, email: greylisted } })).toMatchObject({
      status: "SENT",
      attempts: 2,
    });
  });

  it("a refused sender or message (5xx to MAIL FROM or DATA) fails the mails without suppressing anyone", async () => {
    const { account, sendId } = await queuedSend(3);
    const refusing: MailTransport = {
      name: "refusing",
      send: async () => {
        throw new PermanentMailError("553 Sender address rejected", "MAIL FROM");
      },
    };
    expect((await runToEnd(sendId, { mail: refusing })).state).toBe("done");
    expect(await db.newsletterDelivery.count({ where: { sendId, status: "FAILED" } })).toBe(3);
    expect(await db.emailSuppression.count({ where: { accountId: account.id } })).toBe(0);
  });

  it("a reader who unsubscribed after the send began is skipped", async () => {
    const { sendId, subscribers, newsletter } = await queuedSend(3);
    await slice(sendId, { budgetMs: 0 }); // writes the recipients only
    await db.newsletterSubscription.updateMany({
      where: { newsletterId: newsletter.id, memberId: subscribers[2]!.id },
      data: { status: "UNSUBSCRIBED" },
    });
    await runToEnd(sendId);
    expectEachOnce(subscribers.slice(0, 2).map((s) => s.email));
    expect(
      await db.newsletterDelivery.findFirstOrThrow({ where: { sendId, memberId: subscribers[2]!.id } }),
    ).toMatchObject({
      status: "SKIPPED",
    });
  });

  it("a send whose story was deleted meanwhile ends cancelled, mailing nobody", async () => {
    const { sendId, story } = await queuedSend(3);
    await slice(sendId, { budgetMs: 0 });
    await db.story.delete({ where: { id: story.id } });
    expect((await slice(sendId)).state).toBe("done");
    expect(smtp.received).toHaveLength(0);
    expect((await db.newsletterSend.findUniqueOrThrow({ where: { id: sendId } })).status).toBe("CANCELLED");
    expect(await db.newsletterDelivery.count({ where: { sendId, status: "SKIPPED" } })).toBe(3);
  });

  it("cancelled by staff, a send stops and lists as cancelled", async () => {
    const { account, sendId } = await queuedSend(10);
    await slice(sendId, { budgetMs: 0 });
    expect(await cancelSend(db, { accountId: account.id, sendId, now: new Date() })).toEqual({ status: "CANCELLED" });
    expect((await slice(sendId)).state).toBe("done");
    expect(smtp.received).toHaveLength(0);
    const page = await listSends(db, { accountId: account.id });
    expect(page.items[0]).toMatchObject({ id: sendId, status: "CANCELLED", recipients: 10, skipped: 10, sent: 0 });
    await expect(cancelSend(db, { accountId: account.id + 1000, sendId, now: new Date() })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("pace", () => {
  it("two workers sharing a store hand off no more than the limit in any one-second window", async () => {
    const { DatabaseRateLimitStore } = await import("../rate-limit");
    const { storeThrottle } = await import("./throttle");
    const { sendId } = await queuedSend(12);
    // The turns the shared store granted, by the window it granted each in (a mail goes right after
    // its turn; timing the mails themselves would count a busy machine's delays between the two).
    const turns: number[] = [];
    const store = new DatabaseRateLimitStore(async () => db);
    const counted: RateLimitStore = {
      async hit(key, windowMs, now) {
        const result = await store.hit(key, windowMs, now);
        if (result.count <= 5) turns.push(result.resetAt.getTime());
        return result;
      },
      reset: (key) => store.reset(key),
    };
    const throttle = () => storeThrottle(counted, 5);
    const start = Date.now();
    await Promise.all([
      runToEnd(sendId, { mail, throttle: throttle(), batchSize: 3 }),
      runToEnd(sendId, { mail, throttle: throttle(), batchSize: 3 }),
    ]);
    expect(smtp.received).toHaveLength(12);
    expect(turns).toHaveLength(12);
    // 12 mails at 5 a second take at least two window changes.
    expect(Date.now() - start).toBeGreaterThanOrEqual(1900);
    const windows = [...new Set(turns)].sort((a, b) => a - b);
    for (const end of windows) expect(turns.filter((t) => t === end).length).toBeLessThanOrEqual(5);
    expect(windows.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < windows.length; i++) expect(windows[i]! - windows[i - 1]!).toBeGreaterThanOrEqual(1000);
  });
});
