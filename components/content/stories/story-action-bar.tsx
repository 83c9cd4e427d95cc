"use client";

/**
 * On phones (below the `lg` breakpoint) the story's status, Save, its next move forward (Submit,
 * Approve or Publish) and Preview stay at the bottom of the screen while the writer scrolls.
 * The sidebar's own Save, that move and Preview are hidden there, so each button exists once on
 * screen at any width.
 */
import { Badge, Button } from "@/components/ui";
import type { TStoryAction, TStoryStatus } from "@/server/publishing/editorial/stories.schema";

import { STATUS_LABEL, STATUS_TONE } from "./story-status";
import type { StoryDraft } from "./use-story-draft";

/** The move that takes the story forward, if one is open: the one the bar and the sidebar's wide layout put first. */
export function forwardMove<M extends { action: TStoryAction }>(moves: readonly M[]): M | undefined {
  return moves.find((m) => m.action === "publish" || m.action === "approve" || m.action === "submit");
}

export function StoryActionBar({
  draft,
  saveLabel,
  saveText,
}: {
  draft: Pick<StoryDraft, "current" | "pending" | "dirty" | "conflict" | "saving" | "move" | "preview" | "openPreview">;
  /** The Save button's text ("Save changes", "Saved", "Create draft"). */
  saveLabel: string;
  /** The save state in words ("Saved", "Unsaved changes"…). */
  saveText: string;
}) {
  const { current, pending, dirty, conflict, saving, move, preview, openPreview } = draft;
  const forward = current ? forwardMove(current.moves) : undefined;
  const status: TStoryStatus | null = current?.status ?? null;
  return (
    <div
      role="region"
      aria-label="Story actions"
      data-testid="story-action-bar"
      className="fixed inset-x-0 bottom-0 z-20 border-t border-gray-200 bg-white px-3 py-2 shadow-[0_-2px_6px_rgba(0,0,0,0.06)] lg:hidden"
    >
      <div className="mb-1 flex items-center gap-2 text-xs text-gray-700">
        {status ? <Badge tone={STATUS_TONE[status]}>{STATUS_LABEL[status]}</Badge> : <Badge tone="gray">New</Badge>}
        <span data-testid="action-bar-save-state">{saveText}</span>
      </div>
      <div className="flex gap-2">
        <Button
          type="submit"
          variant={forward && !dirty ? "secondary" : "primary"}
          className="min-h-11 flex-1"
          loading={saving}
          loadingText="Saving…"
          disabled={(Boolean(current) && (!dirty || !current?.canEdit)) || Boolean(conflict)}
        >
          {saveLabel}
        </Button>
        {current && forward ? (
          <Button
            variant="primary"
            className="min-h-11 flex-1"
            disabled={pending || dirty || Boolean(conflict)}
            onClick={() => void move(forward.action)}
          >
            {forward.label}
          </Button>
        ) : null}
        {current ? (
          <Button className="min-h-11" loading={preview.isPending} onClick={() => void openPreview()}>
            Preview
          </Button>
        ) : null}
      </div>
    </div>
  );
}
