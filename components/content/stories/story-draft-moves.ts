"use client";

/**
 * The story editor's moves (./use-story-draft.ts): workflow moves (Publish and Retract ask first),
 * the private preview, restoring a revision and deleting the draft.
 */
import type { RefObject } from "react";

import { useConfirm } from "@/components/ui";
import type { TStoryAction, TStoryEditorView } from "@/server/publishing/editorial/stories.schema";

import { prePublishChecks, type PublishCheck } from "./story-aids";
import type { useDraftRequests } from "./story-draft-requests";
import type { FormValues } from "./story-form";

type Requests = Pick<
  ReturnType<typeof useDraftRequests>,
  "transition" | "preview" | "restore" | "remove" | "resetErrors"
>;

export function useDraftMoves(args: {
  current: TStoryEditorView | null;
  /** What the latest render holds. */
  valuesRef: RefObject<FormValues>;
  requests: Requests;
  setNotice: (notice: string | null) => void;
  settle: (next: TStoryEditorView, message: string | null) => Promise<void>;
}) {
  const { current, valuesRef, setNotice, settle } = args;
  const { transition, preview, restore, remove, resetErrors } = args.requests;
  const confirm = useConfirm();

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

  return { move, openPreview, restoreRevision, deleteDraft };
}

/** The Publish confirmation: what publishing does, then what the story still lacks (publishing stays open). */
function publishBody(checks: PublishCheck[]): string {
  const now = "Readers, the API, the feeds and the subscribed webhooks get it at once.";
  if (!checks.length) return now;
  return `${now} Before you publish, note: ${checks.map((c) => c.message).join(" ")}`;
}
