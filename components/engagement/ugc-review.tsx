"use client";

/**
 * Readers' contributions through the UGC form (tRPC ugc.*): newest first, filtered by status
 * (pending by default) and topic type; each opens to its full text, links and images, with its
 * moderation scores, and is approved or rejected (a decision may be changed; every change is in
 * the audit log). A reader's text is shown as text: React escapes it, nothing is rendered as HTML.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Badge,
  Button,
  Code,
  DateTime,
  FilterDisclosure,
  FilterSelect,
  ListError,
  ListStatus,
  LoadMore,
  LoadState,
  Panel,
  StatusFilter,
} from "@/components/ui";
import type { TUgcReviewStatus, TUgcView } from "@/server/engagement/ugc.schema";

const PAGE_SIZE = 25;

const STATUS_LABEL: Record<TUgcReviewStatus, string> = {
  PENDING: "Pending",
  APPROVED: "Approved",
  REJECTED: "Rejected",
};
const STATUS_TONE = { PENDING: "amber", APPROVED: "green", REJECTED: "red" } as const;

/** At this toxicity the comment scorer would hold a comment at the default threshold. */
const TOXIC = 70;

export function UgcReview() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<TUgcReviewStatus | "">("PENDING");
  const [topicType, setTopicType] = useState("");
  const [notice, setNotice] = useState<string | null>(null);

  const counts = useQuery(trpc.ugc.counts.queryOptions());
  const topics = useQuery(trpc.ugc.topicTypes.queryOptions());
  const list = useInfiniteQuery(
    trpc.ugc.list.infiniteQueryOptions(
      { limit: PAGE_SIZE, status: status || undefined, topicType: topicType || undefined },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const decide = useMutation(
    trpc.ugc.decide.mutationOptions({
      onSuccess: async ({ submission, changed }) => {
        const what = submission.title ? `“${submission.title}”` : `Submission ${submission.id}`;
        setNotice(
          changed
            ? `${what} ${submission.status === "APPROVED" ? "approved" : "rejected"}.`
            : `${what} was already ${STATUS_LABEL[submission.status].toLowerCase()}.`,
        );
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.ugc.list.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.ugc.counts.queryKey() }),
        ]);
      },
    }),
  );
  const submissions = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="space-y-6">
      <Panel
        title="Submissions"
        actions={
          <FilterDisclosure active={[status, topicType].filter(Boolean).length}>
            <div className="flex flex-wrap items-center gap-3">
              <StatusFilter value={status} onChange={setStatus} labels={STATUS_LABEL} counts={counts.data} />
              <FilterSelect
                label="Topic"
                value={topicType}
                onChange={(event) => setTopicType(event.target.value)}
                placeholder="All"
                options={(topics.data ?? []).map((t) => ({ value: t.topicType, label: `${t.topicType} (${t.count})` }))}
              />
            </div>
          </FilterDisclosure>
        }
      >
        <ListStatus message={notice} />
        <ListError error={decide.error} />
        <LoadState
          query={list}
          what="submissions"
          empty={submissions.length === 0}
          emptyText={
            status
              ? `No ${STATUS_LABEL[status].toLowerCase()} submissions${topicType ? ` on ${topicType}` : ""}.`
              : "No submissions yet. Readers' contributions through the UGC form appear here."
          }
        />
        {submissions.length ? (
          <ul className="divide-y divide-gray-100">
            {submissions.map((s) => (
              <SubmissionRow
                key={s.id}
                submission={s}
                pending={decide.isPending && decide.variables?.id === s.id}
                onDecide={(decision) => {
                  setNotice(null);
                  decide.mutate({ id: s.id, decision });
                }}
              />
            ))}
          </ul>
        ) : null}
        <LoadMore query={list} />
      </Panel>
    </div>
  );
}

