"use client";

/**
 * The moderation page's decisions (./moderation-queue.tsx): an action on a comment (delete asks
 * first; in a decided view it changes the decision, sent with the version the list showed), the
 * message that says what it did, and Undo of the moderator's last decision.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { useConfirm } from "@/components/ui";
import type { TCommentAction, TQueueItem } from "@/server/engagement/moderation/queue/queue.schema";

const ACTION_DONE: Record<TCommentAction, string> = {
  approve: "Approved",
  reject: "Rejected",
  delete: "Deleted",
  spam: "Marked spam",
  not_spam: "Marked not spam",
};

const STATE_AGAIN = {
  undecided: "waiting for a decision",
  approved: "approved",
  rejected: "rejected",
  spam: "marked spam",
};

export function useModerationDecisions({ decidedView }: { decidedView: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [message, setMessage] = useState<string | null>(null);
  /** The decision the message offers to undo (the moderator's last one, as it left the comment). */
  const [undoable, setUndoable] = useState<{ commentId: number; version: string } | null>(null);
  /** After a move, the focus goes back to the selected comment (the page's effect reads and clears this). */
  const refocusRef = useRef(false);

  const refresh = useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.moderation.queue.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.moderation.counts.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.moderation.history.pathKey() }),
      // The figures beside the queue (pending, decided) change with every decision.
      queryClient.invalidateQueries({ queryKey: trpc.moderationSurges.stats.pathKey() }),
    ]);
  }, [queryClient, trpc]);

  const act = useMutation(
    trpc.moderation.act.mutationOptions({
      onSuccess: async (result, input) => {
        setMessage(
          result.changed
            ? `${ACTION_DONE[input.action]}: comment ${input.commentId}.`
            : `Comment ${input.commentId} was already so: nothing changed.`,
        );
        // Deleting is final: nothing to undo.
        setUndoable(
          result.changed && input.action !== "delete"
            ? { commentId: input.commentId, version: result.comment.version }
            : null,
        );
        undo.reset();
        await refresh();
      },
      onError: async () => {
        setMessage(null);
        setUndoable(null);
        await refresh();
      },
    }),
  );

  const undo = useMutation(
    trpc.moderation.undo.mutationOptions({
      onSuccess: async (result) => {
        setMessage(`Undone: comment ${result.comment.id} is ${STATE_AGAIN[result.comment.state]} again.`);
        setUndoable(null);
        act.reset();
        await refresh();
      },
      onError: async () => {
        setMessage(null);
        setUndoable(null);
        await refresh();
      },
    }),
  );

  const runUndo = useCallback(() => {
    if (!undoable || undo.isPending || act.isPending) return;
    refocusRef.current = true;
    undo.mutate(undoable);
  }, [act.isPending, undo, undoable]);

  const run = useCallback(
    async (item: TQueueItem | undefined, action: TCommentAction) => {
      if (!item || act.isPending) return;
      if (action === "delete") {
        const ok = await confirm({
          title: `Delete comment ${item.id}?`,
          body: "It disappears from the page for good (its replies stay). The author cannot bring it back by editing.",
          confirmLabel: "Delete",
        });
        if (!ok) return;
      }
      refocusRef.current = true;
      // In a decided view the moderator changes a decision on purpose, as the list showed it.
      act.mutate(
        decidedView
          ? { commentId: item.id, action, override: true, expectedVersion: item.version }
          : { commentId: item.id, action },
      );
    },
    [act, confirm, decidedView],
  );

  /** A new view: no message, nothing to undo. */
  const clear = () => {
    setMessage(null);
    setUndoable(null);
  };
  return { act, undo, run, runUndo, refresh, refocusRef, message, setMessage, undoable, clear };
}
