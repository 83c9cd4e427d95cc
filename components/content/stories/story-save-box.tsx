"use client";

/**
 * The editor's save box (./story-editor.tsx): the save status line, the notice of the last move,
 * the errors, why a story is read-only, and Save (on phones Save is in ./story-action-bar.tsx).
 */
import { Alert, Button, ErrorAlert } from "@/components/ui";

import type { SaveState, StoryDraft } from "./use-story-draft";

export const SAVE_STATE_TEXT: Record<SaveState, string> = {
  saved: "Saved",
  saving: "Saving…",
  unsaved: "Unsaved changes",
  offline: "Offline — will save when back online",
  conflict: "Not saved: someone else saved a newer version",
  new: "Not created yet",
};

export function StorySaveBox({
  draft,
  saveLabel,
}: {
  draft: Pick<StoryDraft, "current" | "notice" | "conflict" | "dirty" | "saving" | "errors" | "saveState">;
  saveLabel: string;
}) {
  const { current, notice, conflict, dirty, saving, errors, saveState } = draft;
  return (
    <div className="space-y-2">
      <p
        role="status"
        aria-live="polite"
        data-testid="save-status"
        data-state={saveState}
        className={
          saveState === "saved"
            ? "text-sm text-green-800"
            : saveState === "offline" || saveState === "conflict"
              ? "text-sm font-medium text-amber-800"
              : "text-sm text-gray-700"
        }
      >
        {SAVE_STATE_TEXT[saveState]}
        {current && current.status !== "DRAFT" && dirty ? " (only drafts save themselves: use Save)" : ""}
      </p>
      {notice ? (
        <Alert tone="success" data-testid="story-notice">
          {notice}
        </Alert>
      ) : null}
      <ErrorAlert errors={errors} />
      {current && !current.canEdit ? (
        <Alert tone="info" data-testid="story-read-only">
          {current.status === "DRAFT"
            ? "This draft is another writer's: you can read it, not change it."
            : "This story is with the editors: you can read it; changes are theirs to make."}
        </Alert>
      ) : null}
      {/* On phones Save is in the action bar at the bottom of the screen. */}
      <div className="hidden lg:block">
        <Button
          type="submit"
          variant="primary"
          className="w-full"
          loading={saving}
          loadingText="Saving…"
          disabled={(Boolean(current) && (!dirty || !current?.canEdit)) || Boolean(conflict)}
        >
          {saveLabel}
        </Button>
      </div>
    </div>
  );
}
