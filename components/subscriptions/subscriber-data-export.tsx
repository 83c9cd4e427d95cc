"use client";

/**
 * A subscriber's data exports, on the Subscribers page's detail (docs/privacy.md "Data export
 * (subject access)"): produce one for the reader (a subject access request, audited; tRPC
 * privacyExports.create), optionally mailed to them too, and download it once built (only the
 * staff user who asked may: /api/admin/privacy/exports/<id>). While one is being prepared the list
 * refreshes itself.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  Badge,
  Button,
  Checkbox,
  DateTime,
  ErrorAlert,
  LoadState,
  textLinkClasses,
  type BadgeTone,
} from "@/components/ui";

const TONES: Record<"pending" | "ready" | "expired", BadgeTone> = { pending: "amber", ready: "green", expired: "gray" };
const LABELS: Record<"pending" | "ready" | "expired", string> = {
  pending: "Preparing",
  ready: "Ready",
  expired: "Expired",
};

export function SubscriberDataExport({ memberId }: { memberId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [mailReader, setMailReader] = useState(false);
  const list = useQuery({
    ...trpc.privacyExports.list.queryOptions({ memberId }),
    refetchInterval: (query) => (query.state.data?.some((e) => e.status === "pending") ? 2000 : false),
  });
  const create = useMutation(
    trpc.privacyExports.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.privacyExports.list.pathKey() });
      },
    }),
  );
  return (
    <section aria-labelledby={`data-export-${memberId}`} data-testid="subscriber-data-export">
      <h3 id={`data-export-${memberId}`} className="mb-2 font-medium text-gray-900">
        Data export
      </h3>
      <p className="mb-3 text-gray-600">
        Everything Masthead holds about this reader, as a .zip (data.json and a readable page), for a subject access
        request. Recorded in the audit log; only you can download what you produce, for 7 days.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          size="sm"
          disabled={create.isPending}
          onClick={() => create.mutate({ memberId, mailReader })}
        >
          Produce the reader&apos;s data
        </Button>
        <Checkbox
          label="Also e-mail the reader a download link"
          checked={mailReader}
          onChange={(event) => setMailReader(event.target.checked)}
        />
      </div>
      <ErrorAlert error={create.error} className="mt-2" />
      <LoadState query={list} what="data exports" />
      {list.data?.length ? (
        <ul className="mt-3 space-y-2" data-testid="data-export-list">
          {list.data.map((e) => (
            <li key={e.id} className="flex flex-wrap items-center gap-2">
              <Badge tone={TONES[e.status]}>{LABELS[e.status]}</Badge>
              <span className="text-gray-700">
                {e.requested_by === "staff" ? "Staff request" : "Reader's request"} ·{" "}
                <DateTime value={new Date(e.requested_at)} />
              </span>
              {e.downloadable ? (
                <a className={textLinkClasses} href={`/api/admin/privacy/exports/${e.id}`} download>
                  Download
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
