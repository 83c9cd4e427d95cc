"use client";

/**
 * The story editor's workflow panel: the story's state and version, its link once published, the
 * moves the server says are open (waiting until the form's changes are saved; Publish and Retract
 * ask first, in ./use-story-draft.ts), scheduling, the private preview link and Delete draft.
 */
import { Button, DateTime, ErrorAlert, Panel, serverErrors, type ButtonVariant } from "@/components/ui";
import type { TStoryAction } from "@/server/publishing/editorial/stories.schema";

import { SchedulePublication } from "./schedule-publication";
import { StoryStatus } from "./story-status";
import type { StoryDraft } from "./use-story-draft";

/** The workflow moves forward in the brand colour, retracting in red. */
function moveVariant(action: TStoryAction): ButtonVariant {
  if (action === "publish" || action === "approve" || action === "submit") return "primary";
  return action === "retract" ? "danger" : "secondary";
}

export function StoryWorkflow({
  draft,
}: {
  draft: Pick<
    StoryDraft,
    "current" | "pending" | "dirty" | "conflict" | "move" | "settle" | "preview" | "openPreview" | "deleteDraft"
  >;
}) {
  const { current, pending, dirty, conflict, move, settle, preview, openPreview, deleteDraft } = draft;
  return (
    <Panel title="Workflow" padded>
      {current ? (
        <div className="space-y-3 text-sm">
          <div className="flex items-center justify-between">
            <StoryStatus status={current.status} />
            <span className="text-xs text-gray-500" data-testid="story-version">
              Version {current.version}
            </span>
          </div>
          {current.publishedAt ? (
            <p className="text-xs text-gray-500">
              Published <DateTime value={current.publishedAt} />
            </p>
          ) : null}
          {current.status === "PUBLISHED" && current.url ? (
            <a
              href={current.url}
              className="block truncate text-xs text-brand-700 hover:underline"
              target="_blank"
              rel="noreferrer"
              data-testid="story-view-link"
            >
              {current.url}
            </a>
          ) : current.status === "PUBLISHED" ? (
            <p className="text-xs text-gray-500" data-testid="story-view-missing">
              No link to the story yet: an owner sets the site&apos;s public URL in Settings.
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            {current.moves.map((m) => (
              <Button
                key={`${m.action}-${m.to}`}
                variant={moveVariant(m.action)}
                disabled={pending || dirty || Boolean(conflict)}
                onClick={() => void move(m.action)}
              >
                {m.label}
              </Button>
            ))}
          </div>
          {current.status === "APPROVED" ? (
            <SchedulePublication story={current} disabled={pending || dirty} onChanged={settle} />
          ) : null}
          {dirty && current.moves.length ? (
            <p className="text-xs text-amber-800">Save your changes before moving the story.</p>
          ) : null}
          <div className="space-y-1 border-t border-gray-100 pt-3">
            <Button className="w-full" loading={preview.isPending} onClick={() => void openPreview()}>
              Preview
            </Button>
            {preview.data ? (
              <p className="text-xs text-gray-600" data-testid="preview-links">
                Private link, until <DateTime value={preview.data.expiresAt} />:{" "}
                <a className="text-brand-700 underline" href={preview.data.url} target="_blank" rel="noreferrer">
                  article
                </a>{" "}
                ·{" "}
                <a className="text-brand-700 underline" href={preview.data.ampUrl} target="_blank" rel="noreferrer">
                  AMP
                </a>
              </p>
            ) : null}
            {preview.isError ? <ErrorAlert errors={serverErrors(preview.error)} /> : null}
            {dirty ? <p className="text-xs text-gray-500">The preview shows the last saved version.</p> : null}
          </div>
          {current.canDelete ? (
            <Button variant="danger" className="w-full" disabled={pending} onClick={() => void deleteDraft()}>
              Delete draft
            </Button>
          ) : null}
        </div>
      ) : (
        <p className="text-sm text-gray-600">
          A new story starts as a draft. Create it, then it saves itself as you write; submit it for approval.
        </p>
      )}
    </Panel>
  );
}
