/**
 * The member API of newsletters over HTTP (docs/newsletters.md), on PGlite and PostgreSQL: a
 * reader with a session lists the newsletters they may join (paying ones only while they pay for
 * one of its plans, or while subscribed) and each change records its consent with source
 * "self_service"; an unverified reader is pending with a confirmation mail, one row however many
 * joins at once; a reader known by a publisher's JWT is mailed at their communication address, or
 * refused 422 without one; a suppressed address must confirm, and confirming lifts the
 * suppression.
 */
import { describe, expect, it } from "vitest";

import { placeholderEmail } from "@/server/members/identities";
import { suppress } from "@/server/newsletters/suppression";
import { call } from "@/server/testing/engagement";
import {
  confirm,
  confirmMails,
  confirmTokenIn,
  memberWithSession,
  subscriptionSetup,
} from "@/server/testing/newsletter-subscriptions";
import { insertTestGroup, insertTestPlan, insertTestSubscription } from "@/server/testing/subscription-fixtures";

import { GET as MEMBER_LIST } from "../member/newsletters/route";

describe("member API", () => {
  it("lists what the reader may join and records the consent of each change", async () => {
    const { db, account, newsletter } = await subscriptionSetup();
    await newsletter("paid", { audience: "PAYING", planIds: [1] });
    await newsletter("gone", { archivedAt: new Date() });
    const ada = await memberWithSession(db, account.id, "ada@example.com", true);
    const list = (await (await ada.list()).json()) as { newsletters: { slug: string; status: string }[] };
    expect(list.newsletters.map((n) => [n.slug, n.status])).toEqual([
      ["daily", "none"],
      ["weekly", "none"],
    ]);
    const on = await ada.put("daily", { subscribed: true });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ newsletter: { slug: "daily", status: "active", subscribed: true } });
    const row = await db.newsletterSubscription.findFirstOrThrow({ where: { memberId: ada.member.id } });
    expect(row).toMatchObject({ consentSource: "self_service", status: "ACTIVE" });
    expect(await confirmMails(db, account.id)).toHaveLength(0);

    const off = await ada.put("daily", { subscribed: false });
    expect(await off.json()).toMatchObject({ newsletter: { status: "unsubscribed", subscribed: false } });
    expect(await db.newsletterSubscription.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: "UNSUBSCRIBED",
      unsubscribeSource: "self_service",
    });
    // Back again: the consent is refreshed.
    await ada.put("daily", { subscribed: true });
    const back = await db.newsletterSubscription.findUniqueOrThrow({ where: { id: row.id } });
    expect(back).toMatchObject({ status: "ACTIVE", unsubscribedAt: null, unsubscribeSource: null });
    expect(back.consentedAt.getTime()).toBeGreaterThan(row.consentedAt.getTime() - 1);

    expect((await ada.put("paid", { subscribed: true })).status).toBe(404);
    expect((await ada.put("gone", { subscribed: true })).status).toBe(404);
    const bad = await ada.put("daily", { subscribed: "yes" });
    expect(bad.status).toBe(400);
    const anonymous = await call(MEMBER_LIST, "GET", "/api/member/newsletters", {});
    expect(anonymous.status).toBe(401);
  });

  it("shows a paying newsletter to readers who pay for one of its plans, and while subscribed", async () => {
    const { db, account, newsletter } = await subscriptionSetup();
    const group = await insertTestGroup(db, account.id);
    const premium = await insertTestPlan(db, group, { title: "Premium" });
    const basic = await insertTestPlan(db, group, { title: "Basic" });
    await newsletter("insider", { audience: "PAYING", planIds: [premium.id] });
    const payer = await memberWithSession(db, account.id, "payer@example.com", true);
    const other = await memberWithSession(db, account.id, "other@example.com", true);
    await insertTestSubscription(db, { accountId: account.id, memberId: payer.member.id, planId: premium.id });
    await insertTestSubscription(db, { accountId: account.id, memberId: other.member.id, planId: basic.id });
    const slugs = async (reader: typeof payer) =>
      ((await (await reader.list()).json()) as { newsletters: { slug: string }[] }).newsletters.map((n) => n.slug);
    expect(await slugs(payer)).toContain("insider");
    expect(await slugs(other)).not.toContain("insider");
    expect((await payer.put("insider", { subscribed: true })).status).toBe(200);
    expect((await other.put("insider", { subscribed: true })).status).toBe(404);
    // The plan ends: still listed while subscribed, so the reader can leave.
    await db.subscription.updateMany({ where: { memberId: payer.member.id }, data: { status: "EXPIRED" } });
    expect(await slugs(payer)).toContain("insider");
    expect(await (await payer.put("insider", { subscribed: false })).json()).toMatchObject({
      newsletter: { status: "unsubscribed" },
    });
    expect(await slugs(payer)).not.toContain("insider");
  });

  it("an unverified reader is pending with a confirmation mail; two joins at once leave one row", async () => {
    const { db, account } = await subscriptionSetup();
    const bo = await memberWithSession(db, account.id, "bo@example.com", false);
    const answers = await Promise.all([bo.put("weekly", { subscribed: true }), bo.put("weekly", { subscribed: true })]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(await db.newsletterSubscription.count({ where: { memberId: bo.member.id } })).toBe(1);
    expect(await db.newsletterSubscription.findFirstOrThrow({ where: { memberId: bo.member.id } })).toMatchObject({
      status: "PENDING",
    });
    expect(await confirmMails(db, account.id)).toHaveLength(1);
  });

  it("mails a reader known by a publisher's JWT at their communication e-mail; without one, 422 and nothing written", async () => {
    const { db, account } = await subscriptionSetup();
    const jo = await memberWithSession(db, account.id, placeholderEmail("publisher"), false);
    await db.member.update({ where: { id: jo.member.id }, data: { communicationEmail: "Jo@Example.com" } });
    expect(await (await jo.put("daily", { subscribed: true })).json()).toMatchObject({
      newsletter: { status: "pending" },
    });
    expect((await confirmMails(db, account.id)).map((m) => m.to)).toEqual(["jo@example.com"]);

    const nobody = await memberWithSession(db, account.id, placeholderEmail("publisher"), false);
    const res = await nobody.put("daily", { subscribed: true });
    expect(res.status).toBe(422);
    expect(await db.newsletterSubscription.count({ where: { memberId: nobody.member.id } })).toBe(0);
    expect(await confirmMails(db, account.id)).toHaveLength(1);
  });

  it("a suppressed address must confirm, even verified; confirming lifts the suppression", async () => {
    const { db, account } = await subscriptionSetup();
    for (const reason of ["complaint", "bounce"] as const) {
      const email = `${reason}@example.com`;
      const reader = await memberWithSession(db, account.id, email, true);
      await suppress(db, { accountId: account.id, email, reason });
      const res = await reader.put("daily", { subscribed: true });
      expect(await res.json()).toMatchObject({ newsletter: { status: "pending" } });
      const mail = (await confirmMails(db, account.id)).find((m) => m.to === email)!;
      expect(await db.emailSuppression.count({ where: { accountId: account.id, email } })).toBe(1);
      expect((await confirm(confirmTokenIn(mail.text))).status).toBe(200);
      expect(await db.emailSuppression.count({ where: { accountId: account.id, email } })).toBe(0);
      expect(await db.newsletterSubscription.findFirstOrThrow({ where: { memberId: reader.member.id } })).toMatchObject(
        {
          status: "ACTIVE",
        },
      );
    }
  });
});
