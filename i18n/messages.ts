/**
 * The message catalogue (docs/i18n.md, decision 0039): every string a reader sees, per surface
 * (`widgets`, `member`, `paywall`, `mail`) and locale, in ICU MessageFormat, written in
 * i18n/messages/<surface>/<locale>.json and compiled into catalogues.generated.ts by
 * scripts/build-bundles.mjs. English is the reference: every locale has exactly its keys (the
 * catalogue test fails otherwise) and uses only its arguments.
 */
import { CATALOGUES } from "./catalogues.generated";
import { type Locale } from "./locales";

// Parsing lives beside the catalogue-free checks (the dashboard parses without the catalogues).
export { argumentsOf, parseMessage } from "./icu";

export type Surface = keyof typeof CATALOGUES;
export const SURFACES = Object.keys(CATALOGUES) as Surface[];
export type MessageKey<S extends Surface> = keyof (typeof CATALOGUES)[S]["en"] & string;

const tables = new Map<string, ReadonlyMap<string, string>>();

/** One surface's messages in one locale, as a Map (keys may come from staff input: never a plain object). */
export function messagesOf(surface: Surface, locale: Locale): ReadonlyMap<string, string> {
  const id = `${surface}/${locale}`;
  let table = tables.get(id);
  if (!table) {
    const byLocale: Partial<Record<Locale, Record<string, string>>> = CATALOGUES[surface];
    table = new Map(Object.entries(byLocale[locale] ?? {}));
    tables.set(id, table);
  }
  return table;
}

/** Whether `key` is a message of `surface` (staff text is checked here before any lookup). */
export function isMessageKey(surface: Surface, key: string): boolean {
  return messagesOf(surface, "en").has(key);
}
