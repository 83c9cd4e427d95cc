"use client";

/**
 * Figures as the dashboard shows them: money and calendar days in the account's default locale
 * (Settings → Languages), while the dashboard's own words stay English. The dashboard's frame gives
 * the locale once (`FormatLocaleProvider`, app/(admin)/admin/layout.tsx); outside it (a reader's
 * page) figures are English. Times with their zone are ./date-time.tsx, in the same locale.
 */
import { createContext, useContext, type ReactNode } from "react";

import type { Locale } from "@/i18n/locales";
import { formatDay, formatMonth } from "@/server/dates.schema";
import { formatMoney } from "@/server/subscriptions/money.schema";

const LocaleContext = createContext<Locale>("en");

/** The locale every figure below is written in. */
export function FormatLocaleProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return <LocaleContext value={locale}>{children}</LocaleContext>;
}

/** The locale figures are written in ("en" outside the dashboard's frame). */
export function useFormatLocale(): Locale {
  return useContext(LocaleContext);
}

/** `(cents, currency) => "₹1,49,900.00"`, in the frame's locale ("1,499.00 INR" in English). */
export function useMoneyFormat(): (cents: number, currency: string) => string {
  const locale = useContext(LocaleContext);
  return (cents, currency) => formatMoney(cents, currency, locale);
}

/** `(day, { short }) => "22 Nov 2026"` for a day already on the right zone's clocks, in the frame's locale. */
export function useDayFormat(): (day: string, options?: { short?: boolean }) => string {
  const locale = useContext(LocaleContext);
  return (day, options = {}) => formatDay(day, { ...options, locale });
}

/** `(month) => "Nov 2026"` for a calendar month ("2026-11"), in the frame's locale. */
export function useMonthFormat(): (month: string) => string {
  const locale = useContext(LocaleContext);
  return (month) => formatMonth(month, locale);
}

/**
 * The frame's formatters under the names of the plain functions they stand for, for a chart or a
 * list that writes many figures: `const { formatMoney, formatDay } = useFigureFormats()`.
 * `shortDay` is a chart's tick ("22 Nov"), `dayLabel` its tooltip's label (a day, else nothing).
 */
export function useFigureFormats() {
  const formatMoney = useMoneyFormat();
  const formatDay = useDayFormat();
  const formatMonth = useMonthFormat();
  return {
    formatMoney,
    formatDay,
    formatMonth,
    shortDay: (day: string) => formatDay(day, { short: true }),
    dayLabel: (day: unknown) => (typeof day === "string" ? formatDay(day) : ""),
  };
}

type Figures = readonly { cents: number; currency: string }[];

/** `(figures) => "1,499.00 USD, 12,000.00 INR"`: amounts in several currencies, "—" for none. */
export function useMoneyFigures(): (figures: Figures) => string {
  const money = useMoneyFormat();
  return (figures) => (figures.length === 0 ? "—" : figures.map((f) => money(f.cents, f.currency)).join(", "));
}

/** One amount as a component, for a table's cell or a server component (neither can use the hooks). */
export function Money({ cents, currency }: { cents: number; currency: string }) {
  return <>{useMoneyFormat()(cents, currency)}</>;
}

/** Several amounts as a component, for server components (which cannot use the hooks). */
export function MoneyFigures({ figures }: { figures: Figures }) {
  return <>{useMoneyFigures()(figures)}</>;
}
