/**
 * A widget frame's locale and words, through the frame page's route (docs/widgets.md,
 * "Languages"), on PGlite and PostgreSQL: the container's locale, the original `language`
 * attribute, the host page's `lang`, the account's default, among the locales it offers; the frame
 * is sent that one locale's messages, parsed, with the account's overrides in place; `<html lang
 * dir>` and the title follow. An override or a change of the account's locales shows in the next
 * frame (the process keeps both until the database announces a change).
 */
import { describe, expect, it } from "vitest";

import * as embedRoute from "@/app/embed/[account_id]/[widget]/route";
import { type Locale } from "@/i18n/locales";
import { messagesOf, parseMessage } from "@/i18n/messages";
import { ownWritesHeard } from "@/server/cache/process-cache";
import { getDb } from "@/server/db";
import { removeOverride, saveOverride } from "@/server/i18n/overrides";
import { call } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";

type Frame = { html: string; lang: string; dir: string; title: string; config: Record<string, unknown> };

async function frame(accountId: number, widget: string, query: Record<string, string> = {}): Promise<Frame> {
  const qs = new URLSearchParams({ page_url: "https://news.example.com/story", ...query }).toString();
  const res = await call(embedRoute.GET, "GET", `/embed/${accountId}/${widget}?${qs}`, {
    account_id: String(accountId),
    widget,
  });
  expect(res.status).toBe(200);
  const html = await res.text();
  const [, lang = "", dir = ""] = /<html lang="([^"]*)" dir="([^"]*)">/.exec(html) ?? [];
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
  const json = /<script id="masthead-config" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1];
  return { html, lang, dir, title, config: JSON.parse(json!) as Record<string, unknown> };
}

/** An account whose language is Hindi, offering Hindi, English and Arabic. */
async function hindiAccount() {
  const db = await getDb();
  const account = await createTestPublisher(db, { domain: "news.example.com" });
  await db.publisherConfig.update({
    where: { accountId: account.id },
    data: { languageIetfCode: "hi-IN", languageIsoCode: "hi", localesOffered: ["en", "ar"] },
  });
  await ownWritesHeard(db);
  return { db, account };
}

const parsed = (locale: Locale, key: string) => parseMessage(messagesOf("widgets", locale).get(key)!);

describe("a widget frame's locale", () => {
  it("is the container's, then the original language attribute's, then the page's, else the account's default", async () => {
    const { account } = await hindiAccount();
    const cases: [Record<string, string>, Locale][] = [
      [{}, "hi"],
      [{ locale: "ar" }, "ar"],
      [{ locale: "ar-EG", language: "en", page_lang: "en" }, "ar"],
      [{ language: "en-GB", page_lang: "ar" }, "en"],
      [{ page_lang: "ar-SA" }, "ar"],
      // A locale the account does not offer is passed over, as is a tag that is not one.
      [{ locale: "fr", page_lang: "en-US" }, "en"],
      [{ locale: "pt-BR", language: "de" }, "hi"],
      [{ locale: "<script>", page_lang: "x" }, "hi"],
    ];
    for (const [query, locale] of cases) {
      const got = await frame(account.id, "comments", query);
      expect({ query, locale: got.lang }).toEqual({ query, locale });
      expect(got.config.locale).toBe(locale);
      expect(got.dir).toBe(locale === "ar" ? "rtl" : "ltr");
    }
  });

  it("sends that one locale's messages, parsed, and names the frame in it", async () => {
    const { account } = await hindiAccount();
    const arabic = await frame(account.id, "reactions", { locale: "ar" });
    const messages = arabic.config.messages as Record<string, unknown>;
    expect(Object.keys(messages).sort()).toEqual([...messagesOf("widgets", "en").keys()].sort());
    expect(messages.commentCount).toEqual(parsed("ar", "commentCount"));
    expect(messages.comments).toEqual(parsed("ar", "comments"));
    expect(arabic.title).toBe(messagesOf("widgets", "ar").get("reactionsOnPage"));
    expect(arabic.html).not.toContain(messagesOf("widgets", "hi").get("comments")!);
    const hindi = await frame(account.id, "feed");
    expect(hindi.title).toBe(messagesOf("widgets", "hi").get("feedTitle"));
    expect((hindi.config.messages as Record<string, unknown>).comments).toEqual(parsed("hi", "comments"));
  });

  it("follows a change of the account's locales in the next frame", async () => {
    const { db, account } = await hindiAccount();
    expect((await frame(account.id, "comments", { locale: "ar" })).lang).toBe("ar");
    await db.publisherConfig.update({ where: { accountId: account.id }, data: { localesOffered: ["en"] } });
    await ownWritesHeard(db);
    expect((await frame(account.id, "comments", { locale: "ar" })).lang).toBe("hi");
    await db.publisherConfig.update({
      where: { accountId: account.id },
      data: { languageIetfCode: "ar-EG", languageIsoCode: "ar" },
    });
    await ownWritesHeard(db);
    const now = await frame(account.id, "comments");
    expect([now.lang, now.dir]).toEqual(["ar", "rtl"]);
  });
});

