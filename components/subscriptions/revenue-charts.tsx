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
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { DayRangeForm, LoadState, Panel, useFigureFormats, useTimeZone } from "@/components/ui";
import { ChartFigure, DailyChart } from "@/components/ui/daily-chart";
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
  const zone = useTimeZone() ?? "UTC";
  return (
    <DayRangeForm
      range={range}
      onChange={onChange}
      schema={ZReportRangeInput}
      label="Report range"
      fromLabel="From"
      toLabel="To"
      hint={`Days in ${zone}, at most 366.`}
    />
  );
}

function SubscriptionCharts({ range }: { range: TReportRangeInput }) {
  const { formatDay } = useFigureFormats();
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
            <DailyChart
              data={data.days}
              series={[{ key: "active", name: "Active", color: COLORS.primary, line: true }]}
            />
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
            <DailyChart
              data={data.days}
              series={[
                { key: "new", name: "New", color: COLORS.green },
                { key: "churned", name: "Churned", color: COLORS.red },
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
            <DailyChart
              data={days}
              currency={c}
              series={[
                { key: "captured_cents", name: "Captured", color: COLORS.primary },
                { key: "refunded_cents", name: "Refunded", color: COLORS.gray },
              ]}
            />
          </ChartFigure>
        );
      })}
    </Panel>
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
            <DailyChart
              data={days}
              currency={c}
              series={[
                { key: "recovered_cents", name: "Recovered", color: COLORS.green },
                { key: "lost_cents", name: "Lost", color: COLORS.red },
              ]}
            />
          </ChartFigure>
        );
      })}
    </Panel>
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
            <DailyChart
              data={data.days}
              series={[
                { key: "hit_paywall", name: "Hit the paywall", color: COLORS.gray },
                { key: "converted", name: "Subscribed", color: COLORS.green },
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
