"use client";

/**
 * The account's stories: search (headline and text), filters (status, section, author, tag, own,
 * scheduled, a date range on the updated or published date), sort and paging, all kept in the URL
 * query string (reload, Back from a story and a shared link restore the place: ./story-list-state.ts);
 * select rows and act on them at once (submit, publish, retract, add to a collection, delete drafts).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { ErrorAlert, LoadState, Panel, useConfirm } from "@/components/ui";
import {
  listInputFromState,
  listStateToParams,
  type TBulkAction,
  type TBulkStoriesResult,
} from "@/server/publishing/editorial/story-finding.schema";

import { CollectionDialog } from "./story-collection-dialog";
import { StoryFilters } from "./story-filters";
import { BulkOutcome, BulkToolbar, StoryPager, StoryRows } from "./story-list-rows";
import { useStoryListState } from "./story-list-state";

const PAGE_SIZE = 25;

/** `bulkActions`: choosing stories and acting on many at once (editors; not contributors). */
export function StoryList({ bulkActions = true }: { bulkActions?: boolean } = {}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const place = useStoryListState();
  const { state, setState } = place;

  const input = listInputFromState(state, PAGE_SIZE);
  const list = useQuery({ ...trpc.stories.list.queryOptions(input), placeholderData: keepPreviousData });
  const stories = useMemo(() => list.data?.items ?? [], [list.data]);
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filtered = listStateToParams({ ...state, page: 1, sort: "" }) !== "";

  // Selection: ids of rows on this page (a new page or filter starts with none).
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const pageIds = stories.map((s) => s.id);
  const chosen = pageIds.filter((id) => selected.has(id));
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const [outcome, setOutcome] = useState<TBulkStoriesResult | null>(null);
  const [collectionOpen, setCollectionOpen] = useState(false);
  const confirm = useConfirm();
  const bulk = useMutation(
    trpc.stories.bulk.mutationOptions({
      onSuccess: async (result) => {
        setOutcome(result);
        setSelected(new Set());
        setCollectionOpen(false);
        await queryClient.invalidateQueries({ queryKey: trpc.stories.list.queryKey() });
      },
    }),
  );
  const run = async (action: TBulkAction, collectionId?: number) => {
    if (!chosen.length) return;
    if (action === "delete") {
      const drafts = stories.filter((s) => selected.has(s.id) && s.status === "DRAFT").length;
      const ok = await confirm({
        title: `Delete ${chosen.length === 1 ? "this story" : `${chosen.length} stories`}?`,
        body:
          drafts === chosen.length
            ? "Deleted drafts are gone for good."
            : `Only drafts are deleted (${drafts} of the ${chosen.length} chosen); the others stay as they are. Deleted drafts are gone for good.`,
        confirmLabel: "Delete drafts",
      });
      if (!ok) return;
    }
    setOutcome(null);
    bulk.mutate({ action, ids: chosen, ...(collectionId ? { collectionId } : {}) });
  };

  return (
    <div className="space-y-4">
      <Panel title="Find stories" padded>
        <StoryFilters place={place} filtered={filtered} />
      </Panel>

      {outcome ? <BulkOutcome outcome={outcome} /> : null}
      {bulk.error ? <ErrorAlert error={bulk.error} /> : null}

      <Panel
        title={<>Stories{list.data ? <span className="ml-1 font-normal text-gray-500">({total})</span> : null}</>}
        actions={
          chosen.length ? (
            <BulkToolbar
              count={chosen.length}
              pending={bulk.isPending}
              run={(action) => void run(action)}
              onCollection={() => setCollectionOpen(true)}
            />
          ) : null
        }
      >
        <LoadState
          query={list}
          what="stories"
          empty={stories.length === 0}
          emptyText={filtered ? "No stories match." : "No stories yet. Write the first one with New story."}
        />
        {stories.length ? (
          <StoryRows
            stories={stories}
            date={state.date}
            bulkActions={bulkActions}
            chosenCount={chosen.length}
            selected={selected}
            onAll={(on) => setSelected(on ? new Set(pageIds) : new Set())}
            toggle={toggle}
          />
        ) : null}
        {list.data && (total > PAGE_SIZE || state.page > 1) ? (
          <StoryPager
            page={state.page}
            pages={pages}
            pageSize={PAGE_SIZE}
            shown={stories.length}
            total={total}
            setPage={(page) => setState({ page })}
          />
        ) : null}
      </Panel>

      <CollectionDialog
        open={collectionOpen}
        count={chosen.length}
        pending={bulk.isPending}
        onClose={() => setCollectionOpen(false)}
        onChoose={(collectionId) => run("add-to-collection", collectionId)}
      />
    </div>
  );
}
