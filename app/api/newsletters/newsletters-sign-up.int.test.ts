/**
 * The public newsletter sign-up and its confirm link over HTTP (docs/newsletters.md), on PGlite
 * and PostgreSQL: a sign-up is a pending subscription with its consent and one confirmation mail
 * (double opt-in), a known address gets the same answer as an unknown one, two sign-ups at once
 * leave one member, one row and one mail, and bad input or a newsletter that is unknown, archived
 * or for paying readers changes nothing. The confirm link confirms on POST only, again is the
 * same, is 400 malformed and 404 for another account or purpose, and does not bring back a reader
 * who unsubscribed after signing up. A link confirms only the sign-up it was mailed for: a later
 * sign-up of the same address (a new request, a new mail) is not confirmed by an older link. The
 * confirmation mail comes from the newsletter's sender.
 */
import { describe, expect, it } from "vitest";

import { PUBLIC_SUBSCRIBE_MESSAGE } from "@/server/newsletters/subscriptions.schema";
import { newsletterTokenKey, signNewsletterToken } from "@/server/newsletters/tokens";
import { call } from "@/server/testing/engagement";
import {
  confirm,
  confirmMails,
  confirmTokenIn,
  memberWithSession,
  oneClick,
  subscriptionSetup,
  type Json,
} from "@/server/testing/newsletter-subscriptions";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { POST as SUBSCRIBE } from "./subscribe/route";

function subscribe(body: unknown, ip = "10.0.0.1") {
  return call(SUBSCRIBE, "POST", "/api/newsletters/subscribe", {}, body, { "x-forwarded-for": ip });
}

