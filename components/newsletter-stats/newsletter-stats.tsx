"use client";

/**
 * A newsletter's stats page (tRPC newsletterStats.newsletter; server/newsletters/stats*.ts): the
 * range's total, its sends as a chart and a table (each linking to the send's page), and its
 * active subscribers by day, with days and times in the account's zone; the sends as CSV. Each
 * chart is a figure with a summary and its numbers as a table (ChartFigure).
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  buttonClasses,
  DateTime,
  DayRangeForm,
  LoadState,
  Panel,
  Table,
  TextLink,
  useFigureFormats,
  useFormatLocale,
  useTimeZone,
} from "@/components/ui";
import { ChartFigure, DailyChart } from "@/components/ui/daily-chart";
import { formatInstant } from "@/server/dates.schema";
import { formatRate, ZStatsRange, type TStatsRange } from "@/server/newsletters/stats.schema";

import { OpensCaveat, StatFigures, STATS_COLORS } from "./stat-figures";

const DAY_MS = 86_400_000;

/** "2026-11-26": the day `at` falls on in `zone` (the runtime's when undefined). */
function dayIn(at: number, zone: string | undefined): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    at,
  );
}

/** The last 30 days of the zone's calendar, today included. */
function lastThirtyDays(zone: string | undefined, now = Date.now()): TStatsRange {
  return { from: dayIn(now - 29 * DAY_MS, zone), to: dayIn(now, zone) };
}

export function NewsletterStats({ newsletterId }: { newsletterId: number }) {
  const { formatDay } = useFigureFormats();
  const zone = useTimeZone();
  const [range, setRange] = useState<TStatsRange>(() => lastThirtyDays(zone));
  const trpc = useTRPC();
  const stats = useQuery(trpc.newsletterStats.newsletter.queryOptions({ newsletterId, range }));
  const data = stats.data;
  const csv = `/api/admin/newsletters/${newsletterId}/sends.csv?from=${range.from}&to=${range.to}`;
  return (
    <div className="min-w-0 space-y-6">
      <RangeForm range={range} onChange={setRange} />
      <LoadState query={stats} what="the newsletter's stats" />
      {data ? (
        <>
          <Panel
            title={`${data.newsletter.name}: ${formatDay(range.from)} to ${formatDay(range.to)} (days in ${data.timeZone})`}
            padded
          >
            <div className="space-y-3">
              <StatFigures stats={data.total} tracksOpens={data.newsletter.trackOpens} sends={data.sends.length} />
              <OpensCaveat tracksOpens={data.newsletter.trackOpens} />
            </div>
          </Panel>
          <div className="grid min-w-0 gap-6 xl:grid-cols-2">
            <Panel title="Sends" padded>
              <SendsChart sends={data.sends} zone={data.timeZone} />
            </Panel>
            <Panel title="Subscribers" padded>
              <SubscribersChart days={data.subscribers} range={range} zone={data.timeZone} />
            </Panel>
          </div>
          <Panel
            title="Sends in the range"
            actions={
              <a href={csv} download className={buttonClasses({ variant: "secondary", size: "sm" })}>
                Download CSV
              </a>
            }
          >
            <Table
              label="Sends in the range"
              rows={data.sends}
              rowKey={(s) => s.id}
              rowProps={(s) => ({ "data-testid": `send-row-${s.id}` })}
              columns={[
                {
                  header: "Sent",
                  cell: (s) => <DateTime value={s.startedAt ?? s.scheduledAt} />,
                  className: "whitespace-nowrap",
                },
                {
                  header: "Subject",
                  cell: (s) => (
                    <TextLink href={`/admin/newsletters/${newsletterId}/stats/sends/${s.id}`}>{s.subject}</TextLink>
                  ),
                  className: "min-w-48",
                },
                {
                  header: "Delivered",
                  cell: (s) => `${s.delivered} of ${s.recipients}`,
                  className: "whitespace-nowrap",
                },
                { header: "Bounced", cell: (s) => s.bounced },
                {
                  header: "Opened",
                  cell: (s) => `${s.opened} (${formatRate(s.openRate)})`,
                  className: "whitespace-nowrap",
                },
                {
                  header: "Clicked",
                  cell: (s) => `${s.clicked} (${formatRate(s.clickRate)})`,
                  className: "whitespace-nowrap",
                },
                { header: "Unsubscribed", cell: (s) => s.unsubscribed },
                { header: "Subscriptions", cell: (s) => s.subscriptionsStarted },
              ]}
            />
            {data.sends.length === 0 ? <p className="p-4 text-sm text-gray-600">No sends in this range.</p> : null}
          </Panel>
        </>
      ) : null}
    </div>
  );
}

