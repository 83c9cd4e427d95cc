"use client";

/**
 * The overview for staff who edit content (tRPC stories.overview and stories.activity; queries in
 * server/publishing/editorial/story-finding.ts): stories awaiting approval, scheduled, published
 * today and the editor's own drafts, each card linking into the filtered stories list; and a
 * chart of stories first published and votes cast per day over the last 30 days, with its
 * numbers in a visually hidden table for screen readers. Days are the account's (its time zone).
 */
import { useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import { Card, DateTime, LoadState, Panel, TextLink, useFigureFormats, useTimeZone } from "@/components/ui";
import { DailyChart } from "@/components/ui/daily-chart";
import {
  ACTIVITY_DAYS,
  EMPTY_LIST_STATE,
  listStateToParams,
  type StoryListState,
  type TEditorOverview,
} from "@/server/publishing/editorial/story-finding.schema";

const STORIES = "/admin/content/stories";
const listHref = (patch: Partial<StoryListState>) =>
  `${STORIES}?${listStateToParams({ ...EMPTY_LIST_STATE, ...patch })}`;
const COLORS = { published: "#4f46e5", votes: "#15803d" };

type CardSpec = {
  key: "awaitingApproval" | "scheduled" | "publishedToday" | "myDrafts";
  title: string;
  href: (today: string) => string;
  at: string;
  empty: string;
};

const CARDS: readonly CardSpec[] = [
  {
    key: "awaitingApproval",
    title: "Awaiting approval",
    href: () => listHref({ status: "SUBMITTED", sort: "updated-asc" }),
    at: "Submitted",
    empty: "Nothing is waiting for approval.",
  },
  {
    key: "scheduled",
    title: "Scheduled",
    href: () => listHref({ status: "APPROVED", scheduled: true }),
    at: "Goes out",
    empty: "No publication is scheduled.",
  },
  {
    key: "publishedToday",
    title: "Published today",
    href: (today) =>
      listHref({ status: "PUBLISHED", date: "published", from: today, to: today, sort: "published-desc" }),
    at: "Published",
    empty: "Nothing published yet today.",
  },
  {
    key: "myDrafts",
    title: "My drafts",
    href: () => listHref({ status: "DRAFT", mine: true }),
    at: "Updated",
    empty: "You have no drafts.",
  },
];

export function EditorOverview() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.stories.overview.queryOptions());
  return (
    <section aria-labelledby="newsroom-heading" className="min-w-0 space-y-4">
      <h2 id="newsroom-heading" className="text-base font-semibold text-gray-900">
        Newsroom
      </h2>
      <LoadState query={overview} what="the newsroom overview" />
      {overview.data ? <OverviewCards data={overview.data} /> : null}
      <ActivityChart />
    </section>
  );
}

function OverviewCards({ data }: { data: TEditorOverview }) {
  return (
    <div className="grid min-w-0 gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {CARDS.map((spec) => {
        const card = data[spec.key];
        return (
          <Card
            key={spec.key}
            title={spec.title}
            actions={
              <TextLink href={spec.href(data.today)} className="text-sm" aria-label={`${spec.title}: all in Stories`}>
                All
              </TextLink>
            }
          >
            <p
              className="mt-2 text-3xl font-semibold tracking-tight text-gray-900"
              data-testid={`overview-${spec.key}`}
            >
              {card.total}
            </p>
            {card.items.length === 0 ? (
              <p className="mt-2 text-sm text-gray-500">{spec.empty}</p>
            ) : (
              <ul className="mt-2 space-y-2 text-sm">
                {card.items.map((item) => (
                  <li key={item.id} className="min-w-0">
                    <TextLink href={`${STORIES}/${item.id}`} className="block truncate">
                      {item.headline}
                    </TextLink>
                    {item.at ? (
                      <span className="text-xs text-gray-500">
                        {spec.at} <DateTime value={item.at} />
                      </span>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </Card>
        );
      })}
    </div>
  );
}

function ActivityChart() {
  const { formatDay } = useFigureFormats();
  const trpc = useTRPC();
  const activity = useQuery(trpc.stories.activity.queryOptions());
  const data = activity.data;
  const zone = useTimeZone() ?? "UTC";
  const title = `Published stories and votes per day, last ${ACTIVITY_DAYS} days (days in ${zone})`;
  const summary = data
    ? `${data.totals.published} ${data.totals.published === 1 ? "story" : "stories"} first published and ${data.totals.votes} ${data.totals.votes === 1 ? "vote" : "votes"} cast from ${formatDay(data.days[0]!.day)} to ${formatDay(data.days.at(-1)!.day)}.`
    : "";
  return (
    <Panel title="Activity" padded>
      <LoadState query={activity} what="the activity chart" />
      {data ? (
        <figure className="min-w-0 space-y-2" data-testid="activity-chart">
          <figcaption className="text-sm font-medium text-gray-900">{title}</figcaption>
          <p className="text-sm text-gray-600">{summary}</p>
          <div role="img" aria-label={`${title}: ${summary}`} className="h-64 w-full min-w-0">
            <DailyChart
              data={data.days}
              series={[
                { key: "published", name: "Published stories", color: COLORS.published },
                { key: "votes", name: "Votes", color: COLORS.votes, line: true, rightAxis: true },
              ]}
            />
          </div>
          {/* The box is hidden, not the table: a table ignores the 1 px width of sr-only. */}
          <div className="sr-only">
            <table>
              <caption>{title}</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Published stories</th>
                  <th scope="col">Votes</th>
                </tr>
              </thead>
              <tbody>
                {data.days.map((d) => (
                  <tr key={d.day}>
                    <th scope="row">{formatDay(d.day)}</th>
                    <td>{d.published}</td>
                    <td>{d.votes}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </figure>
      ) : null}
    </Panel>
  );
}
