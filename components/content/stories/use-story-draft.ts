"use client";

/**
 * The story editor's draft state: the form's values against the version they are based on, saving
 * (Save and autosave), the conflict when another editor saved first, the workflow moves, the
 * preview link, restoring a revision and deleting the draft. ./story-editor.tsx renders it.
 *
 * - Saves send the version the editor loaded. A draft saves itself AUTOSAVE_DELAY_MS after the
 *   typing stops (stories in any other state save only with Save: autosave never changes what
 *   readers see). What is typed while a save is under way is kept (./story-form.ts rebase).
 * - When a save meets a newer version (CONFLICT), the newer one is fetched and held in `conflict`
 *   until the editor chooses (resolveConflict); autosave waits meanwhile.
 * - Leaving with unsaved changes asks first (components/ui/leave-guard.ts).
 * - The requests and their errors are ./story-draft-requests.ts; the workflow moves, the preview,
 *   restoring a revision and deleting the draft ./story-draft-moves.ts.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useEffect, useRef, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { errorCode, errorDetails, useLeaveGuard, useTimeZone } from "@/components/ui";
import type { TStoryEditorView } from "@/server/publishing/editorial/stories.schema";

import { useDraftMoves } from "./story-draft-moves";
import { eventNotice, useDraftRequests } from "./story-draft-requests";
import { newCard } from "./story-elements";
import { formValuesOf, rebase, toInput, type FormValues } from "./story-form";

/** A draft saves itself this long after the last change. */
const AUTOSAVE_DELAY_MS = 3_000;

/** The fields a text control edits as it is. */
type TextField = { [K in keyof FormValues]: string extends FormValues[K] ? K : never }[keyof FormValues];

const emptyCards = () => [newCard("text")];
/** The form's values of `story`; its date-and-time fields on `zone`'s clocks (the account's). */
export const valuesOf = (story: TStoryEditorView | null, zone: string | undefined) =>
  formValuesOf(story, emptyCards, zone);

function isStale(error: unknown): boolean {
  return errorCode(error) === "CONFLICT" && errorDetails(error).some((d) => d.field === "version");
}

/** The request never reached the server (or its answer never came back): the network is down. */
function isNetworkError(error: unknown): boolean {
  if (typeof navigator !== "undefined" && !navigator.onLine) return true;
  return error instanceof TRPCClientError && !error.data;
}

export type SaveState = "saved" | "saving" | "unsaved" | "offline" | "conflict" | "new";

/** Whether the browser says it is online (true during server rendering). */
function useOnline(): boolean {
  const [online, setOnline] = useState(() => (typeof navigator === "undefined" ? true : navigator.onLine));
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener("online", on);
    window.addEventListener("offline", off);
    return () => {
      window.removeEventListener("online", on);
      window.removeEventListener("offline", off);
    };
  }, []);
  return online;
}

export type StoryDraft = ReturnType<typeof useStoryDraft>;

