"use client";

/**
 * The revenue dashboard's charts (tRPC revenue.*Report; aggregated in SQL by
 * server/subscriptions/reports/reports.ts, dunning-report.ts): active subscriptions, new and churned,
 * revenue per currency, recovered and lost revenue of failed charges, and the meter's conversion,
 * per day of the account's zone over a range of at most 366 days. Drawn with recharts;
 * each chart is a figure with a caption, a text summary for screen readers and its numbers as a
 * table under "Show the numbers".
 */
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

import { useTRPC } from "@/components/trpc/react";
import { Button, FormField, Input, LoadState, Panel, useFigureFormats, useTimeZone } from "@/components/ui";
import { lastZonedDays } from "@/server/dates.schema";
import { centsToDecimal } from "@/server/subscriptions/money.schema";
import { ZReportRangeInput, type TReportRangeInput } from "@/server/subscriptions/reports/revenue.schema";

/** The last 30 days of `zone`, today included. */
function defaultRange(zone: string, now = new Date()): TReportRangeInput {
  const days = lastZonedDays(now, 30, zone);
  return { from: days[0]!, to: days.at(-1)! };
}

const COLORS = { primary: "#4f46e5", green: "#15803d", red: "#b91c1c", gray: "#6b7280" };

export function RevenueCharts() {
  const zone = useTimeZone() ?? "UTC";
  const [range, setRange] = useState<TReportRangeInput>(() => defaultRange(zone));
  return (
    <div className="min-w-0 space-y-6">
      <RangeForm range={range} onChange={setRange} />
      <div className="grid min-w-0 gap-6 xl:grid-cols-2">
        <SubscriptionCharts range={range} />
        <RevenueChart range={range} />
        <DunningChart range={range} />
        <ConversionChart range={range} />
      </div>
    </div>
  );
}

export function RangeForm({ range, onChange }: { range: TReportRangeInput; onChange: (r: TReportRangeInput) => void }) {
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [problem, setProblem] = useState<{ from?: string; to?: string }>({});
  const zone = useTimeZone() ?? "UTC";
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = ZReportRangeInput.safeParse({ from, to });
    if (!parsed.success) {
      const out: { from?: string; to?: string } = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] === "from" ? "from" : "to";
        out[key] ??= issue.message;
      }
      return setProblem(out);
    }
    setProblem({});
    onChange(parsed.data);
  };
  return (
    <form className="flex flex-wrap items-end gap-3" onSubmit={onSubmit} aria-label="Report range" noValidate>
      <FormField label="From" error={problem.from}>
        <Input type="date" name="from" value={from} onChange={(e) => setFrom(e.target.value)} fit />
      </FormField>
      <FormField label="To" error={problem.to} hint={`Days in ${zone}, at most 366.`}>
        <Input type="date" name="to" value={to} onChange={(e) => setTo(e.target.value)} fit />
      </FormField>
      <Button type="submit" variant="secondary">
        Show
      </Button>
    </form>
  );
}

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

function SubscriptionCharts({ range }: { range: TReportRangeInput }) {
  const { formatDay, shortDay, dayLabel } = useFigureFormats();
  const trpc = useTRPC();
  const report = useQuery(trpc.revenue.subscriptionsReport.queryOptions(range));
  const data = report.data;
  return (
    <Panel title="Subscriptions" padded className="xl:col-span-2">
      <LoadState query={report} what="the subscriptions report" />
      {data ? (
        <div className="grid min-w-0 gap-6 lg:grid-cols-2">
          <ChartFigure
            testId="chart-active"
            title="Active subscriptions per day"
            summary={`${data.days[0]?.active ?? 0} on ${range.from}, ${data.totals.active_at_end} on ${range.to}.`}
            table={{ head: ["Day", "Active"], rows: data.days.map((d) => [formatDay(d.day), d.active]) }}
          >
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={data.days} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
                <CartesianGrid stroke="#e5e7eb" vertical={false} />
                <XAxis dataKey="day" tickFormatter={shortDay} fontSize={11} minTickGap={16} />
                <YAxis allowDecimals={false} fontSize={11} />
                <Tooltip labelFormatter={dayLabel} />
                <Line
                  type="monotone"
                  dataKey="active"
                  name="Active"
                  stroke={COLORS.primary}
                  dot={false}
                  strokeWidth={2}
                />
              </LineChart>
            </ResponsiveContainer>
          </ChartFigure>
          <ChartFigure
            testId="chart-new-churned"
            title="New and churned per day"
            summary={`${data.totals.new} new, ${data.totals.churned} churned in the range.`}
            table={{
              head: ["Day", "New", "Churned"],
              rows: data.days.map((d) => [formatDay(d.day), d.new, d.churned]),
            }}
          >
            <DailyCountBars
              days={data.days}
              bars={[
                { key: "new", name: "New", fill: COLORS.green },
                { key: "churned", name: "Churned", fill: COLORS.red },
              ]}
            />
          </ChartFigure>
        </div>
      ) : null}
    </Panel>
  );
}

