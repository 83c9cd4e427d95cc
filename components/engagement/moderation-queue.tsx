"use client";

/**
 * The moderation page (tRPC moderation.queue, counts, act, undo): views with counts (the queue's
 * tabs, then the decided views), search and filters, the comments of the view newest or oldest
 * first, each with what a moderator needs, and the actions as buttons and keyboard shortcuts
 * (SHORTCUTS; "?" lists them). The selected comment has the keyboard focus and a visible ring; j/k
 * or the arrow keys move it. After a decision the message offers Undo (or "z"). In a decided view
 * an action changes the decision, sent with the version the list showed (409 if it changed since).
 * The view, order and filters live in the URL's query, so a view can be shared or bookmarked.
 * Its parts: the decisions and Undo (./moderation-decisions.ts), the tabs and keyboard shortcuts
 * (./moderation-queue-controls.tsx), a comment (./moderation-queue-item.tsx).
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Alert, Button, ErrorAlert, FilterDisclosure, FilterSelect, LoadMore, LoadState, Panel } from "@/components/ui";
import {
  FILTER_KEYS,
  hasFilters,
  isDecidedView,
  queueSearchParams,
  type TQueueFilters,
  type TQueueOrder,
  type TQueueUrlState,
} from "@/server/engagement/moderation/queue/queue-filters.schema";
import type { TQueueItem, TQueueView } from "@/server/engagement/moderation/queue/queue.schema";

import { BanDialog } from "./ban-dialog";
import { useModerationDecisions } from "./moderation-decisions";
import { ModerationFilters } from "./moderation-filters";
import { QueueTabs, ShortcutsDialog, TAB_LABELS, useQueueShortcuts } from "./moderation-queue-controls";
import { QueueItem } from "./moderation-queue-item";
import { ReaderHistoryDialog } from "./reader-history-dialog";

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

export function ModerationQueue({
  initial,
  reasons,
}: {
  /** The view, order and filters of the page's URL; `invalid` names the filters left out. */
  initial: TQueueUrlState & { invalid: string[] };
  reasons: readonly { code: string; text: string }[];
}) {
  const trpc = useTRPC();
  const [tab, setTab] = useState<TQueueView>(initial.view);
  const [order, setOrder] = useState<TQueueOrder>(initial.order);
  const [filters, setFilters] = useState<TQueueFilters>(initial.filters);
  const [invalid, setInvalid] = useState(initial.invalid);
  const decidedView = isDecidedView(tab);
  const [selected, setSelected] = useState(0);
  const [help, setHelp] = useState(false);
  const [banFor, setBanFor] = useState<TQueueItem["author"] | null>(null);
  const [historyOf, setHistoryOf] = useState<number | null>(null);
  const itemRefs = useRef<(HTMLElement | null)[]>([]);
  const panelId = useId();

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
  const decisions = useModerationDecisions({ decidedView });
  const { act, undo, run, runUndo, refresh, refocusRef, message, setMessage, undoable, clear } = decisions;

  // The URL follows the view, order and filters (replaceState: no new history entry per keystroke).
  useEffect(() => {
    const query = queueSearchParams({ view: tab, order, filters });
    const url = `${window.location.pathname}${query ? `?${query}` : ""}`;
    if (url !== `${window.location.pathname}${window.location.search}`) window.history.replaceState(null, "", url);
  }, [tab, order, filters]);

  const focusItem = useCallback(
    (index: number) => {
      const next = Math.max(0, Math.min(index, items.length - 1));
      setSelected(next);
      itemRefs.current[next]?.focus();
    },
    [items.length],
  );

  useQueueShortcuts({ current, selectedIndex, focusItem, run, runUndo, setHelp, setBanFor, setHistoryOf });

  // After a move, the focus goes back to the selected comment (the acted-on one may have left the tab).
  useEffect(() => {
    if (!refocusRef.current) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected && !active.closest("[data-testid=queue-item]")) return;
    refocusRef.current = false;
    itemRefs.current[selectedIndex]?.focus();
  }, [items, selectedIndex, refocusRef]);

  return (
    <div className="space-y-4">
      <QueueTabs
        tab={tab}
        panelId={panelId}
        onChoose={(key) => {
          setTab(key);
          setSelected(0);
          clear();
        }}
      />

      <QueueNotices
        message={message}
        undo={undoable ? { run: runUndo, pending: undo.isPending } : null}
        error={act.error ?? undo.error}
        invalid={invalid}
        onDismissInvalid={() => setInvalid([])}
      />

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

      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
      <BanDialog
        author={banFor}
        onClose={() => setBanFor(null)}
        onBanned={(text) => (setMessage(text), void refresh())}
      />
      <ReaderHistoryDialog memberId={historyOf} onClose={() => setHistoryOf(null)} onChanged={() => void refresh()} />
    </div>
  );
}

/** What the last decision did (with Undo), a failed request, and the filters a link carried that are not valid. */
function QueueNotices({
  message,
  undo,
  error,
  invalid,
  onDismissInvalid,
}: {
  message: string | null;
  undo: { run: () => void; pending: boolean } | null;
  error: unknown;
  invalid: string[];
  onDismissInvalid: () => void;
}) {
  return (
    <>
      <div aria-live="polite" className="min-h-0">
        {message ? (
          <Alert tone="success">
            <span className="mr-3">{message}</span>
            {undo ? (
              <Button size="sm" onClick={undo.run} loading={undo.pending} aria-keyshortcuts="z">
                Undo
              </Button>
            ) : null}
          </Alert>
        ) : null}
      </div>
      <ErrorAlert error={error} />
      {invalid.length ? (
        <Alert tone="warning">
          Left out of this link, not valid: {invalid.join(", ")}.{" "}
          <Button size="sm" onClick={onDismissInvalid}>
            Dismiss
          </Button>
        </Alert>
      ) : null}
    </>
  );
}
