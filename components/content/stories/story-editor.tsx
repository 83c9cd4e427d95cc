"use client";
/**
 * Write or edit one story, and move it through the workflow. Saves send the version the editor
 * loaded: if someone else saved in between, the server refuses (CONFLICT) and the editor is asked
 * to reload. Workflow buttons show only the moves the server says are open, and wait until the
 * form's changes are saved.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useRouter } from "next/navigation";
import { useId, useState, type ReactNode } from "react";

import { useTRPC } from "@/components/trpc/react";
import { buttonClass, dangerButtonClass, dateTime, ErrorMessage, inputClass, primaryButtonClass } from "@/components/webhooks/ui";
import type { TCard } from "@/server/publishing/cards.schema";
import {
  STORY_ACCESS,
  STORY_TEMPLATES,
  type TCreateStoryInput,
  type TStoryAction,
  type TStoryEditorView,
} from "@/server/publishing/editorial/stories.schema";

import { CardEditor, newCard } from "./card-editor";
import { ImageUpload } from "./image-upload";
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
    access: (STORY_ACCESS as readonly string[]).includes(story?.access ?? "") ? (story!.access as FormValues["access"]) : "public",
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
      ? { s3Key: values.heroKey, caption: values.heroCaption, attribution: values.heroAttribution, ...(values.heroMetadata ? { metadata: values.heroMetadata } : {}) }
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
  if (!(error instanceof TRPCClientError)) return false;
  const data = error.data as { appError?: { code?: string; details?: { field: string }[] } | null } | undefined;
  return data?.appError?.code === "CONFLICT" && Boolean(data.appError.details?.some((d) => d.field === "version"));
}

export function StoryEditor({ id }: { id?: string }) {
  const trpc = useTRPC();
  const story = useQuery({ ...trpc.stories.get.queryOptions({ id: id ?? "" }), enabled: Boolean(id) });
  // Bumped by "Reload": the form starts over from the version just loaded.
  const [generation, setGeneration] = useState(0);
  if (!id) return <StoryForm story={null} />;
  if (story.isPending)
    return (
      <p className="py-10 text-center text-sm text-gray-500" role="status">
        Loading the story…
      </p>
    );
  if (story.isError)
    return (
      <p className="py-10 text-center text-sm text-red-700" role="alert">
        The story could not be loaded: {story.error.message}
      </p>
    );
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
  const id = useId();
  const options = useQuery(trpc.stories.options.queryOptions());
  const [baseline, setBaseline] = useState(() => fromStory(story));
  const [values, setValues] = useState(baseline);
  const [current, setCurrent] = useState(story);
  const [notice, setNotice] = useState<string | null>(null);
  const dirty = JSON.stringify(values) !== JSON.stringify(baseline);
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

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
      onSuccess: (result) => settle(result.story, result.event ? `Saved. ${result.event} sent to the subscribed webhooks.` : "Saved."),
    }),
  );
  const transition = useMutation(
    trpc.stories.transition.mutationOptions({
      onSuccess: (result) => settle(result.story, `${result.story.status.charAt(0)}${result.story.status.slice(1).toLowerCase()}. ${result.event} sent to the subscribed webhooks.`),
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
  const move = (action: TStoryAction) => {
    if (!current) return;
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
        <Panel title="Story">
          <Field id={`${id}-headline`} label="Headline">
            <input id={`${id}-headline`} required maxLength={500} value={values.headline} onChange={(e) => set("headline", e.target.value)} className={inputClass} />
          </Field>
          <Field id={`${id}-subheadline`} label="Subheadline" optional>
            <input id={`${id}-subheadline`} maxLength={1000} value={values.subheadline} onChange={(e) => set("subheadline", e.target.value)} className={inputClass} />
          </Field>
          <Field id={`${id}-slug`} label="Slug" hint="Lower-case words and hyphens; left empty, it is made from the headline. Unique across the publication.">
            <input id={`${id}-slug`} maxLength={200} value={values.slug} onChange={(e) => set("slug", e.target.value)} className={`${inputClass} font-mono`} />
          </Field>
          <Field id={`${id}-summary`} label="Summary" optional>
            <textarea id={`${id}-summary`} rows={2} maxLength={2000} value={values.summary} onChange={(e) => set("summary", e.target.value)} className={inputClass} />
          </Field>
        </Panel>

        <Panel title="Cards">
          <CardEditor cards={values.cards} onChange={(cards) => set("cards", cards)} />
        </Panel>

        <Panel title="Hero image">
          <div className="grid gap-3 sm:grid-cols-3">
            <Field id={`${id}-hero-key`} label="Hero image key" hint="The image's key in the image store; or upload one.">
              <input
                id={`${id}-hero-key`}
                maxLength={500}
                value={values.heroKey}
                onChange={(e) => setValues((v) => ({ ...v, heroKey: e.target.value, heroMetadata: null }))}
                className={`${inputClass} font-mono`}
              />
            </Field>
            <Field id={`${id}-hero-caption`} label="Hero caption" optional>
              <input id={`${id}-hero-caption`} maxLength={1000} value={values.heroCaption} onChange={(e) => set("heroCaption", e.target.value)} className={inputClass} />
            </Field>
            <Field id={`${id}-hero-attribution`} label="Hero attribution" optional>
              <input id={`${id}-hero-attribution`} maxLength={500} value={values.heroAttribution} onChange={(e) => set("heroAttribution", e.target.value)} className={inputClass} />
            </Field>
          </div>
          <ImageUpload
            label="Upload hero image"
            onUploaded={(image) =>
              setValues((v) => ({ ...v, heroKey: image.key, heroMetadata: { width: image.width, height: image.height, "mime-type": image["mime-type"] } }))
            }
          />
        </Panel>

        <Panel title="SEO">
          <Field id={`${id}-meta-title`} label="Meta title" optional>
            <input id={`${id}-meta-title`} maxLength={200} value={values.metaTitle} onChange={(e) => set("metaTitle", e.target.value)} className={inputClass} />
          </Field>
          <Field id={`${id}-meta-description`} label="Meta description" optional>
            <textarea id={`${id}-meta-description`} rows={2} maxLength={500} value={values.metaDescription} onChange={(e) => set("metaDescription", e.target.value)} className={inputClass} />
          </Field>
          <Field id={`${id}-meta-keywords`} label="Meta keywords" hint="Separated by commas.">
            <input id={`${id}-meta-keywords`} value={values.metaKeywords} onChange={(e) => set("metaKeywords", e.target.value)} className={inputClass} />
          </Field>
        </Panel>
      </div>

      <div className="space-y-6">
        <Panel title="Workflow">
          {current ? (
            <div className="space-y-3 text-sm">
              <div className="flex items-center justify-between">
                <StoryStatus status={current.status} />
                <span className="text-xs text-gray-500" data-testid="story-version">
                  Version {current.version}
                </span>
              </div>
              {current.publishedAt ? <p className="text-xs text-gray-500">Published {dateTime.format(current.publishedAt)}</p> : null}
              {current.status === "PUBLISHED" ? (
                <a href={current.url} className="block truncate text-xs text-brand-700 hover:underline" target="_blank" rel="noreferrer">
                  {current.url}
                </a>
              ) : null}
              <div className="flex flex-wrap gap-2">
                {current.moves.map((m) => (
                  <button
                    key={`${m.action}-${m.to}`}
                    type="button"
                    disabled={pending || dirty}
                    onClick={() => move(m.action)}
                    className={m.action === "publish" || m.action === "approve" || m.action === "submit" ? primaryButtonClass : m.action === "retract" ? dangerButtonClass : buttonClass}
                  >
                    {m.label}
                  </button>
                ))}
              </div>
              {dirty && current.moves.length ? <p className="text-xs text-amber-800">Save your changes before moving the story.</p> : null}
              {current.canDelete ? (
                <button
                  type="button"
                  disabled={pending}
                  className={`${dangerButtonClass} w-full`}
                  onClick={() => {
                    if (window.confirm("Delete this draft for good?")) {
                      resetErrors();
                      remove.mutate({ id: current.id, version: current.version });
                    }
                  }}
                >
                  Delete draft
                </button>
              ) : null}
            </div>
          ) : (
            <p className="text-sm text-gray-600">A new story starts as a draft. Save it, then submit it for approval.</p>
          )}
        </Panel>

        <div className="space-y-2">
          {notice ? (
            <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800" data-testid="story-notice">
              {notice}
            </p>
          ) : null}
          {isStale(error) ? (
            <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="story-stale">
              <p className="font-medium">Someone else changed this story after you opened it.</p>
              <p className="mt-1">Reload it to see their version; your unsaved changes here will be lost, so copy anything you need first.</p>
              {onReload ? (
                <button type="button" className={`${buttonClass} mt-2`} onClick={onReload}>
                  Reload the story
                </button>
              ) : null}
            </div>
          ) : (
            <ErrorMessage error={error} />
          )}
          <button type="submit" disabled={pending || (Boolean(current) && !dirty)} className={`${primaryButtonClass} w-full`}>
            {pending ? "Saving…" : current ? (dirty ? "Save changes" : "Saved") : "Create draft"}
          </button>
        </div>

        <Panel title="Sections">
          <OrderedPicker
            label="Add a section"
            testId="sections"
            chosen={values.sections}
            choices={sections}
            onChange={(chosen) => set("sections", chosen)}
            firstNote="primary"
          />
        </Panel>
        <Panel title="Authors">
          <OrderedPicker label="Add an author" testId="authors" chosen={values.authors} choices={authors} onChange={(chosen) => set("authors", chosen)} firstNote="byline" />
        </Panel>
        <Panel title="Tags">
          <TagPicker chosen={values.tags} choices={tags} onChange={(chosen) => set("tags", chosen)} />
        </Panel>

        <Panel title="Publishing">
          <Field id={`${id}-access`} label="Access">
            <select id={`${id}-access`} value={values.access} onChange={(e) => set("access", e.target.value as FormValues["access"])} className={inputClass}>
              <option value="public">Public: anyone</option>
              <option value="login">Login: signed-in members</option>
              <option value="subscription">Subscription: subscribers</option>
            </select>
          </Field>
          <Field id={`${id}-template`} label="Story template">
            <select id={`${id}-template`} value={values.storyTemplate} onChange={(e) => set("storyTemplate", e.target.value)} className={inputClass}>
              <option value="">Default</option>
              {[...new Set([...STORY_TEMPLATES, ...(values.storyTemplate ? [values.storyTemplate] : [])])].map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </Field>
          <label className="flex items-center gap-2 text-sm text-gray-700">
            <input type="checkbox" checked={values.isBreakingNews} onChange={(e) => set("isBreakingNews", e.target.checked)} className="rounded text-brand-600 focus:ring-brand-600" />
            Breaking news
          </label>
          {values.isBreakingNews ? (
            <>
              <Field id={`${id}-bn-expires`} label="Breaking news until" optional>
                <input
                  id={`${id}-bn-expires`}
                  type="datetime-local"
                  value={values.breakingNewsExpiresAt}
                  onChange={(e) => set("breakingNewsExpiresAt", e.target.value)}
                  className={inputClass}
                />
              </Field>
              <Field id={`${id}-bn-linked`} label="Linked story id" optional hint="The story the breaking-news item links to (for example this one, or a fuller story).">
                <input
                  id={`${id}-bn-linked`}
                  value={values.breakingNewsLinkedStoryId}
                  onChange={(e) => set("breakingNewsLinkedStoryId", e.target.value)}
                  placeholder={current?.id ?? "story id"}
                  className={`${inputClass} font-mono text-xs`}
                />
              </Field>
            </>
          ) : null}
        </Panel>
      </div>
    </form>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-lg border border-gray-200 bg-white shadow-sm">
      <h2 className="border-b border-gray-200 px-4 py-3 text-sm font-semibold text-gray-900">{title}</h2>
      <div className="space-y-4 px-4 py-4">{children}</div>
    </section>
  );
}

function Field({ id, label, optional, hint, children }: { id: string; label: string; optional?: boolean; hint?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-900">
        {label} {optional ? <span className="font-normal text-gray-500">(optional)</span> : null}
      </label>
      <div className="mt-1">{children}</div>
      {hint ? <p className="mt-1 text-xs text-gray-500">{hint}</p> : null}
    </div>
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
  const id = useId();
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
              <button type="button" className={`${buttonClass} px-1.5 py-0.5 text-xs`} disabled={i === 0} onClick={() => swap(i, i - 1)} aria-label={`Move ${item.name} up`}>
                ↑
              </button>
              <button type="button" className={`${buttonClass} px-1.5 py-0.5 text-xs`} onClick={() => onChange(chosen.filter((x) => x.id !== item.id))} aria-label={`Remove ${item.name}`}>
                ×
              </button>
            </span>
          </li>
        ))}
      </ol>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select
        id={id}
        value=""
        onChange={(e) => {
          const picked = open.find((c) => String(c.id) === e.target.value);
          if (picked) onChange([...chosen, { id: picked.id, name: picked.name }]);
        }}
        className={inputClass}
      >
        <option value="">{label}…</option>
        {open.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Existing tags from a list, or new ones by name (created when the story is saved). */
