"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import { Code, DateTime, FilterSelect, LoadMore, LoadState, Panel, Table, type Column } from "@/components/ui";
import type { TAuditLogEntry } from "@/server/audit/audit-log.schema";

const PAGE_SIZE = 25;

const DASH = <span className="text-gray-400">—</span>;

const COLUMNS: Column<TAuditLogEntry>[] = [
  {
    header: "When",
    className: "whitespace-nowrap text-gray-700",
    cell: (entry) => <DateTime value={entry.createdAt} />,
  },
  { header: "Action", className: "whitespace-nowrap", cell: (entry) => <Code>{entry.action}</Code> },
  {
    header: "By",
    className: "text-gray-700",
    cell: (entry) =>
      entry.actor ? (
        <>
          <span className="block font-medium text-gray-900">{entry.actor.name}</span>
          <span className="block text-xs text-gray-500">{entry.actor.email}</span>
        </>
      ) : (
        <span className="text-gray-500">System</span>
      ),
  },
  {
    header: "Target",
    className: "text-gray-700",
    cell: (entry) =>
      entry.targetType ? (
        <>
          <span className="block">{entry.targetType}</span>
          {entry.targetId ? <span className="block font-mono text-xs text-gray-500">{entry.targetId}</span> : null}
        </>
      ) : (
        DASH
      ),
  },
  {
    header: "IP",
    className: "font-mono text-xs whitespace-nowrap text-gray-600",
    cell: (entry) => entry.ip ?? "—",
  },
  {
    header: "Details",
    className: "min-w-48 max-w-xs font-mono text-xs break-words text-gray-600",
    cell: (entry) => (Object.keys(entry.metadata).length > 0 ? JSON.stringify(entry.metadata) : "—"),
  },
];

/** The account's audit log through tRPC (auditLog.list): newest first, more on demand, filtered by action. */
export function AuditLogTable() {
  const trpc = useTRPC();
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
    <Panel
      title="Entries"
      actions={
        <FilterSelect
          label="Action"
          value={action}
          onChange={(event) => setAction(event.target.value)}
          placeholder="All actions"
          options={(actions.data ?? []).map((option) => ({
            value: option.action,
            label: `${option.action} (${option.count})`,
          }))}
        />
      }
    >
      <LoadState
        query={log}
        what="audit log"
        empty={entries.length === 0}
        emptyText={action ? `No entries with the action ${action}.` : "No entries yet."}
      />
      {entries.length ? (
        <Table label="Audit log entries" columns={COLUMNS} rows={entries} rowKey={(e) => e.id} />
      ) : null}
      <LoadMore query={log} />
    </Panel>
  );
}
