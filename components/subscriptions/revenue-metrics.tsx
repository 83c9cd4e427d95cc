"use client";

/**
 * The Reports page's revenue metrics (tRPC revenue.metrics; computed by
 * server/subscriptions/reports/metrics.ts): this month's MRR, ARR, churn rate, ARPU and trial conversion
 * as cards, the last 12 months (of the account's zone) as charts, and this month per plan. Every figure has a
 * definition (metrics.schema.ts) behind a "?" button: shown on hover and on keyboard focus, kept
 * open by a click, closed by Escape, and read by screen readers as the button's description.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

import { ChartFigure, percent } from "@/components/subscriptions/revenue-charts";
import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import { cx, LoadState, Panel, useMoneyFigures, useMonthFormat, useTimeZone } from "@/components/ui";
import { nullPrototypeRecord } from "@/server/own-keys";
import { centsToDecimal } from "@/server/subscriptions/money.schema";
import { METRIC_DEFINITIONS, type TMetricKey } from "@/server/subscriptions/reports/metrics.schema";

const TIP_WIDTH = 256;
const LINE_COLORS = ["#4f46e5", "#15803d", "#b45309", "#be185d", "#0e7490"];

/** A figure's definition: a "?" toggletip that keyboards and screen readers reach. */
function MetricDefinition({ metric }: { metric: TMetricKey }) {
  const { label, definition } = METRIC_DEFINITIONS[metric];
  const [hovered, setHovered] = useState(false);
  const [pinned, setPinned] = useState(false);
  const [focused, setFocused] = useState(false);
  const tipId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const open = hovered || pinned || focused;
  // Placed in the viewport (fixed), kept inside it on a phone: it never widens the page.
  const [place, setPlace] = useState<{ top: number; left: number } | null>(null);
  useEffect(() => {
    if (!open) return;
    const update = () => {
      const rect = button.current?.getBoundingClientRect();
      if (!rect) return;
      const width = Math.min(TIP_WIDTH, window.innerWidth - 16);
      setPlace({ top: rect.bottom + 4, left: Math.max(8, Math.min(rect.left, window.innerWidth - width - 8)) });
    };
    update();
    window.addEventListener("scroll", update, true);
    window.addEventListener("resize", update);
    return () => {
      window.removeEventListener("scroll", update, true);
      window.removeEventListener("resize", update);
    };
  }, [open]);
  return (
    <span
      className="relative inline-flex align-middle"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
    >
      <button
        ref={button}
        type="button"
        aria-label={`What is ${label}?`}
        aria-describedby={tipId}
        aria-expanded={open}
        onClick={() => setPinned((p) => !p)}
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false);
          setPinned(false);
        }}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            setPinned(false);
            setFocused(false);
            setHovered(false);
          }
        }}
        className="inline-flex size-6 items-center justify-center rounded-full border border-gray-300 bg-white text-xs font-semibold text-gray-700 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        ?
      </button>
      <span
        role="tooltip"
        id={tipId}
        style={place ? { top: place.top, left: place.left, width: `min(${TIP_WIDTH}px, 100vw - 16px)` } : undefined}
        className={cx(
          "fixed z-30 rounded-md bg-gray-900 px-3 py-2 text-left text-xs leading-snug font-normal whitespace-normal text-white shadow-lg",
          open && place ? "block" : "hidden",
        )}
      >
        {definition}
      </span>
    </span>
  );
}

function MetricCard({ metric, value, detail }: { metric: TMetricKey; value: string; detail?: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-gray-200 bg-white px-4 py-3 shadow-sm">
      <dt className="flex items-center gap-2 text-xs text-gray-600">
        <span>{METRIC_DEFINITIONS[metric].label}</span>
        <MetricDefinition metric={metric} />
      </dt>
      <dd className="mt-1 text-lg font-semibold [overflow-wrap:anywhere] text-gray-900">{value}</dd>
      {detail ? <dd className="text-xs text-gray-600">{detail}</dd> : null}
    </div>
  );
}

