"use client";

/**
 * The draft a settings form edits: a copy of the saved settings, changed a few fields at a time.
 * Every change also runs `onEdit` (the forms clear their "Saved" note with it). `check` runs the
 * server's zod schema over what a save would send and keeps its first problem per field; `error`
 * gives a field's problem: that one, else the server's (`serverError`, the save's error).
 */
import { useState } from "react";
import type { ZodType } from "zod";

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
      const issues: Record<string, string> = {};
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
