"use client";

/**
 * One send's stats page (tRPC newsletterStats.send; server/newsletters/stats*.ts): its numbers,
 * how far its mails got (recipients → delivered → opened → clicked → subscriptions) as a chart
 * with its summary and table, and its mails as CSV.
 */
import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

import { useTRPC } from "@/components/trpc/react";
import { buttonClasses, DateTime, LoadState, Panel } from "@/components/ui";
import { ChartFigure } from "@/components/ui/daily-chart";
import { formatRate } from "@/server/newsletters/stats.schema";

import { OpensCaveat, StatFigures, STATS_COLORS } from "./stat-figures";

export function SendStats({ newsletterId, sendId }: { newsletterId: number; sendId: number }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.newsletterStats.send.queryOptions({ sendId }));
  const data = query.data;
  if (!data) return <LoadState query={query} what="the send's stats" />;
  if (data.send.newsletterId !== newsletterId) {
    return <p className="text-sm text-gray-700">This send belongs to another newsletter.</p>;
  }
  const { stats, send, newsletter } = data;
  const steps = [
    { step: "Recipients", count: stats.recipients, fill: "#6b7280" },
    { step: "Delivered", count: stats.delivered, fill: STATS_COLORS.delivered },
    ...(newsletter.trackOpens ? [{ step: "Opened", count: stats.opened, fill: STATS_COLORS.opened }] : []),
    { step: "Clicked", count: stats.clicked, fill: STATS_COLORS.clicked },
    { step: "Subscriptions", count: stats.subscriptionsStarted, fill: "#7c3aed" },
  ];
  return (
    <div className="min-w-0 space-y-6">
      <Panel
        title={send.subject}
        padded
        actions={
          <a
            href={`/api/admin/newsletters/${newsletterId}/sends/${sendId}/deliveries.csv`}
            download
            className={buttonClasses({ variant: "secondary", size: "sm" })}
          >
            Download mails (CSV)
          </a>
        }
      >
        <div className="space-y-3">
          <p className="text-sm text-gray-700">
            {newsletter.name}, {send.kind === "digest" ? "a digest" : "a story"}, status {send.status.toLowerCase()};
            sent <DateTime value={send.startedAt ?? send.scheduledAt} />
            {send.finishedAt ? (
              <>
                , finished <DateTime value={send.finishedAt} />
              </>
            ) : null}
            .
          </p>
          <StatFigures stats={stats} tracksOpens={newsletter.trackOpens} />
          <OpensCaveat tracksOpens={newsletter.trackOpens} />
        </div>
      </Panel>
      <Panel title="How far the mails got" padded>
        <ChartFigure
          testId="chart-send-funnel"
          title="Recipients, delivered, opened, clicked and subscriptions started"
          summary={`${stats.delivered} of ${stats.recipients} delivered; ${
            newsletter.trackOpens ? `${stats.opened} opened (${formatRate(stats.openRate)}), ` : ""
          }${stats.clicked} clicked (${formatRate(stats.clickRate)}); ${stats.subscriptionsStarted} paid subscription${
            stats.subscriptionsStarted === 1 ? "" : "s"
          } started within 7 days of a click.`}
          table={{ head: ["Step", "Count"], rows: steps.map((s) => [s.step, s.count]) }}
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={steps} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
              <CartesianGrid stroke="#e5e7eb" vertical={false} />
              <XAxis dataKey="step" fontSize={11} interval={0} />
              <YAxis allowDecimals={false} fontSize={11} />
              <Tooltip />
              <Bar dataKey="count" name="Count">
                {steps.map((s) => (
                  <Cell key={s.step} fill={s.fill} />
                ))}
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        </ChartFigure>
      </Panel>
    </div>
  );
}
