/**
 * The words a widget frame is sent (docs/widgets.md, "Languages"; decision 0039): the locale is
 * chosen from the container's `data-svc-locale` (or the original embed code's `language`), then
 * the host page's `lang`, then the account's default, among the locales the account offers; the
 * frame gets that one locale's widget messages with the account's overrides merged, already
 * parsed to the ICU syntax tree, so it formats without a parser.
 *
 * Both are read on every frame view, so each process keeps them: an account's locales until its
 * settings change (topic "publisher", publisher_configs' trigger), its overrides until one is
 * saved or removed (topic "message-overrides", message_overrides' trigger). The frame pages
 * themselves are not cached (Cache-Control: no-cache), so a change shows in the next frame.
 */
import "server-only";

import { type MessageFormatElement } from "@formatjs/icu-messageformat-parser";

import { chooseLocale, type Locale } from "@/i18n/locales";
import { messagesOf, parseMessage } from "@/i18n/messages";

import { ProcessCache } from "../cache/process-cache";
import { type Db } from "../db/client";
import { accountLocales, type AccountLocales } from "../i18n/locale-settings";
import { overridesFor } from "../i18n/overrides";

type FrameMessages = Readonly<Record<string, MessageFormatElement[]>>;

/** What the frame page asks of the container: its own locale, the original `language`, the page's `lang`. */
type LocaleHints = { locale?: string; language?: string; pageLang?: string };

/** The frame's locale: the container's choice, then the page's language, else the account's default. */
export function frameLocale(locales: AccountLocales, hints: LocaleHints): Locale {
  return chooseLocale([hints.locale, hints.language, hints.pageLang], locales.offered, locales.defaultLocale);
}

const TTL_MS = 60_000;
const keptLocales = new ProcessCache<number, AccountLocales>("publisher", { ttlMs: TTL_MS, maxEntries: 1_000 });
type KeptOverrides = { raw: ReadonlyMap<string, string>; parsed: ReadonlyMap<string, MessageFormatElement[]> };
const keptOverrides = new ProcessCache<string, KeptOverrides>("message-overrides", {
  ttlMs: TTL_MS,
  maxEntries: 5_000,
});

/** An account's locales, kept until its settings change. */
export function frameAccountLocales(db: Db, accountId: number): Promise<AccountLocales> {
  return keptLocales.load(accountId, () => accountLocales(db, accountId));
}

/** The account's overrides of the widgets' words in `locale` (those still valid), as text and parsed. */
export function frameOverrides(db: Db, accountId: number, locale: Locale): Promise<KeptOverrides> {
  return keptOverrides.load(`${accountId}/${locale}`, async () => {
    const raw = await overridesFor(db, accountId, "widgets", locale);
    return { raw, parsed: new Map([...raw].map(([key, message]) => [key, parseMessage(message)])) };
  });
}

const parsedCatalogues = new Map<Locale, ReadonlyMap<string, MessageFormatElement[]>>();

/** The catalogue's widget messages in `locale`, parsed once per process (English where a key is missing). */
function parsedCatalogue(locale: Locale): ReadonlyMap<string, MessageFormatElement[]> {
  let parsed = parsedCatalogues.get(locale);
  if (!parsed) {
    const messages = messagesOf("widgets", locale);
    parsed = new Map(
      [...messagesOf("widgets", "en")].map(([key, english]) => [key, parseMessage(messages.get(key) ?? english)]),
    );
    parsedCatalogues.set(locale, parsed);
  }
  return parsed;
}

/** The messages a frame in `locale` is sent: the catalogue's, each override in its place. */
export function frameMessages(
  locale: Locale,
  overrides: ReadonlyMap<string, MessageFormatElement[]> = new Map(),
): FrameMessages {
  return Object.fromEntries([...parsedCatalogue(locale)].map(([key, ast]) => [key, overrides.get(key) ?? ast]));
}
