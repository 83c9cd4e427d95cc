/**
 * What a member page's server part knows of its reader (docs/i18n.md, "Member pages"): the
 * publication (by the host, or the newsletter a link names), the signed-in member (the session
 * cookie), and so the locale — the reader's saved choice, else this browser's cookie, else
 * Accept-Language, else the account's default (server/members/reader-locale.ts) — and the member
 * catalogue in it with the account's overrides, for the page and its client components
 * (components/members/reader-shell.tsx).
 */
import "server-only";

import { headers } from "next/headers";
import { cache } from "react";

import { memberWords, type MemberMessages, type MemberWords } from "@/components/members/member-words";
import { LOCALE_NAMES, type Locale } from "@/i18n/locales";
import { messagesOf } from "@/i18n/messages";
import { getDb } from "@/server/db";
import { memberTokenFromRequest } from "@/server/http/member-session";
import { overridesFor } from "@/server/i18n/overrides";
import { readerLocale } from "@/server/members/reader-locale";
import { authenticateMember } from "@/server/members/sessions";
import { resolvePublisher, type Publisher } from "@/server/publishing/publisher";

export type ReaderPage = {
  locale: Locale;
  words: MemberWords;
  messages: MemberMessages;
  /** The locales the reader may pick, each named in its own language. */
  offered: { code: Locale; name: string }[];
  /** The publication of the host (null: this host names none; the API answers that). */
  publisher: Publisher | null;
};

async function hostPublisher(host: string | null): Promise<Publisher | null> {
  try {
    return await resolvePublisher(await getDb(), { host });
  } catch {
    return null; // no publisher on this host: the API answers that when a form is sent
  }
}

/**
 * The page's reader. A signed link's page (a newsletter's, a card link's) passes the link's account
 * and its reader's saved choice (`linkReaderLocale`: after this browser's cookie, before
 * Accept-Language). Cached for the request (metadata and page).
 */
export const readerPage = cache(
  async (linkAccountId?: number, linkReaderLocale?: string | null): Promise<ReaderPage> => {
    const db = await getDb();
    const h = await headers();
    const publisher = await hostPublisher(h.get("host"));
    const accountId = linkAccountId ?? publisher?.accountId ?? null;
    const token = memberTokenFromRequest({ headers: h });
    const session =
      accountId !== null && token
        ? await authenticateMember(db, { accountId, token, now: new Date() }).catch(() => null)
        : null;
    const { locale, locales } = await readerLocale(db, accountId, {
      saved: session?.member.locale,
      linkReader: linkReaderLocale,
      cookies: h.get("cookie"),
      acceptLanguage: h.get("accept-language"),
    });
    const table = new Map([...messagesOf("member", "en"), ...messagesOf("member", locale)]);
    if (accountId !== null)
      for (const [key, message] of await overridesFor(db, accountId, "member", locale)) table.set(key, message);
    const messages = [...table];
    return {
      locale,
      words: memberWords(locale, messages),
      messages,
      offered: locales.offered.map((code) => ({ code, name: LOCALE_NAMES.get(code) ?? code })),
      publisher: linkAccountId === undefined || publisher?.accountId === linkAccountId ? publisher : null,
    };
  },
);
