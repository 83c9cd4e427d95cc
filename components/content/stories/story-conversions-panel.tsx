"use client";

/**
 * The story editor's Conversions panel (docs/subscriptions.md "Which stories convert"; tRPC
 * storyConversions.story): this story's readers who hit its wall in the last 30 days of the
 * account's zone, and the registrations, trials, paid subscriptions and revenue attributed to it.
 * Shown to editors and revenue staff; a link to the Conversions page for the rest.
 */
import { useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import { LoadState, TextLink, useMoneyFigures } from "@/components/ui";

export function StoryConversionsPanel({ storyId }: { storyId: string }) {
  const trpc = useTRPC();
  const figures = useQuery(trpc.storyConversions.story.queryOptions({ storyId }));
  const money = useMoneyFigures();
  const data = figures.data;
  const items = data
    ? [
        { label: "Hit the wall", value: String(data.readers), testId: "story-conversions-readers" },
        { label: "Registered", value: String(data.registered), testId: "story-conversions-registered" },
        { label: "Trials", value: String(data.trials), testId: "story-conversions-trials" },
        { label: "Paid", value: String(data.paid), testId: "story-conversions-paid" },
        { label: "Revenue (30 days)", value: money(data.revenue), testId: "story-conversions-revenue" },
      ]
    : [];
  return (
    <div className="space-y-3 text-sm">
      <LoadState query={figures} what="this story's conversions" />
      {data ? (
        <>
          <p className="text-gray-600">
            {data.from} to {data.to}: readers who hit this story&apos;s wall, and what they did within 24 hours.
          </p>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-2">
            {items.map((item) => (
              <div key={item.label} className="min-w-0" data-testid={item.testId}>
                <dt className="text-xs text-gray-600">{item.label}</dt>
                <dd className="font-medium text-gray-900 tabular-nums">{item.value}</dd>
              </div>
            ))}
          </dl>
          <TextLink href="/admin/subscriptions/conversions">Conversions of every story</TextLink>
        </>
      ) : null}
    </div>
  );
}
