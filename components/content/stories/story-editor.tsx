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
 * - The workflow panel (./story-workflow.tsx), the pickers (./story-pickers.tsx), history
 *   (./revision-history.tsx), entities and the SEO preview.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";

import { StoryNewsletterPanel } from "@/components/newsletters/sends/story-newsletter-panel";
import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Button,
  Checkbox,
  ErrorAlert,
  FormField,
  Input,
  LoadError,
  Loading,
  Panel,
  Select,
  Textarea,
  useTimeZone,
} from "@/components/ui";
import { STORY_TEMPLATES, type TStoryEditorView } from "@/server/publishing/editorial/stories.schema";

import { CardEditor } from "./card-editor";
import { ConflictView } from "./conflict-view";
import { EntityPicker } from "./entity-picker";
import { HeroImagePanel } from "./hero-image-panel";
import { adjustPaywallAt } from "./paywall-divider";
import { paywallProps } from "./paywall-divider-control";
import { StoryReadOnly } from "./read-only";
import { ReturnNoteAlert } from "./return-note";
import { RevisionHistory } from "./revision-history";
import { SeoPanel } from "./seo-panel";
import { StoryActionBar } from "./story-action-bar";
import { isSaveShortcut, lengthText, prePublishChecks, storyLength } from "./story-aids";
import { StoryConversionsPanel } from "./story-conversions-panel";
import type { FormValues } from "./story-form";
import { OrderedPicker, TagPicker } from "./story-pickers";
import { StoryWorkflow } from "./story-workflow";
import { useStoryDraft, valuesOf, type SaveState } from "./use-story-draft";

const SAVE_STATE_TEXT: Record<SaveState, string> = {
  saved: "Saved",
  saving: "Saving…",
  unsaved: "Unsaved changes",
  offline: "Offline — will save when back online",
  conflict: "Not saved: someone else saved a newer version",
  new: "Not created yet",
};

export function StoryEditor({ id }: { id?: string }) {
  const trpc = useTRPC();
  const story = useQuery({ ...trpc.stories.get.queryOptions({ id: id ?? "" }), enabled: Boolean(id) });
  if (!id) return <StoryForm story={null} />;
  if (story.isPending) return <Loading what="the story" />;
  if (story.isError) return <LoadError what="story" error={story.error} onRetry={story.refetch} />;
  return <StoryForm key={story.data.id} story={story.data} />;
}

