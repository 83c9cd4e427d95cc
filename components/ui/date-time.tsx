/** A point in time as the reader's locale writes it ("22 Nov 2026, 12:00:00"), in a <time> element. */
export const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** The same, with the time zone it is shown in ("22 Nov 2026, 12:00:00 CET"): for times that bind someone (a ban's end). */
export const dateTimeZoneFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "long" });

export function DateTime({ value, className, zone = false }: { value: Date; className?: string; zone?: boolean }) {
  return (
    <time dateTime={value.toISOString()} className={className}>
      {(zone ? dateTimeZoneFormat : dateTimeFormat).format(value)}
    </time>
  );
}
