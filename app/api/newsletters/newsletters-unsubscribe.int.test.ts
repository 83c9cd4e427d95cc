/**
 * How a newsletter subscription ends over HTTP (docs/newsletters.md), on PGlite and PostgreSQL:
 * one-click unsubscribe by a delivery's or a subscription's token (POST only, GET sends the reader
 * to the page; the delivery is marked; idempotent; the page's button records source "link"; 400
 * malformed, 404 another account's or unknown, changing nothing), and bounce and complaint reports
 * with the server key, which suppress the address, unsubscribe with the report's source and mark
 * the latest delivery bounced, and change nothing when sent again.
 */
import { describe, expect, it } from "vitest";

import { createApiKey } from "@/server/auth/api-keys";
import { newsletterTokenKey, signNewsletterToken } from "@/server/newsletters/tokens";
import { call } from "@/server/testing/engagement";
import {
  memberWithSession,
  oneClick,
  subscriptionSetup,
  token,
  type Json,
} from "@/server/testing/newsletter-subscriptions";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { POST as BOUNCES } from "../v1/newsletters/bounces/route";
import { POST as UNSUBSCRIBE, GET as UNSUBSCRIBE_GET } from "./unsubscribe/[token]/route";

describe("one-click unsubscribe", () => {
  it("unsubscribes by a delivery's token on POST only, marks the delivery, and is idempotent", async () => {
    const { db, account, daily } = await subscriptionSetup();
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
    const { db, account, daily } = await subscriptionSetup();
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
    const { db, account } = await subscriptionSetup();
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

describe("bounce and complaint reports", () => {
  it("suppress, unsubscribe with the report's source and mark the latest delivery bounced", async () => {
    const { db, account, daily } = await subscriptionSetup();
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
    const deliver = (sendId: number) =>
      db.newsletterDelivery.create({
        data: { accountId: account.id, sendId, memberId: ada.member.id, email: "ada@example.com", status: "SENT" },
      });
    const old = await deliver(sends[0]!.id);
    const latest = await deliver(sends[1]!.id);
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
