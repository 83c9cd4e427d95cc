"use client";
/** The account's outgoing e-mails (tRPC mail.list): newest first, filtered by status, each body readable. */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { buttonClass, dateTime, StatusBadge } from "@/components/webhooks/ui";
import type { TEmailStatus, TOutgoingEmailView } from "@/server/mail/outbox.schema";

const PAGE_SIZE = 25;

const STATUS_LABEL: Record<TEmailStatus, string> = { PENDING: "Pending", SENT: "Sent", FAILED: "Failed" };
const STATUS_TONE = { PENDING: "amber", SENT: "green", FAILED: "red" } as const;

export function OutboxList() {
  const trpc = useTRPC();
  const filterId = useId();
  const [status, setStatus] = useState<TEmailStatus | "">("");

  const counts = useQuery(trpc.mail.counts.queryOptions());
  const mail = useInfiniteQuery(
    trpc.mail.list.infiniteQueryOptions({ limit: PAGE_SIZE, status: status || undefined }, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
  );
  const emails = mail.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="space-y-6">
      <p className="rounded-md border border-blue-200 bg-blue-50 px-4 py-3 text-sm text-blue-900">
        No mail server is configured: e-mails are written to the server log and marked sent. Their bodies are shown here, so in development
        you can open a password reset link from this page.
      </p>

      <section aria-labelledby={`${filterId}-title`} className="rounded-lg border border-gray-200 bg-white shadow-sm">
        <div className="flex flex-col gap-3 border-b border-gray-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
          <h2 id={`${filterId}-title`} className="text-sm font-semibold text-gray-900">
            Outgoing e-mails
          </h2>
          <div className="flex items-center gap-2">
            <label htmlFor={filterId} className="text-sm text-gray-700">
              Status
            </label>
            <select
              id={filterId}
              value={status}
              onChange={(event) => setStatus(event.target.value as TEmailStatus | "")}
              className="rounded-md border border-gray-300 bg-white py-1.5 pl-2 pr-8 text-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
            >
              <option value="">All</option>
              {(Object.keys(STATUS_LABEL) as TEmailStatus[]).map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABEL[s]}
                  {counts.data ? ` (${counts.data[s]})` : ""}
                </option>
              ))}
            </select>
          </div>
        </div>

        {mail.isPending ? (
          <p className="px-4 py-10 text-center text-sm text-gray-500" role="status">
            Loading e-mails…
          </p>
        ) : mail.isError ? (
          <div className="px-4 py-10 text-center text-sm" role="alert">
            <p className="text-red-700">The outbox could not be loaded: {mail.error.message}</p>
            <button type="button" onClick={() => void mail.refetch()} className={`${buttonClass} mt-3`}>
              Try again
            </button>
          </div>
        ) : emails.length === 0 ? (
          <p className="px-4 py-10 text-center text-sm text-gray-500">
            {status ? `No ${STATUS_LABEL[status].toLowerCase()} e-mails.` : "No e-mails yet. Password reset requests from members appear here."}
          </p>
        ) : (
          <ul className="divide-y divide-gray-100">
            {emails.map((email) => (
              <OutboxRow key={email.id} email={email} />
            ))}
          </ul>
        )}

        {mail.hasNextPage ? (
          <div className="border-t border-gray-200 px-4 py-3 text-center">
            <button type="button" onClick={() => void mail.fetchNextPage()} disabled={mail.isFetchingNextPage} className={buttonClass}>
              {mail.isFetchingNextPage ? "Loading…" : "Load more"}
            </button>
          </div>
        ) : null}
      </section>
    </div>
  );
}

function OutboxRow({ email }: { email: TOutgoingEmailView }) {
  return (
    <li className="px-4 py-3" data-testid="outbox-email">
      <details className="group">
        <summary className="flex cursor-pointer list-none flex-col gap-1 rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 sm:flex-row sm:items-center sm:gap-4">
          <span className="w-44 shrink-0 text-sm text-gray-600">
            <time dateTime={email.createdAt.toISOString()}>{dateTime.format(email.createdAt)}</time>
          </span>
          <span className="min-w-0 flex-1">
            <span className="block truncate text-sm font-medium text-gray-900">{email.subject}</span>
            <span className="block truncate text-xs text-gray-500">
              To {email.to} · <code className="font-mono">{email.kind}</code>
            </span>
          </span>
          <StatusBadge tone={STATUS_TONE[email.status]}>{STATUS_LABEL[email.status]}</StatusBadge>
          <span aria-hidden className="text-xs text-gray-400 group-open:rotate-90">
            ▶
          </span>
        </summary>
        <div className="mt-3 rounded-md border border-gray-200 bg-gray-50 p-3">
          <p className="mb-2 text-xs text-gray-500">
            {email.sentAt ? (
              <>
                Sent <time dateTime={email.sentAt.toISOString()}>{dateTime.format(email.sentAt)}</time> (written to the server log)
              </>
            ) : (
              "Not sent yet."
            )}
          </p>
          <pre className="whitespace-pre-wrap break-words font-mono text-xs text-gray-800">{email.text}</pre>
        </div>
      </details>
    </li>
  );
}
