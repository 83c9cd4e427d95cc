/**
 * What the AccessType browser SDK shows a reader (its card form, its errors) in the reader's
 * locale (docs/subscriptions.md, "Browser SDK"): the paywall catalogue's `sdk.*` messages with the
 * account's overrides in force, parsed, so the SDK formats them with intl-messageformat and no
 * parser (decision 0039). The locale: the page's explicit option, else the page's language, else
 * the account's default, among the locales the account offers.
 */
import "server-only";

import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";

import { chooseLocale, directionOf, type Locale } from "@/i18n/locales";

import type { Db } from "../../db/client";
import { accountLocales } from "../../i18n/locale-settings";
import { MESSAGES_PURGE_KEY } from "../../i18n/messages-cache";
import { accountMessages, parsedMessages } from "../../i18n/surface-messages";
import type { TSdkMessagesQuery } from "./sdk-messages.schema";

const isSdkKey = (key: string) => key.startsWith("sdk.");

type SdkMessages = {
  locale: Locale;
  dir: "ltr" | "rtl";
  /** Message key → its syntax tree. */
  messages: Record<string, MessageFormatElement[]>;
};

/** The SDK's messages for a page, with the purge keys of what they were chosen and built from. */
export async function sdkMessages(
  db: Db,
  accountId: number,
  query: Pick<TSdkMessagesQuery, "locale" | "lang">,
): Promise<{ body: SdkMessages; tags: string[] }> {
  const { offered, defaultLocale } = await accountLocales(db, accountId);
  const locale = chooseLocale([query.locale, query.lang], offered, defaultLocale);
  const parsed = parsedMessages(await accountMessages(db, accountId, "paywall", locale, isSdkKey));
  return {
    body: { locale, dir: directionOf(locale), messages: Object.fromEntries(parsed) },
    tags: [MESSAGES_PURGE_KEY],
  };
}
