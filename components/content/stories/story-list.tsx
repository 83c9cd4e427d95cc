"use client";

/**
 * The account's stories: search (headline and text), filters (status, section, author, tag, own,
 * scheduled, a date range on the updated or published date), sort and paging, all kept in the URL
 * query string (reload, Back from a story and a shared link restore the place); select rows and
 * act on them at once (submit, publish, retract, add to a collection, delete drafts).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Button,
  Checkbox,
  DateTime,
  Dialog,
  ErrorAlert,
  FilterDisclosure,
  FormActions,
  FormField,
  Input,
  LoadState,
  Panel,
  PanelFooter,
  SearchInput,
  Select,
  TextLink,
  useConfirm,
  useTimeZone,
} from "@/components/ui";
import { STORY_STATUSES, type TStoryStatus } from "@/server/publishing/editorial/stories.schema";
import {
  listInputFromState,
  listStateFromParams,
  listStateToParams,
  STORY_SORT_LABEL,
  STORY_SORTS,
  summarizeBulk,
  type StoryListState,
  type TBulkAction,
  type TBulkStoriesResult,
  type TStorySort,
} from "@/server/publishing/editorial/story-finding.schema";

import { STATUS_LABEL, StoryStatus } from "./story-status";

const PAGE_SIZE = 25;
const SEARCH_DELAY_MS = 300;

/** `bulkActions`: choosing stories and acting on many at once (editors; not contributors). */
export function StoryList({ bulkActions = true }: { bulkActions?: boolean } = {}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const zone = useTimeZone() ?? "UTC";
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  // The list's place lives in the URL; a copy here answers a click at once (the URL follows a
  // moment later), so a control shows its new value at once and a second change made before
  // the URL caught up builds on the first instead of replacing it. Any change of the URL (our own
  // write coming back, Back, a link) sets the copy.
  const urlQuery = params.toString();
  const [state, setLocalState] = useState(() => listStateFromParams(params));
  const [seenQuery, setSeenQuery] = useState(urlQuery);
  if (seenQuery !== urlQuery) {
    setSeenQuery(urlQuery);
    setLocalState(listStateFromParams(params));
  }

  /** Write the state to the URL (replacing the entry: Back leaves the list, not the last filter). */
  const setState = (patch: Partial<StoryListState>) => {
    const next = { ...state, page: 1, ...patch };
    setLocalState(next);
    const query = listStateToParams(next);
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };

  // The search box types ahead of the URL; the URL follows after a pause. A change of the URL
  // from elsewhere (Back, a link) resets the box, but not the echo of what the box wrote.
  const [search, setSearch] = useState(state.q);
  const [pushed, setPushed] = useState(state.q);
  const [seenQ, setSeenQ] = useState(state.q);
  if (seenQ !== state.q) {
    setSeenQ(state.q);
    if (state.q !== pushed) {
      setSearch(state.q);
      setPushed(state.q);
    }
  }
  useEffect(() => {
    if (search === state.q) return;
    const timer = setTimeout(() => {
      setPushed(search);
      const query = listStateToParams({ ...state, q: search, page: 1 });
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, state, pathname, router]);

  const input = listInputFromState(state, PAGE_SIZE);
  const list = useQuery({ ...trpc.stories.list.queryOptions(input), placeholderData: keepPreviousData });
  const options = useQuery(trpc.stories.options.queryOptions());
  const stories = useMemo(() => list.data?.items ?? [], [list.data]);
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filtered = listStateToParams({ ...state, page: 1, sort: "" }) !== "";

  // Selection: ids of rows on this page (a new page or filter starts with none).
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const pageIds = stories.map((s) => s.id);
  const chosen = pageIds.filter((id) => selected.has(id));
  const allChosen = pageIds.length > 0 && chosen.length === pageIds.length;
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

  const sectionOptions = (options.data?.sections ?? []).map((s) => ({ value: s.id, label: s.name }));
  const authorOptions = (options.data?.authors ?? []).map((a) => ({ value: a.id, label: a.name }));
  const tagOptions = (options.data?.tags ?? []).map((t) => ({ value: t.id, label: t.name }));
  const idFrom = (value: string) => (value ? Number(value) : null);

  return (
    <div className="space-y-4">
      <Panel title="Find stories" padded>
        <FilterDisclosure active={filtered}>
          <form
            role="search"
            aria-label="Stories"
            className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4"
            onSubmit={(event) => {
              event.preventDefault();
              setPushed(search);
              setState({ q: search });
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
                <Button
                  size="sm"
                  onClick={() => {
                    setSearch("");
                    setPushed("");
                    // The copy too, at once: a filter picked before the URL comes back builds on the cleared list.
                    setLocalState(listStateFromParams(new URLSearchParams()));
                    router.replace(pathname, { scroll: false });
                  }}
                >
                  Clear filters
                </Button>
              ) : null}
            </div>
          </form>
        </FilterDisclosure>
      </Panel>

      {outcome ? (
        <Alert
          tone={outcome.results.every((r) => r.ok) ? "success" : "warning"}
          role="status"
          data-testid="bulk-outcome"
        >
          <p>{summarizeBulk(outcome)}.</p>
          {outcome.results.some((r) => !r.ok) ? (
            <ul className="mt-1 list-disc pl-5">
              {outcome.results
                .filter((r) => !r.ok)
                .map((r) => (
                  <li key={r.id}>
                    {r.headline ?? "A story"}: {r.reason}
                  </li>
                ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
      {bulk.error ? <ErrorAlert error={bulk.error} /> : null}

      <Panel
        title={<>Stories{list.data ? <span className="ml-1 font-normal text-gray-500">({total})</span> : null}</>}
        actions={
          chosen.length ? (
            <div
              role="toolbar"
              aria-label="Act on the chosen stories"
              className="flex flex-wrap items-center gap-2"
              data-testid="bulk-actions"
            >
              <span className="text-sm text-gray-700" aria-live="polite">
                {chosen.length} chosen
              </span>
              <Button size="sm" disabled={bulk.isPending} onClick={() => run("submit")}>
                Submit
              </Button>
              <Button size="sm" disabled={bulk.isPending} onClick={() => run("publish")}>
                Publish
              </Button>
              <Button size="sm" disabled={bulk.isPending} onClick={() => run("retract")}>
                Retract
              </Button>
              <Button size="sm" disabled={bulk.isPending} onClick={() => setCollectionOpen(true)}>
                Add to a collection
              </Button>
              <Button size="sm" variant="danger" disabled={bulk.isPending} onClick={() => run("delete")}>
                Delete drafts
              </Button>
            </div>
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
          <>
            {bulkActions ? (
              <div className="border-b border-gray-100 px-4 py-2">
                <Checkbox
                  label="Choose all on this page"
                  checked={allChosen}
                  ref={(el) => {
                    if (el) el.indeterminate = chosen.length > 0 && !allChosen;
                  }}
                  onChange={(e) => setSelected(e.target.checked ? new Set(pageIds) : new Set())}
                />
              </div>
            ) : null}
            <ul className="divide-y divide-gray-100">
              {stories.map((story) => (
                <li key={story.id} className="flex items-start gap-3 px-4 py-3" data-testid="story-row">
                  {bulkActions ? (
                    <input
                      type="checkbox"
                      className="mt-1 rounded text-brand-600 focus:ring-brand-600"
                      aria-label={`Choose “${story.headline}”`}
                      checked={selected.has(story.id)}
                      onChange={(e) => toggle(story.id, e.target.checked)}
                    />
                  ) : null}
                  <div className="flex min-w-0 flex-1 flex-col gap-1 sm:flex-row sm:items-center sm:justify-between">
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
                    <div className="flex shrink-0 flex-wrap items-center gap-3 text-xs text-gray-500">
                      {story.publishAt ? (
                        <span>
                          Scheduled <DateTime value={story.publishAt} />
                        </span>
                      ) : state.date === "published" && story.publishedAt ? (
                        <span>
                          Published <DateTime value={story.publishedAt} />
                        </span>
                      ) : (
                        <span>
                          Updated <DateTime value={story.updatedAt} />
                        </span>
                      )}
                      <StoryStatus status={story.status} />
                    </div>
                  </div>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {list.data && (total > PAGE_SIZE || state.page > 1) ? (
          <PanelFooter className="flex flex-wrap items-center justify-between gap-2">
            <span aria-live="polite">
              Page {state.page} of {pages}
              {stories.length
                ? ` · ${(state.page - 1) * PAGE_SIZE + 1}–${(state.page - 1) * PAGE_SIZE + stories.length} of ${total}`
                : ""}
            </span>
            <nav aria-label="Pages" className="flex gap-2">
              <Button disabled={state.page <= 1} onClick={() => setState({ page: Math.min(state.page - 1, pages) })}>
                Previous
              </Button>
              <Button disabled={state.page >= pages} onClick={() => setState({ page: state.page + 1 })}>
                Next
              </Button>
            </nav>
          </PanelFooter>
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

/** Choose one of the account's manual collections (automated ones pick their own stories). */
function CollectionDialog({
  open,
  count,
  pending,
  onClose,
  onChoose,
}: {
  open: boolean;
  count: number;
  pending: boolean;
  onClose: () => void;
  onChoose: (collectionId: number) => void;
}) {
  const trpc = useTRPC();
  const collections = useQuery({
    ...trpc.organise.collections.list.queryOptions({ automated: false, limit: 200 }),
    enabled: open,
  });
  const [choice, setChoice] = useState("");
  const items = collections.data?.collections ?? [];
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Add to a collection"
      description={`The ${count === 1 ? "story goes" : `${count} stories go`} to the end of the collection.`}
    >
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (choice) onChoose(Number(choice));
        }}
      >
        <LoadState
          query={collections}
          what="collections"
          empty={items.length === 0}
          emptyText="No manual collection yet."
        />
        {items.length ? (
          <FormField label="Collection">
            <Select
              name="collection"
              data-autofocus
              required
              value={choice}
              onChange={(event) => setChoice(event.target.value)}
              placeholder="Choose…"
              options={items.map((c) => ({ value: c.id, label: c.name }))}
            />
          </FormField>
        ) : null}
        <FormActions>
          <Button type="submit" variant="primary" disabled={!choice || pending}>
            Add
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </FormActions>
      </form>
    </Dialog>
  );
}
