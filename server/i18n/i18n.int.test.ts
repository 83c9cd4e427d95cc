/** An account's locales, a reader's choice, and owner overrides, on both databases (docs/i18n.md). */
import { describe, expect, it } from "vitest";

import { messagesOf } from "@/i18n/messages";
import { getDb } from "@/server/db";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { accountLocales, memberLocale, pageLocale, setMemberLocale } from "./locale-settings";
import { listOverrides, OverrideRefused, overridesFor, removeOverride, saveOverride, translatorFor } from "./overrides";

const KEY = [...messagesOf("widgets", "en").keys()].find((k) => !messagesOf("widgets", "en").get(k)?.includes("{"))!;
const ARG_KEY = [...messagesOf("widgets", "en")].find(([, m]) => /^[^{]*\{(\w+)\}[^{]*$/.test(m))!;

describe("an account's locales", () => {
  it("defaults to its language and offers every shipped locale until it chooses", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    expect(await accountLocales(db, account.id)).toEqual({
      defaultLocale: "en",
      offered: ["en", "hi", "ta", "es", "fr", "de", "pt-BR", "ar"],
    });
    await db.publisherConfig.update({
      where: { accountId: account.id },
      data: { languageIetfCode: "hi-IN", languageIsoCode: "hi", localesOffered: ["ta", "en", "xx", "__proto__"] },
    });
    const locales = await accountLocales(db, account.id);
    expect(locales).toEqual({ defaultLocale: "hi", offered: ["en", "hi", "ta"] });
    expect(pageLocale(locales, { acceptLanguage: "ta-IN,en;q=0.5" })).toBe("ta");
    expect(pageLocale(locales, { saved: "en", acceptLanguage: "ta" })).toBe("en");
    expect(pageLocale(locales, { acceptLanguage: "ar,fr" })).toBe("hi");
  });

  it("keeps a reader's choice for mail, refusing a locale the account does not offer", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const other = await createTestPublisher(db);
    const member = await db.member.create({
      data: { accountId: account.id, name: "Meera", email: "meera@example.com", passwordHash: "-" },
    });
    expect(await memberLocale(db, account.id, member.id)).toBe("en");
    expect(await setMemberLocale(db, account.id, member.id, "hi")).toBe(true);
    expect(await memberLocale(db, account.id, member.id)).toBe("hi");
    expect(await setMemberLocale(db, other.id, member.id, "ta")).toBe(false);
    await db.publisherConfig.update({ where: { accountId: account.id }, data: { localesOffered: ["en"] } });
    expect(await setMemberLocale(db, account.id, member.id, "ta")).toBe(false);
    expect(await memberLocale(db, account.id, member.id)).toBe("en"); // saved "hi" is no longer offered
    expect(await memberLocale(db, account.id, null)).toBe("en");
  });
});

describe("owner overrides", () => {
  it("win over the catalogue for their account and locale only, cleaned when saved", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const other = await createTestPublisher(db);
    const saved = await saveOverride(
      db,
      account.id,
      { surface: "widgets", locale: "hi", key: KEY },
      "  नमस्ते\u0007 पाठको\r\n ",
      null,
    );
    expect(saved).toBe("नमस्ते पाठको");
    expect((await translatorFor(db, account.id, "widgets", "hi"))(KEY as never)).toBe("नमस्ते पाठको");
    expect((await translatorFor(db, account.id, "widgets", "en"))(KEY as never)).toBe(
      messagesOf("widgets", "en").get(KEY),
    );
    expect((await overridesFor(db, other.id, "widgets", "hi")).size).toBe(0);
    expect(await removeOverride(db, account.id, { surface: "widgets", locale: "hi", key: KEY })).toBe(true);
    expect((await overridesFor(db, account.id, "widgets", "hi")).size).toBe(0);
  });

  it("refuses an unknown key, markup, a message that does not parse and an argument the message is not given", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const target = { surface: "widgets" as const, locale: "en" as const, key: ARG_KEY[0] };
    const refusals = [
      [{ ...target, key: "__proto__" }, "Hi"],
      [target, "<b>Hello</b>"],
      [target, "Hello {name"],
      [target, "Hello {price, number}{secret}"],
      [target, "   "],
      [target, "x".repeat(2001)],
    ] as const;
    for (const [t, message] of refusals) {
      await expect(saveOverride(db, account.id, t, message, null)).rejects.toBeInstanceOf(OverrideRefused);
    }
    expect(await db.messageOverride.count({ where: { accountId: account.id } })).toBe(0);
  });

  it("survive an upgrade by key; one that no longer fits the catalogue is listed stale and not used", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    await saveOverride(db, account.id, { surface: "widgets", locale: "es", key: KEY }, "¡Hola!", null);
    // As an older catalogue would have left them: a key since removed, an argument since dropped.
    await db.messageOverride.createMany({
      data: [
        { accountId: account.id, surface: "widgets", locale: "es", key: "removedKey", message: "Adiós" },
        { accountId: account.id, surface: "widgets", locale: "fr", key: KEY, message: "Bonjour {gone}" },
      ],
    });
    const listed = await listOverrides(db, account.id);
    expect(listed.map((o) => [o.locale, o.key, o.stale === null])).toEqual([
      ["es", KEY, true],
      ["es", "removedKey", false],
      ["fr", KEY, false],
    ]);
    expect([...(await overridesFor(db, account.id, "widgets", "es"))]).toEqual([[KEY, "¡Hola!"]]);
    expect((await overridesFor(db, account.id, "widgets", "fr")).size).toBe(0);
  });
});
