"use client";

/**
 * Write or edit one story, and move it through the workflow. Saves send the version the editor
 * loaded: if someone else saved in between, the server refuses (CONFLICT) and the editor is asked
 * to reload. Workflow buttons show only the moves the server says are open, and wait until the
 * form's changes are saved.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";

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
  type ButtonVariant,
} from "@/components/ui";
import type { TCard } from "@/server/publishing/cards.schema";
import {
  STORY_ACCESS,
  STORY_TEMPLATES,
  type TCreateStoryInput,
  type TStoryAction,
  type TStoryEditorView,
} from "@/server/publishing/editorial/stories.schema";

import { CardEditor, newCard } from "./card-editor";
import { splitCardIssues } from "./card-issues";
import { SchedulePublication } from "./schedule-publication";
import { StoryStatus } from "./story-status";

type Named = { id: number; name: string };
type TagChoice = { id: number; name: string } | { id?: undefined; name: string };

type FormValues = {
  headline: string;
  subheadline: string;
  slug: string;
  summary: string;
  cards: TCard[];
  sections: Named[];
  authors: Named[];
  tags: TagChoice[];
  heroKey: string;
  heroCaption: string;
  heroAttribution: string;
  heroMetadata: { width?: number; height?: number; "mime-type"?: string } | null;
  metaTitle: string;
  metaDescription: string;
  metaKeywords: string;
  access: (typeof STORY_ACCESS)[number];
  storyTemplate: string;
  isBreakingNews: boolean;
  breakingNewsExpiresAt: string;
  breakingNewsLinkedStoryId: string;
};

/** The fields a text control edits as it is. */
type TextField = { [K in keyof FormValues]: string extends FormValues[K] ? K : never }[keyof FormValues];