function RevenueChart({ range }: { range: TReportRangeInput }) {
  const { formatMoney, formatDay } = useFigureFormats();
  const trpc = useTRPC();
  const report = useQuery(trpc.revenue.revenueReport.queryOptions(range));
  const data = report.data;
  return (
    <Panel title="Revenue per currency" padded>
      <LoadState
        query={report}
        what="the revenue report"
        empty={data?.currencies.length === 0}
        emptyText="No captured payments in this range."
      />
      {data?.totals.map((total) => {
        const c = total.currency;
        const days = data.days.filter((d) => d.currency === c);
        const money = (cents: number) => formatMoney(cents, c);
        // The tax kept: the captured payments' taxes less those given back with refunds.
        const tax = total.tax_cents - total.refunded_tax_cents;
        return (
          <ChartFigure
            key={c}
            testId={`chart-revenue-${c}`}
            title={`Revenue in ${c}`}
            summary={`Captured ${money(total.captured_cents)}, refunded ${money(total.refunded_cents)}, net ${money(total.net_cents)}, of which tax ${money(tax)}; net excluding tax ${money(total.net_excluding_tax_cents)}.`}
            figures={[
              { label: "Net", value: money(total.net_cents), testId: "revenue-net" },
              { label: "Tax", value: money(tax), testId: "revenue-tax" },
              { label: "Excluding tax", value: money(total.net_excluding_tax_cents), testId: "revenue-excluding-tax" },
            ]}
            table={{
              head: ["Day", "Captured", "Refunded", "Net", "Tax", "Refunded tax", "Net excl. tax"],
              rows: days.map((d) => [
                formatDay(d.day),
                centsToDecimal(d.captured_cents, c),
                centsToDecimal(d.refunded_cents, c),
                centsToDecimal(d.net_cents, c),
                centsToDecimal(d.tax_cents, c),
                centsToDecimal(d.refunded_tax_cents, c),
                centsToDecimal(d.net_excluding_tax_cents, c),
              ]),
            }}
          >
            <DailyMoneyBars
              days={days}
              currency={c}
              bars={[
                { key: "captured_cents", name: "Captured", fill: COLORS.primary },
                { key: "refunded_cents", name: "Refunded", fill: COLORS.gray },
              ]}
            />
          </ChartFigure>
        );
      })}
    </Panel>
  );
}

