"use client";

/**
 * One message's override, edited beside its English and the catalogue's words, with a preview as a
 * reader would read it (i18n/preview.ts). The draft is checked by the rule the server saves by
 * (i18n/icu.ts messageProblem) as it is typed; the server checks it again (languages.saveOverride).
 */
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Button, ErrorAlert, FormActions, FormField, serverErrors, Textarea, useConfirm } from "@/components/ui";
import { cleanOverride, messageProblem } from "@/i18n/icu";
import type { Locale } from "@/i18n/locales";
import { previewMessage, type PreviewLine } from "@/i18n/preview";
import type { TMessageRow } from "@/server/i18n/language-settings.schema";

type Target = { surface: string; locale: Locale; direction: "ltr" | "rtl" };

/**
 * The direction a message's source is shown in: a plural or select is ICU syntax nested in braces,
 * which reads left to right (right to left, the bidi algorithm scatters its braces); plain words
 * and simple arguments read in the locale's direction.
 */
export function sourceDirection(row: TMessageRow, direction: "ltr" | "rtl"): "ltr" | "rtl" {
  return row.arguments.some((a) => a.kind === "plural" || a.kind === "select") ? "ltr" : direction;
}

function previewOf(locale: Locale, message: string, row: TMessageRow): PreviewLine[] | null {
  try {
    return previewMessage(locale, message, row.arguments);
  } catch {
    return null;
  }
}

export function OverrideEditor({
  target,
  row,
  onDone,
}: {
  target: Target;
  row: TMessageRow;
  /** After a save, a removal or Cancel; `changed` when the account's words changed. */
  onDone: (changed: boolean) => void;
}) {
  const trpc = useTRPC();
  const confirm = useConfirm();
  const [draft, setDraft] = useState(row.override ?? row.catalogue);
  const { surface, locale, direction } = target;
  const key = { surface: surface as never, locale, key: row.key };
  const save = useMutation(trpc.languages.saveOverride.mutationOptions({ onSuccess: () => onDone(true) }));
  const remove = useMutation(trpc.languages.removeOverride.mutationOptions({ onSuccess: () => onDone(true) }));
  const errors = serverErrors(save.error ?? remove.error, ["message"]);

  const cleaned = cleanOverride(draft);
  const allowed = new Map(row.arguments.map((a) => [a.name, a.kind]));
  const problem = messageProblem(cleaned, allowed);
  const preview = problem === null ? previewOf(locale, cleaned, row) : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (problem === null) save.mutate({ ...key, message: draft });
  }

  return (
    <form onSubmit={submit} className="space-y-3 rounded-md bg-gray-50 p-3" aria-label={`Override of ${row.key}`}>
      <dl className="grid gap-2 text-sm sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-xs font-medium text-gray-600">English</dt>
          <dd lang="en" dir="ltr" className="break-words text-gray-900">
            {row.english}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium text-gray-600">The catalogue&apos;s words ({locale})</dt>
          <dd lang={locale} dir={sourceDirection(row, direction)} className="break-words text-gray-900">
            {row.catalogue}
          </dd>
        </div>
      </dl>
      <FormField
        label={`Your words (${locale})`}
        error={problem ?? errors.fields.message}
        hint={
          row.arguments.length > 0
            ? `Keep the arguments the message is given: ${row.arguments.map((a) => `{${a.name}}`).join(", ")}.`
            : "Plain text: no markup, no arguments."
        }
      >
        <Textarea
          lang={locale}
          dir={sourceDirection(row, direction)}
          rows={3}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
      </FormField>
      <section aria-label="Preview" className="rounded border border-gray-200 bg-white p-2">
        <h3 className="text-xs font-medium text-gray-600">Preview, as a reader reads it</h3>
        {preview ? (
          <ul className="mt-1 space-y-1 text-sm">
            {preview.map((line) => (
              <li key={line.label} className="flex flex-wrap gap-x-2">
                {preview.length > 1 ? <span className="text-xs text-gray-600">{line.label}</span> : null}
                <span lang={locale} dir={direction} className="min-w-0 break-words text-gray-900">
                  {line.text}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-1 text-sm text-gray-600">No preview until the words can be saved.</p>
        )}
      </section>
      <ErrorAlert errors={errors} />
      <FormActions>
        <Button type="submit" variant="primary" disabled={problem !== null || save.isPending}>
          {save.isPending ? "Saving…" : "Save override"}
        </Button>
        {row.override !== null ? (
          <Button
            variant="danger"
            disabled={remove.isPending}
            onClick={async () => {
              const ok = await confirm({
                title: `Remove your words for ${row.key} (${locale})?`,
                body: "Readers get the catalogue's words again.",
                confirmLabel: "Remove",
              });
              if (ok) remove.mutate(key);
            }}
          >
            Remove override
          </Button>
        ) : null}
        <Button onClick={() => onDone(false)}>Cancel</Button>
      </FormActions>
    </form>
  );
}
