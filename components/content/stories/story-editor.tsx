"use client";

/**
 * Write or edit one story, and move it through the workflow.
 *
 * - Saving: saves send the version the editor loaded. A draft saves itself AUTOSAVE_DELAY_MS after
 *   the typing stops (stories in any other state save only with Save: autosave never changes what
 *   readers see); the status line says "Saved", "Saving…", "Unsaved changes" or "Offline — will
 *   save when back online". What is typed while a save is under way is kept (./story-form.ts rebase).
 * - Two editors: when a save meets a newer version (CONFLICT), the newer one is fetched and shown
 *   next to this editor's text, field by field (./conflict-view.tsx); nothing typed is thrown away,
 *   and autosave waits until the editor chooses.
 * - Leaving with unsaved changes asks first (components/ui/leave-guard.ts): the browser's own prompt
 *   for reloads and other sites, a confirm dialog for links inside the dashboard and for Back/Forward.
 * - History (./revision-history.tsx), a private preview link, entities and the SEO preview.
 * Workflow buttons show only the moves the server says are open, and wait until the form's
 * changes are saved; Publish and Retract ask first, naming the story.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

import { imageMetadata, ImageUploadButton } from "@/components/content/image-upload";
import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Button,
  Checkbox,
  DateTime,
  ErrorAlert,
  errorCode,
  errorDetails,
  FormField,
  Input,
  LoadError,
  Loading,
  Panel,
  Select,
  serverErrors,
  Textarea,
  useConfirm,
  useLeaveGuard,
  type ButtonVariant,
} from "@/components/ui";
import {
  STORY_TEMPLATES,
  type TStoryAction,
  type TStoryEditorView,
} from "@/server/publishing/editorial/stories.schema";

import { CardEditor, newCard } from "./card-editor";
import { splitCardIssues } from "./card-issues";
import { ConflictView } from "./conflict-view";
import { EntityPicker } from "./entity-picker";
import { RevisionHistory } from "./revision-history";
import { SchedulePublication } from "./schedule-publication";
import { SeoPanel } from "./seo-panel";
import { formValuesOf, rebase, toInput, type FormValues, type Named, type TagChoice } from "./story-form";
import { StoryStatus } from "./story-status";

/** A draft saves itself this long after the last change. */
export const AUTOSAVE_DELAY_MS = 3_000;

/** The fields a text control edits as it is. */
type TextField = { [K in keyof FormValues]: string extends FormValues[K] ? K : never }[keyof FormValues];

const emptyCards = () => [newCard("text")];
const valuesOf = (story: TStoryEditorView | null) => formValuesOf(story, emptyCards);

function isStale(error: unknown): boolean {
  return errorCode(error) === "CONFLICT" && errorDetails(error).some((d) => d.field === "version");
}

/** The request never reached the server (or its answer never came back): the network is down. */
function isNetworkError(error: unknown): boolean {
  if (typeof navigator !== "undefined" && !navigator.onLine) return true;
  return error instanceof TRPCClientError && !error.data;
}

/** The workflow moves forward in the brand colour, retracting in red. */
function moveVariant(action: TStoryAction): ButtonVariant {
  if (action === "publish" || action === "approve" || action === "submit") return "primary";
  return action === "retract" ? "danger" : "secondary";
}

/** The form's fields the server's `{ field, issue }` details can name; the rest show in the alert. */
const FIELDS = [
  "headline",
  "subheadline",
  "slug",
  "summary",
  "access",
  "storyTemplate",
  "breakingNewsExpiresAt",
  "breakingNewsLinkedStoryId",
] as const;

type SaveState = "saved" | "saving" | "unsaved" | "offline" | "conflict" | "new";

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

/** Whether the browser says it is online (true during server rendering). */
function useOnline(): boolean {
  const [online, setOnline] = useState(() => (typeof navigator === "undefined" ? true : navigator.onLine));
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener("online", on);
    window.addEventListener("offline", off);
    return () => {
      window.removeEventListener("online", on);
      window.removeEventListener("offline", off);
    };
  }, []);
  return online;
}

