/**
 * The consent dates of a newsletter list's CSV (`--from newsletter-csv`), in the formats list
 * exports and spreadsheets write, all read as UTC unless they name their zone. Pure.
 *
 * - ISO 8601: "2024-03-05", "2024-03-05T10:00:00Z", "2024-03-05 10:00:00", "…+01:00";
 * - "2024/03/05" (a time may follow, as above);
 * - day and month with slashes, dots or dashes: "25/03/2024", "03/25/2024", "25.03.2024": which is
 *   the day is told by the one above 12; when both are 12 or below and differ ("05/03/2024") the
 *   date is ambiguous and refused, never guessed;
 * - month names: "5 Mar 2024", "5 March 2024", "Mar 5, 2024", and RFC 2822's
 *   "Tue, 05 Mar 2024 10:00:00 +0000".
 */
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

type Parsed = Date | null | { error: string };

const TIME = String.raw`(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?`;
const ZONE = String.raw`(?:\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2}))?`;

function build(y: number, m: number, d: number, time: (string | undefined)[], zone: string | undefined): Date | null {
  const [hh = "0", mm = "0", ss = "0"] = time;
  if (m < 1 || m > 12 || d < 1 || d > 31 || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return null;
  const utc = Date.UTC(y, m - 1, d, Number(hh), Number(mm), Number(ss));
  const check = new Date(utc);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null;
  let offset = 0;
  if (zone && !["Z", "UTC", "GMT"].includes(zone)) {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
    offset = (z[1] === "-" ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3])) * 60_000;
  }
  return new Date(utc - offset);
}

const monthOf = (name: string) => {
  const index = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  return index < 0 ? null : index + 1;
};

/** A consent date of the file (see the file's comment): a Date, null when empty, or why it is refused. */
export function parseConsentDate(value: string | undefined): Parsed {
  const text = (value ?? "").trim();
  if (!text) return null;
  const invalid = { error: `its consent date "${text}" is not a date` };

  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (m) {
    const date = build(+m[1]!, +m[2]!, +m[3]!, [m[4], m[5], m[6]], m[8]);
    return date ? new Date(date.getTime() + Math.round(Number(m[7] ?? 0) * 1000)) : invalid;
  }

  m = new RegExp(`^(\\d{4})/(\\d{1,2})/(\\d{1,2})${TIME}${ZONE}$`).exec(text);
  if (m) return build(+m[1]!, +m[2]!, +m[3]!, [m[4], m[5], m[6]], m[7]) ?? invalid;

  m = new RegExp(`^(\\d{1,2})([/.-])(\\d{1,2})\\2(\\d{4})${TIME}${ZONE}$`).exec(text);
  if (m) {
    const a = +m[1]!;
    const b = +m[3]!;
    const time = [m[5], m[6], m[7]];
    if (a > 12 && b <= 12) return build(+m[4]!, b, a, time, m[8]) ?? invalid;
    if (b > 12 && a <= 12) return build(+m[4]!, a, b, time, m[8]) ?? invalid;
    if (a === b) return build(+m[4]!, a, b, time, m[8]) ?? invalid;
    if (a > 12 && b > 12) return invalid;
    return {
      error: `its consent date "${text}" could be day/month or month/day: write it as YYYY-MM-DD (refused rather than guessed)`,
    };
  }

  // "5 Mar 2024", "Tue, 05 Mar 2024 10:00:00 +0000"
  m = new RegExp(
    `^(?:[A-Za-z]{3},?\\s+)?(\\d{1,2})\\s+([A-Za-z]{3,9})\\.?\\s+(\\d{4})${TIME.replace("[ T]", "\\s+")}${ZONE}$`,
  ).exec(text);
  if (m) {
    const month = monthOf(m[2]!);
    return month ? (build(+m[3]!, month, +m[1]!, [m[4], m[5], m[6]], m[7]) ?? invalid) : invalid;
  }
  // "Mar 5, 2024"
  m = new RegExp(`^([A-Za-z]{3,9})\\.?\\s+(\\d{1,2}),?\\s+(\\d{4})${TIME.replace("[ T]", ",?\\s+")}${ZONE}$`).exec(
    text,
  );
  if (m) {
    const month = monthOf(m[1]!);
    return month ? (build(+m[3]!, month, +m[2]!, [m[4], m[5], m[6]], m[7]) ?? invalid) : invalid;
  }
  return invalid;
}
