"use client";

/** The story list's parts below the filters (./story-list.tsx): its rows, its pager, the bulk toolbar and outcome. */
import type { RouterOutputs } from "@/components/trpc/types";
import { Alert, Button, Checkbox, DateTime, PanelFooter, TextLink } from "@/components/ui";
import {
  summarizeBulk,
  type StoryListState,
  type TBulkAction,
  type TBulkStoriesResult,
} from "@/server/publishing/editorial/story-finding.schema";

import { StoryStatus } from "./story-status";

type StoryRow = RouterOutputs["stories"]["list"]["items"][number];

/** What a bulk action did: the count, and each story it could not act on with why. */
export function BulkOutcome({ outcome }: { outcome: TBulkStoriesResult }) {
  return (
    <Alert tone={outcome.results.every((r) => r.ok) ? "success" : "warning"} role="status" data-testid="bulk-outcome">
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
  );
}

/** The toolbar over the chosen rows. */
export function BulkToolbar({
  count,
  pending,
  run,
  onCollection,
}: {
  count: number;
  pending: boolean;
  run: (action: TBulkAction) => void;
  onCollection: () => void;
}) {
  return (
    <div
      role="toolbar"
      aria-label="Act on the chosen stories"
      className="flex flex-wrap items-center gap-2"
      data-testid="bulk-actions"
    >
      <span className="text-sm text-gray-700" aria-live="polite">
        {count} chosen
      </span>
      <Button size="sm" disabled={pending} onClick={() => run("submit")}>
        Submit
      </Button>
      <Button size="sm" disabled={pending} onClick={() => run("publish")}>
        Publish
      </Button>
      <Button size="sm" disabled={pending} onClick={() => run("retract")}>
        Retract
      </Button>
      <Button size="sm" disabled={pending} onClick={onCollection}>
        Add to a collection
      </Button>
      <Button size="sm" variant="danger" disabled={pending} onClick={() => run("delete")}>
        Delete drafts
      </Button>
    </div>
  );
}

export function StoryRows({
  stories,
  date,
  bulkActions,
  chosenCount,
  selected,
  onAll,
  toggle,
}: {
  stories: StoryRow[];
  /** Which date a row shows beside a schedule: the updated or the published one. */
  date: StoryListState["date"];
  bulkActions: boolean;
  chosenCount: number;
  selected: ReadonlySet<string>;
  onAll: (on: boolean) => void;
  toggle: (id: string, on: boolean) => void;
}) {
  const allChosen = stories.length > 0 && chosenCount === stories.length;
  return (
    <>
      {bulkActions ? (
        <div className="border-b border-gray-100 px-4 py-2">
          <Checkbox
            label="Choose all on this page"
            checked={allChosen}
            ref={(el) => {
              if (el) el.indeterminate = chosenCount > 0 && !allChosen;
            }}
            onChange={(e) => onAll(e.target.checked)}
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
                ) : date === "published" && story.publishedAt ? (
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
  );
}

export function StoryPager({
  page,
  pages,
  pageSize,
  shown,
  total,
  setPage,
}: {
  page: number;
  pages: number;
  pageSize: number;
  shown: number;
  total: number;
  setPage: (page: number) => void;
}) {
  return (
    <PanelFooter className="flex flex-wrap items-center justify-between gap-2">
      <span aria-live="polite">
        Page {page} of {pages}
        {shown ? ` · ${(page - 1) * pageSize + 1}–${(page - 1) * pageSize + shown} of ${total}` : ""}
      </span>
      <nav aria-label="Pages" className="flex gap-2">
        <Button disabled={page <= 1} onClick={() => setPage(Math.min(page - 1, pages))}>
          Previous
        </Button>
        <Button disabled={page >= pages} onClick={() => setPage(page + 1)}>
          Next
        </Button>
      </nav>
    </PanelFooter>
  );
}
