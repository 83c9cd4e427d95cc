"use client";

/** The account's stories: filter by status, search headlines, page through. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Button,
  DateTime,
  FormField,
  LoadState,
  Panel,
  PanelFooter,
  SearchInput,
  Select,
  TextLink,
} from "@/components/ui";
import { STORY_STATUSES, type TStoryStatus } from "@/server/publishing/editorial/stories.schema";

import { STATUS_LABEL, StoryStatus } from "./story-status";

const PAGE_SIZE = 25;

export function StoryList() {
  const trpc = useTRPC();
  const [status, setStatus] = useState<TStoryStatus | "">("");
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const deferredSearch = useDeferredValue(search.trim());
  const list = useQuery({
    ...trpc.stories.list.queryOptions({
      status: status || undefined,
      search: deferredSearch || undefined,
      offset,
      limit: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  const stories = list.data?.items ?? [];

  return (
    <Panel
      title={
        <>Stories{list.data ? <span className="ml-1 font-normal text-gray-500">({list.data.total})</span> : null}</>
      }
      actions={
        <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row sm:items-end">
          <FormField label="Search headlines">
            <SearchInput
              placeholder=""
              value={search}
              maxLength={200}
              onChange={(event) => {
                setSearch(event.target.value);
                setOffset(0);
              }}
              className="sm:w-64"
            />
          </FormField>
          <FormField label="Status">
            <Select
              value={status}
              onChange={(event) => {
                setStatus(event.target.value as TStoryStatus | "");
                setOffset(0);
              }}
              placeholder="All"
              options={STORY_STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] }))}
            />
          </FormField>
        </div>
      }
    >
      <LoadState
        query={list}
        what="stories"
        empty={stories.length === 0}
        emptyText={
          status || deferredSearch ? "No stories match." : "No stories yet. Write the first one with New story."
        }
      />
      {stories.length ? (
        <ul className="divide-y divide-gray-100">
          {stories.map((story) => (
            <li
              key={story.id}
              className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
              data-testid="story-row"
            >
              <div className="min-w-0">
                <TextLink href={`/admin/content/stories/${story.id}`} className="block truncate text-sm">
                  {story.headline}
                </TextLink>
                <p className="mt-0.5 truncate text-xs text-gray-500">
                  <span className="font-mono">{story.slug}</span>
                  {story.section ? ` · ${story.section}` : ""}
                  {story.authors.length ? ` · ${story.authors.join(", ")}` : ""}
                  {story.isBreakingNews ? " · Breaking news" : ""}
                </p>
              </div>
              <div className="flex shrink-0 items-center gap-3 text-xs text-gray-500">
                <span>
                  Updated <DateTime value={story.updatedAt} />
                </span>
                <StoryStatus status={story.status} />
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {list.data && list.data.total > PAGE_SIZE ? (
        <PanelFooter className="flex items-center justify-between">
          <span>
            {offset + 1}–{Math.min(offset + PAGE_SIZE, list.data.total)} of {list.data.total}
          </span>
          <div className="flex gap-2">
            <Button disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
              Previous
            </Button>
            <Button disabled={offset + PAGE_SIZE >= list.data.total} onClick={() => setOffset(offset + PAGE_SIZE)}>
              Next
            </Button>
          </div>
        </PanelFooter>
      ) : null}
    </Panel>
  );
}
