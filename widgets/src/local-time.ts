/** Times as the frames say them to a reader. */

/**
 * The time `iso` in the frame's language and the reader's time zone, with the zone's name
 * ("November 27, 2026, 9:21 PM EST"; with `month: "short"`, "Nov 27, 2026, 9:21 PM EST").
 */
export function localTime(iso: string, lang: string, month: "long" | "short" = "long"): string {
  const date = new Date(iso);
  const options: Intl.DateTimeFormatOptions = {
    year: "numeric",
    month,
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  };
  try {
    return new Intl.DateTimeFormat(lang || undefined, options).format(date);
  } catch {
    return new Intl.DateTimeFormat(undefined, options).format(date);
  }
}
