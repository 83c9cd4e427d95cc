/** A point in time as the reader's locale writes it ("22 Nov 2026, 12:00:00"), in a <time> element. */
export const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

export function DateTime({ value, className }: { value: Date; className?: string }) {
  return (
    <time dateTime={value.toISOString()} className={className}>
      {dateTimeFormat.format(value)}
    </time>
  );
}
