/**
 * The frame of every member page (app/member/reader-page.ts tells its reader): its language on the page itself (`lang` and
 * `dir` on a wrapper, so right-to-left pages are right to left before any script runs) and on
 * `<html>` (set by a line of script before the first paint: the root layout is static and English,
 * decision 0040), the words for the client components, and the language picker.
 */
import type { ReactNode } from "react";

import { directionOf, type Locale } from "@/i18n/locales";

import { LanguagePicker } from "./language-picker";
import { HtmlLang, MemberI18n } from "./member-i18n";
import type { MemberMessages } from "./member-words";

type ShellPage = {
  locale: Locale;
  messages: MemberMessages;
  /** The locales the reader may pick, each named in its own language. */
  offered: { code: Locale; name: string }[];
};

export function ReaderShell({ page, children }: { page: ShellPage; children: ReactNode }) {
  const dir = directionOf(page.locale);
  // The locale is one of LOCALES (never the request's text): safe to write into the script.
  const setHtml = `document.documentElement.lang=${JSON.stringify(page.locale)};document.documentElement.dir=${JSON.stringify(dir)};`;
  return (
    <div lang={page.locale} dir={dir} className="flex min-h-screen flex-col">
      <script dangerouslySetInnerHTML={{ __html: setHtml }} />
      <MemberI18n locale={page.locale} messages={page.messages}>
        <HtmlLang locale={page.locale} dir={dir} />
        {page.offered.length > 1 ? (
          <header className="flex justify-end px-4 pt-3 sm:px-6">
            <LanguagePicker offered={page.offered} />
          </header>
        ) : null}
        {children}
      </MemberI18n>
    </div>
  );
}

/**
 * A member page's content column: the publication's name (when the page knows it), the title,
 * the line under it, then the page's own part.
 */
export function ReaderMain({
  publisher,
  title,
  intro,
  children,
}: {
  publisher?: { name: string } | null;
  title: string;
  intro: string;
  children: ReactNode;
}) {
  return (
    <main id="main" className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6 sm:py-10">
      {publisher ? (
        <p className="text-sm font-semibold tracking-tight text-gray-700" dir="auto">
          {publisher.name}
        </p>
      ) : null}
      <h1 className={publisher ? "mt-1 text-xl font-semibold text-gray-900" : "text-xl font-semibold text-gray-900"}>
        {title}
      </h1>
      <p className="mt-1 text-sm text-gray-600">{intro}</p>
      <div className="mt-6">{children}</div>
    </main>
  );
}
