/**
 * The locale a reader reads the member pages in, and the member API's sentences (docs/i18n.md,
 * "Choosing the locale"): their saved choice (members.locale) when signed in, else the choice this
 * browser made signed out (the `masthead_locale` cookie), else Accept-Language, else the account's
 * default; only a locale the account offers. Changing it: PUT /api/member/locale (./locale-choice.ts).
 */
import "server-only";

import { LOCALES, type Locale } from "@/i18n/locales";

import type { Db } from "../db/client";
import { accountLocales, localeCookieOf, pageLocale, type AccountLocales } from "../i18n/locale-settings";
import { translatorFor } from "../i18n/overrides";
import type { ReaderWords } from "../subscriptions/self-service/self-service-words";

/** The cookie a signed-out reader's choice is kept in (a signed-in reader's is on their record too). */
/** Every shipped locale, English first: a page on a host that names no publisher. */
const NO_ACCOUNT: AccountLocales = { defaultLocale: "en", offered: [...LOCALES] };

export type ReaderLocaleInput = {
  /** The signed-in reader's saved choice. */
  saved?: string | null;
  /**
   * The saved choice of the reader a signed link names (a newsletter's, a card link's): it counts
   * after this browser's own choice (the cookie; a signed-out reader picks a language that way),
   * before Accept-Language.
   */
  linkReader?: string | null;
  /** The Cookie header (its `masthead_locale`). */
  cookies?: string | null;
  acceptLanguage?: string | null;
};

/** The reader's locale and what the account offers (null account: every shipped locale, English by default). */
export async function readerLocale(
  db: Db,
  accountId: number | null,
  input: ReaderLocaleInput,
): Promise<{ locale: Locale; locales: AccountLocales }> {
  const locales = accountId === null ? NO_ACCOUNT : await accountLocales(db, accountId);
  const cookie = localeCookieOf(input.cookies);
  const locale = pageLocale(locales, {
    saved: input.saved ?? (cookie === null ? input.linkReader : null),
    cookie,
    acceptLanguage: input.acceptLanguage,
  });
  return { locale, locales };
}

/** The member catalogue in `locale` with the account's overrides, for the server's sentences. */
export async function readerWords(db: Db, accountId: number, locale: Locale): Promise<ReaderWords> {
  return { locale, t: await translatorFor(db, accountId, "member", locale) };
}

/** The words of a member API request: its reader's saved choice (if any), cookie and Accept-Language. */
export async function requestWords(
  db: Db,
  req: Request,
  accountId: number,
  saved: string | null | undefined,
): Promise<ReaderWords> {
  const { locale } = await readerLocale(db, accountId, {
    saved,
    cookies: req.headers.get("cookie"),
    acceptLanguage: req.headers.get("accept-language"),
  });
  return readerWords(db, accountId, locale);
}