describe("public sign-up", () => {
  it("creates a pending subscription with its consent and queues one confirmation mail", async () => {
    const { db, account, daily } = await subscriptionSetup();
    const before = Date.now();
    const res = await subscribe({
      account_id: account.id,
      email: "Ada@Example.com",
      newsletters: ["daily"],
      name: "Ada",
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ message: PUBLIC_SUBSCRIBE_MESSAGE });
    const member = await db.member.findFirstOrThrow({ where: { accountId: account.id, email: "ada@example.com" } });
    expect(member).toMatchObject({ name: "Ada", emailVerified: false });
    const row = await db.newsletterSubscription.findFirstOrThrow({ where: { newsletterId: daily.id } });
    expect(row).toMatchObject({ memberId: member.id, status: "PENDING", consentSource: "widget", confirmedAt: null });
    expect(row.consentedAt.getTime()).toBeGreaterThanOrEqual(before - 5);
    const mails = await confirmMails(db, account.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: "ada@example.com", subject: "Confirm your subscription to Daily Briefing" });
    expect(mails[0]!.text).toContain("/newsletters/confirm/confirm.");
    expect(mails[0]!.headers).toMatchObject({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
  });

  it("mails a new subscriber, who has chosen no language, in the account's: Arabic, right to left", async () => {
    const { db, account } = await subscriptionSetup();
    await db.publisherConfig.update({
      where: { accountId: account.id },
      data: { languageIetfCode: "ar-EG", languageIsoCode: "ar", languageDirection: "rtl" },
    });
    expect(
      (await subscribe({ account_id: account.id, email: "huda@example.com", newsletters: ["daily"] })).status,
    ).toBe(202);
    const [mail] = await confirmMails(db, account.id);
    expect(mail!.subject).toBe("أكّد اشتراكك في Daily Briefing");
    expect(mail!.text.startsWith("مرحبًا huda،")).toBe(true);
    expect(mail!.html).toContain('<html lang="ar" dir="rtl">');
    expect(mail!.html).toContain("text-align:right;");
    expect(mail!.html).toContain("نعم، اشتركني");
    // The link still confirms.
    expect((await confirm(confirmTokenIn(mail!.text))).status).toBe(200);
  });

  it("answers a known, already subscribed address exactly as an unknown one, changing nothing", async () => {
    const { db, account, daily } = await subscriptionSetup();
    const ada = await memberWithSession(db, account.id, "ada@example.com", true);
    expect((await ada.put("daily", { subscribed: true })).status).toBe(200);
    const known = await subscribe({ account_id: account.id, email: "ada@example.com", newsletters: ["daily"] });
    const unknown = await subscribe({ account_id: account.id, email: "zed@example.com", newsletters: ["daily"] });
    expect(known.status).toBe(unknown.status);
    expect(await known.text()).toBe(await unknown.text());
    const row = await db.newsletterSubscription.findFirstOrThrow({
      where: { newsletterId: daily.id, memberId: ada.member.id },
    });
    expect(row).toMatchObject({ status: "ACTIVE", consentSource: "self_service" });
    expect((await confirmMails(db, account.id)).map((m) => m.to)).toEqual(["zed@example.com"]);
  });

  it("two sign-ups at once leave one member, one subscription and one mail", async () => {
    const { db, account } = await subscriptionSetup();
    const body = { account_id: account.id, email: "bo@example.com", newsletters: ["daily"] };
    const answers = await Promise.all([subscribe(body, "10.0.0.2"), subscribe(body, "10.0.0.3")]);
    expect(answers.map((r) => r.status)).toEqual([202, 202]);
    expect(await db.member.count({ where: { accountId: account.id } })).toBe(1);
    expect(await db.newsletterSubscription.count({ where: { accountId: account.id } })).toBe(1);
    expect(await confirmMails(db, account.id)).toHaveLength(1);
  });

  it("refuses bad input with 400 JSON and unknown, archived or paying newsletters with 404, writing nothing", async () => {
    const { db, account, newsletter } = await subscriptionSetup();
    await newsletter("old", { archivedAt: new Date() });
    await newsletter("paid", { audience: "PAYING" });
    const cases: [unknown, number][] = [
      [{ account_id: account.id, email: "not-an-email", newsletters: ["daily"] }, 400],
      [{ account_id: account.id, email: "a@example.com", newsletters: [] }, 400],
      [{ account_id: account.id, email: "a@example.com", newsletters: ["Bad Slug"] }, 400],
      [{ account_id: "x", email: "a@example.com", newsletters: ["daily"] }, 400],
      [{ account_id: account.id, email: "a@example.com", newsletters: ["daily", "nope"] }, 404],
      [{ account_id: account.id, email: "a@example.com", newsletters: ["old"] }, 404],
      [{ account_id: account.id, email: "a@example.com", newsletters: ["paid"] }, 404],
      [{ account_id: 2_000_000_000, email: "a@example.com", newsletters: ["daily"] }, 404],
    ];
    for (const [body, status] of cases) {
      const res = await subscribe(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as Json).error?.code).toBe(status === 400 ? "BAD_REQUEST" : "NOT_FOUND");
    }
    const malformed = await call(SUBSCRIBE, "POST", "/api/newsletters/subscribe", {}, "{not json", {
      "content-type": "application/json",
    });
    expect(malformed.status).toBe(400);
    expect(await db.member.count({ where: { accountId: account.id } })).toBe(0);
    expect(await db.newsletterSubscription.count()).toBe(0);
    expect(await db.outgoingEmail.count()).toBe(0);
  });
});