function TagPicker({ chosen, choices, onChange }: { chosen: TagChoice[]; choices: { id: number; name: string }[]; onChange: (chosen: TagChoice[]) => void }) {
  const id = useId();
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
          <li key={tag.id ?? `new:${tag.name}`} className="inline-flex items-center gap-1 rounded-full bg-gray-100 px-2 py-0.5 text-xs text-gray-800">
            {tag.name}
            {tag.id === undefined ? <span className="text-gray-500">(new)</span> : null}
            <button type="button" onClick={() => onChange(chosen.filter((x) => x !== tag))} aria-label={`Remove tag ${tag.name}`} className="text-gray-500 hover:text-gray-900">
              ×
            </button>
          </li>
        ))}
      </ul>
      <label htmlFor={`${id}-pick`} className="sr-only">
        Add an existing tag
      </label>
      <select
        id={`${id}-pick`}
        value=""
        onChange={(e) => {
          const picked = open.find((c) => String(c.id) === e.target.value);
          if (picked) onChange([...chosen, { id: picked.id, name: picked.name }]);
        }}
        className={inputClass}
      >
        <option value="">Add an existing tag…</option>
        {open.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <div className="flex gap-2">
        <label htmlFor={`${id}-new`} className="sr-only">
          New tag
        </label>
        <input
          id={`${id}-new`}
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
          className={inputClass}
        />
        <button type="button" className={buttonClass} onClick={addByName}>
          Add tag
        </button>
      </div>
    </div>
  );
}