function StoryForm({ story }: { story: TStoryEditorView | null }) {
  const draft = useStoryDraft(story);
  const zone = useTimeZone();
  const {
    options,
    values,
    setValues,
    set,
    text,
    baseline,
    current,
    notice,
    conflict,
    dirty,
    saving,
    errors,
    cardIssues,
    saveState,
    save,
    resolveConflict,
    restoreRevision,
  } = draft;
  const length = useMemo(() => storyLength(values.cards), [values.cards]);
  const checks = useMemo(() => prePublishChecks(values), [values]);
  const saveLabel = current ? (dirty ? "Save changes" : "Saved") : "Create draft";
  // Another writer's draft, or a contributor's story once submitted: shown, not changeable.
  const readOnly = Boolean(current && !current.canEdit);
  // Ctrl+S / ⌘S saves the story (or creates the draft) instead of the browser saving the page.
  const saveRef = useRef(save);
  const canSaveRef = useRef(false);
  useEffect(() => {
    saveRef.current = save;
    canSaveRef.current = (!current || (dirty && current.canEdit)) && !conflict && !saving;
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
  const sections = options?.sections ?? [];
  const authors = options?.authors ?? [];
  const tags = options?.tags ?? [];
  const paywallDefault = options?.paywallDefaultElements ?? 1;

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
        <StoryReadOnly value={readOnly}>
          <fieldset disabled={readOnly} className="min-w-0 space-y-6" data-testid="story-fields">
            <Panel title="Story" padded>
              <FormField error={errors.fields.headline} label="Headline">
                <Input required maxLength={500} {...text("headline")} />
              </FormField>
              <FormField error={errors.fields.subheadline} label="Subheadline" optional>
                <Input maxLength={1000} {...text("subheadline")} />
              </FormField>
              <FormField
                error={errors.fields.slug}
                label="Slug"
                hint="Lower-case words and hyphens; left empty, it is made from the headline. Unique across the publication."
              >
                <Input maxLength={200} {...text("slug")} className="font-mono" />
              </FormField>
              <FormField error={errors.fields.summary} label="Summary" optional>
                <Textarea rows={2} maxLength={2000} {...text("summary")} />
              </FormField>
            </Panel>

            <Panel title="Cards" padded>
              <CardEditor
                cards={values.cards}
                issues={cardIssues}
                paywall={paywallProps(values, paywallDefault, (at) => set("paywallAt", at))}
                // The divider stays where the editor sees it as elements come, go and move (./paywall-divider.ts).
                onChange={(cards) =>
                  setValues((v) => ({ ...v, cards, paywallAt: adjustPaywallAt(v.cards, cards, v.paywallAt) }))
                }
              />
              {errors.fields.paywallAt ? (
                <p className="mt-2 text-xs text-red-700" data-testid="paywall-error">
                  Paywall divider: {errors.fields.paywallAt}
                </p>
              ) : null}
              <p className="mt-3 text-xs text-gray-600" data-testid="story-length" aria-live="off">
                {lengthText(length)}
              </p>
            </Panel>

            <Panel title="Hero image" padded>
              <HeroImagePanel values={values} setValues={setValues} text={text} />
            </Panel>

            <Panel title="SEO" padded>
              <SeoPanel values={values} siteUrl={options?.siteUrl ?? null} onChange={(key, value) => set(key, value)} />
            </Panel>
          </fieldset>
        </StoryReadOnly>
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

        <fieldset disabled={readOnly} className="min-w-0 space-y-6" data-testid="story-settings">
          {(
            [
              { field: "sections", title: "Sections", label: "Add a section", choices: sections, firstNote: "primary" },
              { field: "authors", title: "Authors", label: "Add an author", choices: authors, firstNote: "byline" },
            ] as const
          ).map(({ field, title, ...picker }) => (
            <Panel key={field} title={title} padded>
              <OrderedPicker
                {...picker}
                testId={field}
                chosen={values[field]}
                onChange={(chosen) => set(field, chosen)}
              />
            </Panel>
          ))}
          <Panel title="Tags" padded>
            <TagPicker chosen={values.tags} choices={tags} onChange={(chosen) => set("tags", chosen)} />
          </Panel>
          <Panel title="Entities" padded>
            <EntityPicker chosen={values.entities} onChange={(chosen) => set("entities", chosen)} />
          </Panel>

          <Panel title="Publishing" padded>
            <FormField
              error={errors.fields.access}
              label="Access"
              hint={
                values.access === "public"
                  ? undefined
                  : "Readers without access see the story down to the paywall divider in Cards."
              }
            >
              <Select value={values.access} onChange={(e) => set("access", e.target.value as FormValues["access"])}>
                <option value="public">Public: anyone</option>
                <option value="login">Login: signed-in members</option>
                <option value="subscription">Subscription: subscribers</option>
              </Select>
            </FormField>
            <FormField error={errors.fields.storyTemplate} label="Story template">
              <Select {...text("storyTemplate")}>
                <option value="">Default</option>
                {[...new Set([...STORY_TEMPLATES, ...(values.storyTemplate ? [values.storyTemplate] : [])])].map(
                  (t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ),
                )}
              </Select>
            </FormField>
            <Checkbox
              label="Breaking news"
              checked={values.isBreakingNews}
              onChange={(e) => set("isBreakingNews", e.target.checked)}
            />
            {values.isBreakingNews ? (
              <>
                <FormField
                  error={errors.fields.breakingNewsExpiresAt}
                  label="Breaking news until"
                  hint={`In ${zone ?? "UTC"}.`}
                  optional
                >
                  <Input type="datetime-local" {...text("breakingNewsExpiresAt")} />
                </FormField>
                <FormField
                  error={errors.fields.breakingNewsLinkedStoryId}
                  label="Linked story id"
                  optional
                  hint="The story the breaking-news item links to (for example this one, or a fuller story)."
                >
                  <Input
                    {...text("breakingNewsLinkedStoryId")}
                    placeholder={current?.id ?? "story id"}
                    className="font-mono text-xs"
                  />
                </FormField>
              </>
            ) : null}
          </Panel>
        </fieldset>

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
