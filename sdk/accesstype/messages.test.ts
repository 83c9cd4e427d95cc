/**
 * The SDK's words (./messages.ts) as the served script has them: bundled by esbuild with
 * intl-messageformat WITHOUT its parser (scripts/build-bundles.mjs's alias), formatting the syntax
 * trees the messages route sends; English where a message is missing or will not format; the
 * language tags it sends the server are ones the server takes.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { build } from "esbuild";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { LOCALES } from "@/i18n/locales";
import { messagesOf, parseMessage } from "@/i18n/messages";
import { ZLanguageTag } from "@/server/subscriptions/access/sdk-messages.schema";

import { SDK_ALIAS } from "../../scripts/build-bundles.mjs";
import type * as Messages from "./messages";
import type { SdkMessageTable } from "./messages";

/** ./messages.ts bundled as the served script bundles it, and loaded. */
async function bundledMessages(): Promise<
  typeof Messages & { IntlMessageFormat: new (message: string, locale: string) => unknown }
> {
  const out = await build({
    stdin: {
      contents: `export * from "./messages"; export { IntlMessageFormat } from "intl-messageformat";`,
      resolveDir: import.meta.dirname,
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    write: false,
    alias: SDK_ALIAS,
    nodePaths: [path.resolve(import.meta.dirname, "../../node_modules")],
    logLevel: "silent",
  });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sdk-messages-")), "messages.mjs");
  fs.writeFileSync(file, out.outputFiles[0]!.text);
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as never;
}
const { IntlMessageFormat, languageTag, sdkWords, stripeLocale, wordsFromAnswer } = await bundledMessages();

/** A locale's paywall messages parsed as the server parses them. */
const parsed = (locale: (typeof LOCALES)[number], prefix = "sdk."): SdkMessageTable =>
  Object.fromEntries(
    [...messagesOf("paywall", locale)]
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, message]) => [key, parseMessage(message)]),
  );
const english = parsed("en");

describe("the SDK's words", () => {
  it("cannot parse a message: the parser is not there", () => {
    expect(() => new IntlMessageFormat("Pay {amount}", "en")).toThrow(/uncompiled message/);
  });

  it.each(LOCALES)("formats every message of %s from its syntax tree, each argument filled", (locale) => {
    const words = sdkWords(locale, locale === "ar" ? "rtl" : "ltr", parsed(locale), english);
    for (const key of Object.keys(english)) {
      const text = words.t(key as never, { amount: "₹1,499.00" });
      expect(text, key).not.toMatch(/[{}]|^sdk\./);
      expect(text.trim(), key).not.toBe("");
    }
    if (locale !== "en") expect(words.t("sdk.cancel")).not.toBe("Cancel");
    expect(words.t("sdk.pay", { amount: "€9,00" })).toContain("€9,00");
  });

  it("chooses plural forms by the locale's rules with no parser (Arabic's two, French's one)", () => {
    const table = parsed("ar", "access.");
    const arabic = sdkWords("ar", "rtl", table, table);
    const say = (n: number) => arabic.t("access.freeStoriesLeft" as never, { n });
    expect(say(2)).toBe("تبقّى لك مقالان مجانيان.");
    expect(say(0)).toBe("لم يتبقَّ لك أي مقال مجاني.");
    expect(new Set([1, 2, 3, 11, 100].map(say)).size).toBe(5);
    const french = sdkWords("fr", "ltr", parsed("fr", "access."), table);
    expect(french.t("access.freeStoriesLeft" as never, { n: 1 })).toBe("Il vous reste 1 article gratuit.");
  });

  it("falls back to English for a missing or broken message, and to the key when English lacks it too", () => {
    const hindi = parsed("hi");
    const broken: SdkMessageTable = { ...hindi, "sdk.cancel": undefined, "sdk.pay": "Pay {amount}" as never };
    const words = sdkWords("hi", "ltr", broken, english);
    expect(words.t("sdk.cancel")).toBe("Cancel");
    expect(words.t("sdk.pay", { amount: "$1" })).toBe("Pay $1");
    expect(words.t("sdk.paying")).toBe(messagesOf("paywall", "hi").get("sdk.paying"));
    expect(sdkWords("hi", "ltr", {}, {}).t("sdk.cancel")).toBe("sdk.cancel");
    // A table key from the prototype is never a message.
    expect(sdkWords("hi", "ltr", {}, english).t("constructor" as never)).toBe("constructor");
  });

  it("reads the messages route's answer, and nothing else, as words", () => {
    const answer = { locale: "ta", dir: "ltr", messages: parsed("ta") };
    const words = wordsFromAnswer(answer, english)!;
    expect([words.locale, words.dir, words.t("sdk.cancel")]).toEqual([
      "ta",
      "ltr",
      messagesOf("paywall", "ta").get("sdk.cancel"),
    ]);
    expect(wordsFromAnswer({ ...answer, locale: "ar", dir: "rtl" }, english)!.dir).toBe("rtl");
    expect(wordsFromAnswer({ ...answer, dir: "sideways" }, english)!.dir).toBe("ltr");
    for (const bad of [null, "hi", [], { locale: 7, messages: {} }, { locale: "<b>", messages: {} }, { locale: "hi" }])
      expect(wordsFromAnswer(bad, english)).toBeNull();
  });

  it("sends the server only language tags it takes (any page's lang attribute)", () => {
    for (const tag of ["hi", "ta-IN", "pt-BR", "es_MX", " de ", "zh-Hant-TW"])
      expect(languageTag(tag)).toBe(tag.trim());
    for (const odd of ["", " ", "x", "english", "en-", "12", "<script>", "en-US-".repeat(8), null, 7, undefined])
      expect(languageTag(odd)).toBeNull();
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("hi", "pt-BR", "ar-EG", "ta_IN")), (value) => {
        const tag = languageTag(value);
        const server = ZLanguageTag.safeParse(value);
        if (tag !== null) expect(ZLanguageTag.parse(tag)).toBe(tag);
        else expect(!server.success || server.data === null).toBe(true);
      }),
    );
  });

  it("gives Stripe.js the locale where Stripe has it, else lets it follow the browser", () => {
    expect(["en", "hi", "ta", "es", "fr", "de", "pt-BR", "ar"].map(stripeLocale)).toEqual([
      "en",
      "auto",
      "auto",
      "es",
      "fr",
      "de",
      "pt-BR",
      "ar",
    ]);
  });
});
