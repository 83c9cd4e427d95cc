/**
 * The visual order of document lines (./bidi.ts), on words from CLDR (the region names Intl knows
 * in Arabic, Hindi and English: text nobody here wrote) and on any text readers write.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { readerText } from "../testing/hostile-text";
import { mirrorBrackets, reverseRun, textDirection, visualRuns } from "./bidi";

const REGIONS = [
  ..."AE AR AU BH BR CA CH CN DE DZ EG ES FR GB IN IQ JO JP KW LB LY MA MX NG OM PK QA SA SD SY TN TR US YE ZA".split(
    " ",
  ),
];
const names = (locale: string) => {
  const display = new Intl.DisplayNames(locale, { type: "region" });
  return REGIONS.map((r) => display.of(r)!).flatMap((n) => n.split(/\s+/));
};
const arabic = names("ar");
const english = names("en").filter((w) => /^[A-Za-z]+$/.test(w));
const hindi = names("hi");

const words = (...lists: string[][]) => fc.array(fc.constantFrom(...lists.flat()), { minLength: 1, maxLength: 12 });
const number = fc.integer({ min: 0, max: 1_000_000 }).map(String);

describe("the visual order of a line", () => {
  it("leaves a left-to-right line of Latin and Devanagari words and numbers as it is", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...english, ...hindi), number), { minLength: 1 }), (parts) => {
        const line = parts.join(" ");
        expect(visualRuns(line, "ltr")).toEqual([{ text: line, rtl: false }]);
      }),
    );
  });

  it("reads an Arabic line with English words and numbers right to left, each English word and number left to right", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...arabic),
        fc.array(fc.oneof(fc.constantFrom(...arabic, ...english), number), { maxLength: 12 }),
        (first, rest) => {
          const line = [first, ...rest].join(" ");
          const runs = visualRuns(line, "rtl");
          // Read from the right: the runs come in the order written.
          expect(
            [...runs]
              .reverse()
              .map((r) => r.text)
              .join(""),
          ).toBe(line);
          for (const run of runs) expect(run.rtl).toBe(/\p{Script=Arabic}/u.test(run.text) || /^\s+$/u.test(run.text));
          for (const word of rest.filter((w) => /^[A-Za-z0-9]+$/.test(w)))
            expect(runs.some((r) => !r.rtl && r.text.includes(word))).toBe(true);
        },
      ),
    );
  });

  it("puts Arabic words inside an English line in the order an Arabic reader reads them", () => {
    fc.assert(
      fc.property(fc.constantFrom(...english), words(arabic), (lead, phrase) => {
        const runs = visualRuns(`${lead} ${phrase.join(" ")}`, "ltr");
        expect(runs[0]).toEqual({ text: `${lead} `, rtl: false });
        expect(runs.slice(1)).toEqual([{ text: phrase.join(" "), rtl: true }]);
      }),
    );
  });

  it("keeps every character of any text, in either direction", () => {
    fc.assert(
      fc.property(readerText(120), fc.constantFrom("ltr" as const, "rtl" as const), (text, dir) => {
        const line = text.replace(/[\r\n]/g, " ");
        const out = visualRuns(line, dir)
          .map((r) => r.text)
          .join("");
        expect([...out].sort()).toEqual([...line].sort());
      }),
    );
  });

  it("orders the amounts and dates Intl writes in Arabic as Arabic readers see them", () => {
    const amount = new Intl.NumberFormat("ar", { style: "currency", currency: "USD" }).format(1499.5);
    expect(amount).toMatch(/1,499\.50|١٬٤٩٩٫٥٠/);
    const runs = visualRuns(`الإجمالي ${amount}`, "rtl");
    // The label is on the right, the number left of it and read left to right.
    expect(runs.at(-1)!.text.startsWith("الإجمالي")).toBe(true);
    expect(runs.some((r) => !r.rtl && /^(1,499\.50|١٬٤٩٩٫٥٠)$/.test(r.text))).toBe(true);
    expect(visualRuns("فاتورة رقم 12", "rtl")).toEqual([
      { text: "12", rtl: false },
      { text: "فاتورة رقم ", rtl: true },
    ]);
    // Arabic-Indic digits are a number: left to right inside the Arabic line.
    expect(visualRuns("١٢٣ درهم", "rtl")).toEqual([
      { text: " درهم", rtl: true },
      { text: "١٢٣", rtl: false },
    ]);
  });

  it("takes a line's own direction from its first letter", () => {
    expect(textDirection("1 Main St", "rtl")).toBe("ltr");
    expect(textDirection("12 شارع النيل", "ltr")).toBe("rtl");
    expect(textDirection("2026 – 12", "rtl")).toBe("rtl");
  });

  it("mirrors brackets in a right-to-left run and reverses a run without letters", () => {
    expect(mirrorBrackets("(اشتراك)")).toBe(")اشتراك(");
    expect(reverseRun("١٢٣", false)).toBe("٣٢١");
    expect(reverseRun("(: ", true)).toBe(" :)");
  });
});
