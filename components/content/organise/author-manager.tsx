"use client";
/** Authors: search, add, edit (bio, avatar by URL or upload, Twitter handle), delete. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { slugify } from "@/server/publishing/editorial/organise.schema";

import { ImageUpload } from "./image-upload";
import { buttonClass, dangerButtonClass, ErrorMessage, Field, fieldErrors, inputClass, LoadState, Panel, primaryButtonClass, StatusBadge } from "./ui";

type AuthorValues = { name: string; slug: string; email: string; bio: string; avatarUrl: string; avatarS3Key: string; twitterHandle: string };
const EMPTY: AuthorValues = { name: "", slug: "", email: "", bio: "", avatarUrl: "", avatarS3Key: "", twitterHandle: "" };

export function AuthorManager() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [q, setQ] = useState("");
  const list = useQuery({ ...trpc.organise.authors.list.queryOptions({ q: q || undefined, limit: 200 }), placeholderData: keepPreviousData });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.organise.authors.list.queryKey() });
  const create = useMutation(trpc.organise.authors.create.mutationOptions({ onSuccess: async () => (setAdding(false), await refresh()) }));
  const update = useMutation(trpc.organise.authors.update.mutationOptions({ onSuccess: async () => (setEditing(null), await refresh()) }));
  const remove = useMutation(trpc.organise.authors.delete.mutationOptions({ onSuccess: refresh }));
  const authors = list.data?.authors ?? [];

  return (
    <Panel
      title="Authors"
      titleId="authors-title"
      actions={
        <>
          <input type="search" aria-label="Search authors" placeholder="Search…" value={q} onChange={(e) => setQ(e.target.value)} className={`${inputClass} w-48`} />
          {!adding ? (
            <button type="button" className={buttonClass} onClick={() => setAdding(true)}>
              Add author
            </button>
          ) : null}
        </>
      }
    >
      {adding ? (
        <div className="border-b border-gray-200 bg-gray-50 px-4 py-4">
          <h3 className="mb-3 text-sm font-semibold text-gray-900">New author</h3>
          <AuthorForm
            submitLabel="Create author"
            pending={create.isPending}
            error={create.error}
            onSubmit={(v) => create.mutate({ ...v, slug: v.slug || undefined })}
            onCancel={() => (create.reset(), setAdding(false))}
          />
        </div>
      ) : null}
      {remove.error ? (
        <div className="px-4 pt-3">
          <ErrorMessage error={remove.error} />
        </div>
      ) : null}
      <LoadState pending={list.isPending} error={list.error} empty={authors.length === 0} what="authors" />
      {authors.length ? (
        <ul className="divide-y divide-gray-100">
          {authors.map((author) => (
            <li key={author.id} className="px-4 py-3" data-testid="author-row">
              {editing === author.id ? (
                <AuthorForm
                  initial={{
                    name: author.name,
                    slug: author.slug,
                    email: author.email ?? "",
                    bio: author.bio ?? "",
                    avatarUrl: author.avatarUrl ?? "",
                    avatarS3Key: author.avatarS3Key ?? "",
                    twitterHandle: author.twitterHandle ?? "",
                  }}
                  submitLabel="Save author"
                  pending={update.isPending}
                  error={update.error}
                  onSubmit={(v) => update.mutate({ id: author.id, ...v, slug: v.slug || undefined })}
                  onCancel={() => (update.reset(), setEditing(null))}
                />
              ) : (
                <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
                  <div className="flex min-w-0 items-center gap-3">
                    {author.avatarS3Key || author.avatarUrl ? (
                      // eslint-disable-next-line @next/next/no-img-element -- uploaded files and external avatars, not build-time assets
                      <img src={author.avatarS3Key ? `/images/${author.avatarS3Key}` : author.avatarUrl!} alt="" className="h-9 w-9 rounded-full object-cover" />
                    ) : (
                      <span className="flex h-9 w-9 items-center justify-center rounded-full bg-gray-100 text-sm font-semibold text-gray-600">{author.name.slice(0, 1)}</span>
                    )}
                    <div className="min-w-0">
                      <p className="text-sm font-medium text-gray-900">{author.name}</p>
                      <p className="mt-0.5 truncate text-xs text-gray-500">
                        <span className="font-mono">{author.slug}</span>
                        {author.twitterHandle ? ` · @${author.twitterHandle}` : ""}
                        {author.bio ? ` · ${author.bio}` : ""}
                      </p>
                    </div>
                  </div>
                  <div className="flex shrink-0 items-center gap-2">
                    <StatusBadge tone="gray">
                      {author.storyCount} stor{author.storyCount === 1 ? "y" : "ies"}
                    </StatusBadge>
                    <button type="button" className={buttonClass} onClick={() => (update.reset(), setEditing(author.id))}>
                      Edit
                    </button>
                    <button
                      type="button"
                      className={dangerButtonClass}
                      disabled={remove.isPending}
                      onClick={() => {
                        if (window.confirm(`Delete the author "${author.name}"?`)) remove.mutate({ id: author.id });
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
      {list.data && list.data.total > authors.length ? <p className="px-4 py-2 text-xs text-gray-500">Showing {authors.length} of {list.data.total}: search to narrow.</p> : null}
    </Panel>
  );
}

function AuthorForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initial?: AuthorValues;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (values: AuthorValues) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [values, setValues] = useState<AuthorValues>(initial ?? EMPTY);
  const errors = fieldErrors(error);
  const set = (patch: Partial<AuthorValues>) => setValues({ ...values, ...patch });
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
          <input id={`${id}-name`} required maxLength={200} value={values.name} onChange={(e) => set({ name: e.target.value })} className={inputClass} />
        </Field>
        <Field id={`${id}-slug`} label="Slug" hint={`Unique. Empty: ${slugify(values.name) || "made from the name"}.`} error={errors.slug}>
          <input id={`${id}-slug`} maxLength={100} value={values.slug} onChange={(e) => set({ slug: e.target.value })} className={`${inputClass} font-mono`} />
        </Field>
        <Field id={`${id}-email`} label="E-mail" hint="Not shown to readers." error={errors.email}>
          <input id={`${id}-email`} type="email" value={values.email} onChange={(e) => set({ email: e.target.value })} className={inputClass} />
        </Field>
        <Field id={`${id}-twitter`} label="Twitter handle" error={errors.twitterHandle}>
          <input id={`${id}-twitter`} placeholder="@handle" value={values.twitterHandle} onChange={(e) => set({ twitterHandle: e.target.value })} className={inputClass} />
        </Field>
        <Field id={`${id}-avatar-url`} label="Avatar URL" hint="Or upload one below." error={errors.avatarUrl}>
          <input id={`${id}-avatar-url`} type="url" value={values.avatarUrl} onChange={(e) => set({ avatarUrl: e.target.value })} className={inputClass} />
        </Field>
        <Field id={`${id}-avatar-key`} label="Avatar image" error={errors.avatarS3Key}>
          <ImageUpload id={`${id}-avatar-key`} value={values.avatarS3Key} onChange={(key) => set({ avatarS3Key: key })} />
        </Field>
      </div>
      <Field id={`${id}-bio`} label="Bio" error={errors.bio}>
        <textarea id={`${id}-bio`} rows={3} maxLength={5000} value={values.bio} onChange={(e) => set({ bio: e.target.value })} className={inputClass} />
      </Field>
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
