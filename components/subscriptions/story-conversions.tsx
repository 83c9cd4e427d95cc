"use client";

/**
 * The Conversions page (docs/subscriptions.md "Which stories convert"; tRPC
 * storyConversions.report): for a range of the account's days, readers who hit a wall and the
 * registrations, trials and paid subscriptions attributed to the story whose wall they hit last
 * (within 24 hours), per day as a chart and per story, section, author or tag as a sortable
 * table, with the same figures as a CSV download.
 */
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  buttonClasses,
  FilterSelect,
  LoadState,
  Panel,
  Table,
  useFigureFormats,
  useMoneyFigures,
  useTimeZone,
} from "@/components/ui";
import { lastZonedDays } from "@/server/dates.schema";
import type { TConversionGroup } from "@/server/subscriptions/reports/conversions.schema";
import type { TReportRangeInput } from "@/server/subscriptions/reports/revenue.schema";

import { ChartFigure, DailyCountBars, RangeForm } from "./revenue-charts";

const GROUPS: { value: TConversionGroup; label: string }[] = [
  { value: "story", label: "Story" },
  { value: "section", label: "Section" },
  { value: "author", label: "Author" },
  { value: "tag", label: "Tag" },
];

type Row = {
  key: string;
  label: string;
  readers: number;
  registered: number;
  trials: number;
  paid: number;
  sameVisit: number;
  revenue: { currency: string; cents: number }[];
};
type SortKey = "label" | "readers" | "registered" | "trials" | "paid" | "sameVisit" | "revenue";

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: "readers", label: "Hit the wall" },
  { key: "registered", label: "Registered" },
  { key: "trials", label: "Trials" },
  { key: "paid", label: "Paid" },
  { key: "sameVisit", label: "Same visit" },
  { key: "revenue", label: "Revenue (30 days)" },
];

const revenueTotal = (row: Row) => row.revenue.reduce((sum, m) => sum + m.cents, 0);

function sortRows(rows: readonly Row[], key: SortKey, descending: boolean): Row[] {
  const value = (row: Row) => (key === "label" ? row.label : key === "revenue" ? revenueTotal(row) : row[key]);
  return [...rows].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    const order = x < y ? -1 : x > y ? 1 : 0;
    return descending ? -order : order;
  });
}

export function StoryConversions() {
  const zone = useTimeZone() ?? "UTC";
  const [range, setRange] = useState<TReportRangeInput>(() => {
    const days = lastZonedDays(new Date(), 30, zone);
    return { from: days[0]!, to: days.at(-1)! };
  });
  const [by, setBy] = useState<TConversionGroup>("story");
  const trpc = useTRPC();
  const report = useQuery(trpc.storyConversions.report.queryOptions({ ...range, by }));
  const data = report.data;
  const csv = `/api/admin/conversions.csv?${new URLSearchParams({ ...range, by }).toString()}`;
  return (
    <div className="min-w-0 space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <RangeForm range={range} onChange={setRange} />
        <a href={csv} download className={buttonClasses({ variant: "secondary", size: "sm" })}>
          Download conversions (CSV)
        </a>
      </div>
      <LoadState query={report} what="the conversions report" />
      {data ? (
        <>
          <DailyChart days={data.days} totals={data.totals} />
          <Panel
            title="By story, section, author or tag"
            padded
            actions={
              <FilterSelect
                label="Group by"
                value={by}
                options={GROUPS}
                onChange={(e) => setBy(e.target.value as TConversionGroup)}
              />
            }
          >
            <ConversionTable rows={data.rows} by={by} />
          </Panel>
        </>
      ) : null}
    </div>
  );
}

function DailyChart({
  days,
  totals,
}: {
  days: { day: string; readers: number; registered: number; trials: number; paid: number }[];
  totals: Omit<Row, "key" | "label">;
}) {
  const { formatDay } = useFigureFormats();
  const money = useMoneyFigures();
  return (
    <Panel title="Per day" padded>
      <ChartFigure
        testId="chart-story-conversions"
        title="Readers who hit a wall, and what they did within 24 hours"
        summary={`${totals.readers} readers hit a wall; ${totals.registered} registered, ${totals.trials} started a trial and ${totals.paid} a paid subscription (${totals.sameVisit} in the same visit).`}
        figures={[
          { label: "Hit the wall", value: String(totals.readers), testId: "conversions-readers" },
          { label: "Registered", value: String(totals.registered), testId: "conversions-registered" },
          { label: "Trials", value: String(totals.trials), testId: "conversions-trials" },
          { label: "Paid", value: String(totals.paid), testId: "conversions-paid" },
          { label: "Revenue (30 days)", value: money(totals.revenue), testId: "conversions-revenue" },
        ]}
        table={{
          head: ["Day", "Hit the wall", "Registered", "Trials", "Paid"],
          rows: days.map((d) => [formatDay(d.day), d.readers, d.registered, d.trials, d.paid]),
        }}
      >
        <DailyCountBars
          days={days}
          bars={[
            { key: "readers", name: "Hit the wall", fill: "#6b7280" },
            { key: "registered", name: "Registered", fill: "#4f46e5" },
            { key: "trials", name: "Trials", fill: "#b45309" },
            { key: "paid", name: "Paid", fill: "#15803d" },
          ]}
        />
      </ChartFigure>
    </Panel>
  );
}

function ConversionTable({ rows, by }: { rows: Row[]; by: TConversionGroup }) {
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: "paid", descending: true });
  const sorted = useMemo(() => sortRows(rows, sort.key, sort.descending), [rows, sort]);
  const money = useMoneyFigures();
  const header = (key: SortKey, label: string) => {
    const active = sort.key === key;
    return (
      <button
        type="button"
        className="uppercase hover:text-gray-900"
        onClick={() => setSort({ key, descending: active ? !sort.descending : key !== "label" })}
      >
        {label}
        {active ? (
          <span className="sr-only">{sort.descending ? ", sorted descending" : ", sorted ascending"}</span>
        ) : null}
        {active ? <span aria-hidden="true">{sort.descending ? " ↓" : " ↑"}</span> : null}
      </button>
    );
  };
  if (rows.length === 0) return <p className="text-sm text-gray-600">No reader hit a wall in this range.</p>;
  const name = GROUPS.find((g) => g.value === by)!.label;
  return (
    <Table
      label="Conversions"
      rows={sorted}
      rowKey={(r) => r.key}
      rowProps={(r) => ({ "data-testid": `conversion-row-${r.key}` })}
      columns={[
        { header: header("label", name), cell: (r) => r.label, className: "min-w-48" },
        ...COLUMNS.map((c) => ({
          header: header(c.key, c.label),
          cell: (r: Row) => (c.key === "revenue" ? money(r.revenue) : r[c.key]),
          className: "tabular-nums whitespace-nowrap",
        })),
      ]}
    />
  );
}
