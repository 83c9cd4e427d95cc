"use client";

/**
 * The member pages' words in the browser (./member-words.ts): the page's server part hands over the
 * reader's locale and messages; client components read them with `useWords()`. `HtmlLang` keeps
 * `<html lang dir>` the page's while it is shown (the root layout's are English; the page's first
 * paint sets them by script, see ./reader-shell.tsx).
 */
import { createContext, use, useLayoutEffect, useMemo, type ReactNode } from "react";

import type { Locale } from "@/i18n/locales";

import { memberWords, type MemberMessages, type MemberWords } from "./member-words";

const WordsContext = createContext<MemberWords | null>(null);

export function MemberI18n({
  locale,
  messages,
  children,
}: {
  locale: Locale;
  messages: MemberMessages;
  children: ReactNode;
}) {
  const words = useMemo(() => memberWords(locale, messages), [locale, messages]);
  return <WordsContext value={words}>{children}</WordsContext>;
}

/** The words of the member page the component is on. */
export function useWords(): MemberWords {
  const words = use(WordsContext);
  if (!words) throw new Error("useWords: not inside a member page (MemberI18n)");
  return words;
}

/** Sets `<html lang dir>` to the page's, and back to the root layout's English when the page goes. */
export function HtmlLang({ locale, dir }: { locale: Locale; dir: "ltr" | "rtl" }) {
  useLayoutEffect(() => {
    const html = document.documentElement;
    html.lang = locale;
    html.dir = dir;
    return () => {
      html.lang = "en";
      html.removeAttribute("dir");
    };
  }, [locale, dir]);
  return null;
}
