"use client";

/**
 * What moderators need to see beside the queue (docs/dashboard.md "Moderation"): the pages in
 * surge now (moderationSurges.surges) and the figures (moderationSurges.stats): queue age, time to
 * decision, decisions per moderator per day and per week. Accessible tables; every time in one
 * format with its time zone (DateTime), days and weeks on the account's moderation calendar.
 */
import { useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import { Badge, DateTime, LoadState, Panel, Table, TextLink, useFigureFormats } from "@/components/ui";
import type { TModerationStats } from "@/server/engagement/moderation/queue/moderation-stats.schema";
import type { TSurgeRow } from "@/server/engagement/moderation/surges/surge-settings.schema";

/** A duration in words: "40 s", "12 min", "3 h 05 min", "2 d 4 h" (none: "—"). */
export function duration(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, "0")} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

const REASONS: Record<TSurgeRow["reason"], string> = {
  queue: "Comments arrive faster than they are cleared",
  off_shift: "Nobody on shift",
};

function actionOf(surge: TSurgeRow): string {
  return surge.action === "pre_moderation" ? "Every new comment held" : `Slow mode, ${surge.slowModeSeconds} s`;
}

export function SurgesPanel() {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.moderationSurges.surges.queryOptions({}), refetchInterval: 60_000 });
  const data = query.data;
  return (
    <Panel title="Pages in surge" padded>
      <LoadState query={query} what="surges" />
      {data ? (
        <p className="text-sm text-gray-600">
          {data.onShift ? "A shift is on (or no shifts are set: always staffed)." : "Nobody is on shift now."} Surges
          start and end by themselves (<TextLink href="/admin/engagement/settings">settings</TextLink>); shifts are in{" "}
          {data.timeZone}, and every time is shown with its time zone.
        </p>
      ) : null}
      {data && data.surges.length === 0 ? <p className="text-sm text-gray-600">No page is in surge.</p> : null}
      {data && data.surges.length > 0 ? (
        <Table
          label="Pages in surge"
          rows={data.surges}
          rowKey={(s) => s.id}
          rowProps={() => ({ "data-testid": "surge" })}
          columns={[
            {
              header: "Page",
              cell: (s) =>
                s.pageId === null ? <span>Every page</span> : <span className="break-all">{s.headline ?? s.url}</span>,
            },
            { header: "Why", cell: (s) => REASONS[s.reason] },
            { header: "What it does", cell: (s) => <Badge tone="amber">{actionOf(s)}</Badge> },
            { header: "Since", cell: (s) => <DateTime value={s.startedAt} /> },
            { header: "Pending at start", cell: (s) => (s.reason === "queue" ? s.pendingAtStart : "—") },
          ]}
        />
      ) : null}
    </Panel>
  );
}

/** A table of decisions per moderator and period (a day, or a week named by its Monday), under its heading. */
function CountsSection({
  id,
  title,
  label,
  table,
}: {
  id: string;
  title: string;
  label: string;
  table: TModerationStats["perDay"];
}) {
  const { formatDay } = useFigureFormats();
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h3 id={id} className="text-sm font-semibold text-gray-900">
        {title}
      </h3>
      <CountsTable label={label} table={table} periodLabel={(period) => formatDay(period, { short: true })} />
    </section>
  );
}

function CountsTable({
  label,
  table,
  periodLabel,
}: {
  label: string;
  table: TModerationStats["perDay"];
  periodLabel: (period: string) => string;
}) {
  if (table.moderators.length === 0) return <p className="text-sm text-gray-600">No decisions in this time.</p>;
  return (
    <Table
      label={label}
      rows={table.moderators}
      rowKey={(m) => m.moderatorId ?? "deleted"}
      columns={[
        { header: "Moderator", cell: (m) => m.name, className: "whitespace-nowrap" },
        ...table.periods.map((period, index) => ({
          header: periodLabel(period),
          cell: (m: (typeof table.moderators)[number]) => m.counts[index] ?? 0,
          className: "text-right tabular-nums",
        })),
        { header: "Total", cell: (m) => <strong>{m.total}</strong>, className: "text-right tabular-nums" },
      ]}
    />
  );
}

export function ModerationStatsPanel() {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.moderationSurges.stats.queryOptions({ days: 7, weeks: 8 }),
    refetchInterval: 60_000,
  });
  const stats = query.data;
  return (
    <Panel title="Moderation figures" padded>
      <LoadState query={query} what="moderation figures" />
      {stats ? (
        <div className="space-y-6">
          <p className="text-sm text-gray-600">
            As of <DateTime value={stats.generatedAt} />. Days and weeks (Monday to Sunday) are in {stats.timeZone}.
          </p>
          <Table
            label="Queue age and time to decision"
            rows={[
              { key: "pending", what: "Comments pending", value: String(stats.queue.pending) },
              {
                key: "oldest",
                what: "Oldest pending",
                value: stats.queue.oldestAt ? (
                  <>
                    {duration(stats.queue.oldestAgeSeconds)} (since <DateTime value={stats.queue.oldestAt} />)
                  </>
                ) : (
                  "—"
                ),
              },
              { key: "median-age", what: "Median pending age", value: duration(stats.queue.medianAgeSeconds) },
              {
                key: "decided",
                what: `Comments decided, last ${stats.timeToDecision.days} days`,
                value: String(stats.timeToDecision.decided),
              },
              {
                key: "median-decision",
                what: "Time to decision, median",
                value: duration(stats.timeToDecision.medianSeconds),
              },
              {
                key: "p90-decision",
                what: "Time to decision, 90th percentile",
                value: duration(stats.timeToDecision.p90Seconds),
              },
            ]}
            rowKey={(row) => row.key}
            columns={[
              { header: "Figure", cell: (row) => row.what },
              { header: "Value", cell: (row) => row.value, className: "tabular-nums" },
            ]}
          />
          <CountsSection
            id="decisions-per-day"
            title={`Decisions per moderator per day, last ${stats.perDay.periods.length} days`}
            label="Decisions per moderator per day"
            table={stats.perDay}
          />
          <CountsSection
            id="decisions-per-week"
            title={`Decisions per moderator per week, last ${stats.perWeek.periods.length} weeks (named by their Monday)`}
            label="Decisions per moderator per week"
            table={stats.perWeek}
          />
        </div>
      ) : null}
    </Panel>
  );
}
