"use client";

/**
 * One comment of the moderation page: who wrote it where and when, its text with the words that
 * triggered moderation marked, its reasons in plain words (the code beside each), reports, the
 * decision made (by whom, when) and the actions. In a decided view the actions change the decision
 * ("Change to …"), sent with the version the moderator saw.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Badge, Button, cx, DateTime } from "@/components/ui";
import {
  REPORT_REASON_LABELS,
  type TCommentAction,
  type TQueueItem,
} from "@/server/engagement/moderation/queue/queue.schema";

import { CommentBody } from "./comment-body";

const STATE_TONE = { undecided: "gray", approved: "green", rejected: "red", spam: "amber" } as const;
const STATE_LABEL = {
  undecided: "undecided",
  approved: "approved",
  rejected: "rejected",
  spam: "marked spam",
} as const;

export function QueueItem({
  item,
  decidedView,
  selected,
  ref,
  onFocus,
  busy,
  onAction,
  onBan,
  onHistory,
}: {
  item: TQueueItem;
  /** Shown in a decided view: the actions change the decision. */
  decidedView: boolean;
  selected: boolean;
  ref: (el: HTMLElement | null) => void;
  onFocus: () => void;
  busy: boolean;
  onAction: (action: TCommentAction) => void;
  onBan: () => void;
  onHistory: () => void;
}) {
  const headingId = useId();
  const change = (label: string) => (decidedView ? `Change to ${label.toLowerCase()}` : label);
  return (
    <article
      ref={ref}
      tabIndex={selected ? 0 : -1}
      onFocus={onFocus}
      aria-labelledby={headingId}
      aria-current={selected ? "true" : undefined}
      data-testid="queue-item"
      data-comment-id={item.id}
      className={cx(
        "min-w-0 space-y-2 px-4 py-3 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none focus-visible:ring-inset",
        selected && "bg-brand-50/40",
      )}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 id={headingId} className="min-w-0 text-sm font-semibold break-words text-gray-900">
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
          {item.featured ? <Badge tone="blue">featured</Badge> : null}
          {item.qaPage && !item.parentCommentId ? (
            <Badge tone={item.answered ? "green" : "gray"}>{item.answered ? "answered" : "question"}</Badge>
          ) : null}
        </div>
      </div>
      <p className="text-xs break-words text-gray-600">
        On{" "}
        <a href={item.page.url} rel="nofollow noopener noreferrer" target="_blank" className="break-all underline">
          {item.page.headline ?? item.page.url}
        </a>
        {item.parentCommentId ? ` · reply to comment ${item.parentCommentId}` : ""} · comment {item.id} ·{" "}
        <DateTime value={item.createdAt} />
        {item.editedAt ? (
          <>
            {" "}
            · edited <DateTime value={item.editedAt} />
          </>
        ) : null}
      </p>
      {item.state !== "undecided" && item.decidedAt ? (
        <p className="text-xs break-words text-gray-700" data-testid="decision">
          <span className="font-medium">
            {STATE_LABEL[item.state][0]!.toUpperCase() + STATE_LABEL[item.state].slice(1)}
          </span>{" "}
          by {item.decidedBy ? item.decidedBy.name : "a former staff member"} on <DateTime value={item.decidedAt} />
        </p>
      ) : null}
      <CommentBody
        ops={item.ops}
        highlights={item.highlights}
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
      {item.explainedReasons.length ? (
        <div className="text-xs text-gray-700">
          <p className="font-medium">Why moderation flagged it</p>
          <ul className="mt-0.5 list-inside list-disc space-y-0.5 break-words" aria-label="Reasons">
            {item.explainedReasons.map((reason) => (
              <li key={reason.code}>
                {reason.text} <code className="text-[0.7rem] break-all text-gray-600">{reason.code}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {item.reportNotes.length ? (
        <ul className="list-inside list-disc text-xs break-words text-gray-700" aria-label="Readers' notes">
          {item.reportNotes.map((note, i) => (
            <li key={i}>{note}</li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {!decidedView || item.state !== "approved" ? (
          <Button size="sm" variant="primary" onClick={() => onAction("approve")} disabled={busy} aria-keyshortcuts="a">
            {change("Approve")}
          </Button>
        ) : null}
        {!decidedView || item.state !== "rejected" ? (
          <Button size="sm" onClick={() => onAction("reject")} disabled={busy} aria-keyshortcuts="r">
            {change("Reject")}
          </Button>
        ) : null}
        {item.isSpam || item.state === "spam" ? (
          <Button size="sm" onClick={() => onAction("not_spam")} disabled={busy} aria-keyshortcuts="n">
            {change("Not spam")}
          </Button>
        ) : (
          <Button size="sm" onClick={() => onAction("spam")} disabled={busy} aria-keyshortcuts="s">
            {change("Spam")}
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
        <ConversationActions item={item} />
      </div>
    </article>
  );
}

/**
 * Feature (pin) a visible top-level comment, or unfeature it; on a Q&A page, mark a question
 * answered (moderation.feature, moderation.markAnswered). The list is read again after each.
 */
function ConversationActions({ item }: { item: TQueueItem }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: trpc.moderation.pathKey() });
  const feature = useMutation(trpc.moderation.feature.mutationOptions({ onSuccess }));
  const answer = useMutation(trpc.moderation.markAnswered.mutationOptions({ onSuccess }));
  if (item.parentCommentId !== null || item.deleted) return null;
  const visible = item.isPublished && !item.isSpam && !item.hidden;
  const busy = feature.isPending || answer.isPending;
  const error = feature.error ?? answer.error;
  return (
    <>
      {item.featured || visible ? (
        <Button
          size="sm"
          onClick={() => feature.mutate({ commentId: item.id, featured: !item.featured })}
          disabled={busy}
          aria-pressed={item.featured}
        >
          {item.featured ? "Unfeature" : "Feature"}
        </Button>
      ) : null}
      {item.qaPage ? (
        <Button
          size="sm"
          onClick={() => answer.mutate({ commentId: item.id, answered: !item.answered })}
          disabled={busy}
          aria-pressed={item.answered}
        >
          {item.answered ? "Unmark answered" : "Mark answered"}
        </Button>
      ) : null}
      {error ? (
        <p role="alert" className="basis-full text-xs text-red-700">
          {error.message}
        </p>
      ) : null}
    </>
  );
}
