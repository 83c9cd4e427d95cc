/**
 * Readers hear back (docs/engagement.md "Notifications to readers"): replies, mentions and
 * moderators' decisions told by e-mail through the outbox, at once or in the daily digest; the
 * exclusions; never two mails for one event, across two workers and a worker killed mid-way; and
 * the mails as an SMTP server receives them. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { POST as CREATE } from "@/app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments.json/route";
import { POST as HIDE } from "@/app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments/[comment_id]/hide/route";
import { parseEnv } from "@/env.js";

import { withTransaction } from "../../db/transaction";
import { saveOverride } from "../../i18n/overrides";
import { mailTransportFromEnv } from "../../mail/transport";
import { call, pageId, readerJwt } from "../../testing/engagement";
import { runJobsNow, testJobDeps } from "../../testing/jobs";
import {
  ADA,
  BO,
  CY,
  drainJobs as drain,
  notificationMails as mails,
  mention,
  notificationsSetup as setup,
  notificationSummary as summary,
  type Reader,
} from "../../testing/notifications";
import { startSmtpServer, type TestSmtpServer } from "../../testing/smtp-server";
import type { TCommentWire } from "../comments.schema";
import { moderateComment } from "../moderation/queue/queue";
import { deliverCommentNotifications, sendDigest } from "./notify";
import { setPrefs } from "./preferences";
import { nextDigestAt } from "./rules";

const PAGE = "https://news.example.com/politics/a-story";

const text = (t: string) => [{ insert: t }];
async function post(id: string, reader: Reader, ops: unknown[], parent?: number): Promise<TCommentWire> {
  const res = await call(
    CREATE,
    "POST",
    "/x",
    { account_id: id, encoded_url: pageId(PAGE) },
    { comment: { body: { ops }, parent_comment_id: parent }, jwt: await readerJwt(reader) },
  );
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return ((await res.json()) as { comment: TCommentWire }).comment;
}

describe("notifications at once", () => {
  it("a reply tells the parent's author, a mention the mentioned reader; the writer hears nothing of their own", async () => {
    const { db, account, id } = await setup();
    const top = await post(id, ADA, text("First."));
    const cy = await post(id, CY, text("Hello."));
    await post(id, BO, [{ insert: "Agreed, " }, mention(cy.author_id, "Cy"), mention(top.author_id, "Ada")], top.id);
    await post(id, ADA, [{ insert: "Me: " }, mention(top.author_id, "Ada")], top.id);
    await drain(db);
    expect(await summary(db, account.id)).toEqual(["ada@example.com replies", "cy@example.com mentions"]);
    const [toAda] = await mails(db, account.id);
    expect(toAda!.status).toBe("SENT");
    expect(toAda!.subject).toBe(
      'Bo replied to your comment on "https://news.example.com/politics/a-story" · The Gazette',
    );
    expect(toAda!.text).toContain(`${PAGE}#comment-`);
    expect(toAda!.html).toContain("Agreed, @Cy");
    const headers = toAda!.headers as Record<string, string>;
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(headers["List-Unsubscribe"]).toMatch(
      new RegExp(
        `^<http://localhost:3000/api/v1/accounts/${account.id}/notifications/unsubscribe\\?token=\\d+\\.replies\\.[\\w-]{43}>, <mailto:`,
      ),
    );
  });

  it("a moderator's decision on a held comment tells its author, and an approved reply then tells the parent's author", async () => {
    const { db, account, id, moderator } = await setup();
    const top = await post(id, ADA, text("First."));
    await db.page.updateMany({ where: { accountId: account.id }, data: { commentMode: "PRE_MODERATION" } });
    const held = await post(id, BO, text("A held reply."), top.id);
    const rejected = await post(id, CY, text("Another held one."));
    expect(held.is_published).toBe(false);
    await drain(db);
    expect(await summary(db, account.id)).toEqual([]);
    const now = new Date();
    await moderateComment(db, { actor: moderator, input: { commentId: held.id, action: "approve" }, now });
    await moderateComment(db, { actor: moderator, input: { commentId: rejected.id, action: "reject" }, now });
    await drain(db);
    expect((await summary(db, account.id)).sort()).toEqual([
      "ada@example.com replies",
      "bo@example.com decisions",
      "cy@example.com decisions",
    ]);
    const toCy = (await mails(db, account.id)).find((m) => m.to === "cy@example.com")!;
    expect(toCy.subject).toContain("A moderator rejected your comment");
    // Approving it afterwards (override) is another decision on the held comment: told once more.
    await moderateComment(db, {
      actor: moderator,
      input: { commentId: rejected.id, action: "approve", override: true },
      now,
    });
    await drain(db);
    expect((await summary(db, account.id)).filter((s) => s.startsWith("cy@"))).toEqual([
      "cy@example.com decisions",
      "cy@example.com decisions",
    ]);
  });

  it("tells nobody banned, without an e-mail, who turned it off, nor about a comment hidden before the mail", async () => {
    const { db, account, id, moderator } = await setup();
    const noEmail = { id: "reader-nomail", name: "Dee" };
    const ada = await post(id, ADA, text("First."));
    const bo = await post(id, BO, text("Second."));
    const cy = await post(id, CY, text("Third."));
    const dee = await post(id, noEmail, text("Fourth."));
    await setPrefs(db, { memberId: bo.author_id, prefs: { replies: "off" }, now: new Date() });
    await db.commentBan.create({
      data: { accountId: account.id, memberId: cy.author_id, reason: "spam", createdById: moderator.id },
    });
    const eve = { id: "reader-eve", name: "Eve", email: "eve@example.com" };
    await post(id, eve, text("to Bo"), bo.id);
    await post(id, eve, text("to Cy"), cy.id);
    await post(id, eve, text("to Dee"), dee.id);
    const hidden = await post(id, eve, text("to Ada, then hidden"), ada.id);
    const res = await call(
      HIDE,
      "POST",
      "/x",
      { account_id: id, encoded_url: pageId(PAGE), comment_id: String(hidden.id) },
      { jwt: await readerJwt(eve) },
    );
    expect(res.status).toBe(200);
    await drain(db);
    expect(await summary(db, account.id)).toEqual([]);
    expect(await db.readerNotification.count()).toBe(0);
    // The same reader, replying visibly, is told about: only the exclusions above kept the others quiet.
    await post(id, eve, text("to Ada, kept"), ada.id);
    await drain(db);
    expect(await summary(db, account.id)).toEqual(["ada@example.com replies"]);
  });
});

describe("never two mails for one event", () => {
  it("two workers running the same event at once write one notification and one mail", async () => {
    const { db, account, id } = await setup();
    const top = await post(id, ADA, text("First."));
    const reply = await post(id, BO, text("A reply."), top.id);
    const now = new Date();
    const args = { commentId: reply.id, now, appUrl: "https://app.example.com" };
    // Two instances' workers on the same database: the same event delivered twice, concurrently,
    // besides the job the create enqueued (run by two workers at once).
    const [a, b] = await Promise.all([
      deliverCommentNotifications(db, args),
      deliverCommentNotifications(db, args),
      runJobsNow(db, testJobDeps(), "worker-a"),
      runJobsNow(db, testJobDeps(), "worker-b"),
    ]);
    expect(a.length + b.length).toBeLessThanOrEqual(1);
    await drain(db);
    expect(await summary(db, account.id)).toEqual(["ada@example.com replies"]);
    expect(await db.readerNotification.count({ where: { commentId: reply.id } })).toBe(1);
  });

  it("a worker killed mid-way leaves nothing; the rerun tells once, a further rerun nothing", async () => {
    const { db, account, id } = await setup();
    const top = await post(id, ADA, text("First."));
    const reply = await post(id, BO, text("A reply."), top.id);
    const args = { commentId: reply.id, now: new Date(), appUrl: "https://app.example.com" };
    await expect(
      withTransaction(db, async (tx) => {
        expect(await deliverCommentNotifications(tx, args)).toHaveLength(1);
        throw new Error("killed");
      }),
    ).rejects.toThrow("killed");
    expect(await db.readerNotification.count()).toBe(0);
    expect(await db.outgoingEmail.count()).toBe(0);
    await drain(db);
    expect(await deliverCommentNotifications(db, args)).toEqual([]);
    await drain(db);
    expect(await summary(db, account.id)).toEqual(["ada@example.com replies"]);
  });
});

describe("notifications in the reader's language", () => {
  it("a reader whose saved locale is Hindi gets the reply in Hindi, once; an Arabic reader's mail reads right to left; the owner's greeting wins", async () => {
    const { db, account, id } = await setup();
    const top = await post(id, ADA, text("First."));
    const cy = await post(id, CY, text("Hello."));
    await db.member.update({ where: { id: top.author_id }, data: { locale: "hi" } });
    await db.member.update({ where: { id: cy.author_id }, data: { locale: "ar" } });
    await saveOverride(db, account.id, { surface: "mail", locale: "ar", key: "greeting" }, "أهلًا بك يا {name}،", null);
    const reply = await post(id, BO, [{ insert: "Agreed, " }, mention(cy.author_id, "Cy")], top.id);
    await drain(db);
    const [toAda, toCy] = await mails(db, account.id);
    expect(toAda!.subject).toBe(`Bo ने "${PAGE}" पर आपकी टिप्पणी का जवाब दिया · The Gazette`);
    expect(toAda!.text.startsWith("नमस्ते Ada,")).toBe(true);
    expect(toAda!.html).toContain('<html lang="hi" dir="ltr">');
    expect(toAda!.html).toContain("टिप्पणी देखें");
    expect(toCy!.html).toContain('<html lang="ar" dir="rtl">');
    expect(toCy!.text.startsWith("أهلًا بك يا Cy،")).toBe(true);
    expect(toCy!.subject).toContain("أشار إليك Bo");
    // The same event again (another worker, a rerun): the locale looked up, nothing written twice.
    expect(await deliverCommentNotifications(db, { commentId: reply.id, now: new Date(), appUrl: "http://x" })).toEqual(
      [],
    );
    expect(await summary(db, account.id)).toEqual(["ada@example.com replies", "cy@example.com mentions"]);
  });

  it("a Hindi reader's daily digest is in Hindi, its count by Hindi plural rules", async () => {
    const { db, account, id } = await setup();
    const top = await post(id, ADA, text("First."));
    await db.member.update({ where: { id: top.author_id }, data: { locale: "hi" } });
    await setPrefs(db, { memberId: top.author_id, prefs: { replies: "digest" }, now: new Date() });
    await post(id, BO, text("One reply."), top.id);
    await drain(db);
    const result = await sendDigest(db, { memberId: top.author_id, now: new Date(), appUrl: "http://x" });
    expect(result.told).toBe(1);
    const [digest] = await mails(db, account.id);
    expect(digest!.subject).toBe("आपकी टिप्पणियों पर 1 नई बात · The Gazette");
    expect(digest!.text).toContain("आपकी टिप्पणियों के जवाब");
    expect(digest!.text).toContain("पिछले सारांश के बाद आपकी टिप्पणियों पर यह हुआ:");
  });
});

describe("the daily digest", () => {
  it("collects a reader's pending notifications into one mail at the digest hour; nothing pending, no mail", async () => {
    const { db, account, id } = await setup();
    const top = await post(id, ADA, text("First."));
    await setPrefs(db, { memberId: top.author_id, prefs: { replies: "digest", mentions: "digest" }, now: new Date() });
    await post(id, BO, text("One reply."), top.id);
    await post(id, CY, [{ insert: "Cy here, " }, mention(top.author_id, "Ada")]);
    const gone = await post(id, CY, text("A reply Cy hides."), top.id);
    await drain(db);
    expect(await summary(db, account.id)).toEqual([]);
    expect(await db.readerNotification.count({ where: { status: "PENDING" } })).toBe(3);
    const job = await db.job.findFirstOrThrow({ where: { name: "notifications.digest" } });
    expect(job.runAt.toISOString()).toBe(nextDigestAt(new Date()).toISOString());
    expect(await db.job.count({ where: { name: "notifications.digest", status: "PENDING" } })).toBe(1);
    await call(
      HIDE,
      "POST",
      "/x",
      { account_id: id, encoded_url: pageId(PAGE), comment_id: String(gone.id) },
      { jwt: await readerJwt(CY) },
    );
    const later = new Date(job.runAt.getTime() + 1000);
    await drain(db, testJobDeps({ clock: () => later }));
    const sent = await mails(db, account.id);
    expect(sent.map((m) => [m.to, m.kind, m.subject])).toEqual([
      ["ada@example.com", "engagement.notification.digest", "2 updates on your comments · The Gazette"],
    ]);
    expect(sent[0]!.text.indexOf("Replies to your comments")).toBeLessThan(sent[0]!.text.indexOf("Mentions of you"));
    expect(sent[0]!.text).not.toContain("A reply Cy hides");
    expect(await db.readerNotification.count({ where: { status: "SKIPPED" } })).toBe(1);
    // Nothing pending: the digest writes nothing.
    expect(await sendDigest(db, { memberId: top.author_id, now: later, appUrl: "http://x" })).toEqual({
      emailId: null,
      told: 0,
      skipped: 0,
    });
  });

  it("two workers sending one reader's digest at once put each notification in one mail", async () => {
    const { db, account, id } = await setup();
    const top = await post(id, ADA, text("First."));
    await setPrefs(db, { memberId: top.author_id, prefs: { replies: "digest" }, now: new Date() });
    await post(id, BO, text("One."), top.id);
    await post(id, CY, text("Two."), top.id);
    await drain(db);
    const now = new Date(Date.now() + 2 * 86_400_000);
    const results = await Promise.all([
      sendDigest(db, { memberId: top.author_id, now, appUrl: "http://x" }),
      sendDigest(db, { memberId: top.author_id, now, appUrl: "http://x" }),
    ]);
    expect(results.map((r) => r.told).sort()).toEqual([0, 2]);
    expect(await summary(db, account.id)).toEqual(["ada@example.com digest"]);
  });
});

/** A header's RFC 2047 encoded words (=?UTF-8?Q?…?= or ?B?) decoded. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, how: string, data: string) =>
      how.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : Buffer.from(
            data
              .replace(/_/g, " ")
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            "latin1",
          ).toString("utf8"),
    );
}

describe("over SMTP", () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer({ user: "mailer", pass: "secret-pass" });
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("arrives with its subject, both parts, the comment's link and one-click unsubscribe", async () => {
    const { db, id } = await setup();
    const top = await post(id, ADA, text("First."));
    await post(id, BO, text("Tom & <Jerry>"), top.id);
    const mail = mailTransportFromEnv(
      parseEnv({ SMTP_URL: `smtp://mailer:secret-pass@127.0.0.1:${smtp.port}`, MAIL_FROM: "News <news@gazette.test>" }),
    );
    await drain(db, testJobDeps({ mail }));
    expect(smtp.received).toHaveLength(1);
    const raw = smtp.received[0]!.raw;
    const unfolded = raw.replace(/\r\n[ \t]+/g, " ");
    expect(smtp.received[0]!.to).toEqual(["ada@example.com"]);
    const subject = /^Subject: (.*)$/m.exec(unfolded)![1]!;
    expect(decodeWords(subject)).toBe(`Bo replied to your comment on "${PAGE}" · The Gazette`);
    expect(unfolded).toMatch(
      /^List-Unsubscribe: <http:\/\/localhost:3000\/api\/v1\/accounts\/\d+\/notifications\/unsubscribe\?token=[^>]+>, <mailto:/m,
    );
    expect(unfolded).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(raw).toContain("Content-Type: text/plain");
    expect(raw).toContain("Content-Type: text/html");
    expect(raw).toContain("Tom &amp; &lt;Jerry&gt;");
  });
});
