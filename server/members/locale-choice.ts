/**
 * A reader changes the language of the member pages (PUT /api/member/locale; docs/i18n.md): signed
 * in, the choice is saved on their member record (mail follows it) and kept in the locale cookie;
 * signed out, in the cookie only. A locale the account does not offer is refused (422), nothing
 * saved.
 */
import "server-only";

import { type Locale } from "@/i18n/locales";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import { accountLocales, LOCALE_COOKIE, setMemberLocale } from "../i18n/locale-settings";

/** A year: the choice outlives any session. */
const COOKIE_SECONDS = 365 * 86_400;

/** Saves `locale` (null: follow the browser) for the signed-in `memberId`, or checks it only (signed out). */
export async function chooseReaderLocale(
  db: Db,
  args: { accountId: number; memberId: number | null; locale: Locale | null },
): Promise<{ locale: Locale | null; saved: boolean; offered: Locale[] }> {
  const { offered } = await accountLocales(db, args.accountId);
  if (args.locale !== null && !offered.includes(args.locale)) {
    throw new AppError(
      "UNPROCESSABLE",
      `This publication does not offer ${args.locale}; it offers ${offered.join(", ")}.`,
      {
        details: [{ field: "body.locale", issue: `is not offered (offered: ${offered.join(", ")})` }],
      },
    );
  }
  const saved = args.memberId !== null && (await setMemberLocale(db, args.accountId, args.memberId, args.locale));
  return { locale: args.locale, saved, offered };
}

/** The Set-Cookie value that keeps `locale` in this browser (null: removes it). */
export function localeCookie(locale: Locale | null, secure: boolean): string {
  return [
    `${LOCALE_COOKIE}=${locale ?? ""}`,
    "Path=/",
    `Max-Age=${locale === null ? 0 : COOKIE_SECONDS}`,
    "SameSite=Lax",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}
