/**
 * Formatting a catalogue's messages (docs/i18n.md): ICU MessageFormat by intl-messageformat, numbers,
 * money and dates by `Intl` in the reader's locale and time zone (./format.ts). A translator takes the account's
 * overrides for that locale (server/i18n/overrides.ts), which win over the catalogue key by key.
 */
import { IntlMessageFormat, type PrimitiveType } from "intl-messageformat";

import { type Locale } from "./locales";
import { argumentsOf, messagesOf, parseMessage, type MessageKey, type Surface } from "./messages";

export type MessageValues = Readonly<Record<string, PrimitiveType>>;
export type Translate<S extends Surface> = (key: MessageKey<S>, values?: MessageValues) => string;

const formatters = new Map<string, IntlMessageFormat>();
const FORMATTER_CACHE_LIMIT = 5000;

function formatterOf(locale: Locale, message: string): IntlMessageFormat {
  const id = `${locale}\u0000${message}`;
  let formatter = formatters.get(id);
  if (!formatter) {
    if (formatters.size >= FORMATTER_CACHE_LIMIT) formatters.clear();
    formatter = new IntlMessageFormat(parseMessage(message), locale);
    formatters.set(id, formatter);
  }
  return formatter;
}

/** One message, formatted; a value the message names but `values` lacks is shown empty, never thrown. */
export function formatMessage(locale: Locale, message: string, values: MessageValues = {}): string {
  const formatter = formatterOf(locale, message);
  const filled = Object.create(null) as Record<string, PrimitiveType>;
  for (const [name, kind] of argumentsOf(formatter.getAst())) filled[name] = kind === "plural" ? 0 : "";
  Object.assign(filled, values);
  const out = formatter.format(filled);
  return typeof out === "string" ? out : String(out);
}

/**
 * The translator of one surface in one locale. `overrides` (key → message), when given, are the
 * account's own words for this locale; a key the catalogue lacks falls back to English.
 */
export function translator<S extends Surface>(
  surface: S,
  locale: Locale,
  overrides?: ReadonlyMap<string, string>,
): Translate<S> {
  const messages = messagesOf(surface, locale);
  const english = messagesOf(surface, "en");
  return (key, values) => {
    const message = overrides?.get(key) ?? messages.get(key) ?? english.get(key) ?? key;
    return formatMessage(locale, message, values);
  };
}

export { formatDate, formatDateTime, formatMoney } from "./format";
