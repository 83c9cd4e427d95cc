/**
 * The demo paywall's words (./paywall-words.tsx): the catalogue's messages formatted as the server's
 * translator formats them, in each locale; `rich` draws elements where the arguments are, in the
 * locale's own word order, and loses no text; money in the reader's locale.
 */
import fc from "fast-check";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { directionOf, LOCALES } from "@/i18n/locales";
import { messagesOf } from "@/i18n/messages";
import { translator } from "@/i18n/translate";

import { demoWords } from "./paywall-words";

const wordsOf = (locale: (typeof LOCALES)[number]) =>
  demoWords(
    locale,
    directionOf(locale),
    [...messagesOf("paywall", locale)].filter(([k]) => /^(demo|access)\./.test(k)),
  );
const html = (node: unknown) => renderToStaticMarkup(createElement("p", null, node as never));
const text = (node: unknown) =>
  html(node)
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&");

describe("the demo paywall's words", () => {
  it.each(LOCALES)("in %s are the server translator's, plurals and all", (locale) => {
    const words = wordsOf(locale);
    const t = translator("paywall", locale);
    for (const n of [0, 1, 2, 5, 11]) expect(words.t("demo.freeStory", { n })).toBe(t("demo.freeStory", { n }));
    expect(words.t("demo.period", { length: 3, unit: "months" })).toBe(t("demo.period", { length: 3, unit: "months" }));
    expect(words.t("demo.trial", { length: 14, unit: "days" })).toBe(t("demo.trial", { length: 14, unit: "days" }));
    expect(words.t("demo.paymentNotThrough", { reason: "" })).toBe(t("demo.paymentNotThrough", { reason: "" }));
    expect(words.t("no.such.key")).toBe("no.such.key");
  });

  it("draws a struck-out price where the locale's words put it", () => {
    const values = { trial: "x", oldPrice: "$9.00", price: "$7.20", period: "P", code: "WELCOME20" };
    const slots = {
      oldPrice: (s: string) => createElement("s", null, s),
      price: (s: string) => createElement("strong", null, s),
    };
    expect(html(wordsOf("en").rich("demo.priceWithCoupon", values, slots))).toBe(
      "<p><s>$9.00</s> <strong>$7.20</strong> P with WELCOME20</p>",
    );
    // Tamil puts the period first and the coupon before it.
    const tamil = html(wordsOf("ta").rich("demo.priceWithCoupon", values, slots));
    expect(tamil.indexOf("WELCOME20")).toBeLessThan(tamil.indexOf("<s>$9.00</s>"));
    expect(tamil.indexOf("P ")).toBeLessThan(tamil.indexOf("<s>"));
  });

  it("loses no text and keeps any value as text, not markup", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LOCALES),
        fc.string({ maxLength: 30 }).filter((s) => !/[\uE000\uE001]/.test(s)),
        fc.string({ maxLength: 30 }).filter((s) => !/[\uE000\uE001]/.test(s)),
        (locale, email, price) => {
          const words = wordsOf(locale);
          const signedIn = words.rich("demo.signedInAs", { email }, { email: (s) => createElement("strong", null, s) });
          expect(
            text(signedIn)
              .replace(/&lt;/g, "<")
              .replace(/&gt;/g, ">")
              .replace(/&quot;/g, '"')
              .replace(/&#x27;/g, "'"),
          ).toBe(words.t("demo.signedInAs", { email }));
          const line = words.rich(
            "demo.priceWithCoupon",
            { oldPrice: price, price, period: "p", code: "C" },
            { price: (s) => createElement("b", null, s) },
          );
          expect(html(line)).not.toMatch(/<(?!\/?(p|b)>)/);
        },
      ),
    );
  });

  it("says money in the reader's locale from minor units, by the currency's digits", () => {
    expect(wordsOf("en").money(900, "USD")).toBe("$9.00");
    expect(wordsOf("de").money(149900, "EUR")).toBe("1.499,00\u00a0€");
    expect(wordsOf("hi").money(149900, "INR")).toBe("₹1,499.00");
    expect(wordsOf("en").money(500, "JPY")).toBe("¥500");
  });
});
