"use client";
/**
 * One collection: its details; for a manual one, its items in order (drag and drop, or the
 * Up/Down buttons from the keyboard), a story picker and a child-collection picker; for an
 * automated one, its rules. Nothing is saved until "Save order" / "Save rules".
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { type COLLECTION_SORTS, type TCollectionRules } from "@/server/publishing/editorial/organise.schema";

import { buttonClass, dangerButtonClass, ErrorMessage, Field, fieldErrors, inputClass, Panel, primaryButtonClass, StatusBadge } from "./ui";

type DraftItem =
  | { key: string; type: "story"; storyId: string; label: string; detail: string; layout: string }
  | { key: string; type: "collection"; collectionId: number; label: string; detail: string; layout: string };

type Detail = {
  id: number;
  name: string;
  slug: string;
  summary: string;
  template: string;
  automated: boolean;
  rules: TCollectionRules;
  metadata: Record<string, unknown>;
  section: { id: number; name: string } | null;
  items: (
    | { type: "story"; storyId: string; headline: string; slug: string; status: string; associatedMetadata: Record<string, unknown> }
    | { type: "collection"; collectionId: number; name: string; slug: string; automated: boolean; associatedMetadata: Record<string, unknown> }
  )[];
};

const layoutOf = (metadata: Record<string, unknown>) => (typeof metadata.layout === "string" ? metadata.layout : "");

function toDraft(items: Detail["items"]): DraftItem[] {
  return items.map((item) =>
    item.type === "story"
      ? { key: `s:${item.storyId}`, type: "story", storyId: item.storyId, label: item.headline, detail: `${item.status} · ${item.slug}`, layout: layoutOf(item.associatedMetadata) }
      : { key: `c:${item.collectionId}`, type: "collection", collectionId: item.collectionId, label: item.name, detail: `collection · ${item.slug}`, layout: layoutOf(item.associatedMetadata) },
  );
}

/** `items` with the element at `from` moved to `to`. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

export function CollectionEditor({ id }: { id: number }) {
  const trpc = useTRPC();
  const collection = useQuery(trpc.organise.collections.get.queryOptions({ id }));
  if (collection.isPending) {
    return (
      <p className="py-10 text-center text-sm text-gray-500" role="status">
        Loading the collection…
      </p>
    );
  }
  if (collection.isError) {
    return (
      <p className="py-10 text-center text-sm text-red-700" role="alert">
        The collection could not be loaded: {collection.error.message}
      </p>
    );
  }
  // Keyed by the saved state, so a save (or a reload) starts the drafts afresh.
  return <Editor key={collection.data.updatedAt.toISOString()} collection={collection.data} />;
}

function Editor({ collection }: { collection: Detail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.organise.collections.get.queryKey({ id: collection.id }) }),
      queryClient.invalidateQueries({ queryKey: trpc.organise.collections.list.queryKey() }),
    ]);
  const remove = useMutation(trpc.organise.collections.delete.mutationOptions({ onSuccess: () => router.push("/admin/content/collections") }));
  const [automated, setAutomated] = useState(collection.automated);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-2">
        <Link href="/admin/content/collections" className="text-sm text-brand-700 hover:underline">
          ← All collections
        </Link>
        <span className="font-mono text-xs text-gray-500">{collection.slug}</span>
        {collection.section ? <StatusBadge tone="amber">Section: {collection.section.name}</StatusBadge> : null}
        {collection.automated ? <StatusBadge tone="blue">Automated</StatusBadge> : <StatusBadge tone="green">Manual</StatusBadge>}
      </div>
      <DetailsForm collection={collection} onSaved={refresh} />

      <Panel title="Contents" titleId="contents-title">
        <fieldset className="border-b border-gray-200 px-4 py-3">
          <legend className="sr-only">How items are chosen</legend>
          <div className="flex flex-wrap gap-4">
            {[
              { value: false, label: "Manual (ordered by hand)" },
              { value: true, label: "Automated (by rules)" },
            ].map((mode) => (
              <label key={String(mode.value)} className="flex items-center gap-2 text-sm text-gray-700">
                <input type="radio" name="collection-mode" checked={automated === mode.value} onChange={() => setAutomated(mode.value)} />
                {mode.label}
              </label>
            ))}
          </div>
          {automated !== collection.automated ? (
            <p className="mt-2 text-xs text-amber-800">
              {automated ? "Save the rules below to make this collection automated. Its items are kept, unused, in case you switch back." : "Save the order below to make this collection manual."}
            </p>
          ) : null}
        </fieldset>
        {automated ? <RulesEditor collection={collection} onSaved={refresh} /> : <ItemsEditor collection={collection} onSaved={refresh} />}
      </Panel>

      {!collection.section ? (
        <div className="space-y-2">
          <ErrorMessage error={remove.error} />
          <button
            type="button"
            className={dangerButtonClass}
            disabled={remove.isPending}
            onClick={() => {
              if (window.confirm(`Delete the collection "${collection.name}"? It is also taken out of collections that contain it.`)) remove.mutate({ id: collection.id });
            }}
          >
            Delete collection
          </button>
        </div>
      ) : null}
    </div>
  );
}

function DetailsForm({ collection, onSaved }: { collection: Detail; onSaved: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const id = useId();
  const [values, setValues] = useState({
    name: collection.name,
    slug: collection.slug,
    summary: collection.summary,
    template: collection.template,
    metadata: JSON.stringify(collection.metadata, null, 2),
  });
  const [metadataError, setMetadataError] = useState<string | undefined>();
  const update = useMutation(trpc.organise.collections.update.mutationOptions({ onSuccess: onSaved }));
  const errors = fieldErrors(update.error);
  return (
    <Panel title="Details" titleId="details-title">
      <form
        className="space-y-4 px-4 py-4"
        onSubmit={(event) => {
          event.preventDefault();
          let metadata: Record<string, unknown>;
          try {
            const parsed = JSON.parse(values.metadata || "{}") as unknown;
            if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
            metadata = parsed as Record<string, unknown>;
          } catch {
            return setMetadataError("must be a JSON object");
          }
          setMetadataError(undefined);
          update.mutate({ id: collection.id, name: values.name, slug: values.slug, summary: values.summary, template: values.template, metadata });
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={`${id}-name`} label="Collection name" error={errors.name}>
            <input id={`${id}-name`} required maxLength={200} value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} className={inputClass} />
          </Field>
          <Field id={`${id}-slug`} label="Slug" error={errors.slug}>
            <input id={`${id}-slug`} required maxLength={100} value={values.slug} onChange={(e) => setValues({ ...values, slug: e.target.value })} className={`${inputClass} font-mono`} />
          </Field>
          <Field id={`${id}-summary`} label="Summary" error={errors.summary}>
            <input id={`${id}-summary`} maxLength={2000} value={values.summary} onChange={(e) => setValues({ ...values, summary: e.target.value })} className={inputClass} />
          </Field>
          <Field id={`${id}-template`} label="Template" hint="What front ends render it with, e.g. default, four-col." error={errors.template}>
            <input id={`${id}-template`} required maxLength={100} value={values.template} onChange={(e) => setValues({ ...values, template: e.target.value })} className={inputClass} />
          </Field>
        </div>
        <Field id={`${id}-metadata`} label="Metadata (JSON)" error={metadataError ?? errors.metadata}>
          <textarea id={`${id}-metadata`} rows={3} value={values.metadata} onChange={(e) => setValues({ ...values, metadata: e.target.value })} className={`${inputClass} font-mono`} />
        </Field>
        <ErrorMessage error={update.error} />
        <button type="submit" disabled={update.isPending} className={primaryButtonClass}>
          {update.isPending ? "Saving…" : "Save details"}
        </button>
      </form>
    </Panel>
  );
}

function ItemsEditor({ collection, onSaved }: { collection: Detail; onSaved: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const id = useId();
  const [items, setItems] = useState<DraftItem[]>(() => toDraft(collection.items));
  const [dragging, setDragging] = useState<number | null>(null);
  const [dirty, setDirty] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const [q, setQ] = useState("");
  const stories = useQuery({ ...trpc.organise.collections.pickStories.queryOptions({ q: q || undefined, limit: 20 }), placeholderData: keepPreviousData });
  const collections = useQuery(trpc.organise.collections.list.queryOptions({ limit: 200 }));
  const [childId, setChildId] = useState("");
  const switching = collection.automated;
  const save = useMutation(
    trpc.organise.collections.update.mutationOptions({
      onSuccess: async () => {
        await setOrder.mutateAsync(payload());
      },
    }),
  );
  const setOrder = useMutation(trpc.organise.collections.setItems.mutationOptions({ onSuccess: async () => (setDirty(false), await onSaved()) }));
  const keys = new Set(items.map((i) => i.key));

  const change = (next: DraftItem[], message?: string) => {
    setItems(next);
    setDirty(true);
    if (message) setAnnouncement(message);
  };
  const move = (from: number, to: number) => change(moveItem(items, from, to), `${items[from]?.label ?? "Item"} moved to position ${to + 1} of ${items.length}.`);
  const payload = () => ({
    id: collection.id,
    items: items.map((item) => {
      const associatedMetadata = item.layout.trim() ? { layout: item.layout.trim() } : undefined;
      return item.type === "story" ? { storyId: item.storyId, associatedMetadata } : { collectionId: item.collectionId, associatedMetadata };
    }),
  });
  const error = save.error ?? setOrder.error;

  return (
    <div className="grid gap-6 px-4 py-4 lg:grid-cols-5">
      <div className="space-y-3 lg:col-span-3">
        <div className="flex items-center justify-between">
          <h3 className="text-sm font-semibold text-gray-900">Items, in order</h3>
          {dirty || switching ? <StatusBadge tone="amber">Unsaved changes</StatusBadge> : null}
        </div>
        <p className="sr-only" aria-live="polite">
          {announcement}
        </p>
        {items.length === 0 ? <p className="rounded-md border border-dashed border-gray-300 px-4 py-6 text-center text-sm text-gray-500">No items yet: add stories or collections.</p> : null}
        <ol className="space-y-2" data-testid="collection-items">
          {items.map((item, index) => (
            <li
              key={item.key}
              draggable
              data-testid="collection-item"
              data-item-key={item.key}
              onDragStart={(event) => {
                setDragging(index);
                event.dataTransfer.effectAllowed = "move";
                event.dataTransfer.setData("text/plain", String(index));
              }}
              onDragOver={(event) => {
                event.preventDefault();
                event.dataTransfer.dropEffect = "move";
              }}
              onDrop={(event) => {
                event.preventDefault();
                const from = dragging ?? Number(event.dataTransfer.getData("text/plain"));
                if (Number.isInteger(from)) move(from, index);
                setDragging(null);
              }}
              onDragEnd={() => setDragging(null)}
              className={`flex cursor-move items-center gap-3 rounded-md border bg-white px-3 py-2 shadow-sm ${dragging === index ? "border-brand-600 opacity-60" : "border-gray-200"}`}
            >
              <span aria-hidden className="select-none text-gray-400">
                ⠿
              </span>
              <span className="w-6 text-right text-xs text-gray-500">{index + 1}.</span>
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-gray-900" data-testid="collection-item-label">
                  {item.label}
                </p>
                <p className="truncate text-xs text-gray-500">{item.detail}</p>
              </div>
              <input
                aria-label={`Layout of ${item.label}`}
                placeholder="layout"
                value={item.layout}
                onChange={(e) => change(items.map((it, i) => (i === index ? { ...it, layout: e.target.value } : it)))}
                className={`${inputClass} w-28 py-1 text-xs`}
              />
              <div className="flex shrink-0 gap-1">
                <button type="button" className={buttonClass} aria-label={`Move ${item.label} up`} disabled={index === 0} onClick={() => move(index, index - 1)}>
                  ↑
                </button>
                <button type="button" className={buttonClass} aria-label={`Move ${item.label} down`} disabled={index === items.length - 1} onClick={() => move(index, index + 1)}>
                  ↓
                </button>
                <button
                  type="button"
                  className={dangerButtonClass}
                  aria-label={`Remove ${item.label}`}
                  onClick={() => change(items.filter((_, i) => i !== index), `${item.label} removed.`)}
                >
                  ✕
                </button>
              </div>
            </li>
          ))}
        </ol>
        <ErrorMessage error={error} />
        <button
          type="button"
          className={primaryButtonClass}
          disabled={save.isPending || setOrder.isPending || (!dirty && !switching)}
          onClick={() => (switching ? save.mutate({ id: collection.id, automated: false }) : setOrder.mutate(payload()))}
        >
          {save.isPending || setOrder.isPending ? "Saving…" : "Save order"}
        </button>
      </div>

      <div className="space-y-5 lg:col-span-2">
        <div>
          <Field id={`${id}-story-search`} label="Add stories" hint="Published stories, newest first.">
            <input id={`${id}-story-search`} type="search" placeholder="Search headlines…" value={q} onChange={(e) => setQ(e.target.value)} className={inputClass} />
          </Field>
          <ul className="mt-2 max-h-80 divide-y divide-gray-100 overflow-y-auto rounded-md border border-gray-200" data-testid="story-picker">
            {(stories.data ?? []).map((story) => (
              <li key={story.id} className="flex items-center justify-between gap-2 px-3 py-2">
                <span className="min-w-0 truncate text-sm text-gray-800">{story.headline}</span>
                <button
                  type="button"
                  className={buttonClass}
                  aria-label={`Add ${story.headline}`}
                  disabled={keys.has(`s:${story.id}`)}
                  onClick={() =>
                    change([...items, { key: `s:${story.id}`, type: "story", storyId: story.id, label: story.headline, detail: `${story.status} · ${story.slug}`, layout: "" }], `${story.headline} added.`)
                  }
                >
                  {keys.has(`s:${story.id}`) ? "Added" : "Add"}
                </button>
              </li>
            ))}
            {stories.data?.length === 0 ? <li className="px-3 py-4 text-center text-sm text-gray-500">No published stories match.</li> : null}
          </ul>
        </div>
        <div>
          <Field id={`${id}-child`} label="Add a collection" hint="Nested collections; a collection cannot contain itself.">
            <div className="flex gap-2">
              <select id={`${id}-child`} value={childId} onChange={(e) => setChildId(e.target.value)} className={inputClass}>
                <option value="">Choose…</option>
                {(collections.data?.collections ?? [])
                  .filter((c) => c.id !== collection.id && !keys.has(`c:${c.id}`))
                  .map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name} ({c.slug})
                    </option>
                  ))}
              </select>
              <button
                type="button"
                className={buttonClass}
                disabled={!childId}
                onClick={() => {
                  const child = collections.data?.collections.find((c) => c.id === Number(childId));
                  if (!child) return;
                  change([...items, { key: `c:${child.id}`, type: "collection", collectionId: child.id, label: child.name, detail: `collection · ${child.slug}`, layout: "" }], `${child.name} added.`);
                  setChildId("");
                }}
              >
                Add
              </button>
            </div>
          </Field>
        </div>
      </div>
    </div>
  );
}

function splitList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

function RulesEditor({ collection, onSaved }: { collection: Detail; onSaved: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const id = useId();
  const sections = useQuery(trpc.organise.sections.list.queryOptions());
  const authors = useQuery(trpc.organise.authors.list.queryOptions({ limit: 200 }));
  const rules = collection.rules;
  const [sectionIds, setSectionIds] = useState<number[]>(rules["section-ids"] ?? []);
  const [authorIds, setAuthorIds] = useState<number[]>(rules["author-ids"] ?? []);
  const [tagSlugs, setTagSlugs] = useState((rules["tag-slugs"] ?? []).join(", "));
  const [templates, setTemplates] = useState((rules["story-templates"] ?? []).join(", "));
  const [sort, setSort] = useState<(typeof COLLECTION_SORTS)[number]>(rules.sort ?? "published-at");
  const update = useMutation(trpc.organise.collections.update.mutationOptions({ onSuccess: onSaved }));
  const toggle = (list: number[], value: number, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));

  return (
    <form
      className="space-y-4 px-4 py-4"
      onSubmit={(event) => {
        event.preventDefault();
        const next: TCollectionRules = { sort };
        if (sectionIds.length) next["section-ids"] = sectionIds;
        if (authorIds.length) next["author-ids"] = authorIds;
        if (splitList(tagSlugs).length) next["tag-slugs"] = splitList(tagSlugs);
        if (splitList(templates).length) next["story-templates"] = splitList(templates);
        update.mutate({ id: collection.id, automated: true, rules: next });
      }}
    >
      <p className="text-sm text-gray-600">Published stories that match every rule you fill in (any of the values within a rule), newest first.</p>
      <fieldset>
        <legend className="text-sm font-medium text-gray-900">Sections</legend>
        <div className="mt-2 grid max-h-48 gap-1 overflow-y-auto sm:grid-cols-2">
          {(sections.data ?? []).map((s) => (
            <label key={s.id} className="flex items-center gap-2 text-sm text-gray-700">
              <input type="checkbox" checked={sectionIds.includes(s.id)} onChange={(e) => setSectionIds(toggle(sectionIds, s.id, e.target.checked))} />
              {"— ".repeat(s.depth)}
              {s.displayName}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend className="text-sm font-medium text-gray-900">Authors</legend>
        <div className="mt-2 grid max-h-48 gap-1 overflow-y-auto sm:grid-cols-2">
          {(authors.data?.authors ?? []).map((a) => (
            <label key={a.id} className="flex items-center gap-2 text-sm text-gray-700">
              <input type="checkbox" checked={authorIds.includes(a.id)} onChange={(e) => setAuthorIds(toggle(authorIds, a.id, e.target.checked))} />
              {a.name}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id={`${id}-tags`} label="Tag slugs" hint="Comma-separated, e.g. cricket, ipl">
          <input id={`${id}-tags`} value={tagSlugs} onChange={(e) => setTagSlugs(e.target.value)} className={`${inputClass} font-mono`} />
        </Field>
        <Field id={`${id}-templates`} label="Story templates" hint="Comma-separated, e.g. video, live-blog">
          <input id={`${id}-templates`} value={templates} onChange={(e) => setTemplates(e.target.value)} className={inputClass} />
        </Field>
        <Field id={`${id}-sort`} label="Sort by">
          <select id={`${id}-sort`} value={sort} onChange={(e) => setSort(e.target.value as (typeof COLLECTION_SORTS)[number])} className={inputClass}>
            <option value="published-at">First published</option>
            <option value="last-published-at">Last published</option>
          </select>
        </Field>
      </div>
      <ErrorMessage error={update.error} />
      <button type="submit" disabled={update.isPending} className={primaryButtonClass}>
        {update.isPending ? "Saving…" : "Save rules"}
      </button>
    </form>
  );
}
