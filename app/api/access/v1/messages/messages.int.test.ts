/**
 * GET /api/access/v1/messages (docs/subscriptions.md, "Browser SDK"): the SDK's words in the locale
 * chosen from the page's explicit option, then its language, then the account's default, among the
 * offered locales; parsed, with the account's overrides in force; public, kept and purged when an
 * override of that locale or the account's locales change. Bad input is 400 or 401, never 500.
 * PGlite and PostgreSQL.
 */
import fc from "fast-check";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";

import { messagesOf } from "@/i18n/messages";
import { translator } from "@/i18n/translate";
import { createApiKey } from "@/server/auth/api-keys";
import { ownWritesHeard } from "@/server/cache/process-cache";
import { getDb } from "@/server/db";
import { removeOverride, saveOverride } from "@/server/i18n/overrides";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { enableResponseCache } from "@/server/testing/response-cache";
import { callGet } from "@/server/testing/route-calls";

import { GET } from "./route";

enableResponseCache();

type Answer = { locale: string; dir: string; messages: Record<string, unknown[]> };

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const { key } = await createApiKey(db, { accountId: account.id, kind: "CLIENT", name: "web" });
  const ask = async (query: Record<string, string> = {}, headers: Record<string, string> = {}) => {
    await ownWritesHeard(db);
    return callGet(GET, `/api/access/v1/messages?${new URLSearchParams({ key, ...query }).toString()}`, {}, headers);
  };
  const answer = async (query: Record<string, string> = {}) => {
    const res = await ask(query);
    expect(res.status, JSON.stringify(query)).toBe(200);
    return (await res.json()) as Answer;
  };
  return { db, account, key, ask, answer };
}

/** What the SDK shows: the parsed message formatted without a parser. */
const shown = (body: Answer, key: string, values: Record<string, string> = {}) =>
  String(new IntlMessageFormat(body.messages[key] as never, body.locale).format(values));

const SDK_KEYS = [...messagesOf("paywall", "en").keys()].filter((k) => k.startsWith("sdk.")).sort();

describe("the SDK's messages", () => {
  it("chooses the explicit locale, then the page's language, then the account's default", async () => {
    const { answer } = await setup();
    const english = await answer();
    expect(english.locale).toBe("en");
    expect(Object.keys(english.messages).sort()).toEqual(SDK_KEYS);
    for (const [query, locale] of [
      [{ locale: "hi" }, "hi"],
      [{ lang: "ta-IN" }, "ta"],
      [{ locale: "fr", lang: "ar" }, "fr"],
      [{ locale: "xx", lang: "ar" }, "ar"],
      [{ locale: "pt" }, "pt-BR"],
      [{ lang: "es_MX" }, "es"],
      [{ lang: "de-CH" }, "de"],
      [{ locale: "ja" }, "en"],
    ] as const) {
      const body = await answer(query);
      expect(body.locale, JSON.stringify(query)).toBe(locale);
      expect(body.dir).toBe(locale === "ar" ? "rtl" : "ltr");
      // Every message formats as the server's translator does, without a parser on the reader's side.
      const t = translator("paywall", body.locale as never);
      for (const key of SDK_KEYS)
        expect(shown(body, key, { amount: "₹1,499.00" })).toBe(t(key as never, { amount: "₹1,499.00" }));
    }
    expect(shown(await answer({ locale: "hi" }), "sdk.cancel")).not.toBe(shown(english, "sdk.cancel"));
  });

  it("keeps to the locales the account offers, its default first", async () => {
    const { db, account, answer } = await setup();
    await db.publisherConfig.update({
      where: { accountId: account.id },
      data: { languageIetfCode: "hi-IN", languageIsoCode: "hi", localesOffered: ["hi", "en"] },
    });
    expect((await answer()).locale).toBe("hi");
    expect((await answer({ lang: "ar" })).locale).toBe("hi");
    expect((await answer({ locale: "ta", lang: "en-GB" })).locale).toBe("en");
  });

  it("has the account's own words, and drops the kept answer when they or its locales change", async () => {
    const { db, account, ask, answer } = await setup();
    const other = await setup();
    const first = await ask({ locale: "hi" });
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(first.headers.get("cache-tag")).toBe("messages");
    expect(first.headers.get("cache-control")).toMatch(/^public/);
    const again = await ask({ locale: "hi" });
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    expect((await ask({ locale: "hi" }, { "if-none-match": first.headers.get("etag")! })).status).toBe(304);

    const target = { surface: "paywall" as const, locale: "hi" as const, key: "sdk.cancel" };
    await saveOverride(db, account.id, target, "रहने दें", null);
    // Another locale's override, and another account's, leave this answer kept.
    await saveOverride(db, account.id, { ...target, locale: "ta" }, "வேண்டாம்", null);
    await saveOverride(db, other.account.id, target, "नहीं", null);
    const changed = await ask({ locale: "hi" });
    expect(changed.headers.get("x-cache")).toBe("MISS");
    const body = (await changed.json()) as Answer;
    expect(shown(body, "sdk.cancel")).toBe("रहने दें");
    expect(shown(body, "sdk.cardPayment")).toBe(messagesOf("paywall", "hi").get("sdk.cardPayment"));
    expect((await ask({ locale: "hi" })).headers.get("x-cache")).toBe("HIT");
    expect(shown(await other.answer({ locale: "hi" }), "sdk.cancel")).toBe("नहीं");

    await removeOverride(db, account.id, target);
    const removed = await ask({ locale: "hi" });
    expect(removed.headers.get("x-cache")).toBe("MISS");
    expect(shown((await removed.json()) as Answer, "sdk.cancel")).toBe(messagesOf("paywall", "hi").get("sdk.cancel"));

    // The account stops offering Hindi: the page asking for it gets the default.
    expect((await ask({ locale: "hi" })).headers.get("x-cache")).toBe("HIT");
    await db.publisherConfig.update({ where: { accountId: account.id }, data: { localesOffered: ["en", "ta"] } });
    expect((await answer({ locale: "hi" })).locale).toBe("en");
  });

  it("answers a browser of any origin (CORS), without credentials", async () => {
    const { ask } = await setup();
    const res = await ask({}, { origin: "https://news.example.com" });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://news.example.com");
  });

  it("refuses what is not a language tag (400) and a missing or wrong key (401); never 500", async () => {
    const { ask } = await setup();
    const bad: Record<string, string>[] = [
      { locale: "<script>" },
      { lang: "en-" },
      { locale: "x".repeat(40) },
      { lang: "12" },
    ];
    for (const query of bad) {
      const res = await ask(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      const error = ((await res.json()) as { error: { code: string; details: { field: string }[] } }).error;
      expect(error.code).toBe("BAD_REQUEST");
      expect(error.details.map((d) => d.field)).toEqual([`query.${Object.keys(query)[0]}`]);
    }
    expect((await ask({ locale: "" })).status).toBe(200);
    const noKey = await callGet(GET, "/api/access/v1/messages?locale=hi");
    expect(noKey.status).toBe(401);
    expect((await callGet(GET, "/api/access/v1/messages?key=mh_pk_nope")).status).toBe(401);
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 50 }), fc.string({ maxLength: 50 }), async (locale, lang) => {
        const res = await ask({ locale, lang });
        expect([200, 400]).toContain(res.status);
      }),
      { numRuns: 40 },
    );
  });
});
