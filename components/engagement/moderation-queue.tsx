"use client";

/**
 * The moderation queue (tRPC moderation.queue, counts, act): tabs with counts, the comments of the
 * tab newest or oldest first, each with what a moderator needs, and the actions as buttons and
 * keyboard shortcuts (SHORTCUTS; "?" lists them). The selected comment has the keyboard focus and
 * a visible ring; j/k or the arrow keys move it.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Alert,
  Badge,
  Button,
  cx,
  DateTime,
  Dialog,
  ErrorAlert,
  FilterSelect,
  LoadMore,
  LoadState,
  Panel,
  useConfirm,
} from "@/components/ui";
import {
  QUEUE_TABS,
  REPORT_REASON_LABELS,
  type TCommentAction,
  type TQueueItem,
  type TQueueTab,
} from "@/server/engagement/moderation/queue.schema";

import { BanDialog } from "./ban-dialog";
import { CommentBody } from "./comment-body";
import { ReaderHistoryDialog } from "./reader-history-dialog";

const TAB_LABELS: Record<TQueueTab, string> = {
  pending: "Pending",
  reported: "Reported",
  spam: "Spam",
  toxic: "Toxic",
};

export const SHORTCUTS: readonly { keys: string; what: string }[] = [
  { keys: "j or ↓", what: "Next comment" },
  { keys: "k or ↑", what: "Previous comment" },
  { keys: "a", what: "Approve (publish)" },
  { keys: "r", what: "Reject (keep unpublished)" },
  { keys: "d", what: "Delete (asks first)" },
  { keys: "s", what: "Mark spam" },
  { keys: "n", what: "Not spam" },
  { keys: "b", what: "Ban the author" },
  { keys: "h", what: "The author's history" },
  { keys: "?", what: "This list" },
];

const ACTION_DONE: Record<TCommentAction, string> = {
  approve: "Approved",
  reject: "Rejected",
  delete: "Deleted",
  spam: "Marked spam",
  not_spam: "Marked not spam",
};

const STATE_TONE = { undecided: "gray", approved: "green", rejected: "red", spam: "amber" } as const;

export function ModerationQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [tab, setTab] = useState<TQueueTab>("pending");
  const [order, setOrder] = useState<"newest" | "oldest">("newest");
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
      { tab, order, limit: 20 },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const items = useMemo(() => queue.data?.pages.flatMap((page) => page.items) ?? [], [queue.data]);
  // After a move the list changes: the selection stays on a comment that is there.
  const selectedIndex = Math.min(selected, Math.max(0, items.length - 1));
  const current = items[selectedIndex];
  const refocus = useRef(false);

  const refresh = useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.moderation.queue.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.moderation.counts.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.moderation.history.pathKey() }),
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
        await refresh();
      },
      onError: async () => {
        setMessage(null);
        await refresh();
      },
    }),
  );

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
      act.mutate({ commentId: item.id, action });
    },
    [act, confirm],
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
      if (!current) return;
      const actions: Record<string, TCommentAction> = {
        a: "approve",
        r: "reject",
        d: "delete",
        s: "spam",
        n: "not_spam",
      };
      if (actions[key]) return (handled(), void run(current, actions[key]));
      if (key === "b") return (handled(), setBanFor(current.author));
      if (key === "h") return (handled(), setHistoryOf(current.author.memberId));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [current, focusItem, run, selectedIndex]);

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
      <div role="tablist" aria-label="Queue" className="flex flex-wrap gap-2">
        {QUEUE_TABS.map((key) => (
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
        {message ? <Alert tone="success">{message}</Alert> : null}
      </div>
      <ErrorAlert error={act.error} />

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
                { value: "newest", label: "Newest first" },
                { value: "oldest", label: "Oldest first" },
              ]}
            />
            <Button size="sm" onClick={() => setHelp(true)} aria-keyshortcuts="?">
              Keyboard shortcuts
            </Button>
          </>
        }
      >
        <div id={panelId} role="tabpanel" aria-label={`${TAB_LABELS[tab]} comments`}>
          <LoadState query={queue} what="queue" empty={items.length === 0} emptyText="Nothing to moderate here." />
          {items.length ? (
            <ol className="divide-y divide-gray-200">
              {items.map((item, index) => (
                <li key={item.id}>
                  <QueueItem
                    item={item}
                    selected={index === selectedIndex}
                    ref={(el) => {
                      itemRefs.current[index] = el;
                    }}
                    onFocus={() => setSelected(index)}
                    busy={act.isPending && act.variables?.commentId === item.id}
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

function QueueItem({
  item,
  selected,
  ref,
  onFocus,
  busy,
  onAction,
  onBan,
  onHistory,
}: {
  item: TQueueItem;
  selected: boolean;
  ref: (el: HTMLElement | null) => void;
  onFocus: () => void;
  busy: boolean;
  onAction: (action: TCommentAction) => void;
  onBan: () => void;
  onHistory: () => void;
}) {
  const headingId = useId();
  return (
    <article
      ref={ref}
      tabIndex={selected ? 0 : -1}
      onFocus={onFocus}
      aria-labelledby={headingId}
      aria-current={selected ? "true" : undefined}
      data-testid="queue-item"
      className={cx(
        "space-y-2 px-4 py-3 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none focus-visible:ring-inset",
        selected && "bg-brand-50/40",
      )}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 id={headingId} className="text-sm font-semibold text-gray-900">
          <span className="break-words">{item.author.name}</span>{" "}
          <span className="font-normal text-gray-600">(reader {item.author.memberId})</span>
        </h3>
        <div className="flex flex-wrap gap-1">
          <Badge tone={STATE_TONE[item.state]}>{item.state}</Badge>
          {item.isPublished ? <Badge tone="green">published</Badge> : <Badge tone="gray">unpublished</Badge>}
          {item.author.isNew ? <Badge tone="blue">new reader</Badge> : null}
          {item.author.bannedUntil ? <Badge tone="red">banned</Badge> : null}
          {item.isSpam ? <Badge tone="amber">spam</Badge> : null}
          {item.hidden ? <Badge tone="gray">hidden by author</Badge> : null}
          {item.confidential ? <Badge tone="gray">confidential</Badge> : null}
        </div>
      </div>
      <p className="text-xs break-words text-gray-600">
        On{" "}
        <a href={item.page.url} rel="nofollow noopener noreferrer" target="_blank" className="underline">
          {item.page.headline ?? item.page.url}
        </a>
        {item.parentCommentId ? ` · reply to comment ${item.parentCommentId}` : ""} ·{" "}
        <DateTime value={item.createdAt} />
        {item.editedAt ? (
          <>
            {" "}
            · edited <DateTime value={item.editedAt} />
          </>
        ) : null}
      </p>
      <CommentBody
        ops={item.ops}
        className="rounded bg-gray-50 px-3 py-2 text-sm break-words whitespace-pre-wrap text-gray-900"
      />
      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-700">
        <div>
          <dt className="inline font-medium">Toxicity </dt>
          <dd className="inline">{item.toxicity}</dd>
        </div>
        <div>
          <dt className="inline font-medium">Spam </dt>
          <dd className="inline">{item.isSpam ? "yes" : "no"}</dd>
        </div>
        {item.reasons.length ? (
          <div>
            <dt className="inline font-medium">Reasons </dt>
            <dd className="inline break-words">{item.reasons.join(", ")}</dd>
          </div>
        ) : null}
        <div>
          <dt className="inline font-medium">Reports </dt>
          <dd className="inline">
            {item.reportCount}
            {item.reportCount
              ? ` (${item.openReports} open: ${item.reportReasons.map((r) => `${REPORT_REASON_LABELS[r.reason]} ${r.count}`).join(", ")})`
              : ""}
          </dd>
        </div>
      </dl>
      {item.reportNotes.length ? (
        <ul className="list-inside list-disc text-xs break-words text-gray-700" aria-label="Readers' notes">
          {item.reportNotes.map((note, i) => (
            <li key={i}>{note}</li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="primary" onClick={() => onAction("approve")} disabled={busy} aria-keyshortcuts="a">
          Approve
        </Button>
        <Button size="sm" onClick={() => onAction("reject")} disabled={busy} aria-keyshortcuts="r">
          Reject
        </Button>
        {item.isSpam ? (
          <Button size="sm" onClick={() => onAction("not_spam")} disabled={busy} aria-keyshortcuts="n">
            Not spam
          </Button>
        ) : (
          <Button size="sm" onClick={() => onAction("spam")} disabled={busy} aria-keyshortcuts="s">
            Spam
          </Button>
        )}
        <Button size="sm" variant="danger" onClick={() => onAction("delete")} disabled={busy} aria-keyshortcuts="d">
          Delete
        </Button>
        <Button size="sm" onClick={onBan} aria-keyshortcuts="b">
          Ban author
        </Button>
        <Button size="sm" onClick={onHistory} aria-keyshortcuts="h">
          History
        </Button>
      </div>
    </article>
  );
}
