"use client";

/**
 * Write or edit one story, and move it through the workflow.
 *
 * - Saving: the status line says "Saved", "Saving…", "Unsaved changes" or "Offline — will save
 *   when back online"; a draft saves itself as the typing stops, other stories save with Save. The
 *   draft state, saving and autosave are ./use-story-draft.ts.
 * - Two editors: when a save meets a newer version, the newer one is shown next to this editor's
 *   text, field by field (./conflict-view.tsx); nothing typed is thrown away.
 * - Leaving with unsaved changes asks first (components/ui/leave-guard.ts): the browser's own prompt
 *   for reloads and other sites, a confirm dialog for links inside the dashboard and for Back/Forward.
 * - The story's fields (./story-fields.tsx), the save box (./story-save-box.tsx), the workflow
 *   panel (./story-workflow.tsx), sections, authors, tags, entities and publishing
 *   (./story-meta-fields.tsx), history (./revision-history.tsx).
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";

import { StoryNewsletterPanel } from "@/components/newsletters/sends/story-newsletter-panel";
import { useTRPC } from "@/components/trpc/react";
import { LoadError, Loading, Panel, useTimeZone } from "@/components/ui";
import type { TStoryEditorView } from "@/server/publishing/editorial/stories.schema";

import { ConflictView } from "./conflict-view";
import { ReturnNoteAlert } from "./return-note";
import { RevisionHistory } from "./revision-history";
import { StoryActionBar } from "./story-action-bar";
import { isSaveShortcut, prePublishChecks } from "./story-aids";
import { StoryConversionsPanel } from "./story-conversions-panel";
import { StoryFields } from "./story-fields";
import { StoryMetaFields } from "./story-meta-fields";
import { SAVE_STATE_TEXT, StorySaveBox } from "./story-save-box";
import { StoryWorkflow } from "./story-workflow";
import { useStoryDraft, valuesOf, type StoryDraft } from "./use-story-draft";

export function StoryEditor({ id }: { id?: string }) {
  const trpc = useTRPC();
  const story = useQuery({ ...trpc.stories.get.queryOptions({ id: id ?? "" }), enabled: Boolean(id) });
  if (!id) return <StoryForm story={null} />;
  if (story.isPending) return <Loading what="the story" />;
  if (story.isError) return <LoadError what="story" error={story.error} onRetry={story.refetch} />;
  return <StoryForm key={story.data.id} story={story.data} />;
}

/** Ctrl+S / ⌘S saves the story (or creates the draft) instead of the browser saving the page. */
function useSaveShortcut(save: StoryDraft["save"], canSave: boolean) {
  const saveRef = useRef(save);
  const canSaveRef = useRef(false);
  useEffect(() => {
    saveRef.current = save;
    canSaveRef.current = canSave;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isSaveShortcut(event)) return;
      event.preventDefault();
      if (canSaveRef.current) saveRef.current("save");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

function StoryForm({ story }: { story: TStoryEditorView | null }) {
  const draft = useStoryDraft(story);
  const zone = useTimeZone();
  const { values, baseline, current, conflict, dirty, saving, saveState, save, resolveConflict, restoreRevision } =
    draft;
  const checks = useMemo(() => prePublishChecks(values), [values]);
  const saveLabel = current ? (dirty ? "Save changes" : "Saved") : "Create draft";
  // Another writer's draft, or a contributor's story once submitted: shown, not changeable.
  const readOnly = Boolean(current && !current.canEdit);
  useSaveShortcut(save, (!current || (dirty && current.canEdit)) && !conflict && !saving);

  return (
    <form
      className="grid gap-6 pb-32 lg:grid-cols-[1fr_20rem] lg:pb-0"
      onSubmit={(event) => {
        event.preventDefault();
        save("save");
      }}
    >
      <div className="min-w-0 space-y-6">
        {current ? <ReturnNoteAlert storyId={current.id} status={current.status} /> : null}
        {conflict ? (
          <ConflictView
            base={baseline}
            mine={values}
            theirs={valuesOf(conflict, zone)}
            theirVersion={conflict.version}
            busy={saving}
            onResolve={resolveConflict}
          />
        ) : null}
        <StoryFields draft={draft} readOnly={readOnly} />
      </div>

      <div className="min-w-0 space-y-6">
        <StoryWorkflow draft={draft} checks={checks} />

        {/* Editors only (contributors may not schedule, nor send). */}
        {current?.canSchedule ? (
          <Panel title="Newsletter" padded>
            <StoryNewsletterPanel draft={draft} />
          </Panel>
        ) : null}
        {current?.canSchedule ? (
          <Panel title="Conversions" padded>
            <StoryConversionsPanel storyId={current.id} />
          </Panel>
        ) : null}

        <StorySaveBox draft={draft} saveLabel={saveLabel} />

        <StoryMetaFields draft={draft} readOnly={readOnly} />

        {current ? (
          <Panel title="History" padded>
            <RevisionHistory
              storyId={current.id}
              currentVersion={current.version}
              current={baseline}
              status={current.status}
              restoreDisabled={
                readOnly
                  ? "This story is not yours to change."
                  : dirty
                    ? "Save or undo your changes first: restoring replaces the form."
                    : null
              }
              onRestore={restoreRevision}
            />
          </Panel>
        ) : null}
      </div>
      <StoryActionBar draft={draft} saveLabel={saveLabel} saveText={SAVE_STATE_TEXT[saveState]} />
    </form>
  );
}
