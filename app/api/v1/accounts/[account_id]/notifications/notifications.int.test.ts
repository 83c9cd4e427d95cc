/**
 * The reader's notification choices (GET/PUT …/notifications/preferences, as the comment widget
 * calls them) and one-click unsubscribe (…/notifications/unsubscribe?token=, RFC 8058): bad input
 * is 400 naming the field with nothing changed; the POST needs no session; a GET changes nothing.
 */
import { describe, expect, it } from "vitest";

import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import { signUnsubscribeToken, unsubscribeKey } from "@/server/engagement/notifications/token";
import { setupPublisher } from "@/server/testing/comment-calls";
import { call, readerJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { GET, PUT } from "./preferences/route";
import { GET as CONFIRM, POST as UNSUBSCRIBE } from "./unsubscribe/route";

const ADA = { id: "reader-ada", name: "Ada", email: "ada@example.com" };

type Prefs = { preferences: Record<string, string>; email_on_file: boolean; time_zone: string | null };
type ErrorBody = { error: { code: string; details?: { field: string; issue: string }[] } };

async function prefs(id: string, reader = ADA): Promise<Prefs> {
  const res = await call(GET, "GET", `/x?jwt=${await readerJwt(reader)}`, { account_id: id });
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return (await res.json()) as Prefs;
}

async function change(id: string, body: unknown) {
  return call(PUT, "PUT", "/x", { account_id: id }, body);
}

describe("notification preferences", () => {
  it("every kind at once until the reader chooses; a change keeps the kinds it does not name", async () => {
    const { id } = await setupPublisher();
    expect(await prefs(id)).toEqual({
      preferences: { replies: "immediate", mentions: "immediate", decisions: "immediate" },
      email_on_file: true,
      time_zone: null,
    });
    const jwt = await readerJwt(ADA);
    const res = await change(id, { jwt, preferences: { replies: "digest" } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Prefs).preferences).toEqual({
      replies: "digest",
      mentions: "immediate",
      decisions: "immediate",
    });
    await change(id, { jwt, preferences: { mentions: "off", decisions: "digest" } });
    expect((await prefs(id)).preferences).toEqual({ replies: "digest", mentions: "off", decisions: "digest" });
    const other = await createTestPublisher(await getDb());
    expect((await prefs(String(other.id))).preferences.replies).toBe("immediate");
  });

  it("keeps the reader's time zone for the digest's hour, in its canonical spelling, and keeps it when not sent", async () => {
    const { id } = await setupPublisher();
    const jwt = await readerJwt(ADA);
    const res = await change(id, { jwt, preferences: { replies: "digest" }, time_zone: "europe/madrid" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Prefs).time_zone).toBe("Europe/Madrid");
    await change(id, { jwt, preferences: { mentions: "off" } });
    expect((await prefs(id)).time_zone).toBe("Europe/Madrid");
    // The zone alone may change.
    const alone = await change(id, { jwt, time_zone: "America/New_York" });
    expect(alone.status).toBe(200);
    expect((await alone.json()) as Prefs).toEqual({
      preferences: { replies: "digest", mentions: "off", decisions: "immediate" },
      email_on_file: true,
      time_zone: "America/New_York",
    });
  });

  it("says when no e-mail can reach the reader", async () => {
    const { id } = await setupPublisher();
    expect((await prefs(id, { id: "no-mail", name: "Dee" } as typeof ADA)).email_on_file).toBe(false);
  });

  it("bad input is 400 naming the field, nothing changed; no jwt is 401", async () => {
    const { db, id } = await setupPublisher();
    const jwt = await readerJwt(ADA);
    await change(id, { jwt, preferences: { replies: "digest" } });
    for (const [body, field] of [
      [{ jwt, preferences: { replies: "weekly" } }, "body.preferences.replies"],
      [{ jwt, preferences: { replies: "off", sms: "off" } }, "body.preferences"],
      [{ jwt, preferences: {} }, "body.preferences"],
      [{ jwt }, "body.preferences"],
      [{ jwt, preferences: { replies: "off" }, extra: 1 }, "body"],
      [{ jwt, preferences: { replies: "off" }, time_zone: "Mars/Olympus_Mons" }, "body.time_zone"],
      [{ jwt, time_zone: "" }, "body.time_zone"],
      [{ jwt, time_zone: 60 }, "body.time_zone"],
    ] as const) {
      const res = await change(id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = ((await res.json()) as ErrorBody).error;
      expect(error.code).toBe("BAD_REQUEST");
      expect(error.details?.map((d) => d.field)).toContain(field);
    }
    const notJson = await call(PUT, "PUT", `/x?jwt=${jwt}`, { account_id: id }, "{not json", {
      "content-type": "application/json",
    });
    expect(notJson.status).toBe(400);
    expect(await prefs(id)).toMatchObject({ preferences: { replies: "digest" }, time_zone: null });
    expect((await change(id, { preferences: { replies: "off" } })).status).toBe(401);
    expect(await db.readerNotificationPrefs.count()).toBe(1);
  });
});

describe("one-click unsubscribe", () => {
  async function reader() {
    const { db, account, id } = await setupPublisher();
    const jwt = await readerJwt(ADA);
    await change(id, { jwt, preferences: { replies: "digest" } });
    const member = await db.member.findFirstOrThrow({ where: { accountId: account.id } });
    const token = (kind: "replies" | "mentions" | "decisions" | "all", memberId = member.id, accountId = account.id) =>
      signUnsubscribeToken(unsubscribeKey(getEnv()), { accountId, memberId, kind });
    return { db, account, id, member, token };
  }

  it("POST with no session turns the token's kind off (200), and again changes nothing more", async () => {
    const { id, token } = await reader();
    const url = `/x?token=${token("replies")}`;
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const res = await call(UNSUBSCRIBE, "POST", url, { account_id: id }, "List-Unsubscribe=One-Click", headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      unsubscribed: "replies",
      preferences: { replies: "off", mentions: "immediate", decisions: "immediate" },
    });
    expect(
      (await call(UNSUBSCRIBE, "POST", url, { account_id: id }, "List-Unsubscribe=One-Click", headers)).status,
    ).toBe(200);
    const all = await call(UNSUBSCRIBE, "POST", `/x?token=${token("all")}`, { account_id: id });
    expect(all.status).toBe(200);
    expect((await prefs(id)).preferences).toEqual({ replies: "off", mentions: "off", decisions: "off" });
  });

  it("a browser's POST (the confirm page's button) is answered a page", async () => {
    const { id, token } = await reader();
    const res = await call(UNSUBSCRIBE, "POST", `/x?token=${token("mentions")}`, { account_id: id }, undefined, {
      accept: "text/html",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain("You will get no more e-mails about mentions of you");
    expect((await prefs(id)).preferences.mentions).toBe("off");
  });

  it("GET shows a page asking, with a form posting back, and changes nothing", async () => {
    const { id, token } = await reader();
    const res = await call(CONFIRM, "GET", `/x?token=${token("replies")}`, { account_id: id });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("Stop e-mails about replies to your comments?");
    expect(html).toContain('<form method="post"');
    expect(html).toContain('name="List-Unsubscribe" value="One-Click"');
    expect((await prefs(id)).preferences.replies).toBe("digest");
  });

  it("asks and answers in the reader's language: Arabic, right to left", async () => {
    const { db, id, member, token } = await reader();
    await db.member.update({ where: { id: member.id }, data: { locale: "ar" } });
    const page = await (await call(CONFIRM, "GET", `/x?token=${token("all")}`, { account_id: id })).text();
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain("هل تريد إيقاف كل الرسائل المتعلقة بتعليقاتك؟");
    const done = await call(UNSUBSCRIBE, "POST", `/x?token=${token("all")}`, { account_id: id }, undefined, {
      accept: "text/html",
    });
    expect(await done.text()).toContain("لن تصلك بعد الآن أي رسالة تتعلق بتعليقاتك.");
  });

  it("a malformed token is 400, a forged one or one of another account or member 404; nothing changes", async () => {
    const { db, id, account, member, token } = await reader();
    const good = token("replies");
    const forged = good.slice(0, -2) + (good.endsWith("AA") ? "BB" : "AA");
    const other = await createTestPublisher(db);
    const cases: [string, string, number][] = [
      [id, "nonsense", 400],
      [id, `${member.id}.everything.x`, 400],
      [id, forged, 404],
      [id, token("replies", member.id + 999), 404],
      [String(other.id), good, 404],
      [id, token("replies", member.id, other.id), 404],
    ];
    for (const [accountId, t, status] of cases) {
      for (const handler of [UNSUBSCRIBE, CONFIRM]) {
        const method = handler === UNSUBSCRIBE ? "POST" : "GET";
        const res = await call(handler, method, `/x?token=${encodeURIComponent(t)}`, { account_id: accountId });
        expect(res.status, `${method} ${t} on ${accountId}`).toBe(status);
        expect(((await res.json()) as ErrorBody).error.code).toBe(status === 400 ? "BAD_REQUEST" : "NOT_FOUND");
      }
    }
    expect((await call(UNSUBSCRIBE, "POST", "/x", { account_id: id })).status).toBe(400);
    expect((await prefs(id)).preferences.replies).toBe("digest");
    expect(account.id).toBeGreaterThan(0);
  });
});
