"use client";

/** A time on a member page: the reader's locale, their browser's zone, the zone named (i18n/format.ts). */
import { formatDateTime } from "@/i18n/format";

import { useWords } from "./member-i18n";

export function LocalTime({ value }: { value: string }) {
  const { locale } = useWords();
  const at = new Date(value);
  return <time dateTime={at.toISOString()}>{formatDateTime(at, locale)}</time>;
}