export function RevenueMetrics() {
  const trpc = useTRPC();
  const money = useMoneyFigures();
  const formatMonth = useMonthFormat();
  const zone = useTimeZone() ?? "UTC";
  const query = useQuery(trpc.revenue.metrics.queryOptions());
  const data = query.data;
  const current = data?.months.at(-1);
  const currencies = data?.currencies ?? [];
  const series = (data?.months ?? []).map((m) => {
    const row = nullPrototypeRecord<string | number | null>();
    Object.assign(row, {
      month: formatMonth(m.month),
      churn: m.churn_rate === null ? null : Math.round(m.churn_rate * 1000) / 10,
      trials: m.trial_conversion === null ? null : Math.round(m.trial_conversion * 1000) / 10,
    });
    for (const c of currencies) row[c] = Number(centsToDecimal(m.mrr.find((f) => f.currency === c)?.cents ?? 0, c));
    return row;
  });
  return (
    <Panel title="Revenue metrics" padded>
      <div className="min-w-0 space-y-6" data-testid="revenue-metrics">
        <LoadState query={query} what="the revenue metrics" />
        {data && current ? (
          <>
            <section aria-labelledby="metrics-this-month" className="space-y-2">
              <h3 id="metrics-this-month" className="text-sm font-semibold text-gray-900">
                This month ({formatMonth(current.month)}, {zone}, to now)
              </h3>
              <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
                <MetricCard
                  metric="mrr"
                  value={money(current.mrr)}
                  detail={`${current.paying_subscribers} paying ${current.paying_subscribers === 1 ? "subscriber" : "subscribers"}`}
                />
                <MetricCard metric="arr" value={money(current.arr)} />
                <MetricCard
                  metric="churn"
                  value={percent(current.churn_rate)}
                  detail={`${current.ended} of ${current.paying_at_start} ended`}
                />
                <MetricCard metric="arpu" value={money(current.arpu)} />
                <MetricCard
                  metric="trialConversion"
                  value={percent(current.trial_conversion)}
                  detail={`${current.trials_converted} of ${current.trials_ended} trials`}
                />
              </dl>
            </section>
            <div className="grid min-w-0 gap-6 xl:grid-cols-2">
              <ChartFigure
                testId="chart-mrr"
                title={`MRR per month (last 12 months, ${zone})`}
                summary={
                  currencies.length
                    ? `MRR this month: ${money(current.mrr)}; 12 months ago: ${money(data.months[0]!.mrr)}.`
                    : "No recurring revenue in the last 12 months."
                }
                table={{
                  head: ["Month", ...currencies.flatMap((c) => [`MRR ${c}`, `ARR ${c}`, `ARPU ${c}`]), "Paying"],
                  rows: data.months.map((m) => [
                    formatMonth(m.month),
                    ...currencies.flatMap((c) =>
                      (["mrr", "arr", "arpu"] as const).map((k) => {
                        const f = m[k].find((x) => x.currency === c);
                        return f ? centsToDecimal(f.cents, c) : "—";
                      }),
                    ),
                    m.paying_subscribers,
                  ]),
                }}
              >
                <ResponsiveContainer width="100%" height="100%">
                  <LineChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
                    <CartesianGrid stroke="#e5e7eb" vertical={false} />
                    <XAxis dataKey="month" fontSize={11} minTickGap={12} />
                    <YAxis fontSize={11} />
                    <Tooltip />
                    <Legend />
                    {currencies.map((c, i) => (
                      <Line
                        key={c}
                        type="monotone"
                        dataKey={c}
                        name={`MRR ${c}`}
                        stroke={LINE_COLORS[i % LINE_COLORS.length]}
                        strokeWidth={2}
                      />
                    ))}
                  </LineChart>
                </ResponsiveContainer>
              </ChartFigure>
              <ChartFigure
                testId="chart-churn-trials"
                title="Churn rate and trial conversion per month (%)"
                summary={`This month: churn ${percent(current.churn_rate)}, trial conversion ${percent(current.trial_conversion)}.`}
                table={{
                  head: ["Month", "Paying at start", "Ended", "Churn", "Trials ended", "Converted", "Trial conversion"],
                  rows: data.months.map((m) => [
                    formatMonth(m.month),
                    m.paying_at_start,
                    m.ended,
                    percent(m.churn_rate),
                    m.trials_ended,
                    m.trials_converted,
                    percent(m.trial_conversion),
                  ]),
                }}
              >
                <ResponsiveContainer width="100%" height="100%">
                  <LineChart data={series} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
                    <CartesianGrid stroke="#e5e7eb" vertical={false} />
                    <XAxis dataKey="month" fontSize={11} minTickGap={12} />
                    <YAxis fontSize={11} domain={[0, 100]} unit=" %" />
                    <Tooltip />
                    <Legend />
                    <Line type="monotone" dataKey="churn" name="Churn rate" stroke="#b91c1c" strokeWidth={2} />
                    <Line type="monotone" dataKey="trials" name="Trial conversion" stroke="#15803d" strokeWidth={2} />
                  </LineChart>
                </ResponsiveContainer>
              </ChartFigure>
            </div>
            <PlanTable plans={data.plans} />
          </>
        ) : null}
      </div>
    </Panel>
  );
}

type Plans = RouterOutputs["revenue"]["metrics"]["plans"];

function PlanTable({ plans }: { plans: Plans }) {
  const money = useMoneyFigures();
  const head: { label: string; metric?: TMetricKey }[] = [
    { label: "Plan" },
    { label: "MRR", metric: "mrr" },
    { label: "ARR", metric: "arr" },
    { label: "Paying subscribers" },
    { label: "ARPU", metric: "arpu" },
    { label: "Churn rate", metric: "churn" },
    { label: "Trial conversion", metric: "trialConversion" },
  ];
  return (
    <section aria-labelledby="metrics-per-plan" className="min-w-0 space-y-2">
      <h3 id="metrics-per-plan" className="text-sm font-semibold text-gray-900">
        Per plan, this month
      </h3>
      {plans.length === 0 ? (
        <p className="text-sm text-gray-600">No plan had paying subscribers or trials this month.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="metrics-per-plan">
            <thead>
              <tr>
                {head.map((h) => (
                  <th
                    key={h.label}
                    scope="col"
                    className="px-2 py-1 text-xs font-medium whitespace-nowrap text-gray-700"
                  >
                    <span className="inline-flex items-center gap-1">
                      {h.label}
                      {h.metric ? <MetricDefinition metric={h.metric} /> : null}
                    </span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {plans.map((p) => (
                <tr key={`${p.plan_id ?? p.plan_name}`} className="border-t border-gray-100">
                  <th scope="row" className="px-2 py-1 font-medium text-gray-900">
                    {p.plan_name}
                  </th>
                  <td className="px-2 py-1 tabular-nums">{money(p.mrr)}</td>
                  <td className="px-2 py-1 tabular-nums">{money(p.arr)}</td>
                  <td className="px-2 py-1 tabular-nums">{p.paying_subscribers}</td>
                  <td className="px-2 py-1 tabular-nums">{money(p.arpu)}</td>
                  <td className="px-2 py-1 tabular-nums">{percent(p.churn_rate)}</td>
                  <td className="px-2 py-1 tabular-nums">{percent(p.trial_conversion)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