function SubmissionRow({
  submission: s,
  pending,
  onDecide,
}: {
  submission: TUgcView;
  pending: boolean;
  onDecide: (decision: "APPROVED" | "REJECTED") => void;
}) {
  const heading = s.title ?? (s.text.split("\n")[0]!.slice(0, 120) || `Submission ${s.id}`);
  return (
    <li className="px-4 py-3" data-testid="ugc-submission" data-status={s.status}>
      <details className="group">
        <summary className="flex cursor-pointer list-none flex-col gap-1 rounded focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none sm:flex-row sm:items-center sm:gap-4">
          <DateTime value={s.createdAt} className="w-44 shrink-0 text-sm text-gray-600" />
          <span className="min-w-0 flex-1">
            <span className="block truncate text-sm font-medium text-gray-900">{heading}</span>
            <span className="block truncate text-xs text-gray-500">
              By {s.member.name} · {s.topicType}: {s.topicValues.join(", ")}
            </span>
          </span>
          <span className="flex flex-wrap gap-1">
            {s.isSpam ? <Badge tone="red">Spam?</Badge> : null}
            {s.toxicity >= TOXIC ? <Badge tone="red">Toxic {Math.round(s.toxicity)}</Badge> : null}
            <Badge tone={STATUS_TONE[s.status]}>{STATUS_LABEL[s.status]}</Badge>
          </span>
          <span aria-hidden className="text-xs text-gray-400 group-open:rotate-90">
            ▶
          </span>
        </summary>
        <div className="mt-3 space-y-3 rounded-md border border-gray-200 bg-gray-50 p-3">
          {s.title ? <h3 className="text-sm font-semibold break-words text-gray-900">{s.title}</h3> : null}
          <p className="text-sm break-words whitespace-pre-wrap text-gray-800" data-testid="ugc-text">
            {s.text}
          </p>
          {s.links.length ? (
            <div>
              <h4 className="text-xs font-medium text-gray-600">Links</h4>
              <ul className="mt-1 space-y-1">
                {s.links.map((link) => (
                  <li key={link} className="text-xs break-all">
                    <a
                      href={link}
                      target="_blank"
                      rel="noopener noreferrer nofollow ugc"
                      className="hover:text-brand-800 text-brand-700 underline"
                    >
                      {link}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {s.images.length ? (
            <div>
              <h4 className="text-xs font-medium text-gray-600">Images</h4>
              <ul className="mt-1 flex flex-wrap gap-2">
                {s.images.map((image, index) => (
                  <li key={image}>
                    <a href={image} target="_blank" rel="noopener noreferrer" className="block">
                      {/* eslint-disable-next-line @next/next/no-img-element -- reader uploads of any size, served by Masthead */}
                      <img
                        src={image}
                        alt={`Image ${index + 1} of the submission`}
                        className="h-24 w-24 rounded border border-gray-200 object-cover"
                        loading="lazy"
                      />
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <p className="text-xs text-gray-600">
            Toxicity {s.toxicity} · {s.isSpam ? "looks like spam" : "not spam"}
            {s.moderationReasons.length ? (
              <>
                {" · "}
                {s.moderationReasons.map((r) => (
                  <Code key={r}>{r}</Code>
                ))}
              </>
            ) : null}
          </p>
          {s.decidedAt ? (
            <p className="text-xs text-gray-600">
              {STATUS_LABEL[s.status]} <DateTime value={s.decidedAt} />
              {s.decidedBy ? ` by ${s.decidedBy.name}` : ""}.
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            {s.status !== "APPROVED" ? (
              <Button variant="primary" loading={pending} loadingText="Saving…" onClick={() => onDecide("APPROVED")}>
                Approve
              </Button>
            ) : null}
            {s.status !== "REJECTED" ? (
              <Button variant="danger" loading={pending} loadingText="Saving…" onClick={() => onDecide("REJECTED")}>
                Reject
              </Button>
            ) : null}
          </div>
        </div>
      </details>
    </li>
  );
}
