/**
 * An account's reader locales (docs/i18n.md): its default (the locale its language setting names,
 * IETF code first, else English) and the locales it offers (Settings → Languages; none saved offers
 * every shipped one, always including the default). And the locale a request or a reader gets.
 */
import { acceptedTags, chooseLocale, isLocale, LOCALES, matchLocale, type Locale } from "@/i18n/locales";

import { type Db } from "../db/client";

export type AccountLocales = { defaultLocale: Locale; offered: Locale[] };

/** The pure rule, from the stored settings. */
export function accountLocalesFrom(
  config: { languageIetfCode: string; languageIsoCode: string; localesOffered: readonly string[] } | null,
): AccountLocales {
  const defaultLocale = matchLocale(config?.languageIetfCode) ?? matchLocale(config?.languageIsoCode) ?? "en";
  const saved = (config?.localesOffered ?? []).filter(isLocale);
  const offered = saved.length ? [...new Set([defaultLocale, ...saved])] : [...LOCALES];
  return { defaultLocale, offered: LOCALES.filter((l) => offered.includes(l)) };
}

export async function accountLocales(db: Db, accountId: number): Promise<AccountLocales> {
  const config = await db.publisherConfig.findUnique({
    where: { accountId },
    select: { languageIetfCode: true, languageIsoCode: true, localesOffered: true },
  });
  return accountLocalesFrom(config);
}

/**
 * Member pages: the reader's saved choice, else the choice this browser made signed out (the
 * locale cookie), else Accept-Language, else the account's default.
 */
export function pageLocale(
  locales: AccountLocales,
  input: { saved?: string | null; cookie?: string | null; acceptLanguage?: string | null },
): Locale {
  return chooseLocale(
    [input.saved, input.cookie, ...acceptedTags(input.acceptLanguage)],
    locales.offered,
    locales.defaultLocale,
  );
}

/**
 * The locale a new reader signed up in, to save on their member record so that mail follows it:
 * the first of `candidates` (a widget's locale, the locale cookie, Accept-Language's tags) an
 * offered locale matches; null when none does or it is the account's default (the reader then
 * follows the default, as one who never chose).
 */
export function signUpLocale(
  locales: AccountLocales,
  candidates: readonly (string | null | undefined)[],
): Locale | null {
  const chosen = chooseLocale(candidates, locales.offered, locales.defaultLocale);
  return chosen === locales.defaultLocale ? null : chosen;
}

/** Mail to a reader: their saved choice, else the account's default. */
export async function memberLocale(db: Db, accountId: number, memberId: number | null): Promise<Locale> {
  const [locales, member] = await Promise.all([
    accountLocales(db, accountId),
    memberId === null ? null : db.member.findFirst({ where: { id: memberId, accountId }, select: { locale: true } }),
  ]);
  return chooseLocale([member?.locale], locales.offered, locales.defaultLocale);
}

/** Saves a reader's choice (null: follow the browser again). A locale the account does not offer is refused. */
export async function setMemberLocale(
  db: Db,
  accountId: number,
  memberId: number,
  locale: Locale | null,
): Promise<boolean> {
  if (locale !== null && !(await accountLocales(db, accountId)).offered.includes(locale)) return false;
  const { count } = await db.member.updateMany({ where: { id: memberId, accountId }, data: { locale } });
  return count === 1;
}

/** The cookie that keeps a signed-out reader's choice of language in this browser (PUT /api/member/locale). */
export const LOCALE_COOKIE = "masthead_locale";

/** The locale cookie's value in a Cookie header (the first one), or null. */
export function localeCookieOf(header: string | null | undefined): string | null {
  for (const part of (header ?? "").split(";")) {
    const [name = "", value = ""] = part.split("=", 2).map((s) => s.trim());
    if (name === LOCALE_COOKIE) return value || null;
  }
  return null;
}

/**
 * The locale to save on a reader who signs up with `req` (docs/i18n.md "Choosing the locale"): the
 * page's or widget's own (`named`), else this browser's choice (the locale cookie), else
 * Accept-Language; null when it is the account's default or none is offered.
 */
export async function signUpLocaleOf(
  db: Db,
  accountId: number,
  req: Request,
  named?: string | null,
): Promise<Locale | null> {
  const locales = await accountLocales(db, accountId);
  return signUpLocale(locales, [
    named,
    localeCookieOf(req.headers.get("cookie")),
    ...acceptedTags(req.headers.get("accept-language")),
  ]);
}