function StoryForm({ story }: { story: TStoryEditorView | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const options = useQuery(trpc.stories.options.queryOptions());
  const [baseline, setBaseline] = useState(() => valuesOf(story));
  const [values, setValues] = useState(baseline);
  const [current, setCurrent] = useState(story);
  const [notice, setNotice] = useState<string | null>(null);
  /** The newer version a save met, while this editor chooses what to keep. */
  const [conflict, setConflict] = useState<TStoryEditorView | null>(null);
  const [unreachable, setUnreachable] = useState(false);
  const online = useOnline();
  const dirty = JSON.stringify(values) !== JSON.stringify(baseline);
  // What the latest render holds, for saves that finish after the editor kept typing.
  const valuesRef = useRef(values);
  useEffect(() => {
    valuesRef.current = values;
  }, [values]);
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  /** The value and onChange of a control bound to one of the form's text fields. */
  const text = (key: TextField) => ({
    value: values[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });

  const publish = async (next: TStoryEditorView) => {
    queryClient.setQueryData(trpc.stories.get.queryKey({ id: next.id }), next);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.stories.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.stories.revisions.queryKey() }),
    ]);
  };
  const settle = async (next: TStoryEditorView, message: string | null) => {
    const fresh = valuesOf(next);
    setCurrent(next);
    setBaseline(fresh);
    setValues(fresh);
    setNotice(message);
    await publish(next);
  };

  const create = useMutation(
    trpc.stories.create.mutationOptions({
      onSuccess: async (result) => {
        queryClient.setQueryData(trpc.stories.get.queryKey({ id: result.story.id }), result.story);
        await queryClient.invalidateQueries({ queryKey: trpc.stories.list.queryKey() });
        router.replace(`/admin/content/stories/${result.story.id}`);
      },
    }),
  );
  const update = useMutation(trpc.stories.update.mutationOptions());
  const restore = useMutation(trpc.stories.restoreRevision.mutationOptions());
  const preview = useMutation(trpc.stories.previewLink.mutationOptions());
  const transition = useMutation(
    trpc.stories.transition.mutationOptions({
      onSuccess: (result) =>
        settle(
          result.story,
          `${result.story.status.charAt(0)}${result.story.status.slice(1).toLowerCase()}.${eventNotice(result)}`,
        ),
    }),
  );
  const remove = useMutation(
    trpc.stories.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.stories.list.queryKey() });
        router.push("/admin/content/stories");
      },
    }),
  );
  const saving = create.isPending || update.isPending || restore.isPending;
  const pending = saving || transition.isPending || remove.isPending;
  const error = create.error ?? update.error ?? restore.error ?? transition.error ?? remove.error;
  const allErrors = serverErrors(error, FIELDS);
  // Problems inside the cards show next to their card or element; the alert then only points at them.
  const cardIssues = splitCardIssues(allErrors.others);
  const errors = {
    ...allErrors,
    others: cardIssues.others,
    fields: cardIssues.byPosition.size ? { ...allErrors.fields, cards: "see the cards" } : allErrors.fields,
  };
  const resetErrors = () => {
    create.reset();
    update.reset();
    restore.reset();
    transition.reset();
    remove.reset();
  };

  /** Save `sent` on top of `base` (its version); the editor may go on typing meanwhile. */
  const saveOnto = async (base: TStoryEditorView, sent: FormValues, kind: "save" | "autosave") => {
    resetErrors();
    if (kind === "save") setNotice(null);
    try {
      const result = await update.mutateAsync({ id: base.id, version: base.version, saveKind: kind, ...toInput(sent) });
      setUnreachable(false);
      const saved = valuesOf(result.story);
      setCurrent(result.story);
      setBaseline(saved);
      setValues(rebase(saved, sent, valuesRef.current));
      setNotice(kind === "save" ? `Saved.${eventNotice(result)}` : null);
      await publish(result.story);
    } catch (caught) {
      if (isStale(caught)) {
        // Fetch the newer version and show it next to this editor's text; keep every word typed.
        const theirs = await queryClient.fetchQuery({
          ...trpc.stories.get.queryOptions({ id: base.id }),
          staleTime: 0,
        });
        setConflict(theirs);
        update.reset();
      } else if (isNetworkError(caught)) {
        setUnreachable(true);
        update.reset();
      }
    }
  };
  const save = (kind: "save" | "autosave") => {
    if (current) void saveOnto(current, valuesRef.current, kind);
    else if (kind === "save") {
      resetErrors();
      setNotice(null);
      create.mutate(toInput(valuesRef.current));
    }
  };

  // Autosave: drafts only, never while a conflict waits for a choice, and not while offline.
  const autosaves = Boolean(current && current.status === "DRAFT" && !conflict);
  const saveRef = useRef(save);
  const busyRef = useRef(pending);
  useEffect(() => {
    saveRef.current = save;
    busyRef.current = pending;
  });
  useEffect(() => {
    if (!autosaves || !dirty || !online) return;
    const timer = setTimeout(() => {
      if (!busyRef.current) saveRef.current("autosave");
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [values, autosaves, dirty, online]);
  // Back online: what could not be saved goes now (the autosave above, for drafts).
  useEffect(() => {
    const back = () => setUnreachable(false);
    window.addEventListener("online", back);
    return () => window.removeEventListener("online", back);
  }, []);

  // Leaving with unsaved changes asks first: reload and close, links, Back and Forward.
  const unsaved = dirty || saving;
  useLeaveGuard(unsaved, {
    title: "Leave without saving?",
    body: "This story has changes that are not saved yet. Leave and they are lost; Cancel to stay and save them.",
  });

  const resolveConflict = (merged: FormValues | null) => {
    const theirs = conflict;
    if (!theirs) return;
    setConflict(null);
    if (!merged) {
      void settle(theirs, `Loaded version ${theirs.version}.`);
      return;
    }
    // Theirs becomes the version this form is based on; the chosen text is saved on top of it.
    setCurrent(theirs);
    setBaseline(valuesOf(theirs));
    setValues(merged);
    valuesRef.current = merged;
    void saveOnto(theirs, merged, "save");
  };

  const move = async (action: TStoryAction) => {
    if (!current) return;
    // Publishing and retracting change what readers see at once: ask first, as Delete does.
    if (action === "publish" || action === "retract") {
      const ok = await confirm(
        action === "publish"
          ? {
              title: `Publish "${current.headline}" now?`,
              body: "Readers, the API, the feeds and the subscribed webhooks get it at once.",
              confirmLabel: "Publish",
              tone: "primary",
            }
          : {
              title: `Retract "${current.headline}"?`,
              body: "It disappears from the site, the API and the feeds at once.",
              confirmLabel: "Retract",
            },
      );
      if (!ok) return;
    }
    resetErrors();
    setNotice(null);
    transition.mutate({ id: current.id, version: current.version, action });
  };

  const openPreview = async () => {
    if (!current) return;
    // Opened now, while the click still counts as the editor's: a tab opened after the request is blocked.
    const tab = window.open("", "_blank");
    try {
      const link = await preview.mutateAsync({ storyId: current.id });
      if (tab) {
        tab.opener = null;
        tab.location.href = link.url;
      }
    } catch {
      tab?.close();
    }
  };

  const sections = options.data?.sections ?? [];
  const authors = options.data?.authors ?? [];
  const tags = options.data?.tags ?? [];
  const saveState: SaveState = !current
    ? "new"
    : conflict
      ? "conflict"
      : saving
        ? "saving"
        : dirty && (unreachable || !online)
          ? "offline"
          : dirty
            ? "unsaved"
            : "saved";

  return (
    <form
      className="grid gap-6 lg:grid-cols-[1fr_20rem]"
      onSubmit={(event) => {
        event.preventDefault();
        save("save");
      }}
    >
      <div className="min-w-0 space-y-6">
        {conflict ? (
          <ConflictView
            base={baseline}
            mine={values}
            theirs={valuesOf(conflict)}
            theirVersion={conflict.version}
            busy={saving}
            onResolve={resolveConflict}
          />
        ) : null}
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
          <CardEditor cards={values.cards} issues={cardIssues.byPosition} onChange={(cards) => set("cards", cards)} />
        </Panel>

        <Panel title="Hero image" padded>
          <div className="grid gap-3 sm:grid-cols-3">
            <FormField label="Hero image key" hint="The image's key in the image store; or upload one.">
              <Input
                maxLength={500}
                value={values.heroKey}
                onChange={(e) => setValues((v) => ({ ...v, heroKey: e.target.value, heroMetadata: null }))}
                className="font-mono"
              />
            </FormField>
            <FormField label="Hero caption" optional>
              <Input maxLength={1000} {...text("heroCaption")} />
            </FormField>
            <FormField label="Hero attribution" optional>
              <Input maxLength={500} {...text("heroAttribution")} />
            </FormField>
          </div>
          <ImageUploadButton
            label="Upload hero image"
            onUploaded={(image) =>
              setValues((v) => ({
                ...v,
                heroKey: image.key,
                // A library image brings the alt text kept with it; the editor can change it here.
                heroMetadata: { ...imageMetadata(image), ...(image.alt ? { alt: image.alt } : {}) },
              }))
            }
          />
          <FormField
            label="Hero alt text"
            optional
            hint="What the image shows, for readers who cannot see it. Feeds fall back to the caption, then the headline."
          >
            <Input
              maxLength={1000}
              value={values.heroMetadata?.alt ?? ""}
              disabled={!values.heroKey}
              onChange={(e) => {
                const alt = e.target.value;
                setValues((v) => {
                  const { alt: _old, ...rest } = v.heroMetadata ?? {};
                  return { ...v, heroMetadata: alt ? { ...rest, alt } : Object.keys(rest).length ? rest : null };
                });
              }}
            />
          </FormField>
        </Panel>

        <Panel title="SEO" padded>
          <SeoPanel
            values={values}
            siteUrl={options.data?.siteUrl ?? null}
            onChange={(key, value) => set(key, value)}
          />
        </Panel>
      </div>

      <div className="min-w-0 space-y-6">
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
                <Button
                  variant="danger"
                  className="w-full"
                  disabled={pending}
                  onClick={async () => {
                    const ok = await confirm({
                      title: `Delete the draft "${current.headline}" for good?`,
                      body: "It cannot be brought back.",
                      confirmLabel: "Delete draft",
                    });
                    if (!ok) return;
                    resetErrors();
                    remove.mutate({ id: current.id, version: current.version });
                  }}
                >
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
          <Button
            type="submit"
            variant="primary"
            className="w-full"
            loading={saving}
            loadingText="Saving…"
            disabled={(Boolean(current) && !dirty) || Boolean(conflict)}
          >
            {current ? (dirty ? "Save changes" : "Saved") : "Create draft"}
          </Button>
        </div>

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
          <FormField error={errors.fields.access} label="Access">
            <Select value={values.access} onChange={(e) => set("access", e.target.value as FormValues["access"])}>
              <option value="public">Public: anyone</option>
              <option value="login">Login: signed-in members</option>
              <option value="subscription">Subscription: subscribers</option>
            </Select>
          </FormField>
          <FormField error={errors.fields.storyTemplate} label="Story template">
            <Select {...text("storyTemplate")}>
              <option value="">Default</option>
              {[...new Set([...STORY_TEMPLATES, ...(values.storyTemplate ? [values.storyTemplate] : [])])].map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </Select>
          </FormField>
          <Checkbox
            label="Breaking news"
            checked={values.isBreakingNews}
            onChange={(e) => set("isBreakingNews", e.target.checked)}
          />
          {values.isBreakingNews ? (
            <>
              <FormField error={errors.fields.breakingNewsExpiresAt} label="Breaking news until" optional>
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

        {current ? (
          <Panel title="History" padded>
            <RevisionHistory
              storyId={current.id}
              currentVersion={current.version}
              current={baseline}
              restoreDisabled={dirty ? "Save or undo your changes first: restoring replaces the form." : null}
              onRestore={async (revisionId, version) => {
                resetErrors();
                setNotice(null);
                const result = await restore
                  .mutateAsync({ storyId: current.id, revisionId, version })
                  .catch(() => null);
                if (result) await settle(result.story, `Restored as version ${result.story.version}.`);
              }}
            />
          </Panel>
        ) : null}
      </div>
    </form>
  );
}

/** Pick several of `choices` in order; the first is special (primary section, byline). */
function OrderedPicker({
  label,
  testId,
  chosen,
  choices,
  onChange,
  firstNote,
}: {
  label: string;
  testId: string;
  chosen: Named[];
  choices: Named[];
  onChange: (chosen: Named[]) => void;
  firstNote: string;
}) {
  const open = choices.filter((c) => !chosen.some((x) => x.id === c.id));
  const swap = (i: number, j: number) => {
    const copy = [...chosen];
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    onChange(copy);
  };
  return (
    <div className="space-y-2" data-testid={testId}>
      {chosen.length === 0 ? <p className="text-xs text-gray-500">None yet.</p> : null}
      <ol className="space-y-1">
        {chosen.map((item, i) => (
          <li key={item.id} className="flex items-center justify-between gap-2 rounded bg-gray-50 px-2 py-1 text-sm">
            <span className="truncate">
              {item.name}
              {i === 0 ? <span className="ml-1 text-xs text-gray-500">({firstNote})</span> : null}
            </span>
            <span className="flex shrink-0 gap-1">
              <Button size="xs" disabled={i === 0} onClick={() => swap(i, i - 1)} aria-label={`Move ${item.name} up`}>
                ↑
              </Button>
              <Button
                size="xs"
                onClick={() => onChange(chosen.filter((x) => x.id !== item.id))}
                aria-label={`Remove ${item.name}`}
              >
                ×
              </Button>
            </span>
          </li>
        ))}
      </ol>
      <AddChoice label={label} open={open} onPick={(picked) => onChange([...chosen, picked])} />
    </div>
  );
}

/** A select of the `open` choices that adds the one picked (its placeholder: the label, and "…"). */
function AddChoice({ label, open, onPick }: { label: string; open: Named[]; onPick: (picked: Named) => void }) {
  return (
    <Select
      aria-label={label}
      value=""
      onChange={(e) => {
        const picked = open.find((c) => String(c.id) === e.target.value);
        if (picked) onPick({ id: picked.id, name: picked.name });
      }}
      placeholder={`${label}…`}
      options={open.map((c) => ({ value: c.id, label: c.name }))}
    />
  );
}

/** Existing tags from a list, or new ones by name (created when the story is saved). */
function TagPicker({
  chosen,
  choices,
  onChange,
}: {
  chosen: TagChoice[];
  choices: { id: number; name: string }[];
  onChange: (chosen: TagChoice[]) => void;
}) {
  const [name, setName] = useState("");
  const open = choices.filter((c) => !chosen.some((x) => x.id === c.id));
  const addByName = () => {
    const clean = name.trim();
    if (!clean) return;
    const existing = choices.find((c) => c.name.toLowerCase() === clean.toLowerCase());
    const tag: TagChoice = existing ? { id: existing.id, name: existing.name } : { name: clean };
    if (!chosen.some((x) => x.name.toLowerCase() === tag.name.toLowerCase())) onChange([...chosen, tag]);
    setName("");
  };
  return (
    <div className="space-y-2" data-testid="tags">
      <ul className="flex flex-wrap gap-1">
        {chosen.map((tag) => (
          <li
            key={tag.id ?? `new:${tag.name}`}
            className="inline-flex items-center gap-1 rounded-full bg-gray-100 px-2 py-0.5 text-xs text-gray-800"
          >
            {tag.name}
            {tag.id === undefined ? <span className="text-gray-500">(new)</span> : null}
            <Button
              variant="ghost"
              size="xs"
              onClick={() => onChange(chosen.filter((x) => x !== tag))}
              aria-label={`Remove tag ${tag.name}`}
            >
              ×
            </Button>
          </li>
        ))}
      </ul>
      <AddChoice label="Add an existing tag" open={open} onPick={(picked) => onChange([...chosen, picked])} />
      <div className="flex gap-2">
        <Input
          aria-label="New tag"
          value={name}
          maxLength={100}
          placeholder="New tag"
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              addByName();
            }
          }}
        />
        <Button onClick={addByName}>Add tag</Button>
      </div>
    </div>
  );
}

/** What a write told the webhooks, as the notice after it says it (nothing when it sent no event). */
function eventNotice({ event, notified }: { event: string | null; notified: number }): string {
  if (!event) return "";
  if (notified === 0) return ` No webhook subscribes to ${event}.`;
  return ` ${event} sent to ${notified === 1 ? "1 webhook" : `${notified} webhooks`}.`;
}