function RangeForm({ range, onChange }: { range: TStatsRange; onChange: (r: TStatsRange) => void }) {
  return (
    <DayRangeForm
      range={range}
      onChange={onChange}
      schema={ZStatsRange}
      label="Stats range"
      fromLabel="From (day)"
      toLabel="To (day)"
      hint="Days in the account's time zone; at most 366."
    />
  );
}

type SendPoint = {
  id: number;
  subject: string;
  startedAt: Date | null;
  scheduledAt: Date;
  delivered: number;
  opened: number;
  clicked: number;
};

function SendsChart({ sends, zone }: { sends: readonly SendPoint[]; zone: string }) {
  const locale = useFormatLocale();
  const points = [...sends].reverse().map((s) => ({
    label: formatInstant(s.startedAt ?? s.scheduledAt, zone, locale),
    subject: s.subject,
    delivered: s.delivered,
    opened: s.opened,
    clicked: s.clicked,
  }));
  const delivered = points.reduce((n, p) => n + p.delivered, 0);
  const summary =
    points.length === 0
      ? "No sends in this range."
      : `${points.length} send${points.length === 1 ? "" : "s"}, ${delivered} mails delivered; the most recent: "${points.at(-1)!.subject}".`;
  return (
    <ChartFigure
      testId="chart-sends"
      title="Delivered, opened and clicked per send"
      summary={summary}
      table={{
        head: ["Sent", "Subject", "Delivered", "Opened", "Clicked"],
        rows: points.map((p) => [p.label, p.subject, p.delivered, p.opened, p.clicked]),
      }}
    >
      <DailyChart
        data={points}
        xKey="label"
        tick={(l) => l.split(",")[0] ?? l}
        tooltipLabel={(_label, payload) => {
          const point = payload?.[0]?.payload as { label?: string; subject?: string } | undefined;
          return point ? `${point.label}: ${point.subject}` : "";
        }}
        series={[
          { key: "delivered", name: "Delivered", color: STATS_COLORS.delivered },
          { key: "opened", name: "Opened", color: STATS_COLORS.opened },
          { key: "clicked", name: "Clicked", color: STATS_COLORS.clicked },
        ]}
      />
    </ChartFigure>
  );
}

function SubscribersChart({
  days,
  range,
  zone,
}: {
  days: readonly { day: string; active: number; started: number; ended: number }[];
  range: TStatsRange;
  zone: string;
}) {
  const { formatDay } = useFigureFormats();
  const first = days[0];
  const last = days.at(-1);
  const started = days.reduce((n, d) => n + d.started, 0);
  const ended = days.reduce((n, d) => n + d.ended, 0);
  return (
    <ChartFigure
      testId="chart-subscribers"
      title={`Active subscribers at the end of each day (days in ${zone})`}
      summary={`${first?.active ?? 0} on ${formatDay(range.from)}, ${last?.active ?? 0} on ${formatDay(range.to)}: ${started} joined, ${ended} left.`}
      table={{
        head: ["Day", "Active", "Joined", "Left"],
        rows: days.map((d) => [formatDay(d.day), d.active, d.started, d.ended]),
      }}
    >
      <DailyChart
        data={days}
        tooltipLabel={(day) => String(day)}
        series={[{ key: "active", name: "Active", color: STATS_COLORS.active, line: true }]}
      />
    </ChartFigure>
  );
}
