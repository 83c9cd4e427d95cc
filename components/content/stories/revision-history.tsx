"use client";

/**
 * The story's revision history, newest first: one line per save (an editor's autosaves within ten
 * minutes share one). Opening a revision shows, field by field, what that save changed (against the
 * save before it), or how the current version differs from it; "Restore" saves the revision's
 * content as a new version on top of the current one (on a published story, live at once: the
 * confirmation says so, ./story-aids.ts).
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Button,
  DateTime,
  Dialog,
  LoadError,
  Loading,
  RadioChoices,
  SelectableList,
  useConfirm,
  useTimeZone,
} from "@/components/ui";
import type { TRevisionKind } from "@/server/publishing/editorial/revisions.schema";
import type { TStoryStatus } from "@/server/publishing/editorial/stories.schema";

import { FieldDiff } from "./field-diff";
import { restoreConfirmation } from "./story-aids";
import { formValuesOf, type FormValues } from "./story-form";

const KIND_LABEL: Record<TRevisionKind, string> = { save: "Saved", autosave: "Autosaved", restore: "Restored" };
const PAGE = 10;
type Compare = "previous" | "current";

export function RevisionHistory({
  storyId,
  status,
  currentVersion,
  current,
  restoreDisabled,
  onRestore,
}: {
  storyId: string;
  /** The story's state: restoring a published story changes what readers see at once. */
  status: TStoryStatus;
  currentVersion: number;
  /** The current saved version, as the form loads it. */
  current: FormValues;
  /** Why restoring is not possible now (unsaved changes), or null. */
  restoreDisabled: string | null;
  onRestore: (revisionId: number, version: number) => Promise<void>;
}) {
  const trpc = useTRPC();
  const confirm = useConfirm();
  const zone = useTimeZone();
  const [open, setOpen] = useState<number | null>(null);
  const [offset, setOffset] = useState(0);
  const [compare, setCompare] = useState<Compare>("previous");
  const list = useQuery({
    ...trpc.stories.revisions.queryOptions({ storyId, offset, limit: PAGE }),
    placeholderData: keepPreviousData,
  });
  const revision = useQuery({
    ...trpc.stories.revision.queryOptions({ storyId, revisionId: open ?? 0 }),
    enabled: open !== null,
  });
  if (list.isPending) return <Loading what="the history" />;
  if (list.isError) return <LoadError what="history" error={list.error} onRetry={list.refetch} />;
  const { items, total } = list.data;
  const picked = revision.data;
  return (
    <div data-testid="revisions">
      {items.length === 0 ? <p className="text-sm text-gray-600">No saves recorded yet.</p> : null}
      <SelectableList
        items={items}
        selected={open}
        onSelect={setOpen}
        testId="revision-list"
        row={(item) => ({
          title: `Version ${item.version} · ${KIND_LABEL[item.kind]}`,
          detail: item.savedBy ?? "someone no longer on the staff",
          aside: <DateTime value={item.updatedAt} />,
        })}
      />
      {total > PAGE ? (
        <div className="mt-2 flex items-center justify-between gap-2 text-xs text-gray-600">
          <Button size="xs" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Newer
          </Button>
          <span>
            {offset + 1}–{offset + items.length} of {total}
          </span>
          <Button size="xs" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
            Older
          </Button>
        </div>
      ) : null}
      <Dialog
        open={open !== null}
        onClose={() => setOpen(null)}
        size="lg"
        title={picked ? `Version ${picked.version}: ${KIND_LABEL[picked.kind].toLowerCase()}` : "Revision"}
        description={
          picked ? (
            <>
              By {picked.savedBy ?? "someone no longer on the staff"}, <DateTime value={picked.updatedAt} />.
            </>
          ) : null
        }
      >
        {revision.isPending ? (
          <Loading what="the revision" />
        ) : revision.isError ? (
          <LoadError what="revision" error={revision.error} onRetry={revision.refetch} />
        ) : (
          <div className="space-y-4">
            <fieldset>
              <legend className="mb-1 text-sm font-medium text-gray-800">Show</legend>
              <RadioChoices<Compare>
                value={compare}
                onChange={setCompare}
                options={[
                  {
                    value: "previous",
                    label: revision.data.previous
                      ? `What this save changed (from version ${revision.data.previous.version})`
                      : "What this save changed (the first save)",
                  },
                  { value: "current", label: `From this version to the current one (${currentVersion})` },
                ]}
              />
            </fieldset>
            {compare === "previous" ? (
              revision.data.previous ? (
                <FieldDiff
                  before={formValuesOf(revision.data.previous.snapshot, () => [], zone)}
                  after={formValuesOf(revision.data.snapshot, () => [], zone)}
                  testId="revision-diff"
                />
              ) : (
                <p className="text-sm text-gray-600" data-testid="revision-diff">
                  The story&apos;s first recorded save: nothing before it to compare with.
                </p>
              )
            ) : (
              <FieldDiff
                before={formValuesOf(revision.data.snapshot, () => [], zone)}
                after={current}
                testId="revision-diff"
              />
            )}
            {restoreDisabled ? <p className="text-sm text-amber-800">{restoreDisabled}</p> : null}
            <div className="flex justify-end gap-2">
              <Button onClick={() => setOpen(null)}>Close</Button>
              <Button
                variant="primary"
                disabled={Boolean(restoreDisabled) || revision.data.version === currentVersion}
                onClick={async () => {
                  const ok = await confirm({
                    ...restoreConfirmation(status, revision.data.version),
                    tone: status === "PUBLISHED" ? "danger" : "primary",
                  });
                  if (!ok) return;
                  await onRestore(revision.data.id, currentVersion);
                  setOpen(null);
                }}
              >
                Restore this version
              </Button>
            </div>
          </div>
        )}
      </Dialog>
    </div>
  );
}
