/**
 * The queue-age alert as a moderator receives it (docs/engagement.md "Shifts and surges"): the
 * recurring surge watch, run by the job engine on a test clock, starts an episode when a pending
 * comment has waited past the account's setting, and the mail job delivers one e-mail to a real
 * SMTP server: to the moderator who asked for it, saying how many comments wait, since when in the
 * account's time zone, with the link to the queue. Later passes of the watch send nothing more
 * until the queue was cleared; the next episode sends the next e-mail. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { parseEnv } from "@/env.js";

import { getDb } from "../../../db";
import type { Db } from "../../../db/client";
import { ensureRecurringJobs } from "../../../jobs/engine";
import { mailTransportFromEnv } from "../../../mail/transport";
import { runJobsNow, testJobDeps } from "../../../testing/jobs";
import { createTestPublisher } from "../../../testing/publishing-factories";
import { startSmtpServer, type TestSmtpServer } from "../../../testing/smtp-server";
import { createTestStaff } from "../../../testing/staff";

const MINUTE = 60_000;

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer({ user: "mailer", pass: "secret-pass" });
});
afterAll(async () => {
  await smtp.close();
});

/** One pass of a job runner at `at` (the recurring watch scheduled, every due job run) until nothing is due. */
async function runAt(db: Db, at: Date): Promise<void> {
  const mail = mailTransportFromEnv(
    parseEnv({
      SMTP_URL: `smtp://mailer:secret-pass@127.0.0.1:${smtp.port}`,
      MAIL_FROM: "Masthead <desk@masthead.test>",
    }),
  );
  await ensureRecurringJobs(db, at);
  for (let pass = 0; pass < 10; pass++) {
    const { claimed } = await runJobsNow(
      db,
      testJobDeps({ clock: () => at, mail, appUrl: "https://masthead.example" }),
    );
    if (claimed === 0) return;
  }
  throw new Error("jobs kept coming");
}

/** The decoded text of a quoted-printable body (soft line breaks joined). */
const decoded = (raw: string) =>
  raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\r\n[ \t]+/g, " ");

describe("queue-age alert over SMTP", () => {
  it("reaches the moderator who asked, once per episode", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    await db.moderationSurgeSettings.create({
      data: { accountId: account.id, alertAfterMinutes: 30, timeZone: "Europe/Paris", updatedAt: new Date() },
    });
    const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"], name: "Mo" });
    await moderator.caller.moderationSurges.setAlertSubscription({ subscribed: true });
    await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] }); // did not ask
    const page = await db.page.create({ data: { accountId: account.id, url: "https://news.example.com/a" } });
    const author = await db.member.create({
      data: { accountId: account.id, name: "Reader", email: `r-${account.id}@example.com`, passwordHash: "unused" },
    });
    const t0 = new Date("2026-11-30T09:00:00.000Z");
    const waiting = (at: Date, text: string) =>
      db.comment.create({
        data: {
          accountId: account.id,
          pageId: page.id,
          authorId: author.id,
          body: { ops: [{ insert: `${text}\n` }] },
          bodyDigest: `${text}-${Math.random()}`,
          isPublished: false,
          createdAt: at,
        },
      });
    const first = await waiting(new Date(t0.getTime() - 45 * MINUTE), "first");
    await waiting(new Date(t0.getTime() - 10 * MINUTE), "second");

    const before = smtp.received.length;
    await runAt(db, t0);
    const ours = () => smtp.received.slice(before);
    expect(ours()).toHaveLength(1);
    const message = ours()[0]!;
    expect(message.to).toEqual([moderator.user.email]);
    const raw = decoded(message.raw);
    expect(raw).toMatch(/^Subject: .*comments have waited over 30 min for moderation/m);
    expect(raw).toContain("2 comments are waiting for a moderator");
    expect(raw).toContain("The oldest has waited 45 min");
    // 08:15 UTC is 09:15 in Paris (CET).
    expect(raw).toContain("09:15:00 CET");
    expect(raw).toContain("https://masthead.example/admin/engagement/moderation?order=oldest");

    // The next minutes: the same episode, nothing more.
    await runAt(db, new Date(t0.getTime() + MINUTE));
    await runAt(db, new Date(t0.getTime() + 2 * MINUTE));
    expect(ours()).toHaveLength(1);

    // Cleared below the age (the old one decided), then a comment waits too long again: one more e-mail.
    await db.comment.update({
      where: { id: first.id },
      data: { isPublished: true, moderationState: "APPROVED", decidedAt: new Date(t0.getTime() + 3 * MINUTE) },
    });
    await runAt(db, new Date(t0.getTime() + 3 * MINUTE));
    expect(ours()).toHaveLength(1);
    await runAt(db, new Date(t0.getTime() + 21 * MINUTE)); // "second" is 31 minutes old
    expect(ours()).toHaveLength(2);
    expect(decoded(ours()[1]!.raw)).toContain("1 comment is waiting for a moderator");
    expect(await db.moderationAlertEpisode.count({ where: { accountId: account.id } })).toBe(2);
  });
});
