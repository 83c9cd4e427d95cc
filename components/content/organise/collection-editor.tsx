"use client";

/**
 * One collection: its details; for a manual one, its items in order (drag and drop, or the
 * Up/Down buttons from the keyboard), a story picker and a child-collection picker; for an
 * automated one, its rules. Nothing is saved until "Save order" / "Save rules".
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import {
  Badge,
  Button,
  Checkbox,
  EmptyState,
  ErrorAlert,
  Fieldset,
  FormField,
  Input,
  LoadError,
  Loading,
  Panel,
  RadioChoices,
  Select,
  serverErrors,
  Textarea,
  TextLink,
  useConfirm,
} from "@/components/ui";
import { type COLLECTION_SORTS, type TCollectionRules } from "@/server/publishing/editorial/organise.schema";

type DraftItem =
  | { key: string; type: "story"; storyId: string; label: string; detail: string; layout: string }
  | { key: string; type: "collection"; collectionId: number; label: string; detail: string; layout: string };

type Detail = RouterOutputs["organise"]["collections"]["get"];

const layoutOf = (metadata: Record<string, unknown>) => (typeof metadata.layout === "string" ? metadata.layout : "");

function toDraft(items: Detail["items"]): DraftItem[] {
  return items.map((item) =>
    item.type === "story"
      ? {
          key: `s:${item.storyId}`,
          type: "story",
          storyId: item.storyId,
          label: item.headline,
          detail: `${item.status} · ${item.slug}`,
          layout: layoutOf(item.associatedMetadata),
        }
      : {
          key: `c:${item.collectionId}`,
          type: "collection",
          collectionId: item.collectionId,
          label: item.name,
          detail: `collection · ${item.slug}`,
          layout: layoutOf(item.associatedMetadata),
        },
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
  if (collection.isPending) return <Loading what="the collection" />;
  if (collection.isError) return <LoadError what="collection" error={collection.error} onRetry={collection.refetch} />;
  // Keyed by the saved state, so a save (or a reload) starts the drafts afresh.
  return <Editor key={collection.data.updatedAt.toISOString()} collection={collection.data} />;
}

function Editor({ collection }: { collection: Detail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const confirm = useConfirm();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.organise.collections.get.queryKey({ id: collection.id }) }),
      queryClient.invalidateQueries({ queryKey: trpc.organise.collections.list.queryKey() }),
    ]);
  const remove = useMutation(
    trpc.organise.collections.delete.mutationOptions({ onSuccess: () => router.push("/admin/content/collections") }),
  );
  const [automated, setAutomated] = useState(collection.automated);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-2">
        <TextLink href="/admin/content/collections" className="text-sm">
          ← All collections
        </TextLink>
        <span className="font-mono text-xs text-gray-500">{collection.slug}</span>
        {collection.section ? <Badge tone="amber">Section: {collection.section.name}</Badge> : null}
        {collection.automated ? <Badge tone="blue">Automated</Badge> : <Badge tone="green">Manual</Badge>}
      </div>
      <DetailsForm collection={collection} onSaved={refresh} />

      <Panel title="Contents">
        <div className="border-b border-gray-200 px-4 py-3">
          <Fieldset legend="How items are chosen" hideLegend>
            <RadioChoices
              value={automated}
              onChange={setAutomated}
              options={[
                { value: false, label: "Manual (ordered by hand)" },
                { value: true, label: "Automated (by rules)" },
              ]}
            />
          </Fieldset>
          {automated !== collection.automated ? (
            <p className="mt-2 text-xs text-amber-800">
              {automated
                ? "Save the rules below to make this collection automated. Its items are kept, unused, in case you switch back."
                : "Save the order below to make this collection manual."}
            </p>
          ) : null}
        </div>
        {automated ? (
          <RulesEditor collection={collection} onSaved={refresh} />
        ) : (
          <ItemsEditor collection={collection} onSaved={refresh} />
        )}
      </Panel>

      {!collection.section ? (
        <div className="space-y-2">
          <ErrorAlert error={remove.error} />
          <Button
            variant="danger"
            loading={remove.isPending}
            onClick={async () => {
              const ok = await confirm({
                title: `Delete the collection "${collection.name}"?`,
                body: "It is also taken out of collections that contain it.",
                confirmLabel: "Delete",
              });
              if (ok) remove.mutate({ id: collection.id });
            }}
          >
            Delete collection
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** The metadata textarea as an object, or undefined when it is not a JSON object. */
function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(text || "{}") as unknown;
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function DetailsForm({ collection, onSaved }: { collection: Detail; onSaved: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const [values, setValues] = useState({
    name: collection.name,
    slug: collection.slug,
    summary: collection.summary,
    template: collection.template,
    metadata: JSON.stringify(collection.metadata, null, 2),
  });
  const [metadataError, setMetadataError] = useState<string | undefined>();
  const update = useMutation(trpc.organise.collections.update.mutationOptions({ onSuccess: onSaved }));
  const errors = serverErrors(update.error, ["name", "slug", "summary", "template", "metadata"]);
  const set = (patch: Partial<typeof values>) => setValues({ ...values, ...patch });
  return (
    <Panel title="Details">
      <form
        className="space-y-4 px-4 py-4"
        onSubmit={(event) => {
          event.preventDefault();
          const metadata = parseObject(values.metadata);
          if (!metadata) return setMetadataError("must be a JSON object");
          setMetadataError(undefined);
          update.mutate({ id: collection.id, ...values, metadata });
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Collection name" error={errors.fields.name}>
            <Input required maxLength={200} value={values.name} onChange={(e) => set({ name: e.target.value })} />
          </FormField>
          <FormField label="Slug" error={errors.fields.slug}>
            <Input
              required
              maxLength={100}
              value={values.slug}
              onChange={(e) => set({ slug: e.target.value })}
              className="font-mono"
            />
          </FormField>
          <FormField label="Summary" error={errors.fields.summary}>
            <Input maxLength={2000} value={values.summary} onChange={(e) => set({ summary: e.target.value })} />
          </FormField>
          <FormField
            label="Template"
            hint="What front ends render it with, e.g. default, four-col."
            error={errors.fields.template}
          >
            <Input
              required
              maxLength={100}
              value={values.template}
              onChange={(e) => set({ template: e.target.value })}
            />
          </FormField>
        </div>
        <FormField label="Metadata (JSON)" error={metadataError ?? errors.fields.metadata}>
          <Textarea
            rows={3}
            value={values.metadata}
            onChange={(e) => set({ metadata: e.target.value })}
            className="font-mono"
          />
        </FormField>
        <ErrorAlert errors={errors} />
        <Button type="submit" variant="primary" loading={update.isPending} loadingText="Saving…">
          Save details
        </Button>
      </form>
    </Panel>
  );
}

function ItemsEditor({ collection, onSaved }: { collection: Detail; onSaved: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const [items, setItems] = useState<DraftItem[]>(() => toDraft(collection.items));
  const [dragging, setDragging] = useState<number | null>(null);
  const [dirty, setDirty] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const [q, setQ] = useState("");
  const stories = useQuery({
    ...trpc.organise.collections.pickStories.queryOptions({ q: q || undefined, limit: 20 }),
    placeholderData: keepPreviousData,
  });
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
  const setOrder = useMutation(
    trpc.organise.collections.setItems.mutationOptions({ onSuccess: async () => (setDirty(false), await onSaved()) }),
  );
  const keys = new Set(items.map((i) => i.key));

  const change = (next: DraftItem[], message?: string) => {
    setItems(next);
    setDirty(true);
    if (message) setAnnouncement(message);
  };
  const move = (from: number, to: number) =>
    change(
      moveItem(items, from, to),
      `${items[from]?.label ?? "Item"} moved to position ${to + 1} of ${items.length}.`,
    );
  const add = (item: DraftItem) => change([...items, item], `${item.label} added.`);
  const payload = () => ({
    id: collection.id,
    items: items.map((item) => {
      const associatedMetadata = item.layout.trim() ? { layout: item.layout.trim() } : undefined;
      return item.type === "story"
        ? { storyId: item.storyId, associatedMetadata }
        : { collectionId: item.collectionId, associatedMetadata };
    }),
  });
  const childChoices = (collections.data?.collections ?? []).filter(
    (c) => c.id !== collection.id && !keys.has(`c:${c.id}`),
  );

  return (
    <div className="grid gap-6 px-4 py-4 lg:grid-cols-5">
      <div className="min-w-0 space-y-3 lg:col-span-3">
        <div className="flex items-center justify-between">
          <h3 className="text-sm font-semibold text-gray-900">Items, in order</h3>
          {dirty || switching ? <Badge tone="amber">Unsaved changes</Badge> : null}
        </div>
        <p className="sr-only" aria-live="polite">
          {announcement}
        </p>
        {items.length === 0 ? <EmptyState dashed>No items yet: add stories or collections.</EmptyState> : null}
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
              className={`flex cursor-move flex-wrap items-center gap-x-3 gap-y-2 rounded-md border bg-white px-3 py-2 shadow-sm sm:flex-nowrap ${dragging === index ? "border-brand-600 opacity-60" : "border-gray-200"}`}
            >
              <span aria-hidden className="text-gray-400 select-none">
                ⠿
              </span>
              <span className="w-6 text-right text-xs text-gray-500">{index + 1}.</span>
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-gray-900" data-testid="collection-item-label">
                  {item.label}
                </p>
                <p className="truncate text-xs text-gray-500">{item.detail}</p>
              </div>
              <Input
                compact
                aria-label={`Layout of ${item.label}`}
                placeholder="layout"
                value={item.layout}
                onChange={(e) => change(items.map((it, i) => (i === index ? { ...it, layout: e.target.value } : it)))}
                fit
                className="w-28"
              />
              <div className="flex shrink-0 gap-1">
                <Button
                  aria-label={`Move ${item.label} up`}
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                >
                  ↑
                </Button>
                <Button
                  aria-label={`Move ${item.label} down`}
                  disabled={index === items.length - 1}
                  onClick={() => move(index, index + 1)}
                >
                  ↓
                </Button>
                <Button
                  variant="danger"
                  aria-label={`Remove ${item.label}`}
                  onClick={() =>
                    change(
                      items.filter((_, i) => i !== index),
                      `${item.label} removed.`,
                    )
                  }
                >
                  ✕
                </Button>
              </div>
            </li>
          ))}
        </ol>
        <ErrorAlert error={save.error ?? setOrder.error} />
        <Button
          variant="primary"
          loading={save.isPending || setOrder.isPending}
          loadingText="Saving…"
          disabled={!dirty && !switching}
          onClick={() =>
            switching ? save.mutate({ id: collection.id, automated: false }) : setOrder.mutate(payload())
          }
        >
          Save order
        </Button>
      </div>

      <div className="min-w-0 space-y-5 lg:col-span-2">
        <div>
          <FormField label="Add stories" hint="Published stories, newest first.">
            <Input type="search" placeholder="Search headlines…" value={q} onChange={(e) => setQ(e.target.value)} />
          </FormField>
          <ul
            className="mt-2 max-h-80 divide-y divide-gray-100 overflow-y-auto rounded-md border border-gray-200"
            data-testid="story-picker"
          >
            {(stories.data ?? []).map((story) => (
              <li key={story.id} className="flex items-center justify-between gap-2 px-3 py-2">
                <span className="min-w-0 truncate text-sm text-gray-800">{story.headline}</span>
                <Button
                  aria-label={`Add ${story.headline}`}
                  disabled={keys.has(`s:${story.id}`)}
                  onClick={() =>
                    add({
                      key: `s:${story.id}`,
                      type: "story",
                      storyId: story.id,
                      label: story.headline,
                      detail: `${story.status} · ${story.slug}`,
                      layout: "",
                    })
                  }
                >
                  {keys.has(`s:${story.id}`) ? "Added" : "Add"}
                </Button>
              </li>
            ))}
            {stories.data?.length === 0 ? (
              <li className="px-3 py-4 text-center text-sm text-gray-500">No published stories match.</li>
            ) : null}
          </ul>
        </div>
        <FormField label="Add a collection" hint="Nested collections; a collection cannot contain itself.">
          <div className="flex gap-2">
            <Select
              value={childId}
              onChange={(e) => setChildId(e.target.value)}
              placeholder="Choose…"
              options={childChoices.map((c) => ({ value: c.id, label: `${c.name} (${c.slug})` }))}
            />
            <Button
              disabled={!childId}
              onClick={() => {
                const child = childChoices.find((c) => c.id === Number(childId));
                if (!child) return;
                add({
                  key: `c:${child.id}`,
                  type: "collection",
                  collectionId: child.id,
                  label: child.name,
                  detail: `collection · ${child.slug}`,
                  layout: "",
                });
                setChildId("");
              }}
            >
              Add
            </Button>
          </div>
        </FormField>
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

/** Checkboxes for several ids out of a list. */
function IdChoices({
  legend,
  choices,
  chosen,
  onChange,
}: {
  legend: string;
  choices: readonly { id: number; label: string }[];
  chosen: number[];
  onChange: (chosen: number[]) => void;
}) {
  return (
    <Fieldset legend={legend}>
      <div className="grid max-h-48 gap-1 overflow-y-auto sm:grid-cols-2">
        {choices.map((choice) => (
          <Checkbox
            key={choice.id}
            label={choice.label}
            checked={chosen.includes(choice.id)}
            onChange={(e) =>
              onChange(e.target.checked ? [...chosen, choice.id] : chosen.filter((id) => id !== choice.id))
            }
          />
        ))}
      </div>
    </Fieldset>
  );
}

function RulesEditor({ collection, onSaved }: { collection: Detail; onSaved: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const sections = useQuery(trpc.organise.sections.list.queryOptions());
  const authors = useQuery(trpc.organise.authors.list.queryOptions({ limit: 200 }));
  const rules = collection.rules;
  const [sectionIds, setSectionIds] = useState<number[]>(rules["section-ids"] ?? []);
  const [authorIds, setAuthorIds] = useState<number[]>(rules["author-ids"] ?? []);
  const [tagSlugs, setTagSlugs] = useState((rules["tag-slugs"] ?? []).join(", "));
  const [templates, setTemplates] = useState((rules["story-templates"] ?? []).join(", "));
  const [sort, setSort] = useState<(typeof COLLECTION_SORTS)[number]>(rules.sort ?? "published-at");
  const update = useMutation(trpc.organise.collections.update.mutationOptions({ onSuccess: onSaved }));

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
      <p className="text-sm text-gray-600">
        Published stories that match every rule you fill in (any of the values within a rule), newest first.
      </p>
      <IdChoices
        legend="Sections"
        chosen={sectionIds}
        onChange={setSectionIds}
        choices={(sections.data ?? []).map((s) => ({ id: s.id, label: `${"— ".repeat(s.depth)}${s.displayName}` }))}
      />
      <IdChoices
        legend="Authors"
        chosen={authorIds}
        onChange={setAuthorIds}
        choices={(authors.data?.authors ?? []).map((a) => ({ id: a.id, label: a.name }))}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField label="Tag slugs" hint="Comma-separated, e.g. cricket, ipl">
          <Input value={tagSlugs} onChange={(e) => setTagSlugs(e.target.value)} className="font-mono" />
        </FormField>
        <FormField label="Story templates" hint="Comma-separated, e.g. video, live-blog">
          <Input value={templates} onChange={(e) => setTemplates(e.target.value)} />
        </FormField>
        <FormField label="Sort by">
          <Select
            value={sort}
            onChange={(e) => setSort(e.target.value as (typeof COLLECTION_SORTS)[number])}
            options={[
              { value: "published-at", label: "First published" },
              { value: "last-published-at", label: "Last published" },
            ]}
          />
        </FormField>
      </div>
      <ErrorAlert error={update.error} />
      <Button type="submit" variant="primary" loading={update.isPending} loadingText="Saving…">
        Save rules
      </Button>
    </form>
  );
}
