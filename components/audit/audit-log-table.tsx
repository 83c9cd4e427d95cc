"use client";

/**
 * The account's audit log (tRPC auditLog.list): newest first, more on demand; filtered by action,
 * person and days (the account's time zone); each entry's target linked to where the dashboard
 * shows it and its details in words; the same selection as CSV (GET /api/admin/audit-log.csv). A
 * table on wide screens, a list of entries on phones.
 */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";

import { useTRPC } from "@/components/trpc/react";
import {
  buttonClasses,
  Code,
  DateTime,
  FilterDisclosure,
  FilterSelect,
  FormField,
  Input,
  LoadMore,
  LoadState,
  Panel,
  Table,
  TextLink,
  type Column,
} from "@/components/ui";
import type { TAuditLogEntry, TAuditLogFilter } from "@/server/audit/audit-log.schema";

import { auditTarget, detailLines } from "./audit-words";

const PAGE_SIZE = 25;

const DASH = <span className="text-gray-400">—</span>;

function By({ entry }: { entry: TAuditLogEntry }) {
  return entry.actor ? (
    <>
      <span className="block font-medium text-gray-900">{entry.actor.name}</span>
      <span className="block text-xs break-all text-gray-500">{entry.actor.email}</span>
    </>
  ) : (
    <span className="text-gray-500">System</span>
  );
}

function Target({ entry }: { entry: TAuditLogEntry }) {
  const target = auditTarget(entry.targetType, entry.targetId);
  if (!target) return DASH;
  return (
    <>
      {target.href ? <TextLink href={target.href}>{target.label}</TextLink> : <span>{target.label}</span>}
      {entry.targetId ? (
        <span className="block font-mono text-xs break-all text-gray-500">{entry.targetId}</span>
      ) : null}
    </>
  );
}

function Details({ entry }: { entry: TAuditLogEntry }) {
  const lines = detailLines(entry.metadata);
  if (lines.length === 0) return DASH;
  return (
    <dl className="space-y-0.5">
      {lines.map((line) => (
        <div key={line.label} className="break-words">
          <dt className="inline font-medium text-gray-700">{line.label}: </dt>
          <dd className="inline">{line.text}</dd>
        </div>
      ))}
    </dl>
  );
}

const COLUMNS: Column<TAuditLogEntry>[] = [
  { header: "When", className: "whitespace-nowrap text-gray-700", cell: (e) => <DateTime value={e.createdAt} /> },
  { header: "Action", className: "whitespace-nowrap", cell: (e) => <Code>{e.action}</Code> },
  { header: "By", className: "text-gray-700", cell: (e) => <By entry={e} /> },
  { header: "Target", className: "text-gray-700", cell: (e) => <Target entry={e} /> },
  { header: "IP", className: "font-mono text-xs whitespace-nowrap text-gray-600", cell: (e) => e.ip ?? "—" },
  { header: "Details", className: "min-w-56 max-w-sm text-xs text-gray-600", cell: (e) => <Details entry={e} /> },
];

/** One entry as a phone shows it: what, when, by whom, then the rest. */
function EntryCard({ entry }: { entry: TAuditLogEntry }) {
  return (
    <li className="space-y-1 px-4 py-3 text-sm" data-testid="audit-entry">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <Code>{entry.action}</Code>
        <span className="text-xs text-gray-600">
          <DateTime value={entry.createdAt} />
        </span>
      </div>
      <div className="text-gray-700">
        <By entry={entry} />
      </div>
      {entry.targetType ? (
        <div className="text-gray-700">
          <Target entry={entry} />
        </div>
      ) : null}
      <div className="text-xs text-gray-600">
        <Details entry={entry} />
      </div>
      {entry.ip ? <p className="font-mono text-xs text-gray-500">IP {entry.ip}</p> : null}
    </li>
  );
}

function csvHref(filter: TAuditLogFilter): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) query.set(key, value);
  const text = query.toString();
  return `/api/admin/audit-log.csv${text ? `?${text}` : ""}`;
}

export function AuditLogTable() {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<TAuditLogFilter>({});
  const set = (patch: Partial<TAuditLogFilter>) => setFilter((current) => ({ ...current, ...patch }));
  const datesWrong = Boolean(filter.from && filter.to && filter.from > filter.to);
  const applied = datesWrong ? { ...filter, to: undefined } : filter;

  const actions = useQuery(trpc.auditLog.actions.queryOptions());
  const actors = useQuery(trpc.auditLog.actors.queryOptions());
  const log = useInfiniteQuery(
    trpc.auditLog.list.infiniteQueryOptions(
      { limit: PAGE_SIZE, ...applied },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = Object.values(applied).some(Boolean);

  return (
    <Panel
      title="Entries"
      actions={
        <a href={csvHref(applied)} download className={buttonClasses({ variant: "secondary", size: "sm" })}>
          Download CSV
        </a>
      }
    >
      <FilterDisclosure
        className="border-b border-gray-200 px-4 py-3"
        active={Object.values(filter).filter(Boolean).length}
      >
        <div className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-2 lg:grid-cols-4 [&>*]:min-w-0">
          <FilterSelect
            className="min-w-0 flex-1"
            label="Action"
            value={filter.action ?? ""}
            onChange={(event) => set({ action: event.target.value || undefined })}
            placeholder="All actions"
            options={(actions.data ?? []).map((option) => ({
              value: option.action,
              label: `${option.action} (${option.count})`,
            }))}
          />
          <FilterSelect
            className="min-w-0 flex-1"
            label="By"
            value={filter.actor ?? ""}
            onChange={(event) => set({ actor: event.target.value || undefined })}
            placeholder="Everyone"
            options={[
              ...(actors.data ?? []).map((person) => ({ value: person.id, label: person.name })),
              { value: "system", label: "System" },
            ]}
          />
          <FormField label="From (day)">
            <Input type="date" value={filter.from ?? ""} onChange={(e) => set({ from: e.target.value || undefined })} />
          </FormField>
          <FormField label="To (day)" error={datesWrong ? "must not be before From" : undefined}>
            <Input type="date" value={filter.to ?? ""} onChange={(e) => set({ to: e.target.value || undefined })} />
          </FormField>
        </div>
      </FilterDisclosure>
      <LoadState
        query={log}
        what="audit log"
        empty={entries.length === 0}
        emptyText={filtered ? "No entries match these filters." : "No entries yet."}
      />
      {entries.length ? (
        <>
          <Table
            className="hidden md:block"
            label="Audit log entries"
            columns={COLUMNS}
            rows={entries}
            rowKey={(e) => e.id}
          />
          <ul className="divide-y divide-gray-200 md:hidden" aria-label="Audit log entries">
            {entries.map((entry) => (
              <EntryCard key={entry.id} entry={entry} />
            ))}
          </ul>
        </>
      ) : null}
      <LoadMore query={log} />
    </Panel>
  );
}
