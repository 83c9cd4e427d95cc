/**
 * The Conversions CSV's lines (GET /api/admin/conversions.csv): one per story, section, author
 * or tag, the figures of ./conversion-figures.ts, and one column of integer cents per currency
 * the range earned in (a program sums cents; a person reads the decimal on the page).
 */
import type { CsvValue } from "../../csv";
import type { ConversionFigures } from "./conversion-figures";

export function conversionCsv(figures: ConversionFigures & { by: string }): {
  header: string[];
  rows: CsvValue[][];
} {
  const currencies = figures.totals.revenue.map((m) => m.currency);
  const header = [
    figures.by === "story" ? "story_id" : `${figures.by}_id`,
    figures.by === "story" ? "headline" : "name",
    "readers_hit_wall",
    "registered",
    "trials_started",
    "paid_started",
    "same_visit",
    ...currencies.map((c) => `revenue_cents_${c}`),
  ];
  const rows = figures.rows.map((r) => {
    const cents = new Map(r.revenue.map((m) => [m.currency, m.cents]));
    return [
      r.key,
      r.label,
      r.readers,
      r.registered,
      r.trials,
      r.paid,
      r.sameVisit,
      ...currencies.map((c) => cents.get(c) ?? 0),
    ];
  });
  return { header, rows };
}
