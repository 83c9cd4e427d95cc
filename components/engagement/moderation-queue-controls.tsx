"use client";

/**
 * The moderation page's controls (./moderation-queue.tsx): the view tabs with their counts, and
 * the keyboard shortcuts with the list "?" opens.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";

import { useTRPC } from "@/components/trpc/react";
import { cx, Dialog } from "@/components/ui";
import {
  QUEUE_VIEWS,
  type TCommentAction,
  type TQueueItem,
  type TQueueView,
} from "@/server/engagement/moderation/queue/queue.schema";
import { ownValue } from "@/server/own-keys";

export const TAB_LABELS: Record<TQueueView, string> = {
  pending: "Pending",
  reported: "Reported",
  spam: "Spam",
  toxic: "Toxic",
  approved: "Approved",
  rejected: "Rejected",
  marked_spam: "Marked spam",
  published: "Published",
  featured: "Featured",
};

/** What the keys do (useQueueShortcuts below). */
const SHORTCUTS: readonly { keys: string; what: string }[] = [
  { keys: "j or ↓", what: "Next comment" },
  { keys: "k or ↑", what: "Previous comment" },
  { keys: "a", what: "Approve (publish)" },
  { keys: "r", what: "Reject (keep unpublished)" },
  { keys: "d", what: "Delete (asks first)" },
  { keys: "s", what: "Mark spam" },
  { keys: "n", what: "Not spam" },
  { keys: "b", what: "Ban the author" },
  { keys: "h", what: "The author's history" },
  { keys: "z", what: "Undo your last decision" },
  { keys: "?", what: "This list" },
];

export function QueueTabs({
  tab,
  panelId,
  onChoose,
}: {
  tab: TQueueView;
  /** The tab panel the tabs control. */
  panelId: string;
  onChoose: (view: TQueueView) => void;
}) {
  const trpc = useTRPC();
  const counts = useQuery(trpc.moderation.counts.queryOptions());
  return (
    <div role="tablist" aria-label="Views" className="flex flex-wrap gap-2">
      {QUEUE_VIEWS.map((key) => (
        <button
          key={key}
          type="button"
          role="tab"
          aria-selected={tab === key}
          aria-controls={panelId}
          onClick={() => onChoose(key)}
          className={cx(
            "inline-flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm font-medium focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 focus-visible:outline-none",
            tab === key
              ? "text-brand-800 border-brand-600 bg-brand-50"
              : "border-gray-300 bg-white text-gray-700 hover:bg-gray-50",
          )}
        >
          {TAB_LABELS[key]}
          <span
            className="rounded-full bg-white px-1.5 text-xs text-gray-700 ring-1 ring-gray-300"
            data-testid={`count-${key}`}
          >
            {counts.data ? counts.data[key] : "…"}
          </span>
        </button>
      ))}
    </div>
  );
}

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts" size="sm">
      <table className="w-full text-sm">
        <caption className="sr-only">Keys of the moderation queue</caption>
        <thead>
          <tr className="text-left text-gray-600">
            <th scope="col" className="pb-2 font-medium">
              Key
            </th>
            <th scope="col" className="pb-2 font-medium">
              Does
            </th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <td className="py-1 pr-4 font-mono whitespace-nowrap">{s.keys}</td>
              <td className="py-1">{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-3 text-xs text-gray-600">Shortcuts act on the selected comment (the one with the ring).</p>
    </Dialog>
  );
}

/** Keyboard shortcuts (SHORTCUTS): not while typing, not with modifier keys, not under an open dialog. */
export function useQueueShortcuts(args: {
  current: TQueueItem | undefined;
  selectedIndex: number;
  focusItem: (index: number) => void;
  run: (item: TQueueItem | undefined, action: TCommentAction) => Promise<void>;
  runUndo: () => void;
  setHelp: (open: boolean) => void;
  setBanFor: (author: TQueueItem["author"]) => void;
  setHistoryOf: (memberId: TQueueItem["author"]["memberId"]) => void;
}) {
  const { current, selectedIndex, focusItem, run, runUndo, setHelp, setBanFor, setHistoryOf } = args;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable=true]")) return;
      if (document.querySelector("dialog[open]")) return;
      const key = event.key;
      const handled = () => event.preventDefault();
      if (key === "?") return (handled(), setHelp(true));
      if (key === "j" || key === "ArrowDown") return (handled(), focusItem(selectedIndex + 1));
      if (key === "k" || key === "ArrowUp") return (handled(), focusItem(selectedIndex - 1));
      if (key === "z") return (handled(), runUndo());
      if (!current) return;
      const actions: Record<string, TCommentAction> = {
        a: "approve",
        r: "reject",
        d: "delete",
        s: "spam",
        n: "not_spam",
      };
      const action = ownValue(actions, key);
      if (action) return (handled(), void run(current, action));
      if (key === "b") return (handled(), setBanFor(current.author));
      if (key === "h") return (handled(), setHistoryOf(current.author.memberId));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [current, focusItem, run, runUndo, selectedIndex, setHelp, setBanFor, setHistoryOf]);
}
