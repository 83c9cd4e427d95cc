/**
 * A surface's messages as a reader's browser gets them (docs/i18n.md, decision 0039): one locale's
 * catalogue with the account's overrides in force, key by key (as the translator merges them), as
 * text for a page that formats them itself, or parsed for a script that bundles intl-messageformat
 * without its parser (the AccessType SDK). Answers that carry them list MESSAGES_PURGE_KEY
 * (server/i18n/messages-cache.ts), which the database announces when an override or the account's
 * locales change.
 */
import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";

import { type Locale } from "@/i18n/locales";
import { messagesOf, parseMessage, type Surface } from "@/i18n/messages";

import { type Db } from "../db/client";
import { overridesFor } from "./overrides";

/** The catalogue's messages of `surface` in `locale` whose key `keep` accepts, with the overrides laid over them. */
export function mergedMessages(
  surface: Surface,
  locale: Locale,
  overrides: ReadonlyMap<string, string>,
  keep: (key: string) => boolean = () => true,
): Map<string, string> {
  const merged = new Map<string, string>();
  const own = messagesOf(surface, locale);
  for (const [key, english] of messagesOf(surface, "en")) {
    if (keep(key)) merged.set(key, overrides.get(key) ?? own.get(key) ?? english);
  }
  return merged;
}

/** The messages of `surface` in `locale` for the account (overrides in force), keys `keep` accepts. */
export async function accountMessages(
  db: Db,
  accountId: number,
  surface: Surface,
  locale: Locale,
  keep?: (key: string) => boolean,
): Promise<Map<string, string>> {
  return mergedMessages(surface, locale, await overridesFor(db, accountId, surface, locale), keep);
}

/** Each message's syntax tree, as intl-messageformat takes it without a parser (JSON-safe). */
export function parsedMessages(messages: ReadonlyMap<string, string>): Map<string, MessageFormatElement[]> {
  return new Map([...messages].map(([key, message]) => [key, parseMessage(message)]));
}
