/**
 * The frames' words (docs/widgets.md, "Languages"). The frame page sends one locale's widget
 * messages, the account's overrides merged, already parsed to the ICU syntax tree (decision 0039);
 * they are formatted here by intl-messageformat, bundled without its parser
 * (scripts/build-bundles.mjs aliases it away). Plurals, numbers and `select` follow the locale's
 * CLDR rules through the browser's own Intl.
 */
import { TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { IntlMessageFormat } from "intl-messageformat";

import type { CATALOGUES } from "../../i18n/catalogues.generated";

/** A key of the widgets' catalogue (i18n/messages/widgets/en.json). */
export type StringKey = keyof (typeof CATALOGUES)["widgets"]["en"];
/** Messages by key, parsed (the frame page's `messages`). */
export type ParsedMessages = Readonly<Record<string, MessageFormatElement[]>>;
export type Values = Readonly<Record<string, string | number>>;
export type T = (key: StringKey, values?: Values) => string;

export type FrameWords = {
  /** A message as text. */
  t: T;
  /** A message as text and nodes: `values` may be elements (a link, a <bdi> around a name). */
  parts: <N extends object>(key: StringKey, values: Readonly<Record<string, string | number | N>>) => (string | N)[];
  /** A number in the locale's digits and grouping. */
  num: (n: number) => string;
};

/** The names a message asks for, each with what stands in when the caller gives none ("" or 0). */
function blanks(elements: readonly MessageFormatElement[], into: Map<string, string | number>): void {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    if (el.type === TYPE.tag) {
      blanks(el.children, into);
      continue;
    }
    if (!into.has(el.value)) into.set(el.value, el.type === TYPE.plural || el.type === TYPE.number ? 0 : "");
    if (el.type === TYPE.select || el.type === TYPE.plural)
      for (const option of Object.values(el.options)) blanks(option.value, into);
  }
}

/** The words of a frame in `locale`; a key the messages lack reads as the key itself (never thrown). */
export function frameWords(locale: string, messages: ParsedMessages): FrameWords {
  const table = new Map<string, { format: IntlMessageFormat; blank: Map<string, string | number> }>();
  for (const [key, ast] of Object.entries(messages)) {
    if (!Array.isArray(ast)) continue;
    const blank = new Map<string, string | number>();
    blanks(ast, blank);
    table.set(key, { format: new IntlMessageFormat(ast, locale), blank });
  }
  const format = <N extends object>(key: string, values?: Readonly<Record<string, string | number | N>>) => {
    const entry = table.get(key);
    if (!entry) return [key];
    const filled: Record<string, string | number | N> = Object.create(null) as Record<string, string | number | N>;
    entry.blank.forEach((value, name) => (filled[name] = value));
    if (values) for (const [name, value] of Object.entries(values)) filled[name] = value;
    const out = entry.format.format<N>(filled);
    return Array.isArray(out) ? out : [out];
  };
  const numbers = new Intl.NumberFormat(locale);
  return {
    t: (key, values) => format<never>(key, values).join(""),
    parts: (key, values) => format(key, values),
    num: (n) => numbers.format(n),
  };
}
