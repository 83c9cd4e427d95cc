"use client";

/** The story list's search and filters (./story-list.tsx), on the place ./story-list-state.ts keeps. */
import { useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import {
  Button,
  Checkbox,
  FilterDisclosure,
  FormField,
  Input,
  SearchInput,
  Select,
  useTimeZone,
} from "@/components/ui";
import { STORY_STATUSES, type TStoryStatus } from "@/server/publishing/editorial/stories.schema";
import { STORY_SORT_LABEL, STORY_SORTS, type TStorySort } from "@/server/publishing/editorial/story-finding.schema";

import type { useStoryListState } from "./story-list-state";
import { STATUS_LABEL } from "./story-status";

export function StoryFilters({
  place,
  filtered,
}: {
  place: ReturnType<typeof useStoryListState>;
  /** Some filter is on (the Clear button shows, the disclosure opens). */
  filtered: boolean;
}) {
  const { state, setState, search, setSearch, submitSearch, clearFilters } = place;
  const trpc = useTRPC();
  const zone = useTimeZone() ?? "UTC";
  const options = useQuery(trpc.stories.options.queryOptions());
  const sectionOptions = (options.data?.sections ?? []).map((s) => ({ value: s.id, label: s.name }));
  const authorOptions = (options.data?.authors ?? []).map((a) => ({ value: a.id, label: a.name }));
  const tagOptions = (options.data?.tags ?? []).map((t) => ({ value: t.id, label: t.name }));
  const idFrom = (value: string) => (value ? Number(value) : null);
  return (
    <FilterDisclosure active={filtered}>
      <form
        role="search"
        aria-label="Stories"
        className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          submitSearch();
        }}
      >
        <FormField label="Search headlines and text" className="sm:col-span-2">
          <SearchInput
            placeholder=""
            name="q"
            value={search}
            maxLength={200}
            onChange={(event) => setSearch(event.target.value)}
          />
        </FormField>
        <FormField label="Status">
          <Select
            name="status"
            value={state.status}
            onChange={(event) => setState({ status: event.target.value as TStoryStatus | "" })}
            placeholder="All"
            options={STORY_STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] }))}
          />
        </FormField>
        <FormField label="Sort">
          <Select
            name="sort"
            value={state.sort}
            onChange={(event) => setState({ sort: event.target.value as TStorySort | "" })}
            placeholder={state.q ? "Relevance" : "Updated, newest first"}
            // The default order is the placeholder's: not listed a second time.
            options={STORY_SORTS.filter((s) => s !== (state.q ? "relevance" : "updated-desc")).map((s) => ({
              value: s,
              label: STORY_SORT_LABEL[s],
            }))}
          />
        </FormField>
        <FormField label="Section">
          <Select
            name="section"
            value={state.section ?? ""}
            onChange={(event) => setState({ section: idFrom(event.target.value) })}
            placeholder="All"
            options={sectionOptions}
          />
        </FormField>
        <FormField label="Author">
          <Select
            name="author"
            value={state.author ?? ""}
            onChange={(event) => setState({ author: idFrom(event.target.value) })}
            placeholder="All"
            options={authorOptions}
          />
        </FormField>
        <FormField label="Tag">
          <Select
            name="tag"
            value={state.tag ?? ""}
            onChange={(event) => setState({ tag: idFrom(event.target.value) })}
            placeholder="All"
            options={tagOptions}
          />
        </FormField>
        <FormField label="Date">
          <Select
            name="date"
            value={state.date}
            onChange={(event) => setState({ date: event.target.value === "published" ? "published" : "updated" })}
            options={[
              { value: "updated", label: "Updated" },
              { value: "published", label: "Published" },
            ]}
          />
        </FormField>
        <FormField label="From">
          <Input type="date" name="from" value={state.from} onChange={(e) => setState({ from: e.target.value })} />
        </FormField>
        <FormField label="To" hint={`Days in ${zone}, both included.`}>
          <Input type="date" name="to" value={state.to} onChange={(e) => setState({ to: e.target.value })} />
        </FormField>
        <div className="flex flex-wrap items-end gap-x-4 gap-y-2 sm:col-span-2">
          <Checkbox label="Only mine" checked={state.mine} onChange={(e) => setState({ mine: e.target.checked })} />
          <Checkbox
            label="Scheduled only"
            checked={state.scheduled}
            onChange={(e) => setState({ scheduled: e.target.checked })}
          />
          {filtered ? (
            <Button size="sm" onClick={clearFilters}>
              Clear filters
            </Button>
          ) : null}
        </div>
      </form>
    </FilterDisclosure>
  );
}
