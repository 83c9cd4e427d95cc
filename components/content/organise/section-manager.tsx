"use client";
/** Sections: the tree, and the form to add or edit one (name, display name, slug, parent). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { slugify } from "@/server/publishing/editorial/organise.schema";

import { buttonClass, dangerButtonClass, ErrorMessage, Field, fieldErrors, inputClass, LoadState, Panel, primaryButtonClass, StatusBadge } from "./ui";

type SectionValues = { name: string; displayName: string; slug: string; parentId: number | null };
type SectionRow = { id: number; name: string; displayName: string; slug: string; parentId: number | null; depth: number; storyCount: number; collection: { id: number; slug: string } | null };

export function SectionManager() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.organise.sections.list.queryOptions());
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.organise.sections.list.queryKey() });
  const create = useMutation(trpc.organise.sections.create.mutationOptions({ onSuccess: async () => (setAdding(false), await refresh()) }));
  const update = useMutation(trpc.organise.sections.update.mutationOptions({ onSuccess: async () => (setEditing(null), await refresh()) }));
  const remove = useMutation(trpc.organise.sections.delete.mutationOptions({ onSuccess: refresh }));
  const sections = list.data ?? [];

  return (
    <Panel
      title="Sections"
      titleId="sections-title"
      actions={
        !adding ? (
          <button type="button" className={buttonClass} onClick={() => setAdding(true)}>
            Add section
          </button>
        ) : null
      }
    >
      {adding ? (
        <div className="border-b border-gray-200 bg-gray-50 px-4 py-4">
          <h3 className="mb-3 text-sm font-semibold text-gray-900">New section</h3>
          <SectionForm
            sections={sections}
            submitLabel="Create section"
            pending={create.isPending}
            error={create.error}
            onSubmit={(v) => create.mutate({ name: v.name, displayName: v.displayName || undefined, slug: v.slug || undefined, parentId: v.parentId })}
            onCancel={() => (create.reset(), setAdding(false))}
          />
        </div>
      ) : null}
      {remove.error ? (
        <div className="px-4 pt-3">
          <ErrorMessage error={remove.error} />
        </div>
      ) : null}
      <LoadState pending={list.isPending} error={list.error} empty={sections.length === 0} what="sections" />
      {sections.length ? (
        <ul className="divide-y divide-gray-100">
          {sections.map((section: SectionRow) => (
            <li key={section.id} className="px-4 py-3" data-testid="section-row">
              {editing === section.id ? (
                <SectionForm
                  sections={sections.filter((s) => s.id !== section.id)}
                  initial={{ name: section.name, displayName: section.displayName, slug: section.slug, parentId: section.parentId }}
                  submitLabel="Save section"
                  pending={update.isPending}
                  error={update.error}
                  onSubmit={(v) => update.mutate({ id: section.id, name: v.name, displayName: v.displayName || v.name, slug: v.slug || undefined, parentId: v.parentId })}
                  onCancel={() => (update.reset(), setEditing(null))}
                />
              ) : (
                <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0" style={{ paddingLeft: `${section.depth * 1.5}rem` }}>
                    <p className="text-sm font-medium text-gray-900">
                      {section.depth ? <span className="mr-1 text-gray-400">↳</span> : null}
                      {section.displayName}
                      {section.displayName !== section.name ? <span className="ml-1 text-gray-500">({section.name})</span> : null}
                    </p>
                    <p className="mt-0.5 font-mono text-xs text-gray-500">
                      /{section.slug} · collection {section.collection?.slug ?? "none"}
                    </p>
                  </div>
                  <div className="flex shrink-0 items-center gap-2">
                    <StatusBadge tone="gray">
                      {section.storyCount} stor{section.storyCount === 1 ? "y" : "ies"}
                    </StatusBadge>
                    <button type="button" className={buttonClass} onClick={() => (update.reset(), setEditing(section.id))}>
                      Edit
                    </button>
                    <button
                      type="button"
                      className={dangerButtonClass}
                      disabled={remove.isPending}
                      onClick={() => {
                        if (window.confirm(`Delete the section "${section.displayName}"?`)) remove.mutate({ id: section.id });
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

function SectionForm({
  sections,
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  sections: SectionRow[];
  initial?: SectionValues;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (values: SectionValues) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [values, setValues] = useState<SectionValues>(initial ?? { name: "", displayName: "", slug: "", parentId: null });
  const errors = fieldErrors(error);
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(values);
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${id}-name`} label="Name" error={errors.name}>
          <input id={`${id}-name`} required maxLength={200} value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} className={inputClass} />
        </Field>
        <Field id={`${id}-display`} label="Display name" hint="Shown to readers; the name when empty." error={errors.displayName}>
          <input id={`${id}-display`} maxLength={200} value={values.displayName} onChange={(e) => setValues({ ...values, displayName: e.target.value })} className={inputClass} />
        </Field>
        <Field id={`${id}-slug`} label="Slug" hint={`Unique. Empty: ${slugify(values.name) || "made from the name"}.`} error={errors.slug}>
          <input id={`${id}-slug`} maxLength={100} value={values.slug} onChange={(e) => setValues({ ...values, slug: e.target.value })} className={`${inputClass} font-mono`} />
        </Field>
        <Field id={`${id}-parent`} label="Parent section" error={errors.parentId}>
          <select
            id={`${id}-parent`}
            value={values.parentId ?? ""}
            onChange={(e) => setValues({ ...values, parentId: e.target.value ? Number(e.target.value) : null })}
            className={inputClass}
          >
            <option value="">None (top level)</option>
            {sections.map((s) => (
              <option key={s.id} value={s.id}>
                {"— ".repeat(s.depth)}
                {s.displayName}
              </option>
            ))}
          </select>
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