describe("confirm link", () => {
  it("confirms only on POST; again is the same; malformed is 400 and another account's 404", async () => {
    const { db, account, daily } = await subscriptionSetup();
    await subscribe({ account_id: account.id, email: "ada@example.com", newsletters: ["daily"] });
    const t = confirmTokenIn((await confirmMails(db, account.id))[0]!.text);
    const res = await confirm(t);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ newsletter: "Daily Briefing", status: "active" });
    const row = await db.newsletterSubscription.findFirstOrThrow({ where: { newsletterId: daily.id } });
    expect(row.status).toBe("ACTIVE");
    expect(row.confirmedAt).not.toBeNull();
    expect(await (await confirm(t)).json()).toEqual({ newsletter: "Daily Briefing", status: "active" });
    const again = await db.newsletterSubscription.findFirstOrThrow({ where: { newsletterId: daily.id } });
    expect(again.confirmedAt).toEqual(row.confirmedAt);

    // A browser's form is sent on to the page.
    const browser = await confirm(t, { accept: "text/html" });
    expect(browser.status).toBe(303);
    expect(browser.headers.get("location")).toMatch(/\/newsletters\/confirm\/confirm\./);

    const bad = await confirm("confirm.12.short");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).error?.code).toBe("BAD_REQUEST");
    const other = await createTestPublisher(db, { domain: null });
    const forged = signNewsletterToken(newsletterTokenKey(), { accountId: other.id, purpose: "confirm", id: row.id });
    expect((await confirm(forged)).status).toBe(404);
    const wrongPurpose = signNewsletterToken(newsletterTokenKey(), {
      accountId: account.id,
      purpose: "unsubscribe",
      id: row.id,
    });
    expect((await confirm(wrongPurpose)).status).toBe(404);
  });

  it("does not bring back a reader who unsubscribed after signing up", async () => {
    const { db, account, daily } = await subscriptionSetup();
    await subscribe({ account_id: account.id, email: "ada@example.com", newsletters: ["daily"] });
    const mail = (await confirmMails(db, account.id))[0]!;
    const unsub = /<([^>]+)>/.exec((mail.headers as Record<string, string>)["List-Unsubscribe"]!)![1]!;
    const unsubToken = unsub.split("/").pop()!;
    expect((await oneClick(unsubToken)).status).toBe(200);
    expect(await (await confirm(confirmTokenIn(mail.text))).json()).toMatchObject({ status: "unsubscribed" });
    expect(await db.newsletterSubscription.findFirstOrThrow({ where: { newsletterId: daily.id } })).toMatchObject({
      status: "UNSUBSCRIBED",
      unsubscribeSource: "one_click",
    });
  });

  it("confirms only the sign-up it was mailed for, not a later sign-up of the same address", async () => {
    const { db, account, daily } = await subscriptionSetup();
    const body = { account_id: account.id, email: "ada@example.com", newsletters: ["daily"] };
    await subscribe(body);
    const first = (await confirmMails(db, account.id))[0]!;
    // Sign-up A is left unconfirmed; A leaves by the mail's unsubscribe link.
    const unsub = /<([^>]+)>/.exec((first.headers as Record<string, string>)["List-Unsubscribe"]!)![1]!;
    expect((await oneClick(unsub.split("/").pop()!)).status).toBe(200);
    // Someone else signs the address up again: a new request, a new mail.
    await subscribe(body, "10.0.0.9");
    const mails = await confirmMails(db, account.id);
    expect(mails).toHaveLength(2);
    const older = await confirm(confirmTokenIn(first.text));
    expect(older.status).toBe(404);
    expect(((await older.json()) as Json).error?.code).toBe("NOT_FOUND");
    expect(await db.newsletterSubscription.findFirstOrThrow({ where: { newsletterId: daily.id } })).toMatchObject({
      status: "PENDING",
      confirmedAt: null,
    });
    expect(await (await confirm(confirmTokenIn(mails[1]!.text))).json()).toMatchObject({ status: "active" });
  });

  it("a pending sign-up asked again after the resend pause: only the newest mail's link confirms", async () => {
    const { db, account, daily } = await subscriptionSetup();
    const body = { account_id: account.id, email: "bo@example.com", newsletters: ["daily"] };
    await subscribe(body);
    // An hour and more later (the resend pause), the address is signed up again while still pending.
    await db.newsletterSubscription.updateMany({
      where: { newsletterId: daily.id },
      data: { consentedAt: new Date(Date.now() - 2 * 3600_000) },
    });
    await subscribe(body, "10.0.0.8");
    const mails = await confirmMails(db, account.id);
    expect(mails).toHaveLength(2);
    expect((await confirm(confirmTokenIn(mails[0]!.text))).status).toBe(404);
    const row = await db.newsletterSubscription.findFirstOrThrow({ where: { newsletterId: daily.id } });
    expect(row.status).toBe("PENDING");
    expect((await confirm(confirmTokenIn(mails[1]!.text))).status).toBe(200);
  });

  it("comes from the newsletter's sender, with its Reply-To", async () => {
    const { db, account, newsletter } = await subscriptionSetup();
    await newsletter("letters", {
      senderName: "Letters Desk",
      senderEmail: "letters@gazette.test",
      replyTo: "ed@gazette.test",
    });
    await subscribe({ account_id: account.id, email: "cy@example.com", newsletters: ["letters"] });
    const [mail] = await confirmMails(db, account.id);
    expect(mail!.sender).toBe('"Letters Desk" <letters@gazette.test>');
    expect(mail!.headers).toMatchObject({ "Reply-To": "ed@gazette.test" });
  });
});
