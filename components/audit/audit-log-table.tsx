"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";

import type { TAuditLogEntry } from "@/server/audit/audit-log.schema";
import { useTRPC } from "@/components/trpc/react";

const PAGE_SIZE = 25;

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** The account's audit log through tRPC (auditLog.list): newest first, more on demand, filtered by action. */
export function AuditLogTable() {
  const trpc = useTRPC();
  const filterId = useId();
  const [action, setAction] = useState("");

  const actions = useQuery(trpc.auditLog.actions.queryOptions());
  const log = useInfiniteQuery(
    trpc.auditLog.list.infiniteQueryOptions(
      { limit: PAGE_SIZE, action: action || undefined },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <section aria-labelledby={`${filterId}-title`} className="rounded-lg border border-gray-200 bg-white shadow-sm">
      <div className="flex flex-col gap-3 border-b border-gray-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id={`${filterId}-title`} className="text-sm font-semibold text-gray-900">
          Entries
        </h2>
        <div className="flex items-center gap-2">
          <label htmlFor={filterId} className="text-sm text-gray-700">
            Action
          </label>
          <select
            id={filterId}
            value={action}
            onChange={(event) => setAction(event.target.value)}
            className="rounded-md border border-gray-300 bg-white py-1.5 pl-2 pr-8 text-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
          >
            <option value="">All actions</option>
            {(actions.data ?? []).map((option) => (
              <option key={option.action} value={option.action}>
                {option.action} ({option.count})
              </option>
            ))}
          </select>
        </div>
      </div>

      {log.isPending ? (
        <p className="px-4 py-10 text-center text-sm text-gray-500" role="status">
          Loading entries…
        </p>
      ) : log.isError ? (
        <div className="px-4 py-10 text-center text-sm" role="alert">
          <p className="text-red-700">The audit log could not be loaded: {log.error.message}</p>
          <button type="button" onClick={() => void log.refetch()} className="mt-3 font-medium text-brand-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
            Try again
          </button>
        </div>
      ) : entries.length === 0 ? (
        <p className="px-4 py-10 text-center text-sm text-gray-500">{action ? `No entries with the action ${action}.` : "No entries yet."}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
            <thead className="bg-gray-50 text-xs font-medium uppercase tracking-wide text-gray-500">
              <tr>
                <th scope="col" className="px-4 py-2">
                  When
                </th>
                <th scope="col" className="px-4 py-2">
                  Action
                </th>
                <th scope="col" className="px-4 py-2">
                  By
                </th>
                <th scope="col" className="px-4 py-2">
                  Target
                </th>
                <th scope="col" className="px-4 py-2">
                  IP
                </th>
                <th scope="col" className="px-4 py-2">
                  Details
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {entries.map((entry) => (
                <AuditLogRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        </div>
      )}

      {log.hasNextPage ? (
        <div className="border-t border-gray-200 px-4 py-3 text-center">
          <button
            type="button"
            onClick={() => void log.fetchNextPage()}
            disabled={log.isFetchingNextPage}
            className="rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-700 shadow-sm hover:bg-gray-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 disabled:cursor-wait disabled:opacity-60"
          >
            {log.isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        </div>
      ) : null}
    </section>
  );
}

function AuditLogRow({ entry }: { entry: TAuditLogEntry }) {
  const details = Object.keys(entry.metadata).length > 0 ? JSON.stringify(entry.metadata) : "";
  return (
    <tr className="align-top">
      <td className="whitespace-nowrap px-4 py-2 text-gray-700">
        <time dateTime={entry.createdAt.toISOString()}>{dateTime.format(entry.createdAt)}</time>
      </td>
      <td className="whitespace-nowrap px-4 py-2">
        <code className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs text-gray-800">{entry.action}</code>
      </td>
      <td className="px-4 py-2 text-gray-700">
        {entry.actor ? (
          <>
            <span className="block font-medium text-gray-900">{entry.actor.name}</span>
            <span className="block text-xs text-gray-500">{entry.actor.email}</span>
          </>
        ) : (
          <span className="text-gray-500">System</span>
        )}
      </td>
      <td className="px-4 py-2 text-gray-700">
        {entry.targetType ? (
          <>
            <span className="block">{entry.targetType}</span>
            {entry.targetId ? <span className="block font-mono text-xs text-gray-500">{entry.targetId}</span> : null}
          </>
        ) : (
          <span className="text-gray-400">—</span>
        )}
      </td>
      <td className="whitespace-nowrap px-4 py-2 font-mono text-xs text-gray-600">{entry.ip ?? "—"}</td>
      <td className="max-w-xs px-4 py-2 font-mono text-xs break-words text-gray-600">{details || "—"}</td>
    </tr>
  );
}
