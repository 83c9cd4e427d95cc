/**
 * A reader who signs up in a language keeps it (docs/i18n.md "Choosing the locale"), on PGlite and
 * PostgreSQL: the member API's sign-up saves the locale cookie's or Accept-Language's locale when
 * the account offers it and it is not the default, so the reader's first mails are in it; the
 * newsletter sign-up takes the widget's own locale first. A locale the account does not offer, or
 * its default, saves nothing; a malformed one is 400 and changes nothing.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { POST as bkSignup } from "@/app/api/auth/v1/signup/route";
import { POST as forgot } from "@/app/api/member/forgot-password/route";
import { POST as subscribe } from "@/app/api/newsletters/subscribe/route";
import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { forgetRateLimits } from "@/server/testing/hostile-newsletters";
import { post, uniqueEmail } from "@/server/testing/member-calls";
import { confirmMails, subscriptionSetup } from "@/server/testing/newsletter-subscriptions";
import { createTestPublisher } from "@/server/testing/publishing-factories";

beforeEach(() => {
  forgetPublisherCache();
  forgetRateLimits();
});

async function signUp(headers: Record<string, string>) {
  const email = uniqueEmail("locale");
  const res = await post(bkSignup, "/api/auth/v1/signup", { email, password: "correct horse battery" }, headers);
  expect(res.status).toBe(201);
  const db = await getDb();
  return db.member.findFirstOrThrow({ where: { email }, select: { id: true, email: true, locale: true } });
}

describe("the member API's sign-up", () => {
  it("keeps the browser's language, and the reader's first mail is in it", async () => {
    const db = await getDb();
    await createTestPublisher(db, { name: "The Gazette" });
    const hindi = await signUp({ "accept-language": "hi-IN,hi;q=0.9,en;q=0.8" });
    expect(hindi.locale).toBe("hi");

    expect((await post(forgot, "/api/member/forgot-password", { email: hindi.email })).status).toBeLessThan(300);
    const mail = await db.outgoingEmail.findFirstOrThrow({ where: { to: hindi.email }, orderBy: { id: "desc" } });
    expect(mail.subject).toBe("अपना The Gazette पासवर्ड रीसेट करें");
    expect(mail.html).toContain('lang="hi" dir="ltr"');

    // This browser's own choice (the member pages' cookie) comes before Accept-Language.
    expect((await signUp({ cookie: "masthead_locale=ta", "accept-language": "hi" })).locale).toBe("ta");
    // The account's default (English) and what no locale matches save nothing: the reader follows the default.
    expect((await signUp({ "accept-language": "en-US,en;q=0.9" })).locale).toBeNull();
    expect((await signUp({ "accept-language": "zh-CN, x!!, ;q=1" })).locale).toBeNull();
    expect((await signUp({})).locale).toBeNull();
  });

  it("saves only a locale the account offers", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db, { name: "The Gazette" });
    await db.publisherConfig.update({ where: { accountId: account.id }, data: { localesOffered: ["en", "es"] } });
    expect((await signUp({ "accept-language": "hi, es;q=0.5" })).locale).toBe("es");
    expect((await signUp({ "accept-language": "ar" })).locale).toBeNull();
  });
});

describe("the newsletter sign-up", () => {
  const send = (body: unknown, headers: Record<string, string> = {}) =>
    post(subscribe, "/api/newsletters/subscribe", body, { "x-forwarded-for": "10.1.0.1", ...headers });

  it("takes the widget's locale before the browser's, and confirms in it", async () => {
    const { db, account } = await subscriptionSetup();
    const res = await send(
      { account_id: account.id, email: "kavya@example.com", newsletters: ["daily"], locale: "ta" },
      { "accept-language": "hi" },
    );
    expect(res.status).toBe(202);
    const member = await db.member.findFirstOrThrow({ where: { accountId: account.id, email: "kavya@example.com" } });
    expect(member.locale).toBe("ta");
    const [mail] = await confirmMails(db, account.id);
    expect(mail!.html).toContain('<html lang="ta" dir="ltr">');

    // Known already: the reader's saved choice is theirs, a widget does not change it.
    await db.member.update({ where: { id: member.id }, data: { locale: "de" } });
    expect(
      (await send({ account_id: account.id, email: "kavya@example.com", newsletters: ["daily"], locale: "fr" })).status,
    ).toBe(202);
    expect((await db.member.findUniqueOrThrow({ where: { id: member.id } })).locale).toBe("de");
  });

  it("refuses a malformed locale with 400 and creates nobody", async () => {
    const { db, account } = await subscriptionSetup();
    for (const locale of ["<script>", "h", "hi IN", "x".repeat(40), 7]) {
      const res = await send({ account_id: account.id, email: "zed@example.com", newsletters: ["daily"], locale });
      expect(res.status, String(locale)).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("BAD_REQUEST");
    }
    expect(await db.member.count({ where: { accountId: account.id, email: "zed@example.com" } })).toBe(0);
  });
});
