"use client";
/** Tags: search, add, rename (name, slug, meta description), delete (untags its stories). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { slugify } from "@/server/publishing/editorial/organise.schema";

import { buttonClass, dangerButtonClass, ErrorMessage, Field, fieldErrors, inputClass, LoadState, Panel, primaryButtonClass, StatusBadge } from "./ui";

type TagValues = { name: string; slug: string; metaDescription: string };

export function TagManager() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [q, setQ] = useState("");
  const list = useQuery({ ...trpc.organise.tags.list.queryOptions({ q: q || undefined, limit: 200 }), placeholderData: keepPreviousData });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.organise.tags.list.queryKey() });
  const create = useMutation(trpc.organise.tags.create.mutationOptions({ onSuccess: async () => (setAdding(false), await refresh()) }));
  const update = useMutation(trpc.organise.tags.update.mutationOptions({ onSuccess: async () => (setEditing(null), await refresh()) }));
  const remove = useMutation(trpc.organise.tags.delete.mutationOptions({ onSuccess: refresh }));
  const tags = list.data?.tags ?? [];

  return (
    <Panel
      title="Tags"
      titleId="tags-title"
      actions={
        <>
          <input type="search" aria-label="Search tags" placeholder="Search…" value={q} onChange={(e) => setQ(e.target.value)} className={`${inputClass} w-48`} />
          {!adding ? (
            <button type="button" className={buttonClass} onClick={() => setAdding(true)}>
              Add tag
            </button>
          ) : null}
        </>
      }
    >
      {adding ? (
        <div className="border-b border-gray-200 bg-gray-50 px-4 py-4">
          <h3 className="mb-3 text-sm font-semibold text-gray-900">New tag</h3>
          <TagForm
            submitLabel="Create tag"
            pending={create.isPending}
            error={create.error}
            onSubmit={(v) => create.mutate({ name: v.name, slug: v.slug || undefined, metaDescription: v.metaDescription })}
            onCancel={() => (create.reset(), setAdding(false))}
          />
        </div>
      ) : null}
      {remove.error ? (
        <div className="px-4 pt-3">
          <ErrorMessage error={remove.error} />
        </div>
      ) : null}
      <LoadState pending={list.isPending} error={list.error} empty={tags.length === 0} what="tags" />
      {tags.length ? (
        <ul className="divide-y divide-gray-100">
          {tags.map((tag) => (
            <li key={tag.id} className="px-4 py-3" data-testid="tag-row">
              {editing === tag.id ? (
                <TagForm
                  initial={{ name: tag.name, slug: tag.slug, metaDescription: tag.metaDescription ?? "" }}
                  submitLabel="Save tag"
                  pending={update.isPending}
                  error={update.error}
                  onSubmit={(v) => update.mutate({ id: tag.id, name: v.name, slug: v.slug || undefined, metaDescription: v.metaDescription })}
                  onCancel={() => (update.reset(), setEditing(null))}
                />
              ) : (
                <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <p className="text-sm font-medium text-gray-900">{tag.name}</p>
                    <p className="mt-0.5 truncate text-xs text-gray-500">
                      <span className="font-mono">{tag.slug}</span>
                      {tag.metaDescription ? ` · ${tag.metaDescription}` : ""}
                    </p>
                  </div>
                  <div className="flex shrink-0 items-center gap-2">
                    <StatusBadge tone="gray">
                      {tag.storyCount} stor{tag.storyCount === 1 ? "y" : "ies"}
                    </StatusBadge>
                    <button type="button" className={buttonClass} onClick={() => (update.reset(), setEditing(tag.id))}>
                      Rename
                    </button>
                    <button
                      type="button"
                      className={dangerButtonClass}
                      disabled={remove.isPending}
                      onClick={() => {
                        const note = tag.storyCount ? ` It is taken off ${tag.storyCount} stor${tag.storyCount === 1 ? "y" : "ies"}.` : "";
                        if (window.confirm(`Delete the tag "${tag.name}"?${note}`)) remove.mutate({ id: tag.id });
                      }}
                    >
                      Delete
                    </button>
                  </div>
                </div>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </Panel>
  );
}

function TagForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initial?: TagValues;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (values: TagValues) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [values, setValues] = useState<TagValues>(initial ?? { name: "", slug: "", metaDescription: "" });
  const errors = fieldErrors(error);
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(values);
      }}
    >
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id={`${id}-name`} label="Tag name" error={errors.name}>
          <input id={`${id}-name`} required maxLength={200} value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} className={inputClass} />
        </Field>
        <Field id={`${id}-slug`} label="Slug" hint={`Unique. Empty: ${slugify(values.name) || "made from the name"}.`} error={errors.slug}>
          <input id={`${id}-slug`} maxLength={100} value={values.slug} onChange={(e) => setValues({ ...values, slug: e.target.value })} className={`${inputClass} font-mono`} />
        </Field>
        <Field id={`${id}-meta`} label="Meta description" error={errors.metaDescription}>
          <input id={`${id}-meta`} maxLength={500} value={values.metaDescription} onChange={(e) => setValues({ ...values, metaDescription: e.target.value })} className={inputClass} />
        </Field>
      </div>
      <ErrorMessage error={error} />
      <div className="flex gap-2">
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {pending ? "Saving…" : submitLabel}
        </button>
        <button type="button" className={buttonClass} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
