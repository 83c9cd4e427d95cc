"use client";

/**
 * Times as the dashboard shows them: one format, always with the zone ("22 Nov 2026, 12:00 CET").
 * Staff see the account's zone (Settings → Site), given by the dashboard's frame through
 * `TimeZoneProvider`; pages outside it (a reader's) show the browser's own zone.
 */
import { createContext, useContext, type ReactNode } from "react";

const TimeZoneContext = createContext<string | undefined>(undefined);

/** The zone every time below is shown in (undefined: the browser's). */
export function TimeZoneProvider({ zone, children }: { zone: string | undefined; children: ReactNode }) {
  return <TimeZoneContext value={zone}>{children}</TimeZoneContext>;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** "22 Nov 2026, 12:00 CET": `value` in `zone` (undefined: the runtime's own). */
export function formatDateTime(value: Date, zone?: string): string {
  const key = zone ?? "";
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZoneName: "short",
      ...(zone ? { timeZone: zone } : {}),
    });
    formats.set(key, format);
  }
  return format.format(value);
}

/** A formatter bound to the zone of the frame the component is in, for times written into sentences. */
export function useDateTimeFormat(): (value: Date) => string {
  const zone = useContext(TimeZoneContext);
  return (value) => formatDateTime(value, zone);
}

export function DateTime({ value, className }: { value: Date; className?: string }) {
  const zone = useContext(TimeZoneContext);
  return (
    <time dateTime={value.toISOString()} className={className}>
      {formatDateTime(value, zone)}
    </time>
  );
}
