"use client";

/**
 * The account's newsletter sends (tRPC newsletterSends.list), newest first: what was sent to which
 * newsletter, its state, recipients, mails sent and failed, when it started and finished (in the
 * account's zone), and Cancel for a send that is queued or running. Each subject opens the send's
 * stats page. Refreshes every few seconds while a send runs.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Button,
  DateTime,
  ErrorAlert,
  FilterSelect,
  LoadMore,
  Panel,
  QueryTable,
  TextLink,
  useConfirm,
} from "@/components/ui";
import type { TSendView } from "@/server/newsletters/send.schema";

import { SendStatus } from "./send-status";

const PAGE_SIZE = 25;
const n = (value: number) => value.toLocaleString("en");

export function SendList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [newsletterId, setNewsletterId] = useState("");
  const choices = useQuery(trpc.newsletterSends.choices.queryOptions());
  const sends = useInfiniteQuery({
    ...trpc.newsletterSends.list.infiniteQueryOptions(
      { limit: PAGE_SIZE, newsletterId: newsletterId ? Number(newsletterId) : undefined },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.items.some((s) => s.status === "SENDING" || s.status === "QUEUED"))
        ? 3000
        : false,
  });
  const cancel = useMutation(
    trpc.newsletterSends.cancel.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.newsletterSends.list.queryKey() }),
    }),
  );
  const rows = sends.data?.pages.flatMap((p) => p.items) ?? [];

  const columns = [
    {
      header: "Send",
      cell: (s: TSendView) => (
        <div className="min-w-48">
          <TextLink
            href={`/admin/newsletters/${s.newsletterId}/stats/sends/${s.id}`}
            className="font-medium break-words"
          >
            {s.subject}
          </TextLink>
          <p className="text-xs text-gray-500">
            {s.newsletterName} · {s.kind === "digest" ? "Digest" : "Story"}
          </p>
        </div>
      ),
    },
    { header: "State", cell: (s: TSendView) => <SendStatus status={s.status} /> },
    { header: "Recipients", cell: (s: TSendView) => n(s.recipients), className: "text-right tabular-nums" },
    { header: "Sent", cell: (s: TSendView) => n(s.sent), className: "text-right tabular-nums" },
    { header: "Failed", cell: (s: TSendView) => n(s.failed), className: "text-right tabular-nums" },
    {
      header: "Started",
      cell: (s: TSendView) =>
        s.startedAt ? <DateTime value={s.startedAt} /> : <span className="text-gray-500">—</span>,
    },
    {
      header: "Finished",
      cell: (s: TSendView) =>
        s.finishedAt ? <DateTime value={s.finishedAt} /> : <span className="text-gray-500">—</span>,
    },
    {
      header: "Actions",
      hideHeader: true,
      cell: (s: TSendView) =>
        s.status === "QUEUED" || s.status === "SENDING" ? (
          <Button
            size="sm"
            variant="danger"
            disabled={cancel.isPending}
            aria-label={`Cancel the send “${s.subject}” to ${s.newsletterName}`}
            onClick={async () => {
              const ok = await confirm({
                title: `Cancel the send “${s.subject}”?`,
                body: `${n(s.sent)} of ${n(s.recipients)} mails have left; the rest will not be sent.`,
                confirmLabel: "Cancel send",
              });
              if (ok) cancel.mutate({ sendId: s.id });
            }}
          >
            Cancel
          </Button>
        ) : null,
    },
  ];

  return (
    <Panel
      title="Sends"
      actions={
        <FilterSelect
          label="Newsletter"
          value={newsletterId}
          onChange={(e) => setNewsletterId(e.target.value)}
          options={[
            { value: "", label: "All newsletters" },
            ...(choices.data ?? []).map((c) => ({ value: String(c.id), label: c.name })),
          ]}
        />
      }
    >
      <ErrorAlert error={cancel.error} className="m-4" />
      <QueryTable
        query={sends}
        what="sends"
        emptyText="No sends yet. Send a story from its editor's Newsletter panel."
        label="Sends"
        columns={columns}
        rows={rows}
        rowKey={(s) => s.id}
        rowProps={(s) => ({ "data-testid": "send-row", "data-status": s.status })}
      />
      <LoadMore query={sends} />
    </Panel>
  );
}
