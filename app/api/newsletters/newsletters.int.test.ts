/**
 * Readers' newsletter subscriptions over HTTP (docs/newsletters.md), on PGlite and PostgreSQL: the
 * public sign-up (double opt-in, the same answer for known and unknown addresses, one row and one
 * mail under concurrency), the confirm and one-click unsubscribe links (POST only, 400 malformed,
 * 404 another account's), the member API (consent source, verified or not, suppressed addresses),
 * and bounce and complaint reports with the server key. Bad input changes nothing.
 */
import { describe, expect, it } from "vitest";

import { createApiKey } from "@/server/accounts/api-keys";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { placeholderEmail } from "@/server/members/identities";
import { createMemberSession } from "@/server/members/sessions";
import { PUBLIC_SUBSCRIBE_MESSAGE } from "@/server/newsletters/subscriptions.schema";
import { suppress } from "@/server/newsletters/suppression";
import { newsletterTokenKey, signNewsletterToken } from "@/server/newsletters/tokens";
import { call } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { insertTestGroup, insertTestPlan, insertTestSubscription } from "@/server/testing/subscription-fixtures";

import { PUT as MEMBER_PUT } from "../member/newsletters/[slug]/route";
import { GET as MEMBER_LIST } from "../member/newsletters/route";
import { POST as BOUNCES } from "../v1/newsletters/bounces/route";
import { POST as CONFIRM } from "./confirm/[token]/route";
import { POST as SUBSCRIBE } from "./subscribe/route";
import { POST as UNSUBSCRIBE, GET as UNSUBSCRIBE_GET } from "./unsubscribe/[token]/route";

type Json = Record<string, unknown> & { error?: { code: string; details?: { field: string }[] } };

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db, { name: "The Gazette" });
  const newsletter = async (slug: string, extra: Record<string, unknown> = {}) =>
    db.newsletter.create({
      data: {
        accountId: account.id,
        slug,
        name: slug === "daily" ? "Daily Briefing" : `News ${slug}`,
        senderName: "Gazette",
        senderEmail: "news@gazette.test",
        design: { footer: "1 Main St" },
        ...extra,
      },
    });
  const daily = await newsletter("daily");
  const weekly = await newsletter("weekly");
  return { db, account, daily, weekly, newsletter };
}

function subscribe(body: unknown, ip = "10.0.0.1") {
  return call(SUBSCRIBE, "POST", "/api/newsletters/subscribe", {}, body, { "x-forwarded-for": ip });
}

const token = (t: string) => ({ token: t });

function oneClick(t: string, headers: Record<string, string> = {}) {
  return UNSUBSCRIBE(
    new Request(`http://localhost/api/newsletters/unsubscribe/${t}`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/x-www-form-urlencoded", ...headers },
      body: "List-Unsubscribe=One-Click",
    }),
    { params: Promise.resolve(token(t)) },
  );
}

function confirm(t: string, headers: Record<string, string> = {}) {
  return CONFIRM(
    new Request(`http://localhost/api/newsletters/confirm/${t}`, {
      method: "POST",
      headers: { host: "localhost", ...headers },
    }),
    { params: Promise.resolve(token(t)) },
  );
}

async function confirmMails(db: Db, accountId: number) {
  return db.outgoingEmail.findMany({ where: { accountId, kind: "newsletter.confirm" }, orderBy: { createdAt: "asc" } });
}

/** The token at the end of the first `/newsletters/confirm/…` link in a mail's text. */
function confirmTokenIn(text: string): string {
  return /\/newsletters\/confirm\/([A-Za-z0-9._-]+)/.exec(text)![1]!;
}

async function memberWithSession(db: Db, accountId: number, email: string, verified: boolean) {
  const member = await db.member.create({
    data: { accountId, name: "Ada", email, emailVerified: verified, passwordHash: "-" },
  });
  const { token: session } = await createMemberSession(db, { memberId: member.id, now: new Date(), days: 1 });
  const put = (slug: string, body: unknown) =>
    call(MEMBER_PUT, "PUT", `/api/member/newsletters/${slug}`, { slug }, body, { "X-QT-AUTH": session });
  const list = () => call(MEMBER_LIST, "GET", "/api/member/newsletters", {}, undefined, { "X-QT-AUTH": session });
  return { member, put, list };
}

