import { describe, expect, it } from "vitest";

import { JOBS } from "@/server/background/job-list";

import { getDb } from "../db";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { runDueJobs } from "../jobs/engine";
import { recordingTransport, runJobsNow, testJobDeps } from "../testing/jobs";
import { countOutgoingEmails, listOutgoingEmails, queueEmail } from "./outbox";

async function account(slug: string) {
  return (await getDb()).account.create({ data: { slug, name: slug, jwtSecret: "x".repeat(32) } });
}

/** `count` test mails to r0@, r1@ … in that order, mail i queued at `at(i)`: their ids. */
async function queueNumbered(accountId: number, count: number, at: (i: number) => Date) {
  const db = await getDb();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { id } = await queueEmail(db, {
      accountId,
      to: `r${i}@example.com`,
      subject: `S${i}`,
      text: `Body ${i}`,
      kind: "test",
      now: at(i),
    });
    ids.push(id);
  }
  return ids;
}

describe("mail outbox", () => {
  it("queues in the caller's transaction: a rolled-back change leaves no mail", async () => {
    const db = await getDb();
    const { id: accountId } = await account("tx");
    await expect(
      withTransaction(db, async (tx) => {
        await queueEmail(tx, {
          accountId,
          to: "a@example.com",
          subject: "S",
          text: "T",
          kind: "member.password_reset",
          now: new Date(),
        });
        throw new AppError("CONFLICT", "changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await db.outgoingEmail.count()).toBe(0);
    expect(await db.job.count()).toBe(0);
  });

  it("sends each pending mail once, oldest first, to the log, and marks it SENT", async () => {
    const db = await getDb();
    const { id: accountId } = await account("send");
    const t0 = Date.parse("2026-03-01T10:00:00Z");
    const ids = await queueNumbered(accountId, 3, (i) => new Date(t0 + i * 1000));
    const mail = recordingTransport();
    const now = new Date(t0 + 60_000);
    expect(await runJobsNow(db, testJobDeps({ mail, clock: () => now }))).toEqual({ claimed: 3 });
    expect(mail.sent.map((m) => m.id)).toEqual(ids);
    const rows = await db.outgoingEmail.findMany();
    expect(rows.every((r) => r.status === "SENT" && r.sentAt?.getTime() === now.getTime())).toBe(true);
    // Nothing left: a second run sends nothing.
    expect(await runJobsNow(db, testJobDeps({ mail, clock: () => now }))).toEqual({ claimed: 0 });
    expect(mail.sent).toHaveLength(3);
  });

  it("never sends a mail twice when several senders run at once", async () => {
    const db = await getDb();
    const { id: accountId } = await account("race");
    const base = Date.now();
    for (let i = 0; i < 60; i++)
      await queueEmail(db, {
        accountId,
        to: `r${i}@example.com`,
        subject: "S",
        text: "T",
        kind: "test",
        now: new Date(base + i),
      });
    const mail = recordingTransport();
    // The senders' clock is past every mail's time: all 60 are due (with the real clock, a mail
    // queued a few milliseconds ahead could still be waiting when a fast run ends).
    const clock = () => new Date(base + 60_000);
    const results = await Promise.all(
      ["a", "b", "c"].map((workerId) =>
        runDueJobs(db, { jobs: JOBS, deps: testJobDeps({ mail, clock }), workerId, limit: 7 }),
      ),
    );
    expect(results.reduce((n, r) => n + r.claimed, 0)).toBe(60);
    expect(mail.sent).toHaveLength(60);
    expect(new Set(mail.sent.map((m) => m.id)).size).toBe(60);
  });

  it("retries a mail the transport refuses, with backoff, and marks it FAILED after the last attempt", async () => {
    const db = await getDb();
    const { id: accountId } = await account("flush");
    const mail = recordingTransport();
    let now = Date.parse("2026-03-01T10:00:00Z");
    const deps = testJobDeps({ mail, clock: () => new Date(now) });
    const refused = await queueEmail(db, {
      accountId,
      to: "b@example.com",
      subject: "S",
      text: "T",
      kind: "test",
      now: new Date(now),
    });
    mail.refuse("transport down");
    for (let attempt = 1; attempt <= 5; attempt++) {
      await runJobsNow(db, deps);
      expect(await db.outgoingEmail.findUniqueOrThrow({ where: { id: refused.id } })).toMatchObject({
        status: "PENDING",
        attempts: attempt,
        lastError: "transport down",
      });
      // Not again before its backoff (10 s, 20 s, 40 s…).
      expect(await runJobsNow(db, deps)).toEqual({ claimed: 0 });
      now += 10_000 * 2 ** (attempt - 1);
    }
    await runJobsNow(db, deps);
    expect(await db.outgoingEmail.findUniqueOrThrow({ where: { id: refused.id } })).toMatchObject({
      status: "FAILED",
      attempts: 6,
      sentAt: null,
    });
    expect(mail.sent).toHaveLength(0);
    // A refusal that passes: the next mail goes out on the first try.
    mail.refuse(null);
    await queueEmail(db, { accountId, to: "a@example.com", subject: "S", text: "T", kind: "test", now: new Date(now) });
    await runJobsNow(db, deps);
    expect(mail.sent.map((m) => m.to)).toEqual(["a@example.com"]);
  });

  it("lists an account's mail newest first, page by page, filtered by status, with counts", async () => {
    const db = await getDb();
    const { id: accountId } = await account("list");
    const { id: otherId } = await account("other");
    const t0 = Date.parse("2026-03-01T10:00:00Z");
    const ids = await queueNumbered(accountId, 7, (i) => new Date(t0 + (i < 5 ? i : 4) * 1000));
    await queueEmail(db, {
      accountId: otherId,
      to: "x@example.com",
      subject: "X",
      text: "X",
      kind: "test",
      now: new Date(t0),
    });
    await db.outgoingEmail.updateMany({
      where: { id: { in: ids.slice(0, 2) } },
      data: { status: "SENT", sentAt: new Date(t0) },
    });

    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await listOutgoingEmails(db, { accountId, limit: 3, cursor });
      expect(page.transport).toEqual({ name: "log", detail: null });
      seen.push(...page.items.map((m) => m.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(ids));
    // Newest first (the last three share a timestamp: any order among them, but before the rest).
    expect(seen.slice(3)).toEqual([ids[3], ids[2], ids[1], ids[0]]);

    const sentOnly = await listOutgoingEmails(db, { accountId, status: "SENT" });
    expect(sentOnly.items.map((m) => m.id)).toEqual([ids[1], ids[0]]);
    expect(sentOnly.items[0]).toMatchObject({
      to: "r1@example.com",
      subject: "S1",
      text: "Body 1",
      kind: "test",
      status: "SENT",
    });
    expect(await countOutgoingEmails(db, { accountId })).toEqual({ PENDING: 5, SENT: 2, FAILED: 0 });
    await expect(listOutgoingEmails(db, { accountId, cursor: "garbage" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});