/** Amounts of one currency per day, one bar per series side by side. */
function DailyMoneyBars<Day extends { day: string }>({
  days,
  currency,
  bars,
}: {
  days: Day[];
  currency: string;
  bars: { key: string; name: string; fill: string }[];
}) {
  const { formatMoney, shortDay, dayLabel } = useFigureFormats();
  const money = (cents: number) => formatMoney(cents, currency);
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="#e5e7eb" vertical={false} />
        <XAxis dataKey="day" tickFormatter={shortDay} fontSize={11} minTickGap={16} />
        <YAxis fontSize={11} tickFormatter={(v: number) => centsToDecimal(v, currency)} width={64} />
        <Tooltip labelFormatter={dayLabel} formatter={(v) => (typeof v === "number" ? money(v) : String(v))} />
        <Legend />
        {bars.map((bar) => (
          <Bar key={bar.key} dataKey={bar.key} name={bar.name} fill={bar.fill} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Failed recurring charges: revenue recovered in the grace period, lost at its end, at risk now. */
function DunningChart({ range }: { range: TReportRangeInput }) {
  const { formatMoney, formatDay } = useFigureFormats();
  const trpc = useTRPC();
  const report = useQuery(trpc.revenue.dunningReport.queryOptions(range));
  const data = report.data;
  return (
    <Panel title="Recovered and lost revenue" padded>
      <LoadState
        query={report}
        what="the recovered and lost revenue report"
        empty={data?.currencies.length === 0 && data.at_risk.length === 0}
        emptyText="No failed recurring charge ended in this range, and none is in its grace period."
      />
      {data?.at_risk.length ? (
        <p className="text-sm text-gray-700" data-testid="dunning-at-risk">
          In grace now:{" "}
          {data.at_risk.map((r) => `${formatMoney(r.cents, r.currency)} (${r.subscriptions} subscriptions)`).join(", ")}
          .
        </p>
      ) : null}
      {data?.totals.map((total) => {
        const c = total.currency;
        const days = data.days.filter((d) => d.currency === c);
        const money = (cents: number) => formatMoney(cents, c);
        return (
          <ChartFigure
            key={c}
            testId={`chart-dunning-${c}`}
            title={`Recovered and lost in ${c}`}
            summary={`Recovered ${money(total.recovered_cents)} (${total.recovered} subscriptions), lost ${money(total.lost_cents)} (${total.lost}).`}
            table={{
              head: ["Day", "Recovered", "Lost", "Subscriptions recovered", "Subscriptions lost"],
              rows: days.map((d) => [
                formatDay(d.day),
                centsToDecimal(d.recovered_cents, c),
                centsToDecimal(d.lost_cents, c),
                d.recovered,
                d.lost,
              ]),
            }}
          >
            <DailyMoneyBars
              days={days}
              currency={c}
              bars={[
                { key: "recovered_cents", name: "Recovered", fill: COLORS.green },
                { key: "lost_cents", name: "Lost", fill: COLORS.red },
              ]}
            />
          </ChartFigure>
        );
      })}
    </Panel>
  );
}

/** Whole-number counts per day, one bar per series side by side. */
export function DailyCountBars({
  days,
  bars,
}: {
  days: readonly ({ day: string } & Record<string, string | number>)[];
  bars: { key: string; name: string; fill: string }[];
}) {
  const { shortDay, dayLabel } = useFigureFormats();
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid stroke="#e5e7eb" vertical={false} />
        <XAxis dataKey="day" tickFormatter={shortDay} fontSize={11} minTickGap={16} />
        <YAxis allowDecimals={false} fontSize={11} />
        <Tooltip labelFormatter={dayLabel} />
        <Legend />
        {bars.map((bar) => (
          <Bar key={bar.key} dataKey={bar.key} name={bar.name} fill={bar.fill} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

export const percent = (rate: number | null) => (rate === null ? "—" : `${(rate * 100).toFixed(1)} %`);

function ConversionChart({ range }: { range: TReportRangeInput }) {
  const { formatDay } = useFigureFormats();
  const trpc = useTRPC();
  const report = useQuery(trpc.revenue.conversionReport.queryOptions(range));
  const data = report.data;
  return (
    <Panel title="Meter conversion" padded>
      <LoadState query={report} what="the conversion report" />
      {data ? (
        data.free_stories === null ? (
          <p className="text-sm text-gray-600">The paywall meter is not set up, so no reader hits it.</p>
        ) : (
          <ChartFigure
            testId="chart-conversion"
            title="Readers who hit the paywall, and who subscribed"
            summary={`${data.totals.hit_paywall} readers reached the ${data.free_stories}-story limit; ${data.totals.converted} then subscribed (${percent(data.totals.rate)}).`}
            table={{
              head: ["Day", "Hit the paywall", "Subscribed"],
              rows: data.days.map((d) => [formatDay(d.day), d.hit_paywall, d.converted]),
            }}
          >
            <DailyCountBars
              days={data.days}
              bars={[
                { key: "hit_paywall", name: "Hit the paywall", fill: COLORS.gray },
                { key: "converted", name: "Subscribed", fill: COLORS.green },
              ]}
            />
          </ChartFigure>
        )
      ) : null}
    </Panel>
  );
}

/** The overview's headline numbers (this month of the account's zone), above the section cards. */
export function RevenueHeadlines() {
  const { formatMoney, formatMonth } = useFigureFormats();
  const trpc = useTRPC();
  const headlines = useQuery(trpc.revenue.headlines.queryOptions());
  const h = headlines.data;
  const zone = useTimeZone() ?? "UTC";
  return (
    <section aria-labelledby="revenue-headlines" className="min-w-0 space-y-2">
      <h2 id="revenue-headlines" className="text-sm font-semibold text-gray-900">
        {h ? `This month (${formatMonth(h.month)}, ${zone})` : "This month"}
      </h2>
      <LoadState query={headlines} what="the headline numbers" />
      {h ? (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="revenue-headlines">
          <Stat label="Active subscriptions" value={String(h.active)} />
          <Stat label="New this month" value={String(h.new_this_month)} />
          <Stat label="Churned this month" value={String(h.churned_this_month)} />
          <Stat
            label="Revenue this month"
            value={
              h.revenue_this_month.length
                ? h.revenue_this_month.map((r) => formatMoney(r.net_cents, r.currency)).join(", ")
                : "—"
            }
          />
          <Stat
            label="Meter conversion"
            value={percent(h.conversion_this_month.rate)}
            detail={`${h.conversion_this_month.converted} of ${h.conversion_this_month.hit_paywall}`}
          />
        </dl>
      ) : null}
    </section>
  );
}

function Stat({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-gray-200 bg-white px-4 py-3 shadow-sm">
      <dt className="text-xs text-gray-600">{label}</dt>
      <dd className="mt-1 text-lg font-semibold [overflow-wrap:anywhere] text-gray-900">{value}</dd>
      {detail ? <dd className="text-xs text-gray-600">{detail}</dd> : null}
    </div>
  );
}
