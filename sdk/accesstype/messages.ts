/**
 * What the SDK says to a reader (its card form, its errors), in the reader's locale
 * (docs/subscriptions.md, "Browser SDK"): the paywall catalogue's `sdk.*` messages, fetched from
 * GET /api/access/v1/messages for this page only when a payment starts, with the account's
 * overrides in force, already parsed, and formatted by intl-messageformat built without its parser
 * (decision 0039). The locale is the server's choice among the account's offered locales, from the
 * page's explicit option (`init({locale})`, `setLocale`, the script's `locale`), else the language of
 * the element the form is drawn in (its closest `lang`, the page's `<html lang>`), else the
 * account's default. Until the messages arrive, or when they cannot, English (built into the script).
 */
import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { IntlMessageFormat } from "intl-messageformat";

import type { CATALOGUES } from "../../i18n/catalogues.generated";

type SdkMessageKey = Extract<keyof (typeof CATALOGUES)["paywall"]["en"], `sdk.${string}`>;
/** Message key → its syntax tree, as the messages route answers (and the build bakes English in). */
export type SdkMessageTable = Readonly<Record<string, MessageFormatElement[] | undefined>>;
type Values = Record<string, string | number>;

/** The words of one locale: `t` formats a message; `locale` and `dir` go on what the SDK draws. */
export type SdkWords = {
  locale: string;
  dir: "ltr" | "rtl";
  t(key: SdkMessageKey, values?: Values): string;
};

const TAG = /^(?=.{2,35}$)[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/;

/** `value` when it is a language tag the messages route takes, else null (a page's odd lang is not sent). */
export function languageTag(value: unknown): string | null {
  return typeof value === "string" && TAG.test(value.trim()) ? value.trim() : null;
}

const own = (table: SdkMessageTable, key: string) =>
  Object.prototype.hasOwnProperty.call(table, key) && Array.isArray(table[key]) ? table[key] : undefined;

/** The words of `locale` from its table, each message English's where the table lacks it (or it will not format). */
export function sdkWords(
  locale: string,
  dir: "ltr" | "rtl",
  table: SdkMessageTable,
  english: SdkMessageTable,
): SdkWords {
  const format = (ast: MessageFormatElement[], tag: string, values: Values) =>
    String(new IntlMessageFormat(ast, tag).format(values));
  return {
    locale,
    dir,
    t(key, values = {}) {
      const mine = own(table, key);
      try {
        if (mine) return format(mine, locale, values);
      } catch {
        // A message that does not format with these values: English's below.
      }
      const fallback = own(english, key);
      return fallback ? format(fallback, "en", values) : key;
    },
  };
}

/** The messages route's answer as words, or null when it is not one. */
export function wordsFromAnswer(data: unknown, english: SdkMessageTable): SdkWords | null {
  const answer = data as { locale?: unknown; dir?: unknown; messages?: unknown } | null;
  if (!answer || typeof answer.locale !== "string" || !languageTag(answer.locale)) return null;
  if (!answer.messages || typeof answer.messages !== "object") return null;
  return sdkWords(answer.locale, answer.dir === "rtl" ? "rtl" : "ltr", answer.messages as SdkMessageTable, english);
}

/** Stripe.js's own words (its Payment Element, its errors) in the reader's locale where Stripe has it. */
const STRIPE_LOCALES = new Set(["ar", "de", "en", "es", "fr", "pt-BR"]);
export function stripeLocale(locale: string): string {
  return STRIPE_LOCALES.has(locale) ? locale : "auto";
}
