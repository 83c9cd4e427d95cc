/**
 * The member pages' words (docs/i18n.md): the `member` catalogue in the reader's locale, with the
 * account's overrides already merged by the server, formatted by intl-messageformat on the server
 * and in the browser alike. `rich` takes elements as values (a name in <bdi>, a time in <time>): the
 * messages stay plain text, the markup is the page's.
 */
import { IntlMessageFormat, type PrimitiveType } from "intl-messageformat";
import { createElement, Fragment, type ReactNode } from "react";

import { directionOf, type Locale } from "@/i18n/locales";
import type { MessageKey } from "@/i18n/messages";

export type MemberKey = MessageKey<"member">;
/** The messages as the server hands them to the page: [key, message] pairs. */
export type MemberMessages = readonly (readonly [string, string])[];
type Values = Readonly<Record<string, PrimitiveType>>;
type RichValues = Readonly<Record<string, PrimitiveType | ReactNode>>;

export type MemberWords = {
  locale: Locale;
  dir: "ltr" | "rtl";
  /** A message as text. */
  t: (key: MemberKey, values?: Values) => string;
  /** A message whose values may be elements. */
  rich: (key: MemberKey, values: RichValues) => ReactNode;
};

export function memberWords(locale: Locale, messages: MemberMessages): MemberWords {
  const table = new Map(messages);
  const formatters = new Map<string, IntlMessageFormat | null>();
  const formatterOf = (key: string): IntlMessageFormat | null => {
    if (!formatters.has(key)) {
      const message = table.get(key);
      let formatter: IntlMessageFormat | null = null;
      try {
        formatter =
          message === undefined ? null : new IntlMessageFormat(message, locale, undefined, { ignoreTag: true });
      } catch {
        formatter = null; // the server checked every message: a broken one shows its key, never throws
      }
      formatters.set(key, formatter);
    }
    return formatters.get(key) ?? null;
  };
  /** The message's parts (a string when every value was text), or the message as written when it cannot be formatted. */
  const format = (key: string, values: RichValues): string | ReactNode[] => {
    const formatter = formatterOf(key);
    if (!formatter) return key;
    try {
      const out: string | ReactNode | ReactNode[] = formatter.format<ReactNode>(
        values as Record<string, PrimitiveType | ReactNode>,
      );
      return typeof out === "string" ? out : Array.isArray(out) ? out : [out];
    } catch {
      return table.get(key) ?? key; // a value left out: the message as written
    }
  };
  return {
    locale,
    dir: directionOf(locale),
    t: (key, values = {}) => {
      const out = format(key, values);
      // Text values only (the type says so): every part is text.
      return typeof out === "string" ? out : out.map((part) => (typeof part === "string" ? part : "")).join("");
    },
    rich: (key, values) => {
      const out = format(key, values);
      // Children passed one by one are static: no keys needed.
      return typeof out === "string" ? out : createElement(Fragment, null, ...out);
    },
  };
}
