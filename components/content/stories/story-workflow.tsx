"use client";

/**
 * The story editor's workflow panel: the story's state and version, its link once published, the
 * moves the server says are open (waiting until the form's changes are saved; Publish and Retract
 * ask first, in ./use-story-draft.ts; a move back to draft asks for a note to the writer,
 * ./return-note.tsx), what the story lacks before publishing, scheduling, the
 * private preview link and Delete draft.
 */
import { useState } from "react";

import { Button, DateTime, ErrorAlert, Panel, serverErrors, type ButtonVariant } from "@/components/ui";
import type { TStoryAction } from "@/server/publishing/editorial/stories.schema";

import { ReturnDialog } from "./return-note";
import { SchedulePublication } from "./schedule-publication";
import { forwardMove } from "./story-action-bar";
import type { PublishCheck } from "./story-aids";
import { StoryStatus } from "./story-status";
import type { StoryDraft } from "./use-story-draft";

/** The workflow moves forward in the brand colour, retracting in red. */
function moveVariant(action: TStoryAction): ButtonVariant {
  if (action === "publish" || action === "approve" || action === "submit") return "primary";
  return action === "retract" ? "danger" : "secondary";
}

export function StoryWorkflow({
  draft,
  checks,
}: {
  /** What the story still lacks before publishing (./story-aids.ts): warnings, publishing stays open. */
  checks: PublishCheck[];
  draft: Pick<
    StoryDraft,
    "current" | "pending" | "dirty" | "conflict" | "move" | "settle" | "preview" | "openPreview" | "deleteDraft"
  >;
}) {
  const { current, pending, dirty, conflict, move, settle, preview, openPreview, deleteDraft } = draft;
  const forward = current ? forwardMove(current.moves) : undefined;
  /** The move back to draft whose note is being written. */
  const [returning, setReturning] = useState<{ action: TStoryAction; label: string } | null>(null);
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
          {checks.length && current.status !== "PUBLISHED" ? (
            <div className="rounded-md border border-amber-200 bg-amber-50 p-2" data-testid="publish-checklist">
              <p className="text-xs font-medium text-amber-900">Before publishing</p>
              <ul className="mt-1 list-disc space-y-0.5 pl-4 text-xs text-amber-900">
                {checks.map((check) => (
                  <li key={check.id} data-check={check.id}>
                    {check.message}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className="flex flex-wrap gap-2">
            {current.moves.map((m) => {
              const button = (
                <Button
                  key={`${m.action}-${m.to}`}
                  variant={moveVariant(m.action)}
                  disabled={pending || dirty || Boolean(conflict)}
                  onClick={() =>
                    m.action === "reject" || m.action === "back-to-draft" ? setReturning(m) : void move(m.action)
                  }
                >
                  {m.label}
                </Button>
              );
              // On phones the move forward sits in the action bar (./story-action-bar.tsx).
              return m === forward ? (
                <div key={`${m.action}-${m.to}`} className="hidden lg:block">
                  {button}
                </div>
              ) : (
                button
              );
            })}
            {current.blockedMoves.map((m) => (
              <Button
                key={`blocked-${m.action}-${m.to}`}
                variant={moveVariant(m.action)}
                disabled
                aria-describedby="story-blocked-moves-reason"
                data-testid="blocked-move"
              >
                {m.label}
              </Button>
            ))}
          </div>
          {current.blockedMoves.length || current.scheduleBlockedReason ? (
            <p id="story-blocked-moves-reason" className="text-xs text-gray-700" data-testid="blocked-moves-reason">
              {current.blockedMoves.length
                ? `${current.blockedMoves.map((m) => m.label).join(", ")}${current.scheduleBlockedReason ? " and scheduling" : ""}: `
                : "Scheduling: "}
              {current.blockedMoves[0]?.reason ?? current.scheduleBlockedReason}
            </p>
          ) : null}
          {current.status === "APPROVED" && current.canSchedule ? (
            <SchedulePublication story={current} disabled={pending || dirty} onChanged={settle} />
          ) : null}
          {dirty && current.moves.length ? (
            <p className="text-xs text-amber-800">Save your changes before moving the story.</p>
          ) : null}
          <div className="space-y-1 border-t border-gray-100 pt-3">
            <div className="hidden lg:block">
              <Button className="w-full" loading={preview.isPending} onClick={() => void openPreview()}>
                Preview
              </Button>
            </div>
            {preview.data ? <PreviewLinks link={preview.data} access={current.access} /> : null}
            {preview.isError ? <ErrorAlert errors={serverErrors(preview.error)} /> : null}
            {dirty ? <p className="text-xs text-gray-500">The preview shows the last saved version.</p> : null}
          </div>
          <ReturnDialog
            open={returning !== null}
            label={returning?.label ?? ""}
            headline={current.headline}
            onClose={() => setReturning(null)}
            onSend={(note) => {
              if (returning) void move(returning.action, note);
            }}
          />
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

/** The private preview's links: on the publication's site (when it has a preview page), the article, without access, AMP. */
function PreviewLinks({
  link,
  access,
}: {
  link: NonNullable<StoryDraft["preview"]["data"]>;
  access: NonNullable<StoryDraft["current"]>["access"];
}) {
  return (
    <p className="text-xs text-gray-600" data-testid="preview-links">
      Private link, until <DateTime value={link.expiresAt} />:{" "}
      {link.frontEndUrl ? (
        <>
          <a className="text-brand-700 underline" href={link.frontEndUrl} target="_blank" rel="noreferrer">
            on the site
          </a>{" "}
          ·{" "}
        </>
      ) : null}
      <a className="text-brand-700 underline" href={link.url} target="_blank" rel="noreferrer">
        article
      </a>{" "}
      ·{" "}
      {access !== "public" ? (
        <>
          <a className="text-brand-700 underline" href={`${link.url}?as=reader`} target="_blank" rel="noreferrer">
            article without access
          </a>{" "}
          ·{" "}
        </>
      ) : null}
      <a className="text-brand-700 underline" href={link.ampUrl} target="_blank" rel="noreferrer">
        AMP
      </a>
    </p>
  );
}
