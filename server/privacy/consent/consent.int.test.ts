/**
 * Consent records (./consent.ts): a newsletter consent given on the sign-up widget, confirmed by the
 * link, and given then withdrawn on the member page, each recorded with its channel and wording;
 * one wording stored once for many readers; comment-notification kinds turned off and on; the
 * history scoped to its account; records append-only; erasure removes them. Both databases.
 */
import { describe, expect, it } from "vitest";

import { setPrefs } from "../../engagement/notifications/preferences";
import { publicSubscribe } from "../../newsletters/subscriptions";
import {
  confirm,
  confirmMails,
  confirmTokenIn,
  memberWithSession,
  subscriptionSetup,
} from "../../testing/newsletter-subscriptions";
import { createTestPublisher } from "../../testing/publishing-factories";
import { consentHistory, eraseConsentRecords, recordConsent, sha256Hex } from "./consent";

describe("consent records", () => {
  it("records a widget sign-up and its confirmation with the wording shown, in the locale shown", async () => {
    const { db, account, daily } = await subscriptionSetup();
    await publicSubscribe(db, {
      accountId: account.id,
      email: "lea@example.com",
      slugs: ["daily"],
      source: "widget",
      locale: "fr",
      now: new Date("2026-11-20T10:00:00Z"),
    });
    const member = await db.member.findFirstOrThrow({ where: { accountId: account.id, email: "lea@example.com" } });
    const [mail] = await confirmMails(db, account.id);
    expect((await confirm(confirmTokenIn(mail!.text))).status).toBe(200);

    const history = await consentHistory(db, account.id, member.id);
    expect(history).toHaveLength(2);
    const [signUp, confirmed] = history;
    expect(signUp).toMatchObject({
      purpose: `newsletter:${daily.id}`,
      purposeLabel: "Newsletter “Daily Briefing”",
      given: true,
      channel: "widget",
      locale: "fr",
    });
    expect(signUp!.text).toContain("Vous pouvez vous désabonner");
    expect(signUp!.textSha256).toBe(sha256Hex(signUp!.text!));
    expect(confirmed).toMatchObject({ given: true, channel: "confirmation_link", locale: "fr" });
    expect(confirmed!.text).toContain("Daily Briefing");
    expect(confirmed!.occurredAt.getTime()).toBeGreaterThanOrEqual(signUp!.occurredAt.getTime());
  });

  it("records given then withdrawn on the member page, and stores one wording once for every reader", async () => {
    const { db, account, daily } = await subscriptionSetup();
    const ada = await memberWithSession(db, account.id, "ada@example.com", true);
    const bo = await memberWithSession(db, account.id, "bo@example.com", true);
    expect((await ada.put("daily", { subscribed: true })).status).toBe(200);
    expect((await bo.put("daily", { subscribed: true })).status).toBe(200);
    expect((await ada.put("daily", { subscribed: false })).status).toBe(200);
    // Leaving again changes nothing and records nothing.
    expect((await ada.put("daily", { subscribed: false })).status).toBe(200);

    const history = await consentHistory(db, account.id, ada.member.id);
    expect(history.map((h) => [h.given, h.channel, h.purpose])).toEqual([
      [true, "member_page", `newsletter:${daily.id}`],
      [false, "member_page", `newsletter:${daily.id}`],
    ]);
    expect(history[0]!.text).toContain("You can unsubscribe at any time");
    expect(history[1]!.text).toBeNull();
    const boHistory = await consentHistory(db, account.id, bo.member.id);
    expect(boHistory[0]!.textSha256).toBe(history[0]!.textSha256);
    expect(await db.consentText.count({ where: { sha256: history[0]!.textSha256! } })).toBe(1);
    expect(await db.consentText.count()).toBe(1);
  });

  it("records comment-notification kinds turned off (a mail's link) and on again (the widget)", async () => {
    const { db, account } = await subscriptionSetup();
    const member = await db.member.create({
      data: { accountId: account.id, name: "Cy", email: "cy@example.com", passwordHash: "-" },
    });
    await setPrefs(db, {
      memberId: member.id,
      prefs: { replies: "off" },
      now: new Date(),
      channel: "unsubscribe_link",
    });
    // At once → digest is no change of consent.
    await setPrefs(db, { memberId: member.id, prefs: { mentions: "digest" }, now: new Date(), channel: "widget" });
    await setPrefs(db, { memberId: member.id, prefs: { replies: "digest" }, now: new Date(), channel: "widget" });
    const history = await consentHistory(db, account.id, member.id);
    expect(history.map((h) => [h.purpose, h.given, h.channel])).toEqual([
      ["notification:replies", false, "unsubscribe_link"],
      ["notification:replies", true, "widget"],
    ]);
    expect(history[0]!.text).toBeNull();
    expect(history[1]!.text).toBe(
      "Choose what we e-mail you about your comments.\nReplies to my comments: Daily digest",
    );
  });

  it("keeps records append-only, answers only for the reader's account, and erases them", async () => {
    const { db, account, daily } = await subscriptionSetup();
    const other = await createTestPublisher(db);
    const ada = await memberWithSession(db, account.id, "ada@example.com", true);
    await ada.put("daily", { subscribed: true });
    const [record] = await db.consentRecord.findMany({ where: { memberId: ada.member.id } });
    await expect(db.consentRecord.update({ where: { id: record!.id }, data: { given: false } })).rejects.toThrow();
    await expect(consentHistory(db, other.id, ada.member.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      recordConsent(db, {
        accountId: account.id,
        memberId: ada.member.id,
        purpose: "newsletter:constructor",
        given: true,
        channel: "api",
        now: new Date(),
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });

    expect(await eraseConsentRecords(db, other.id, ada.member.id)).toEqual({ records: 0, importedConsents: 0 });
    expect(await eraseConsentRecords(db, account.id, ada.member.id)).toEqual({ records: 1, importedConsents: 0 });
    expect(await eraseConsentRecords(db, account.id, ada.member.id)).toEqual({ records: 0, importedConsents: 0 });
    expect(await consentHistory(db, account.id, ada.member.id)).toEqual([]);
    // The shared wording stays: it holds nothing of the reader.
    expect(await db.consentText.count()).toBe(1);
    expect(daily.id).toBeGreaterThan(0);
  });
});
