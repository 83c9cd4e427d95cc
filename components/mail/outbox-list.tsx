"use client";

/** The account's outgoing e-mails (tRPC mail.list): newest first, filtered by status, each body readable. */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Alert, Badge, DateTime, LoadMore, LoadState, Panel, StatusFilter } from "@/components/ui";
import type { TEmailStatus, TOutgoingEmailPage, TOutgoingEmailView } from "@/server/mail/outbox.schema";

const PAGE_SIZE = 25;

const STATUS_LABEL: Record<TEmailStatus, string> = { PENDING: "Pending", SENT: "Sent", FAILED: "Failed" };
const STATUS_TONE = { PENDING: "amber", SENT: "green", FAILED: "red" } as const;

type TransportName = TOutgoingEmailPage["transport"]["name"];

export function OutboxList() {
  const trpc = useTRPC();
  const [status, setStatus] = useState<TEmailStatus | "">("");

  const counts = useQuery(trpc.mail.counts.queryOptions());
  const mail = useInfiniteQuery(
    trpc.mail.list.infiniteQueryOptions(
      { limit: PAGE_SIZE, status: status || undefined },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const emails = mail.data?.pages.flatMap((page) => page.items) ?? [];
  const transport = mail.data?.pages[0]?.transport;

  return (
    <div className="space-y-6">
      {transport ? <TransportNote transport={transport} /> : null}

      <Panel
        title="Outgoing e-mails"
        actions={<StatusFilter value={status} onChange={setStatus} labels={STATUS_LABEL} counts={counts.data} />}
      >
        <LoadState
          query={mail}
          what="outbox"
          empty={emails.length === 0}
          emptyText={
            status
              ? `No ${STATUS_LABEL[status].toLowerCase()} e-mails.`
              : "No e-mails yet. Password reset requests from members appear here."
          }
        />
        {emails.length ? (
          <ul className="divide-y divide-gray-100">
            {emails.map((email) => (
              <OutboxRow key={email.id} email={email} transport={transport?.name} />
            ))}
          </ul>
        ) : null}
        <LoadMore query={mail} />
      </Panel>
    </div>
  );
}

/** How this installation delivers mail (the transport's name and, for SMTP, where: never credentials). */
function TransportNote({ transport }: { transport: TOutgoingEmailPage["transport"] }) {
  if (transport.name === "smtp")
    return (
      <Alert tone="info" role="note">
        <span data-testid="outbox-transport">
          Transport: <strong>SMTP</strong>
          {transport.detail ? <> · {transport.detail}</> : null}
        </span>
        . A mail the server refuses for now is retried with backoff (6 attempts); one it rejects for good (a 5xx reply)
        fails at once with the server&apos;s answer.
      </Alert>
    );
  return (
    <Alert tone="info" role="note">
      <span data-testid="outbox-transport">
        Transport: <strong>log</strong>
      </span>
      . No mail server is set up for this installation, so no e-mail reaches its reader: each is written to the
      server&apos;s log and marked sent. Whoever runs this Masthead can connect a mail server. Until then the e-mails
      are shown here, so you can open a password reset link from this page.
    </Alert>
  );
}

function OutboxRow({ email, transport }: { email: TOutgoingEmailView; transport: TransportName | undefined }) {
  return (
    <li className="px-4 py-3" data-testid="outbox-email">
      <details className="group">
        <summary className="flex cursor-pointer list-none flex-col gap-1 rounded focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none sm:flex-row sm:items-center sm:gap-4">
          <DateTime value={email.createdAt} className="w-44 shrink-0 text-sm text-gray-600" />
          <span className="min-w-0 flex-1">
            <span className="block truncate text-sm font-medium text-gray-900">{email.subject}</span>
            <span className="block truncate text-xs text-gray-500">
              To {email.to} · <code className="font-mono">{email.kind}</code>
              {email.language ? (
                <>
                  {" "}
                  · <span data-testid="outbox-language">{email.language.lang}</span>
                  {email.language.dir === "rtl" ? ", right to left" : null}
                </>
              ) : null}
            </span>
          </span>
          <Badge tone={STATUS_TONE[email.status]}>{STATUS_LABEL[email.status]}</Badge>
          <span className="w-24 shrink-0 text-xs text-gray-500">
            {email.attempts === 1 ? "1 attempt" : `${email.attempts} attempts`}
          </span>
          <span aria-hidden className="text-xs text-gray-400 group-open:rotate-90">
            ▶
          </span>
        </summary>
        <div className="mt-3 rounded-md border border-gray-200 bg-gray-50 p-3">
          <p className="mb-2 text-xs text-gray-500">
            {email.sentAt ? (
              <>
                Sent <DateTime value={email.sentAt} />{" "}
                {transport === "smtp" ? "(accepted by the SMTP server)" : "(written to the server log)"}
              </>
            ) : email.status === "FAILED" ? (
              `Not sent: failed after ${email.attempts === 1 ? "1 attempt" : `${email.attempts} attempts`}.`
            ) : email.attempts > 0 ? (
              "Not sent yet: it will be tried again."
            ) : (
              "Not sent yet."
            )}
          </p>
          {email.lastError ? (
            <p className="mb-2 text-xs text-red-700" data-testid="outbox-last-error">
              Last error: <code className="font-mono break-words">{email.lastError}</code>
            </p>
          ) : null}
          <pre className="font-mono text-xs break-words whitespace-pre-wrap text-gray-800">{email.text}</pre>
        </div>
      </details>
    </li>
  );
}
