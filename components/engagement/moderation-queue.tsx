"use client";

/**
 * The moderation page (tRPC moderation.queue, counts, act, undo): views with counts (the queue's
 * tabs, then the decided views), search and filters, the comments of the view newest or oldest
 * first, each with what a moderator needs, and the actions as buttons and keyboard shortcuts
 * (SHORTCUTS; "?" lists them). The selected comment has the keyboard focus and a visible ring; j/k
 * or the arrow keys move it. After a decision the message offers Undo (or "z"). In a decided view
 * an action changes the decision, sent with the version the list showed (409 if it changed since).
 * The view, order and filters live in the URL's query, so a view can be shared or bookmarked.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Button,
  cx,
  Dialog,
  ErrorAlert,
  FilterDisclosure,
  FilterSelect,
  LoadMore,
  LoadState,
  Panel,
  useConfirm,
} from "@/components/ui";
import {
  FILTER_KEYS,
  hasFilters,
  isDecidedView,
  queueSearchParams,
  type TQueueFilters,
  type TQueueOrder,
  type TQueueUrlState,
} from "@/server/engagement/moderation/queue/queue-filters.schema";
import {
  QUEUE_VIEWS,
  type TCommentAction,
  type TQueueItem,
  type TQueueView,
} from "@/server/engagement/moderation/queue/queue.schema";
import { ownValue } from "@/server/own-keys";

import { BanDialog } from "./ban-dialog";
import { ModerationFilters } from "./moderation-filters";
import { QueueItem } from "./moderation-queue-item";
import { ReaderHistoryDialog } from "./reader-history-dialog";

const TAB_LABELS: Record<TQueueView, string> = {
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

const EMPTY_TEXT: Record<TQueueView, string> = {
  pending: "Nothing to moderate here.",
  reported: "Nothing to moderate here.",
  spam: "Nothing to moderate here.",
  toxic: "Nothing to moderate here.",
  approved: "No approved comments.",
  rejected: "No rejected comments.",
  marked_spam: "No comments marked spam.",
  published: "No published comments.",
  featured: "No featured comments: feature one from Published.",
};

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

export function ModerationQueue({
  initial,
  reasons,
}: {
  /** The view, order and filters of the page's URL; `invalid` names the filters left out. */
  initial: TQueueUrlState & { invalid: string[] };
  reasons: readonly { code: string; text: string }[];
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [tab, setTab] = useState<TQueueView>(initial.view);
  const [order, setOrder] = useState<TQueueOrder>(initial.order);
  const [filters, setFilters] = useState<TQueueFilters>(initial.filters);
  const [invalid, setInvalid] = useState(initial.invalid);
  /** The decision the message offers to undo (the moderator's last one, as it left the comment). */
  const [undoable, setUndoable] = useState<{ commentId: number; version: string } | null>(null);
  const decidedView = isDecidedView(tab);
  const [selected, setSelected] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const [banFor, setBanFor] = useState<TQueueItem["author"] | null>(null);
  const [historyOf, setHistoryOf] = useState<number | null>(null);
  const itemRefs = useRef<(HTMLElement | null)[]>([]);
  const panelId = useId();

  const counts = useQuery(trpc.moderation.counts.queryOptions());
  const queue = useInfiniteQuery(
    trpc.moderation.queue.infiniteQueryOptions(
      { tab, order, limit: 20, filters },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const items = useMemo(() => queue.data?.pages.flatMap((page) => page.items) ?? [], [queue.data]);
  // After a move the list changes: the selection stays on a comment that is there.
  const selectedIndex = Math.min(selected, Math.max(0, items.length - 1));
  const current = items[selectedIndex];
  const refocus = useRef(false);

  // The URL follows the view, order and filters (replaceState: no new history entry per keystroke).
  useEffect(() => {
    const query = queueSearchParams({ view: tab, order, filters });
    const url = `${window.location.pathname}${query ? `?${query}` : ""}`;
    if (url !== `${window.location.pathname}${window.location.search}`) window.history.replaceState(null, "", url);
  }, [tab, order, filters]);

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
    refocus.current = true;
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
      refocus.current = true;
      // In a decided view the moderator changes a decision on purpose, as the list showed it.
      act.mutate(
        decidedView
          ? { commentId: item.id, action, override: true, expectedVersion: item.version }
          : { commentId: item.id, action },
      );
    },
    [act, confirm, decidedView],
  );

  const focusItem = useCallback(
    (index: number) => {
      const next = Math.max(0, Math.min(index, items.length - 1));
      setSelected(next);
      itemRefs.current[next]?.focus();
    },
    [items.length],
  );

  // Keyboard shortcuts: not while typing, not with modifier keys, not under an open dialog.
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
  }, [current, focusItem, run, runUndo, selectedIndex]);

  // After a move, the focus goes back to the selected comment (the acted-on one may have left the tab).
  useEffect(() => {
    if (!refocus.current) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected && !active.closest("[data-testid=queue-item]")) return;
    refocus.current = false;
    itemRefs.current[selectedIndex]?.focus();
  }, [items, selectedIndex]);

  return (
    <div className="space-y-4">
      <div role="tablist" aria-label="Views" className="flex flex-wrap gap-2">
        {QUEUE_VIEWS.map((key) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={tab === key}
            aria-controls={panelId}
            onClick={() => {
              setTab(key);
              setSelected(0);
              setMessage(null);
              setUndoable(null);
            }}
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

      <div aria-live="polite" className="min-h-0">
        {message ? (
          <Alert tone="success">
            <span className="mr-3">{message}</span>
            {undoable ? (
              <Button size="sm" onClick={runUndo} loading={undo.isPending} aria-keyshortcuts="z">
                Undo
              </Button>
            ) : null}
          </Alert>
        ) : null}
      </div>
      <ErrorAlert error={act.error ?? undo.error} />
      {invalid.length ? (
        <Alert tone="warning">
          Left out of this link, not valid: {invalid.join(", ")}.{" "}
          <Button size="sm" onClick={() => setInvalid([])}>
            Dismiss
          </Button>
        </Alert>
      ) : null}

      <Panel title="Search and filters">
        <FilterDisclosure className="px-4 py-3" active={FILTER_KEYS.filter((key) => !!filters[key]).length}>
          <ModerationFilters
            filters={filters}
            reasons={reasons}
            decidedView={decidedView}
            onApply={(next) => {
              setFilters(next);
              setSelected(0);
              setInvalid([]);
            }}
          />
        </FilterDisclosure>
      </Panel>

      <Panel
        title={`${TAB_LABELS[tab]} comments`}
        actions={
          <>
            <FilterSelect
              label="Order"
              value={order}
              onChange={(event) => {
                setOrder(event.target.value === "oldest" ? "oldest" : "newest");
                setSelected(0);
              }}
              options={[
                { value: "newest", label: decidedView ? "Newest decision first" : "Newest first" },
                { value: "oldest", label: decidedView ? "Oldest decision first" : "Oldest first" },
              ]}
            />
            <Button size="sm" onClick={() => setHelp(true)} aria-keyshortcuts="?">
              Keyboard shortcuts
            </Button>
          </>
        }
      >
        <div id={panelId} role="tabpanel" aria-label={`${TAB_LABELS[tab]} comments`}>
          <LoadState
            query={queue}
            what="queue"
            empty={items.length === 0}
            emptyText={hasFilters(filters) ? "No comment here matches these filters." : EMPTY_TEXT[tab]}
          />
          {items.length ? (
            <ol className="divide-y divide-gray-200">
              {items.map((item, index) => (
                <li key={item.id}>
                  <QueueItem
                    item={item}
                    decidedView={decidedView}
                    selected={index === selectedIndex}
                    ref={(el) => {
                      itemRefs.current[index] = el;
                    }}
                    onFocus={() => setSelected(index)}
                    busy={
                      (act.isPending && act.variables?.commentId === item.id) ||
                      (undo.isPending && undo.variables?.commentId === item.id)
                    }
                    onAction={(action) => void run(item, action)}
                    onBan={() => setBanFor(item.author)}
                    onHistory={() => setHistoryOf(item.author.memberId)}
                  />
                </li>
              ))}
            </ol>
          ) : null}
          <LoadMore query={queue} />
        </div>
      </Panel>

      <Dialog open={help} onClose={() => setHelp(false)} title="Keyboard shortcuts" size="sm">
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
      <BanDialog
        author={banFor}
        onClose={() => setBanFor(null)}
        onBanned={(text) => (setMessage(text), void refresh())}
      />
      <ReaderHistoryDialog memberId={historyOf} onClose={() => setHistoryOf(null)} onChanged={() => void refresh()} />
    </div>
  );
}