/** A Date as the value of a datetime-local input (local time, minutes). */
function toLocalInput(date: Date | null): string {
  if (!date) return "";
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** The hero image's stored metadata, keeping only what the form sends back. */
function heroMetadataOf(metadata: Record<string, unknown> | null): FormValues["heroMetadata"] {
  if (!metadata) return null;
  const { width, height } = metadata;
  const mime = metadata["mime-type"];
  return {
    ...(typeof width === "number" ? { width } : {}),
    ...(typeof height === "number" ? { height } : {}),
    ...(typeof mime === "string" ? { "mime-type": mime } : {}),
  };
}

function fromStory(story: TStoryEditorView | null): FormValues {
  return {
    headline: story?.headline ?? "",
    subheadline: story?.subheadline ?? "",
    slug: story?.slug ?? "",
    summary: story?.summary ?? "",
    cards: story?.cards ?? [newCard("text")],
    sections: story?.sections ?? [],
    authors: story?.authors ?? [],
    tags: story?.tags.map((t) => ({ id: t.id, name: t.name })) ?? [],
    heroKey: story?.heroImage?.s3Key ?? "",
    heroCaption: story?.heroImage?.caption ?? "",
    heroAttribution: story?.heroImage?.attribution ?? "",
    heroMetadata: heroMetadataOf(story?.heroImage?.metadata ?? null),
    metaTitle: story?.seo.metaTitle ?? "",
    metaDescription: story?.seo.metaDescription ?? "",
    metaKeywords: story?.seo.metaKeywords.join(", ") ?? "",
    access: (STORY_ACCESS as readonly string[]).includes(story?.access ?? "")
      ? (story!.access as FormValues["access"])
      : "public",
    storyTemplate: story?.storyTemplate ?? "",
    isBreakingNews: story?.isBreakingNews ?? false,
    breakingNewsExpiresAt: toLocalInput(story?.breakingNewsExpiresAt ?? null),
    breakingNewsLinkedStoryId: story?.breakingNewsLinkedStoryId ?? "",
  };
}

function toInput(values: FormValues): TCreateStoryInput {
  return {
    headline: values.headline,
    subheadline: values.subheadline,
    slug: values.slug,
    summary: values.summary,
    cards: values.cards,
    sectionIds: values.sections.map((s) => s.id),
    authorIds: values.authors.map((a) => a.id),
    tags: values.tags.map((t) => (t.id !== undefined ? { id: t.id } : { name: t.name })),
    heroImage: values.heroKey.trim()
      ? {
          s3Key: values.heroKey,
          caption: values.heroCaption,
          attribution: values.heroAttribution,
          ...(values.heroMetadata ? { metadata: values.heroMetadata } : {}),
        }
      : null,
    seo: {
      metaTitle: values.metaTitle,
      metaDescription: values.metaDescription,
      metaKeywords: values.metaKeywords
        .split(",")
        .map((k) => k.trim())
        .filter(Boolean),
    },
    access: values.access,
    storyTemplate: values.storyTemplate,
    isBreakingNews: values.isBreakingNews,
    breakingNewsExpiresAt: values.breakingNewsExpiresAt ? new Date(values.breakingNewsExpiresAt) : null,
    breakingNewsLinkedStoryId: values.breakingNewsLinkedStoryId.trim() || null,
  };
}

function isStale(error: unknown): boolean {
  return errorCode(error) === "CONFLICT" && errorDetails(error).some((d) => d.field === "version");
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

export function StoryEditor({ id }: { id?: string }) {
  const trpc = useTRPC();
  const story = useQuery({ ...trpc.stories.get.queryOptions({ id: id ?? "" }), enabled: Boolean(id) });
  // Bumped by "Reload": the form starts over from the version just loaded.
  const [generation, setGeneration] = useState(0);
  if (!id) return <StoryForm story={null} />;
  if (story.isPending) return <Loading what="the story" />;
  if (story.isError) return <LoadError what="story" error={story.error} onRetry={story.refetch} />;
  return (
    <StoryForm
      key={`${story.data.id}:${generation}`}
      story={story.data}
      onReload={() => {
        void story.refetch().then(() => setGeneration((g) => g + 1));
      }}
    />
  );
}

function StoryForm({ story, onReload }: { story: TStoryEditorView | null; onReload?: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const options = useQuery(trpc.stories.options.queryOptions());
  const [baseline, setBaseline] = useState(() => fromStory(story));
  const [values, setValues] = useState(baseline);
  const [current, setCurrent] = useState(story);
  const [notice, setNotice] = useState<string | null>(null);
  const dirty = JSON.stringify(values) !== JSON.stringify(baseline);
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  /** The value and onChange of a control bound to one of the form's text fields. */
  const text = (key: TextField) => ({
    value: values[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });

  const settle = async (next: TStoryEditorView, message: string | null) => {
    const fresh = fromStory(next);
    setCurrent(next);
    setBaseline(fresh);
    setValues(fresh);
    setNotice(message);
    queryClient.setQueryData(trpc.stories.get.queryKey({ id: next.id }), next);
    await queryClient.invalidateQueries({ queryKey: trpc.stories.list.queryKey() });
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
  const update = useMutation(
    trpc.stories.update.mutationOptions({
      onSuccess: (result) => settle(result.story, `Saved.${eventNotice(result)}`),
    }),
  );
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
  const pending = create.isPending || update.isPending || transition.isPending || remove.isPending;
  const error = create.error ?? update.error ?? transition.error ?? remove.error;
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
    transition.reset();
    remove.reset();
  };

  const save = () => {
    resetErrors();
    setNotice(null);
    if (current) update.mutate({ id: current.id, version: current.version, ...toInput(values) });
    else create.mutate(toInput(values));
  };
  const move = async (action: TStoryAction) => {
    if (!current) return;
    // Publishing and retracting change what readers see at once: ask first, as Delete does.
    if (action === "publish" || action === "retract") {
      const ok = await confirm(
        action === "publish"
          ? {
              title: "Publish this story now?",
              body: "Readers, the API, the feeds and the subscribed webhooks get it at once.",
              confirmLabel: "Publish",
              tone: "primary",
            }
          : {
              title: "Retract this story?",
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

  const sections = options.data?.sections ?? [];
  const authors = options.data?.authors ?? [];
  const tags = options.data?.tags ?? [];

  return (
    <form
      className="grid gap-6 lg:grid-cols-[1fr_20rem]"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <div className="space-y-6">
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
            onUploaded={(image) => setValues((v) => ({ ...v, heroKey: image.key, heroMetadata: imageMetadata(image) }))}
          />
        </Panel>

        <Panel title="SEO" padded>
          <FormField label="Meta title" optional>
            <Input maxLength={200} {...text("metaTitle")} />
          </FormField>
          <FormField label="Meta description" optional>
            <Textarea rows={2} maxLength={500} {...text("metaDescription")} />
          </FormField>
          <FormField label="Meta keywords" hint="Separated by commas.">
            <Input {...text("metaKeywords")} />
          </FormField>
        </Panel>
      </div>

      <div className="space-y-6">
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
                    disabled={pending || dirty}
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
              {current.canDelete ? (
                <Button
                  variant="danger"
                  className="w-full"
                  disabled={pending}
                  onClick={async () => {
                    const ok = await confirm({
                      title: "Delete this draft for good?",
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
              A new story starts as a draft. Save it, then submit it for approval.
            </p>
          )}
        </Panel>

        <div className="space-y-2">
          {notice ? (
            <Alert tone="success" data-testid="story-notice">
              {notice}
            </Alert>
          ) : null}
          {isStale(error) ? (
            <Alert tone="warning" data-testid="story-stale">
              <p className="font-medium">Someone else changed this story after you opened it.</p>
              <p className="mt-1">
                Reload it to see their version; your unsaved changes here will be lost, so copy anything you need first.
              </p>
              {onReload ? (
                <Button className="mt-2" onClick={onReload}>
                  Reload the story
                </Button>
              ) : null}
            </Alert>
          ) : (
            <ErrorAlert errors={errors} />
          )}
          <Button
            type="submit"
            variant="primary"
            className="w-full"
            loading={pending}
            loadingText="Saving…"
            disabled={Boolean(current) && !dirty}
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
