/**
 * The override editor's preview (Settings → Languages, docs/i18n.md "The newsroom's own words"): a
 * draft message formatted as a reader would see it, with stand-in values for its arguments, once
 * per plural category of the locale when it counts something. Pure and free of the catalogues, so
 * the dashboard ships only the formatter.
 */
import { IntlMessageFormat, type PrimitiveType } from "intl-messageformat";

import { parseMessage } from "./icu";
import type { Locale } from "./locales";

export type PreviewArgument = { name: string; kind: string; options: readonly string[] };
export type PreviewLine = { label: string; text: string };

const PLURAL_SEARCH_LIMIT = 1000;
/** A fixed instant, so a preview of a date reads the same on every render: 14 March 2027, 09:30 UTC. */
const SAMPLE_DATE = Date.UTC(2027, 2, 14, 9, 30);

/**
 * The smallest whole number of each plural category `locale` uses, in order: English 1 and 0
 * ("one", "other"), French 0, 2 and 1,000,000 (one, other, many), Arabic 0, 1, 2, 3, 11 and 100 (zero, one, two, few, many, other).
 */
export function pluralSamples(locale: Locale): number[] {
  const rules = new Intl.PluralRules(locale);
  const wanted = rules.resolvedOptions().pluralCategories.length;
  const first = new Map<string, number>();
  // French and Spanish say "many" only of millions ("1 000 000 de commentaires").
  const candidates = [...Array.from({ length: PLURAL_SEARCH_LIMIT + 1 }, (_, n) => n), 1_000_000];
  for (const n of candidates) {
    if (first.size === wanted) break;
    const category = rules.select(n);
    if (!first.has(category)) first.set(category, n);
  }
  return [...first.values()].sort((a, b) => a - b);
}

function sampleValue(arg: PreviewArgument, count: number): PrimitiveType {
  switch (arg.kind) {
    case "plural":
    case "number":
      return count;
    case "select":
      return arg.options.find((option) => option !== "other") ?? "other";
    case "date":
    case "time":
      return SAMPLE_DATE;
    default:
      return `‹${arg.name}›`;
  }
}

/**
 * `message` in `locale` with stand-in values: text arguments as ‹name›, a select's first named
 * option, dates as 14 March 2027; one line per plural sample when an argument counts, else one.
 * Throws when the message does not parse (the editor shows the rule's reason instead).
 */
export function previewMessage(locale: Locale, message: string, args: readonly PreviewArgument[]): PreviewLine[] {
  const formatter = new IntlMessageFormat(parseMessage(message), locale, undefined, { ignoreTag: true });
  const counts = args.some((arg) => arg.kind === "plural") ? pluralSamples(locale) : [1];
  const counted = args.find((arg) => arg.kind === "plural" || arg.kind === "number");
  return counts.map((count) => {
    const values = Object.create(null) as Record<string, PrimitiveType>;
    for (const arg of args) values[arg.name] = sampleValue(arg, count);
    const out = formatter.format(values);
    const label = counted && counts.length > 1 ? `${counted.name} = ${count}` : "Preview";
    return { label, text: typeof out === "string" ? out : String(out) };
  });
}
