"use client";
/** The account's collections, and the form to add one (then opens its editor). */
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { slugify } from "@/server/publishing/editorial/organise.schema";

import { buttonClass, ErrorMessage, Field, fieldErrors, inputClass, LoadState, Panel, primaryButtonClass, StatusBadge } from "./ui";

export function CollectionList() {
  const trpc = useTRPC();
  const router = useRouter();
  const [q, setQ] = useState("");
  const list = useQuery({ ...trpc.organise.collections.list.queryOptions({ q: q || undefined, limit: 200 }), placeholderData: keepPreviousData });
  const [adding, setAdding] = useState(false);
  const create = useMutation(trpc.organise.collections.create.mutationOptions({ onSuccess: (result) => router.push(`/admin/content/collections/${result.collection.id}`) }));
  const collections = list.data?.collections ?? [];

  return (
    <Panel
      title="Collections"
      titleId="collections-title"
      actions={
        <>
          <input type="search" aria-label="Search collections" placeholder="Search…" value={q} onChange={(e) => setQ(e.target.value)} className={`${inputClass} w-48`} />
          {!adding ? (
            <button type="button" className={buttonClass} onClick={() => setAdding(true)}>
              Add collection
            </button>
          ) : null}
        </>
      }
    >
      {adding ? (
        <div className="border-b border-gray-200 bg-gray-50 px-4 py-4">
          <h3 className="mb-3 text-sm font-semibold text-gray-900">New collection</h3>
          <NewCollectionForm pending={create.isPending} error={create.error} onSubmit={(v) => create.mutate(v)} onCancel={() => (create.reset(), setAdding(false))} />
        </div>
      ) : null}
      <LoadState pending={list.isPending} error={list.error} empty={collections.length === 0} what="collections" />
      {collections.length ? (
        <ul className="divide-y divide-gray-100">
          {collections.map((c) => (
            <li key={c.id} className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <Link href={`/admin/content/collections/${c.id}`} className="block truncate text-sm font-medium text-brand-700 hover:underline">
                  {c.name}
                </Link>
                <p className="mt-0.5 truncate text-xs text-gray-500">
                  <span className="font-mono">{c.slug}</span> · template {c.template}
                  {c.summary ? ` · ${c.summary}` : ""}
                </p>
              </div>
              <div className="flex shrink-0 flex-wrap items-center gap-2 text-xs">
                {c.section ? <StatusBadge tone="amber">Section: {c.section.name}</StatusBadge> : null}
                {c.automated ? <StatusBadge tone="blue">Automated</StatusBadge> : <StatusBadge tone="green">Manual · {c.itemCount} items</StatusBadge>}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </Panel>
  );
}

type NewCollection = { name: string; slug?: string; summary: string; automated: boolean };

function NewCollectionForm({ pending, error, onSubmit, onCancel }: { pending: boolean; error: unknown; onSubmit: (v: NewCollection) => void; onCancel: () => void }) {
  const id = useId();
  const [values, setValues] = useState({ name: "", slug: "", summary: "", automated: false });
  const errors = fieldErrors(error);
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit({ ...values, slug: values.slug || undefined });
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${id}-name`} label="Collection name" error={errors.name}>
          <input id={`${id}-name`} required maxLength={200} value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} className={inputClass} />
        </Field>
        <Field id={`${id}-slug`} label="Slug" hint={`Unique; front ends ask for it. Empty: ${slugify(values.name) || "made from the name"}.`} error={errors.slug}>
          <input id={`${id}-slug`} maxLength={100} value={values.slug} onChange={(e) => setValues({ ...values, slug: e.target.value })} className={`${inputClass} font-mono`} />
        </Field>
      </div>
      <Field id={`${id}-summary`} label="Summary" error={errors.summary}>
        <input id={`${id}-summary`} maxLength={2000} value={values.summary} onChange={(e) => setValues({ ...values, summary: e.target.value })} className={inputClass} />
      </Field>
      <fieldset>
        <legend className="text-sm font-medium text-gray-900">Kind</legend>
        <div className="mt-2 flex gap-4">
          {[
            { automated: false, label: "Manual: editors choose and order items" },
            { automated: true, label: "Automated: rules choose stories" },
          ].map((kind) => (
            <label key={String(kind.automated)} className="flex items-center gap-2 text-sm text-gray-700">
              <input type="radio" name={`${id}-kind`} checked={values.automated === kind.automated} onChange={() => setValues({ ...values, automated: kind.automated })} />
              {kind.label}
            </label>
          ))}
        </div>
      </fieldset>
      <ErrorMessage error={error} />
      <div className="flex gap-2">
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {pending ? "Creating…" : "Create collection"}
        </button>
        <button type="button" className={buttonClass} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
