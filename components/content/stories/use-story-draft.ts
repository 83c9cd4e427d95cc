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
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { errorCode, errorDetails, serverErrors, useConfirm, useLeaveGuard, useTimeZone } from "@/components/ui";
import type { TStoryAction, TStoryEditorView } from "@/server/publishing/editorial/stories.schema";

import { splitCardIssues } from "./card-issues";
import { prePublishChecks, type PublishCheck } from "./story-aids";
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

/** The form's fields the server's `{ field, issue }` details can name; the rest show in the alert. */
const FIELDS = [
  "headline",
  "subheadline",
  "slug",
  "summary",
  "access",
  "paywallAt",
  "storyTemplate",
  "breakingNewsExpiresAt",
  "breakingNewsLinkedStoryId",
] as const;

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
  const router = useRouter();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
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

  const create = useMutation(
    trpc.stories.create.mutationOptions({
      onSuccess: async (result) => {
        queryClient.setQueryData(trpc.stories.get.queryKey({ id: result.story.id }), result.story);
        await queryClient.invalidateQueries({ queryKey: trpc.stories.list.queryKey() });
        router.replace(`/admin/content/stories/${result.story.id}`);
      },
    }),
  );
  const update = useMutation(trpc.stories.update.mutationOptions());
  const restore = useMutation(trpc.stories.restoreRevision.mutationOptions());
  const preview = useMutation(trpc.stories.previewLink.mutationOptions());
  const transition = useMutation(
    trpc.stories.transition.mutationOptions({
      onSuccess: (result) =>
        settle(
          result.story,
          `${result.story.status.charAt(0)}${result.story.status.slice(1).toLowerCase()}.${eventNotice(result)}`,
        ),
    }),
  );
  const remove = useMutation(
    trpc.stories.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.stories.list.queryKey() });
        router.push("/admin/content/stories");
      },
    }),
  );
  const saving = create.isPending || update.isPending || restore.isPending;
  const pending = saving || transition.isPending || remove.isPending;
  const error = create.error ?? update.error ?? restore.error ?? transition.error ?? remove.error;
  const allErrors = serverErrors(error, FIELDS);
  // Problems inside the cards show next to their card or element; the alert then only points at them.
  const cardIssues = splitCardIssues(allErrors.others);
  const errors = {
    ...allErrors,
    others: cardIssues.others,
    fields: cardIssues.byPosition.size ? { ...allErrors.fields, cards: "see the cards" } : allErrors.fields,
  };
  const resetErrors = () => {
    create.reset();
    update.reset();
    restore.reset();
    transition.reset();
    remove.reset();
  };

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
  const autosaves = Boolean(current && current.status === "DRAFT" && current.canEdit && !conflict);
  const saveRef = useRef(save);
  const busyRef = useRef(pending);
  useEffect(() => {
    saveRef.current = save;
    busyRef.current = pending;
  });
  useEffect(() => {
    if (!autosaves || !dirty || !online) return;
    const timer = setTimeout(() => {
      if (!busyRef.current) saveRef.current("autosave");
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [values, autosaves, dirty, online]);
  // Back online: what could not be saved goes now (the autosave above, for drafts).
  useEffect(() => {
    const back = () => setUnreachable(false);
    window.addEventListener("online", back);
    return () => window.removeEventListener("online", back);
  }, []);

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

  /** Make a workflow move; `note`: for the writer, with a move back to draft. */
  const move = async (action: TStoryAction, note?: string) => {
    if (!current) return;
    // Publishing and retracting change what readers see at once: ask first, as Delete does.
    if (action === "publish" || action === "retract") {
      const ok = await confirm(
        action === "publish"
          ? {
              title: `Publish "${current.headline}" now?`,
              body: publishBody(prePublishChecks(valuesRef.current)),
              confirmLabel: "Publish",
              tone: "primary",
            }
          : {
              title: `Retract "${current.headline}"?`,
              body: "It disappears from the site, the API and the feeds at once.",
              confirmLabel: "Retract",
            },
      );
      if (!ok) return;
    }
    resetErrors();
    setNotice(null);
    transition.mutate({ id: current.id, version: current.version, action, ...(note?.trim() ? { note } : {}) });
  };

  const openPreview = async () => {
    if (!current) return;
    // Opened now, while the click still counts as the editor's: a tab opened after the request is blocked.
    const tab = window.open("", "_blank");
    try {
      const link = await preview.mutateAsync({ storyId: current.id });
      if (tab) {
        tab.opener = null;
        // The publication's own preview page when the account has one, else the generic page.
        tab.location.href = link.frontEndUrl ?? link.url;
      }
    } catch {
      tab?.close();
    }
  };

  const restoreRevision = async (revisionId: number, version: number) => {
    if (!current) return;
    resetErrors();
    setNotice(null);
    const result = await restore.mutateAsync({ storyId: current.id, revisionId, version }).catch(() => null);
    if (result) await settle(result.story, `Restored as version ${result.story.version}.`);
  };

  const deleteDraft = async () => {
    if (!current) return;
    const ok = await confirm({
      title: `Delete the draft "${current.headline}" for good?`,
      body: "It cannot be brought back.",
      confirmLabel: "Delete draft",
    });
    if (!ok) return;
    resetErrors();
    remove.mutate({ id: current.id, version: current.version });
  };

  const saveState: SaveState = !current
    ? "new"
    : conflict
      ? "conflict"
      : saving
        ? "saving"
        : dirty && (unreachable || !online)
          ? "offline"
          : dirty
            ? "unsaved"
            : "saved";

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
    cardIssues: cardIssues.byPosition,
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

/** The Publish confirmation: what publishing does, then what the story still lacks (publishing stays open). */
function publishBody(checks: PublishCheck[]): string {
  const now = "Readers, the API, the feeds and the subscribed webhooks get it at once.";
  if (!checks.length) return now;
  return `${now} Before you publish, note: ${checks.map((c) => c.message).join(" ")}`;
}

/** What a write told the webhooks, as the notice after it says it (nothing when it sent no event). */
function eventNotice({ event, notified }: { event: string | null; notified: number }): string {
  if (!event) return "";
  if (notified === 0) return ` No webhook subscribes to ${event}.`;
  return ` ${event} sent to ${notified === 1 ? "1 webhook" : `${notified} webhooks`}.`;
}