/** The draft of `story` (null: a story not created yet) and what the editor does with it. */
export function useStoryDraft(story: TStoryEditorView | null) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const zone = useTimeZone();
  const valuesIn = (s: TStoryEditorView | null) => valuesOf(s, zone);
  const inputOf = (v: FormValues) => toInput(v, zone);
  const options = useQuery(trpc.stories.options.queryOptions());
  const [baseline, setBaseline] = useState(() => valuesIn(story));
  const [values, setValues] = useState(baseline);
  const [current, setCurrent] = useState(story);
  const [notice, setNotice] = useState<string | null>(null);
  /** The newer version a save met, while this editor chooses what to keep. */
  const [conflict, setConflict] = useState<TStoryEditorView | null>(null);
  const [unreachable, setUnreachable] = useState(false);
  const online = useOnline();
  const dirty = JSON.stringify(values) !== JSON.stringify(baseline);
  // What the latest render holds, for saves that finish after the editor kept typing.
  const valuesRef = useRef(values);
  useEffect(() => {
    valuesRef.current = values;
  }, [values]);
  // A story this person may read but not change takes no edits (the form's controls are disabled too).
  const readOnly = Boolean(current && !current.canEdit);
  const edit: typeof setValues = (next) => {
    if (!readOnly) setValues(next);
  };
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => edit((v) => ({ ...v, [key]: value }));
  /** The value and onChange of a control bound to one of the form's text fields. */
  const text = (key: TextField) => ({
    value: values[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });

  const publish = async (next: TStoryEditorView) => {
    queryClient.setQueryData(trpc.stories.get.queryKey({ id: next.id }), next);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.stories.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.stories.revisions.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.stories.returnNote.queryKey() }),
    ]);
  };
  const settle = async (next: TStoryEditorView, message: string | null) => {
    const fresh = valuesIn(next);
    setCurrent(next);
    setBaseline(fresh);
    setValues(fresh);
    setNotice(message);
    await publish(next);
  };

  const { create, update, restore, preview, transition, remove, saving, pending, errors, cardIssues, resetErrors } =
    useDraftRequests(settle);

  /** Save `sent` on top of `base` (its version); the editor may go on typing meanwhile. */
  const saveOnto = async (base: TStoryEditorView, sent: FormValues, kind: "save" | "autosave") => {
    resetErrors();
    if (kind === "save") setNotice(null);
    try {
      const result = await update.mutateAsync({ id: base.id, version: base.version, saveKind: kind, ...inputOf(sent) });
      setUnreachable(false);
      const saved = valuesIn(result.story);
      setCurrent(result.story);
      setBaseline(saved);
      // Laid over the state as it is when React applies it, keystrokes still queued included
      // (the ref lags a render behind: a save answered between a keystroke and its render would
      // otherwise put the saved text back over it).
      setValues((now) => rebase(saved, sent, now));
      setNotice(kind === "save" ? `Saved.${eventNotice(result)}` : null);
      await publish(result.story);
    } catch (caught) {
      if (isStale(caught)) {
        // Fetch the newer version and show it next to this editor's text; keep every word typed.
        const theirs = await queryClient.fetchQuery({
          ...trpc.stories.get.queryOptions({ id: base.id }),
          staleTime: 0,
        });
        setConflict(theirs);
        update.reset();
      } else if (isNetworkError(caught)) {
        setUnreachable(true);
        update.reset();
      }
    }
  };
  const save = (kind: "save" | "autosave") => {
    if (current) void saveOnto(current, valuesRef.current, kind);
    else if (kind === "save") {
      resetErrors();
      setNotice(null);
      create.mutate(inputOf(valuesRef.current));
    }
  };

  // Autosave: drafts only, never while a conflict waits for a choice, and not while offline.
  useAutosave({
    autosaves: Boolean(current && current.status === "DRAFT" && current.canEdit && !conflict),
    dirty,
    online,
    values,
    save,
    pending,
    onBackOnline: () => setUnreachable(false),
  });

  // Leaving with unsaved changes asks first: reload and close, links, Back and Forward.
  const unsaved = dirty || saving;
  useLeaveGuard(unsaved, {
    title: "Leave without saving?",
    body: "This story has changes that are not saved yet. Leave and they are lost; Cancel to stay and save them.",
  });

  const resolveConflict = (merged: FormValues | null) => {
    const theirs = conflict;
    if (!theirs) return;
    setConflict(null);
    if (!merged) {
      void settle(theirs, `Loaded version ${theirs.version}.`);
      return;
    }
    // Theirs becomes the version this form is based on; the chosen text is saved on top of it.
    setCurrent(theirs);
    setBaseline(valuesIn(theirs));
    setValues(merged);
    valuesRef.current = merged;
    void saveOnto(theirs, merged, "save");
  };

  const { move, openPreview, restoreRevision, deleteDraft } = useDraftMoves({
    current,
    valuesRef,
    requests: { transition, preview, restore, remove, resetErrors },
    setNotice,
    settle,
  });

  const saveState = saveStateOf({ current, conflict, saving, dirty, offline: unreachable || !online });

  return {
    options: options.data,
    values,
    setValues: edit,
    set,
    text,
    baseline,
    current,
    notice,
    conflict,
    dirty,
    saving,
    pending,
    errors,
    cardIssues,
    saveState,
    save,
    settle,
    resolveConflict,
    move,
    preview,
    openPreview,
    restoreRevision,
    deleteDraft,
  };
}

/** A draft saves itself AUTOSAVE_DELAY_MS after the last change, unless a save is under way. */
function useAutosave(args: {
  autosaves: boolean;
  dirty: boolean;
  online: boolean;
  values: FormValues;
  save: (kind: "save" | "autosave") => void;
  pending: boolean;
  /** Back online: what could not be saved goes now (the autosave, for drafts). */
  onBackOnline: () => void;
}) {
  const { autosaves, dirty, online, values, save, pending, onBackOnline } = args;
  const saveRef = useRef(save);
  const busyRef = useRef(pending);
  const backRef = useRef(onBackOnline);
  useEffect(() => {
    saveRef.current = save;
    busyRef.current = pending;
    backRef.current = onBackOnline;
  });
  useEffect(() => {
    if (!autosaves || !dirty || !online) return;
    const timer = setTimeout(() => {
      if (!busyRef.current) saveRef.current("autosave");
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [values, autosaves, dirty, online]);
  useEffect(() => {
    const back = () => backRef.current();
    window.addEventListener("online", back);
    return () => window.removeEventListener("online", back);
  }, []);
}

/** The status line's state. */
function saveStateOf(draft: {
  current: TStoryEditorView | null;
  conflict: TStoryEditorView | null;
  saving: boolean;
  dirty: boolean;
  offline: boolean;
}): SaveState {
  const { current, conflict, saving, dirty, offline } = draft;
  return !current
    ? "new"
    : conflict
      ? "conflict"
      : saving
        ? "saving"
        : dirty && offline
          ? "offline"
          : dirty
            ? "unsaved"
            : "saved";
}
