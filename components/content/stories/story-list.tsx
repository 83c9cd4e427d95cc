"use client";
/** The account's stories: filter by status, search headlines, page through. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useDeferredValue, useId, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { buttonClass, dateTime, inputClass } from "@/components/webhooks/ui";
import { STORY_STATUSES, type TStoryStatus } from "@/server/publishing/editorial/stories.schema";

import { STATUS_LABEL, StoryStatus } from "./story-status";

const PAGE_SIZE = 25;

export function StoryList() {
  const trpc = useTRPC();
  const id = useId();
  const [status, setStatus] = useState<TStoryStatus | "">("");
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const deferredSearch = useDeferredValue(search.trim());
  const list = useQuery({
    ...trpc.stories.list.queryOptions({ status: status || undefined, search: deferredSearch || undefined, offset, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

  return (
    <section className="rounded-lg border border-gray-200 bg-white shadow-sm" aria-labelledby={`${id}-title`}>
      <div className="flex flex-col gap-3 border-b border-gray-200 px-4 py-3 sm:flex-row sm:items-end sm:justify-between">
        <h2 id={`${id}-title`} className="text-sm font-semibold text-gray-900">
          Stories{list.data ? <span className="ml-1 font-normal text-gray-500">({list.data.total})</span> : null}
        </h2>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div>
            <label htmlFor={`${id}-search`} className="block text-xs font-medium text-gray-700">
              Search headlines
            </label>
            <input
              id={`${id}-search`}
              type="search"
              value={search}
              maxLength={200}
              onChange={(event) => {
                setSearch(event.target.value);
                setOffset(0);
              }}
              className={`mt-1 ${inputClass} sm:w-64`}
            />
          </div>
          <div>
            <label htmlFor={`${id}-status`} className="block text-xs font-medium text-gray-700">
              Status
            </label>
            <select
              id={`${id}-status`}
              value={status}
              onChange={(event) => {
                setStatus(event.target.value as TStoryStatus | "");
                setOffset(0);
              }}
              className={`mt-1 ${inputClass}`}
            >
              <option value="">All</option>
              {STORY_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABEL[s]}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
      {list.isPending ? (
        <p className="px-4 py-10 text-center text-sm text-gray-500" role="status">
          Loading stories…
        </p>
      ) : list.isError ? (
        <p className="px-4 py-10 text-center text-sm text-red-700" role="alert">
          The stories could not be loaded: {list.error.message}
        </p>
      ) : list.data.items.length === 0 ? (
        <p className="px-4 py-10 text-center text-sm text-gray-500">
          {status || deferredSearch ? "No stories match." : "No stories yet. Write the first one with New story."}
        </p>
      ) : (
        <>
          <ul className="divide-y divide-gray-100">
            {list.data.items.map((story) => (
              <li key={story.id} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="story-row">
                <div className="min-w-0">
                  <Link href={`/admin/content/stories/${story.id}`} className="block truncate text-sm font-medium text-brand-700 hover:underline">
                    {story.headline}
                  </Link>
                  <p className="mt-0.5 truncate text-xs text-gray-500">
                    <span className="font-mono">{story.slug}</span>
                    {story.section ? ` · ${story.section}` : ""}
                    {story.authors.length ? ` · ${story.authors.join(", ")}` : ""}
                    {story.isBreakingNews ? " · Breaking news" : ""}
                  </p>
                </div>
                <div className="flex shrink-0 items-center gap-3 text-xs text-gray-500">
                  <span>Updated {dateTime.format(story.updatedAt)}</span>
                  <StoryStatus status={story.status} />
                </div>
              </li>
            ))}
          </ul>
          {list.data.total > PAGE_SIZE ? (
            <div className="flex items-center justify-between border-t border-gray-200 px-4 py-3 text-sm text-gray-600">
              <span>
                {offset + 1}–{Math.min(offset + PAGE_SIZE, list.data.total)} of {list.data.total}
              </span>
              <div className="flex gap-2">
                <button type="button" className={buttonClass} disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
                  Previous
                </button>
                <button type="button" className={buttonClass} disabled={offset + PAGE_SIZE >= list.data.total} onClick={() => setOffset(offset + PAGE_SIZE)}>
                  Next
                </button>
              </div>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
