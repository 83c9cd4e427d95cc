"use client";
/** Pieces shared by the organising screens (sections, authors, tags, entities, collections). */
import { TRPCClientError } from "@trpc/client";
import Link from "next/link";
import type { ReactNode } from "react";

export { buttonClass, dangerButtonClass, ErrorMessage, inputClass, primaryButtonClass, StatusBadge } from "@/components/webhooks/ui";

const CONTENT_SECTIONS = [
  { slug: "stories", label: "Stories" },
  { slug: "collections", label: "Collections" },
  { slug: "sections", label: "Sections" },
  { slug: "authors", label: "Authors" },
  { slug: "tags", label: "Tags" },
  { slug: "entities", label: "Entities" },
] as const;

/** Tabs between the content screens. */
export function ContentTabs({ current }: { current: (typeof CONTENT_SECTIONS)[number]["slug"] }) {
  return (
    <nav aria-label="Content" className="-mt-4 mb-6 flex flex-wrap gap-1 border-b border-gray-200">
      {CONTENT_SECTIONS.map((section) => (
        <Link
          key={section.slug}
          href={`/admin/content/${section.slug}`}
          aria-current={section.slug === current ? "page" : undefined}
          className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${
            section.slug === current ? "border-brand-600 text-brand-700" : "border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900"
          }`}
        >
          {section.label}
        </Link>
      ))}
    </nav>
  );
}

/**
 * Problems per field from a failed mutation: zod's (the input did not parse) and the server's
 * `{ field, issue }` details (a slug in use, an unknown parent), keyed by the input's field name.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof TRPCClientError)) return {};
  const data = error.data as
    | { zodError?: { fieldErrors?: Record<string, string[] | undefined> } | null; appError?: { details?: { field: string; issue: string }[] } | null }
    | undefined;
  const out: Record<string, string> = {};
  for (const [field, issues] of Object.entries(data?.zodError?.fieldErrors ?? {})) if (issues?.[0]) out[field] = issues[0];
  for (const detail of data?.appError?.details ?? []) {
    const field = detail.field.split(".")[0]!;
    out[field] ??= detail.issue;
  }
  return out;
}

/** A labelled input with its inline error. */
export function Field({ id, label, hint, error, children }: { id: string; label: ReactNode; hint?: ReactNode; error?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-900">
        {label}
      </label>
      <div className="mt-1">{children}</div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-700" data-testid="field-error">
          {error}
        </p>
      ) : hint ? (
        <p className="mt-1 text-xs text-gray-500">{hint}</p>
      ) : null}
    </div>
  );
}

/** A bordered panel with a title row, like the webhook screens. */
export function Panel({ title, actions, children, titleId }: { title: string; titleId: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="rounded-lg border border-gray-200 bg-white shadow-sm" aria-labelledby={titleId}>
      <div className="flex items-center justify-between gap-2 border-b border-gray-200 px-4 py-3">
        <h2 id={titleId} className="text-sm font-semibold text-gray-900">
          {title}
        </h2>
        {actions ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

export function LoadState({ pending, error, empty, what }: { pending: boolean; error: { message: string } | null; empty: boolean; what: string }) {
  if (pending) {
    return (
      <p className="px-4 py-10 text-center text-sm text-gray-500" role="status">
        Loading {what}…
      </p>
    );
  }
  if (error) {
    return (
      <p className="px-4 py-10 text-center text-sm text-red-700" role="alert">
        The {what} could not be loaded: {error.message}
      </p>
    );
  }
  if (empty) return <p className="px-4 py-10 text-center text-sm text-gray-500">No {what} yet.</p>;
  return null;
}
