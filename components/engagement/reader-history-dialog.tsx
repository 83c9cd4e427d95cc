"use client";

/** A reader's history (moderation.history): their comments with states, reports against them, bans; lift a ban. */
import { useMutation, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Badge, Button, DateTime, Dialog, ErrorAlert, LoadState, TextLink } from "@/components/ui";
import { REPORT_REASON_LABELS, type TReaderHistory } from "@/server/engagement/moderation/queue/queue.schema";

import { CommentBody } from "./comment-body";

export function ReaderHistoryDialog({
  memberId,
  onClose,
  onChanged,
}: {
  memberId: number | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  return (
    <Dialog open={memberId !== null} onClose={onClose} title="Reader's history" size="lg">
      {memberId !== null ? <History memberId={memberId} onChanged={onChanged} /> : null}
    </Dialog>
  );
}

function History({ memberId, onChanged }: { memberId: number; onChanged: () => void }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.moderation.history.queryOptions({ memberId }));
  const lift = useMutation(
    trpc.moderation.liftBan.mutationOptions({
      onSuccess: async () => {
        await history.refetch();
        onChanged();
      },
    }),
  );
  const data = history.data;
  return (
    <div className="space-y-5 text-sm">
      <LoadState query={history} what="history" />
      {data ? (
        <>
          <section aria-label="Reader">
            <p className="font-semibold text-gray-900">
              {data.reader.name} <span className="font-normal text-gray-600">(reader {data.reader.memberId})</span>
            </p>
            <p className="text-gray-700">
              {data.reader.publishedComments} published comment{data.reader.publishedComments === 1 ? "" : "s"}
              {data.reader.firstCommentAt ? (
                <>
                  , first on <DateTime value={data.reader.firstCommentAt} />
                </>
              ) : null}
              {data.reader.isNew ? " · new reader" : ""}
            </p>
            <p>
              <TextLink href={`/admin/engagement/community?q=${encodeURIComponent(`#${data.reader.memberId}`)}`}>
                Open on the Community page
              </TextLink>{" "}
              <span className="text-gray-600">(warn, suspend, reject all their comments)</span>
            </p>
            {data.activeBan ? (
              <div className="mt-2 flex flex-wrap items-center gap-2">
                <Badge tone="red">
                  Banned{" "}
                  {data.activeBan.expiresAt ? (
                    <>
                      until <DateTime value={data.activeBan.expiresAt} />
                    </>
                  ) : (
                    "for good"
                  )}
                </Badge>
                <Button
                  size="sm"
                  onClick={() => lift.mutate({ memberId })}
                  loading={lift.isPending}
                  loadingText="Lifting…"
                >
                  Lift the ban
                </Button>
              </div>
            ) : null}
            <ErrorAlert error={lift.error} />
          </section>

          <section aria-labelledby="history-comments">
            <h3 id="history-comments" className="mb-2 font-semibold text-gray-900">
              Comments ({data.comments.length})
            </h3>
            <ul className="divide-y divide-gray-200 rounded border border-gray-200">
              {data.comments.map((c) => (
                <li key={c.id} className="space-y-1 px-3 py-2">
                  <div className="flex flex-wrap gap-1 text-xs text-gray-600">
                    <span>#{c.id}</span> · <DateTime value={c.createdAt} /> ·{" "}
                    <Badge tone={c.deleted ? "red" : c.isPublished ? "green" : "gray"}>
                      {c.deleted ? "deleted" : c.isPublished ? "published" : "unpublished"}
                    </Badge>
                    <Badge tone="gray">{c.state}</Badge>
                    {c.isSpam ? <Badge tone="amber">spam</Badge> : null}
                    {c.reportCount ? <Badge tone="amber">{c.reportCount} reports</Badge> : null}
                  </div>
                  <CommentBody ops={c.ops} />
                </li>
              ))}
            </ul>
          </section>

          <ReportsAgainst id="history-reports" title="Reports against this reader" reports={data.reportsAgainst} />

          <BansSection id="history-bans" title="Bans" bans={data.bans} activeText="active" />
        </>
      ) : null}
    </div>
  );
}

/** One list of a reader's history under its heading with the count: an item a line, or "None.". */
function HistoryList<T>(props: {
  id: string;
  title: string;
  items: readonly T[];
  itemKey: (item: T, index: number) => string | number;
  children: (item: T) => ReactNode;
}) {
  return (
    <section aria-labelledby={props.id}>
      <h3 id={props.id} className="mb-2 font-semibold text-gray-900">
        {props.title} ({props.items.length})
      </h3>
      {props.items.length ? (
        <ul className="list-inside list-disc text-gray-700">
          {props.items.map((item, i) => (
            <li key={props.itemKey(item, i)} className="break-words">
              {props.children(item)}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-gray-600">None.</p>
      )}
    </section>
  );
}

/** The reports made against a reader's comments, as the history dialog and the Community card show them. */
export function ReportsAgainst(props: { id: string; title: string; reports: TReaderHistory["reportsAgainst"] }) {
  return (
    <HistoryList id={props.id} title={props.title} items={props.reports} itemKey={(_, i) => i}>
      {(r) => (
        <>
          Comment #{r.commentId}: {REPORT_REASON_LABELS[r.reason]}
          {r.note ? ` – ${r.note}` : ""} (<DateTime value={r.createdAt} />)
        </>
      )}
    </HistoryList>
  );
}

/**
 * A reader's bans and suspensions: the reason, until when, by whom (with the day it was made where
 * `dated`), and whether it was lifted, is `activeText` ("in force") or ended.
 */
export function BansSection(props: {
  id: string;
  title: string;
  bans: TReaderHistory["bans"];
  activeText: string;
  dated?: boolean;
}) {
  return (
    <HistoryList id={props.id} title={props.title} items={props.bans} itemKey={(b) => b.id}>
      {(b) => (
        <>
          {b.reason} ·{" "}
          {b.expiresAt ? (
            <>
              until <DateTime value={b.expiresAt} />
            </>
          ) : (
            "for good"
          )}
          {b.createdBy ? ` · by ${b.createdBy}` : ""}
          {props.dated ? (
            <>
              {" "}
              · <DateTime value={b.createdAt} />
            </>
          ) : null}
          {b.liftedAt
            ? ` · lifted${b.liftedBy ? ` by ${b.liftedBy}` : ""}`
            : b.active
              ? ` · ${props.activeText}`
              : " · ended"}
        </>
      )}
    </HistoryList>
  );
}
