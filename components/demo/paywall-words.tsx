/**
 * The demo paywall's words in the reader's locale (docs/subscriptions.md, "Demo paywalled story"):
 * the page gets the paywall catalogue's `demo.*` and `access.*` messages in its locale with the
 * account's overrides (server/i18n/surface-messages.ts), and formats them here with
 * intl-messageformat, as the server's translator does (i18n/translate.ts), without bundling every
 * catalogue into the page. `rich` puts elements (a struck-out price, a bold e-mail) where a
 * message's arguments are, in whatever order the locale's words put them.
 */
import { IntlMessageFormat } from "intl-messageformat";
import { Fragment, type ReactNode } from "react";

type Values = Record<string, string | number>;

export type DemoWords = {
  locale: string;
  dir: "ltr" | "rtl";
  t(key: string, values?: Values): string;
  /** The message with `slots` (argument → the element wrapping its value) drawn as elements. */
  rich(key: string, values: Values, slots: Record<string, (text: string) => ReactNode>): ReactNode;
  /** Money from integer minor units, in the reader's locale ("₹1,499.00", "1.499,00 €"). */
  money(cents: number, currency: string): string;
};

const OPEN = "\uE000";
const CLOSE = "\uE001";

export function demoWords(locale: string, dir: "ltr" | "rtl", entries: readonly [string, string][]): DemoWords {
  const messages = new Map(entries);
  const formatters = new Map<string, IntlMessageFormat>();
  const t = (key: string, values: Values = {}) => {
    const message = messages.get(key);
    if (message === undefined) return key;
    let formatter = formatters.get(key);
    if (!formatter) {
      formatter = new IntlMessageFormat(message, locale, undefined, { ignoreTag: true });
      formatters.set(key, formatter);
    }
    return String(formatter.format(values));
  };
  return {
    locale,
    dir,
    t,
    rich(key, values, slots) {
      const named = Object.entries(slots);
      const given = new Map(Object.entries(values));
      const marked = new Map(given);
      named.forEach(([name], i) => marked.set(name, `${OPEN}${i}${CLOSE}`));
      const parts = t(key, Object.fromEntries(marked)).split(new RegExp(`${OPEN}(\\d+)${CLOSE}`));
      return parts.map((part, i) => {
        if (i % 2 === 0) return <Fragment key={i}>{part}</Fragment>;
        const [name, render] = named[Number(part)]!;
        return <Fragment key={i}>{render(String(given.get(name) ?? ""))}</Fragment>;
      });
    },
    money(cents, currency) {
      const format = new Intl.NumberFormat(locale, { style: "currency", currency });
      return format.format(cents / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
    },
  };
}