describe("an account's own words in a frame", () => {
  it("take the place of the catalogue's in the next frame of that locale only, and go when removed", async () => {
    const { db, account } = await hindiAccount();
    const before = await frame(account.id, "comments", { locale: "ar" });
    expect((before.config.messages as Record<string, unknown>).signedInAs).toEqual(parsed("ar", "signedInAs"));

    const own = "أهلًا بك يا {name}";
    await saveOverride(db, account.id, { surface: "widgets", locale: "ar", key: "signedInAs" }, own, null);
    await saveOverride(db, account.id, { surface: "widgets", locale: "ar", key: "comments" }, "النقاش", null);
    await ownWritesHeard(db);
    const after = await frame(account.id, "comments", { locale: "ar" });
    const messages = after.config.messages as Record<string, unknown>;
    expect(messages.signedInAs).toEqual(parseMessage(own));
    expect(after.title).toBe("النقاش");
    expect(messages.reply).toEqual(parsed("ar", "reply"));
    // Another locale, and another account, keep the catalogue's words.
    const hindi = await frame(account.id, "comments");
    expect((hindi.config.messages as Record<string, unknown>).signedInAs).toEqual(parsed("hi", "signedInAs"));
    const other = await createTestPublisher(db);
    const theirs = await frame(other.id, "comments", { locale: "ar" });
    expect((theirs.config.messages as Record<string, unknown>).signedInAs).toEqual(parsed("ar", "signedInAs"));

    await removeOverride(db, account.id, { surface: "widgets", locale: "ar", key: "comments" });
    await ownWritesHeard(db);
    expect((await frame(account.id, "comments", { locale: "ar" })).title).toBe(
      messagesOf("widgets", "ar").get("comments"),
    );
    // Written by hand, outside the service, it shows as well (the database announces it).
    await db.$executeRaw`UPDATE message_overrides SET message = ${"مرحبًا {name}"} WHERE account_id = ${account.id}`;
    await ownWritesHeard(db);
    const byHand = await frame(account.id, "comments", { locale: "ar" });
    expect((byHand.config.messages as Record<string, unknown>).signedInAs).toEqual(parseMessage("مرحبًا {name}"));
  });

  it("are left out when they no longer fit the message (an argument it is not given)", async () => {
    const { db, account } = await hindiAccount();
    await db.messageOverride.create({
      data: { accountId: account.id, surface: "widgets", locale: "ar", key: "signedInAs", message: "{who}" },
    });
    await ownWritesHeard(db);
    const got = await frame(account.id, "comments", { locale: "ar" });
    expect((got.config.messages as Record<string, unknown>).signedInAs).toEqual(parsed("ar", "signedInAs"));
  });
});
