/**
 * The message catalogue (docs/i18n.md, decision 0039): every string a reader sees, per surface
 * (`widgets`, `member`, `paywall`, `mail`) and locale, in ICU MessageFormat, written in
 * i18n/messages/<surface>/<locale>.json and compiled into catalogues.generated.ts by
 * scripts/build-bundles.mjs. English is the reference: every locale has exactly its keys (the
 * catalogue test fails otherwise) and uses only its arguments.
 */
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";

import { CATALOGUES } from "./catalogues.generated";
import { type Locale } from "./locales";

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

/** A message's syntax tree; tags are text (messages are plain text, escaped where rendered). */
export function parseMessage(message: string): MessageFormatElement[] {
  return parse(message, { ignoreTag: true, requiresOtherClause: true });
}

/** The arguments a message uses, with their kind ("argument", "plural", "select", "number", "date"…). */
export function argumentsOf(elements: readonly MessageFormatElement[]): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (list: readonly MessageFormatElement[]) => {
    for (const el of list) {
      if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
      if (el.type === TYPE.tag) {
        walk(el.children);
        continue;
      }
      const kind = TYPE[el.type];
      if (!found.has(el.value) || found.get(el.value) === "argument") found.set(el.value, kind);
      if (el.type === TYPE.plural || el.type === TYPE.select) {
        for (const option of Object.values(el.options)) walk(option.value);
      }
    }
  };
  walk(elements);
  return found;
}
