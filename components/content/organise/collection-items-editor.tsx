"use client";

/**
 * A manual collection's items in order: drag and drop, or the Up/Down buttons from the keyboard;
 * a story picker and a child-collection picker. Nothing is saved until "Save order".
 */
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import { Badge, Button, EmptyState, ErrorAlert, FormField, Input, Select } from "@/components/ui";

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
function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/** The items as edited, the moves on them (each said aloud) and the save of their order. */
function useItemsDraft(collection: Detail, onSaved: () => Promise<unknown>) {
  const trpc = useTRPC();
  const [items, setItems] = useState<DraftItem[]>(() => toDraft(collection.items));
  const [dirty, setDirty] = useState(false);
  const [announcement, setAnnouncement] = useState("");
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
  // An automated collection is switched to manual first, then its order is saved.
  const switching = collection.automated;
  const saveOrder = () =>
    switching ? save.mutate({ id: collection.id, automated: false }) : setOrder.mutate(payload());
  return {
    items,
    keys: new Set(items.map((i) => i.key)),
    dirty,
    switching,
    announcement,
    change,
    move,
    add,
    saveOrder,
    saving: save.isPending || setOrder.isPending,
    error: save.error ?? setOrder.error,
  };
}

type Items = ReturnType<typeof useItemsDraft>;

export function ItemsEditor({ collection, onSaved }: { collection: Detail; onSaved: () => Promise<unknown> }) {
  const draft = useItemsDraft(collection, onSaved);
  const [dragging, setDragging] = useState<number | null>(null);
  const { items, dirty, switching } = draft;

  return (
    <div className="grid gap-6 px-4 py-4 lg:grid-cols-5">
      <div className="min-w-0 space-y-3 lg:col-span-3">
        <div className="flex items-center justify-between">
          <h3 className="text-sm font-semibold text-gray-900">Items, in order</h3>
          {dirty || switching ? <Badge tone="amber">Unsaved changes</Badge> : null}
        </div>
        <p className="sr-only" aria-live="polite">
          {draft.announcement}
        </p>
        {items.length === 0 ? <EmptyState dashed>No items yet: add stories or collections.</EmptyState> : null}
        <ol className="space-y-2" data-testid="collection-items">
          {items.map((item, index) => (
            <ItemRow
              key={item.key}
              item={item}
              index={index}
              draft={draft}
              dragging={dragging}
              setDragging={setDragging}
            />
          ))}
        </ol>
        <ErrorAlert error={draft.error} />
        <Button
          variant="primary"
          loading={draft.saving}
          loadingText="Saving…"
          disabled={!dirty && !switching}
          onClick={draft.saveOrder}
        >
          Save order
        </Button>
      </div>

      <div className="min-w-0 space-y-5 lg:col-span-2">
        <StoryPicker keys={draft.keys} add={draft.add} />
        <CollectionPicker collectionId={collection.id} keys={draft.keys} add={draft.add} />
      </div>
    </div>
  );
}

/** One item: dragged and dropped, or moved with its Up/Down buttons; its layout; remove it. */
function ItemRow({
  item,
  index,
  draft,
  dragging,
  setDragging,
}: {
  item: DraftItem;
  index: number;
  draft: Items;
  dragging: number | null;
  setDragging: (index: number | null) => void;
}) {
  const { items, change, move } = draft;
  return (
    <li
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
        <Button aria-label={`Move ${item.label} up`} disabled={index === 0} onClick={() => move(index, index - 1)}>
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
  );
}

function StoryPicker({ keys, add }: { keys: Set<string>; add: (item: DraftItem) => void }) {
  const trpc = useTRPC();
  const [q, setQ] = useState("");
  const stories = useQuery({
    ...trpc.organise.collections.pickStories.queryOptions({ q: q || undefined, limit: 20 }),
    placeholderData: keepPreviousData,
  });
  return (
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
              aria-label={`${keys.has(`s:${story.id}`) ? "Added" : "Add"} ${story.headline}`}
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
  );
}

function CollectionPicker({
  collectionId,
  keys,
  add,
}: {
  collectionId: number;
  keys: Set<string>;
  add: (item: DraftItem) => void;
}) {
  const trpc = useTRPC();
  const collections = useQuery(trpc.organise.collections.list.queryOptions({ limit: 200 }));
  const [childId, setChildId] = useState("");
  const childChoices = (collections.data?.collections ?? []).filter(
    (c) => c.id !== collectionId && !keys.has(`c:${c.id}`),
  );
  return (
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
  );
}
