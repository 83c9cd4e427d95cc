"use client";

/**
 * Charts over days, drawn with recharts. `ChartFigure` frames a chart: its caption, a summary
 * for screen readers, headline figures and its numbers as a table under "Show the numbers".
 * `DailyChart` draws series of one row a day (`{ day: "2026-11-22", … }`): a bar or a line per
 * series, whole numbers unless `currency` makes them money, a second axis on the right for a
 * series that asks for one, and a legend once there is more than one series.
 *
 *   <DailyChart data={days} series={[{ key: "new", name: "New", color: "#15803d" }]} />
 *
 * Import it from this file, not the kit's index: recharts stays out of pages without a chart.
 */
import type { ReactNode } from "react";
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

import { centsToDecimal } from "@/server/subscriptions/money.schema";

import { useFigureFormats } from "./formats";

/** A chart as a figure: caption, a summary for screen readers, and its numbers as a table. */
export function ChartFigure({
  title,
  summary,
  children,
  table,
  testId,
  figures,
}: {
  title: string;
  summary: string;
  children: ReactNode;
  table: { head: string[]; rows: (string | number)[][] };
  testId: string;
  /** Headline figures shown under the summary (label, value). */
  figures?: { label: string; value: string; testId: string }[];
}) {
  return (
    <figure className="min-w-0 space-y-2" data-testid={testId}>
      <figcaption className="text-sm font-medium text-gray-900">{title}</figcaption>
      <p className="text-sm text-gray-600">{summary}</p>
      {figures?.length ? (
        <dl className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          {figures.map((f) => (
            <div key={f.label} className="min-w-0" data-testid={f.testId}>
              <dt className="text-xs text-gray-600">{f.label}</dt>
              <dd className="font-medium text-gray-900 tabular-nums">{f.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <div role="img" aria-label={`${title}: ${summary}`} className="h-60 w-full min-w-0">
        {children}
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-gray-700">Show the numbers</summary>
        <div className="mt-2 max-h-64 overflow-auto">
          <table className="w-full text-left text-xs">
            <thead>
              <tr>
                {table.head.map((h) => (
                  <th key={h} scope="col" className="px-2 py-1 font-medium text-gray-700">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, i) => (
                <tr key={i} className="border-t border-gray-100">
                  {row.map((cell, j) => (
                    <td key={j} className="px-2 py-1 tabular-nums">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** One series of a chart: the rows' field it draws, its name in the legend and tooltip, its colour. */
type ChartSeries = {
  key: string;
  name: string;
  color: string;
  /** A line instead of a bar. */
  line?: boolean;
  /** Measured on an axis of its own, on the right. */
  rightAxis?: boolean;
};

export function DailyChart({
  data,
  series,
  currency,
  xKey = "day",
  tick,
  tooltipLabel,
}: {
  data: readonly object[];
  series: readonly ChartSeries[];
  /** The values are amounts in cents of this currency. */
  currency?: string;
  /** The rows' field along the bottom; "day" unless told. */
  xKey?: string;
  /** A tick's text (the short day unless told). */
  tick?: (value: string) => string;
  /** The tooltip's heading (the day unless told). */
  tooltipLabel?: (label: unknown, payload: readonly { payload?: unknown }[] | undefined) => ReactNode;
}) {
  const { formatMoney, shortDay, dayLabel } = useFigureFormats();
  const right = series.some((s) => s.rightAxis);
  const axis = (s: ChartSeries) => (s.rightAxis ? "right" : "left");
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={[...data]} margin={{ top: 8, right: right ? 0 : 8, bottom: 0, left: currency ? 0 : -16 }}>
        <CartesianGrid stroke="#e5e7eb" vertical={false} />
        <XAxis dataKey={xKey} tickFormatter={tick ?? shortDay} fontSize={11} minTickGap={16} />
        {currency ? (
          <YAxis yAxisId="left" fontSize={11} tickFormatter={(v: number) => centsToDecimal(v, currency)} width={64} />
        ) : (
          <YAxis yAxisId="left" allowDecimals={false} fontSize={11} />
        )}
        {right ? <YAxis yAxisId="right" orientation="right" allowDecimals={false} fontSize={11} /> : null}
        <Tooltip
          labelFormatter={tooltipLabel ?? dayLabel}
          formatter={currency ? (v) => (typeof v === "number" ? formatMoney(v, currency) : String(v)) : undefined}
        />
        {series.length > 1 ? <Legend /> : null}
        {series.map((s) =>
          s.line ? (
            <Line
              key={s.key}
              yAxisId={axis(s)}
              type="monotone"
              dataKey={s.key}
              name={s.name}
              stroke={s.color}
              dot={false}
              strokeWidth={2}
            />
          ) : (
            <Bar key={s.key} yAxisId={axis(s)} dataKey={s.key} name={s.name} fill={s.color} />
          ),
        )}
      </ComposedChart>
    </ResponsiveContainer>
  );
}
