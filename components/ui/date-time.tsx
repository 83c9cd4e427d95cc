"use client";

/**
 * Times as the dashboard shows them: one format, always with the zone ("22 Nov 2026, 12:00 CET").
 * Staff see the account's zone (Settings → Site), given by the dashboard's frame through
 * `TimeZoneProvider`, written in the account's default locale (./formats.tsx: "22. Nov. 2026, 12:00
 * MEZ" in de); pages outside it (a reader's) show the browser's own zone, in English.
 */
import { createContext, useContext, type ReactNode } from "react";

import { formatInstant } from "@/server/dates.schema";

import { useFormatLocale } from "./formats";

const TimeZoneContext = createContext<string | undefined>(undefined);

/** The zone every time below is shown in (undefined: the browser's). */
export function TimeZoneProvider({ zone, children }: { zone: string | undefined; children: ReactNode }) {
  return <TimeZoneContext value={zone}>{children}</TimeZoneContext>;
}

/** "22 Nov 2026, 12:00 CET": `value` in `zone` (undefined: the runtime's own), in English (outside the frame). */
export const formatDateTime = formatInstant;

/** The zone of the frame the component is in (undefined: the browser's), for date fields' days. */
export function useTimeZone(): string | undefined {
  return useContext(TimeZoneContext);
}

/** A formatter bound to the zone of the frame the component is in, for times written into sentences. */
export function useDateTimeFormat(): (value: Date) => string {
  const zone = useContext(TimeZoneContext);
  const locale = useFormatLocale();
  return (value) => formatInstant(value, zone, locale);
}

export function DateTime({ value, className }: { value: Date; className?: string }) {
  const zone = useContext(TimeZoneContext);
  const locale = useFormatLocale();
  return (
    <time dateTime={value.toISOString()} className={className}>
      {formatInstant(value, zone, locale)}
    </time>
  );
}
