"use client";

/**
 * The draft a settings form edits: a copy of the saved settings, changed a few fields at a time.
 * Every change also runs `onEdit` (the forms clear their "Saved" note with it). `check` runs the
 * server's zod schema over what a save would send and keeps its first problem per field; `error`
 * gives a field's problem: that one, else the server's (`serverError`, the save's error).
 */
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useState } from "react";
import type { ZodType } from "zod";

import { nullPrototypeRecord, ownValue } from "@/server/own-keys";

import { serverErrors } from "./server-errors";

export function useSettingsDraft<Draft extends object, F extends string>({
  initial,
  fields,
  serverError,
  onEdit,
}: {
  initial: Draft;
  /** The form's fields, as the server's problems name them. */
  fields: readonly F[];
  serverError: unknown;
  onEdit: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [localIssues, setLocalIssues] = useState<Record<string, string>>({});
  const errors = serverErrors(serverError, fields);

  const set = (patch: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    onEdit();
  };

  const error = (field: F) => localIssues[field] ?? errors.fields[field];

  /**
   * `input` as `schema` parses it, or null when it does not: then each field's first problem is
   * kept for `error`, with `where(path)` after the message (which item of a list, say).
   */
  function check<T>(schema: ZodType<T>, input: unknown, where: (path: readonly PropertyKey[]) => string = () => "") {
    const checked = schema.safeParse(input);
    if (!checked.success) {
      const issues = nullPrototypeRecord<string>();
      for (const issue of checked.error.issues)
        issues[String(issue.path[0])] ??= `${issue.message}${where(issue.path)}`;
      setLocalIssues(issues);
      return null;
    }
    setLocalIssues({});
    return checked.data;
  }

  return { draft, set, errors, error, check };
}

/** What a panel of a settings form is given: the draft, its `set`, and a field's problem (`error`). */
export type DraftPanelProps<Draft extends object, F extends string> = {
  draft: Draft;
  set: (patch: Partial<Draft>) => void;
  error: (field: F) => string | undefined;
};

/**
 * A save's `onSuccess`: `first` runs, then the queries under `queryKey` are read again.
 */
export function useThenRefetch<Result>(first: (result: Result) => void, queryKey: QueryKey) {
  const queryClient = useQueryClient();
  return async (result: Result) => {
    first(result);
    await queryClient.invalidateQueries({ queryKey });
  };
}

/**
 * A settings save's `onSuccess`: the note says what changed, then the queries under `queryKey`
 * are read again (`before` runs first: a form that answers its new view puts it in place).
 */
export function useOnSaved<Result extends { changed: string[] }>(
  setSaved: (changed: string[]) => void,
  queryKey: QueryKey,
  before?: (result: Result) => void,
) {
  return useThenRefetch((result: Result) => {
    setSaved(result.changed);
    before?.(result);
  }, queryKey);
}

/**
 * What a save changed, in words for the person who saved it: "Saved: toxicity threshold, banned
 * and suspect words." (the server answers field names; `labels` says each one as the form does).
 */
export function savedNote(changed: readonly string[], labels: Readonly<Record<string, string>>): string {
  if (changed.length === 0) return "Nothing changed.";
  return `Saved: ${changed.map((field) => ownValue(labels, field) ?? field).join(", ")}.`;
}

/** Whole-number settings as a form types them: text, so a field can be emptied while typing. */
export function numbersAsText<F extends string>(
  view: Readonly<Record<F, number>>,
  fields: readonly F[],
): Record<F, string> {
  return Object.fromEntries(fields.map((field) => [field, String(view[field])])) as Record<F, string>;
}

/** The typed text of whole-number settings as numbers again, for the schema to check. */
export function numbersFromText<F extends string>(
  draft: Readonly<Record<F, string>>,
  fields: readonly F[],
): Record<F, number> {
  return Object.fromEntries(fields.map((field) => [field, Number(draft[field])])) as Record<F, number>;
}