describe("public sign-up", () => {
  it("creates a pending subscription with its consent and queues one confirmation mail", async () => {
    const { db, account, daily } = await setup();
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

  it("answers a known, already subscribed address exactly as an unknown one, changing nothing", async () => {
    const { db, account, daily } = await setup();
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
    const { db, account } = await setup();
    const body = { account_id: account.id, email: "bo@example.com", newsletters: ["daily"] };
    const answers = await Promise.all([subscribe(body, "10.0.0.2"), subscribe(body, "10.0.0.3")]);
    expect(answers.map((r) => r.status)).toEqual([202, 202]);
    expect(await db.member.count({ where: { accountId: account.id } })).toBe(1);
    expect(await db.newsletterSubscription.count({ where: { accountId: account.id } })).toBe(1);
    expect(await confirmMails(db, account.id)).toHaveLength(1);
  });

  it("refuses bad input with 400 JSON and unknown, archived or paying newsletters with 404, writing nothing", async () => {
    const { db, account, newsletter } = await setup();
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
    const { db, account, daily } = await setup();
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
    const { db, account, daily } = await setup();
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
});

describe("one-click unsubscribe", () => {
  it("unsubscribes by a delivery's token on POST only, marks the delivery, and is idempotent", async () => {
    const { db, account, daily } = await setup();
    const ada = await memberWithSession(db, account.id, "ada@example.com", true);
    await ada.put("daily", { subscribed: true });
    const send = await db.newsletterSend.create({
      data: {
        accountId: account.id,
        newsletterId: daily.id,
        kind: "story",
        dedupeKey: "story:test",
        subject: "Hello",
        scheduledAt: new Date(),
      },
    });
    const delivery = await db.newsletterDelivery.create({
      data: {
        accountId: account.id,
        sendId: send.id,
        memberId: ada.member.id,
        email: "ada@example.com",
        status: "SENT",
        sentAt: new Date(),
      },
    });
    const t = signNewsletterToken(newsletterTokenKey(), {
      accountId: account.id,
      purpose: "delivery",
      id: delivery.id,
    });

    const get = await UNSUBSCRIBE_GET(
      new Request(`http://localhost/api/newsletters/unsubscribe/${t}`, { headers: { host: "localhost" } }),
      { params: Promise.resolve(token(t)) },
    );
    expect(get.status).toBe(303);
    expect(get.headers.get("location")).toMatch(new RegExp(`/newsletters/unsubscribe/${t.replace(/\./g, "\\.")}$`));
    expect((await db.newsletterSubscription.findFirstOrThrow({ where: { newsletterId: daily.id } })).status).toBe(
      "ACTIVE",
    );

    const res = await oneClick(t);
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await res.json()).toEqual({ newsletter: "Daily Briefing", status: "unsubscribed" });
    const row = await db.newsletterSubscription.findFirstOrThrow({ where: { newsletterId: daily.id } });
    expect(row).toMatchObject({ status: "UNSUBSCRIBED", unsubscribeSource: "one_click" });
    const marked = await db.newsletterDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(marked.unsubscribedAt).not.toBeNull();

    expect((await oneClick(t)).status).toBe(200);
    const again = await db.newsletterSubscription.findFirstOrThrow({ where: { newsletterId: daily.id } });
    expect(again.unsubscribedAt).toEqual(row.unsubscribedAt);
    expect((await db.newsletterDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).unsubscribedAt).toEqual(
      marked.unsubscribedAt,
    );

    // The self-service list shows it.
    const list = (await (await ada.list()).json()) as { newsletters: { slug: string; status: string }[] };
    expect(list.newsletters.find((n) => n.slug === "daily")).toMatchObject({
      status: "unsubscribed",
      subscribed: false,
    });
  });

  it('the page\'s button (a browser form, no one-click body) records source "link" and returns to the page', async () => {
    const { db, account, daily } = await setup();
    const ada = await memberWithSession(db, account.id, "ada@example.com", true);
    await ada.put("daily", { subscribed: true });
    const row = await db.newsletterSubscription.findFirstOrThrow({ where: { newsletterId: daily.id } });
    const t = signNewsletterToken(newsletterTokenKey(), { accountId: account.id, purpose: "unsubscribe", id: row.id });
    const res = await UNSUBSCRIBE(
      new Request(`http://localhost/api/newsletters/unsubscribe/${t}`, {
        method: "POST",
        headers: {
          host: "localhost",
          accept: "text/html,application/xhtml+xml",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "",
      }),
      { params: Promise.resolve(token(t)) },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/newsletters/unsubscribe/${t}`);
    expect(await db.newsletterSubscription.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: "UNSUBSCRIBED",
      unsubscribeSource: "link",
    });
  });

  it("answers 400 JSON for a malformed token and 404 for another account's, changing nothing", async () => {
    const { db, account } = await setup();
    const ada = await memberWithSession(db, account.id, "ada@example.com", true);
    await ada.put("daily", { subscribed: true });
    const row = await db.newsletterSubscription.findFirstOrThrow({ where: { memberId: ada.member.id } });
    const bad = await oneClick("unsubscribe.x.y");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).error?.code).toBe("BAD_REQUEST");
    const other = await createTestPublisher(db, { domain: null });
    const forged = signNewsletterToken(newsletterTokenKey(), {
      accountId: other.id,
      purpose: "unsubscribe",
      id: row.id,
    });
    const res = await oneClick(forged);
    expect(res.status).toBe(404);
    expect(((await res.json()) as Json).error?.code).toBe("NOT_FOUND");
    const missing = signNewsletterToken(newsletterTokenKey(), {
      accountId: account.id,
      purpose: "delivery",
      id: 999_999,
    });
    expect((await oneClick(missing)).status).toBe(404);
    expect((await db.newsletterSubscription.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("ACTIVE");
  });
});

describe("member API", () => {
  it("lists what the reader may join and records the consent of each change", async () => {
    const { db, account, newsletter } = await setup();
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
    const { db, account, newsletter } = await setup();
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
    const { db, account } = await setup();
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
    const { db, account } = await setup();
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
    const { db, account } = await setup();
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

describe("bounce and complaint reports", () => {
  it("suppress, unsubscribe with the report's source and mark the latest delivery bounced", async () => {
    const { db, account, daily } = await setup();
    const { key } = await createApiKey(db, { accountId: account.id, kind: "SERVER", name: "mailer" });
    const ada = await memberWithSession(db, account.id, "ada@example.com", true);
    const bo = await memberWithSession(db, account.id, "bo@example.com", true);
    await ada.put("daily", { subscribed: true });
    await bo.put("daily", { subscribed: true });
    const sends = [];
    for (const n of [1, 2]) {
      sends.push(
        await db.newsletterSend.create({
          data: {
            accountId: account.id,
            newsletterId: daily.id,
            kind: "story",
            dedupeKey: `story:${n}`,
            subject: "S",
            scheduledAt: new Date(),
          },
        }),
      );
    }
    const old = await db.newsletterDelivery.create({
      data: {
        accountId: account.id,
        sendId: sends[0]!.id,
        memberId: ada.member.id,
        email: "ada@example.com",
        status: "SENT",
      },
    });
    const latest = await db.newsletterDelivery.create({
      data: {
        accountId: account.id,
        sendId: sends[1]!.id,
        memberId: ada.member.id,
        email: "ada@example.com",
        status: "SENT",
      },
    });
    const report = (body: unknown, k: string | null = key) =>
      call(BOUNCES, "POST", "/api/v1/newsletters/bounces", {}, body, k ? { "X-SUBAUTH": k } : {});

    expect((await report({ bounces: [{ email: "ada@example.com", type: "bounce" }] }, null)).status).toBe(401);
    const bad = await report({ bounces: [{ email: "ada@example.com", type: "soft" }] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).error?.details?.[0]?.field).toMatch(/bounces/);
    expect(await db.emailSuppression.count()).toBe(0);

    const res = await report({
      bounces: [
        { email: "ADA@example.com", type: "bounce", detail: "550 5.1.1 user unknown" },
        { email: "bo@example.com", type: "complaint" },
        { email: "nobody@example.com", type: "bounce" },
      ],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ addresses: 3, unsubscribed: 2, deliveries_marked: 1 });
    const rows = await db.newsletterSubscription.findMany({
      where: { newsletterId: daily.id },
      orderBy: { memberId: "asc" },
    });
    expect(rows.map((r) => [r.status, r.unsubscribeSource])).toEqual([
      ["UNSUBSCRIBED", "bounce"],
      ["UNSUBSCRIBED", "complaint"],
    ]);
    expect(
      await db.emailSuppression.findMany({
        where: { accountId: account.id },
        orderBy: { email: "asc" },
        select: { email: true, reason: true },
      }),
    ).toEqual([
      { email: "ada@example.com", reason: "bounce" },
      { email: "bo@example.com", reason: "complaint" },
      { email: "nobody@example.com", reason: "bounce" },
    ]);
    expect(await db.newsletterDelivery.findUniqueOrThrow({ where: { id: latest.id } })).toMatchObject({
      status: "BOUNCED",
    });
    expect((await db.newsletterDelivery.findUniqueOrThrow({ where: { id: latest.id } })).bouncedAt).not.toBeNull();
    expect(await db.newsletterDelivery.findUniqueOrThrow({ where: { id: old.id } })).toMatchObject({
      status: "SENT",
      bouncedAt: null,
    });

    // The same report again changes nothing.
    expect(await (await report({ bounces: [{ email: "ada@example.com", type: "bounce" }] })).json()).toEqual({
      addresses: 1,
      unsubscribed: 0,
      deliveries_marked: 0,
    });
  });
});
