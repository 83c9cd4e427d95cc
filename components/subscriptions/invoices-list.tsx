"use client";

/**
 * The account's invoices for revenue staff (tRPC invoices.list): number, subscriber, plan, the
 * service period it paid for, amount, date
 * and links to the PDF and the printable page (GET /api/admin/invoices/<id>.pdf|.html), newest
 * first a page at a time. With `memberId` it lists that subscriber's only, for the subscriber page
 * to embed; without, it offers a filter by subscriber id. The credit notes of refunds follow
 * (credit-notes-list.tsx), filtered alike.
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";

import { CreditNotesList } from "@/components/subscriptions/credit-notes-list";
import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import {
  DateTime,
  Input,
  LoadMore,
  Money,
  Panel,
  QueryTable,
  textLinkClasses,
  useTimeZone,
  type Column,
} from "@/components/ui";
import { servicePeriodWords } from "@/server/subscriptions/invoices/invoices.schema";

type Invoice = RouterOutputs["invoices"]["list"]["invoices"][number];

const PAGE_SIZE = 50;

/** The period an invoice paid for, in the account's zone as its document prints it. */
function ServicePeriod({ period }: { period: Invoice["service_period"] }) {
  const zone = useTimeZone();
  return (
    servicePeriodWords(
      { start: period ? new Date(period.start) : null, end: period?.end ? new Date(period.end) : null },
      zone,
    ) ?? "–"
  );
}

const COLUMNS: readonly Column<Invoice>[] = [
  {
    header: "Number",
    cell: (i) => <span className="font-medium text-gray-900 tabular-nums">{i.sequenced_invoice_number}</span>,
  },
  {
    header: "Subscriber",
    cell: (i) => (
      <span className="block min-w-0">
        <span className="block truncate">{i.subscriber_name ?? "Unnamed"}</span>
        <span className="block truncate text-xs text-gray-500">
          {i.subscriber_email ?? ""} · #{i.subscriber_id}
        </span>
      </span>
    ),
    className: "max-w-56",
  },
  { header: "Plan", cell: (i) => i.plan_name, className: "max-w-48 truncate" },
  {
    header: "Service period",
    cell: (i) => <ServicePeriod period={i.service_period} />,
    className: "whitespace-nowrap",
  },
  {
    header: "Amount",
    cell: (i) => (
      <span className="whitespace-nowrap tabular-nums">
        <Money cents={i.amount_cents} currency={i.amount_currency} />
      </span>
    ),
    className: "text-right",
  },
  { header: "Date", cell: (i) => <DateTime value={new Date(i.created_at)} />, className: "whitespace-nowrap" },
  {
    header: "Documents",
    hideHeader: true,
    cell: (i) => (
      <span className="flex gap-3 whitespace-nowrap">
        {/* Plain links: documents of an API route, not pages of the app's router. */}
        <a className={textLinkClasses} href={`/api/admin/invoices/${i.id}.pdf`} download>
          PDF<span className="sr-only"> of invoice {i.sequenced_invoice_number}</span>
        </a>
        <a className={textLinkClasses} href={`/api/admin/invoices/${i.id}.html`} target="_blank" rel="noopener">
          Print<span className="sr-only"> invoice {i.sequenced_invoice_number}</span>
        </a>
      </span>
    ),
  },
];

export function InvoicesList({ memberId }: { memberId?: number }) {
  const trpc = useTRPC();
  const [filter, setFilter] = useState("");
  const deferred = useDeferredValue(filter.trim());
  const filterId = /^[1-9]\d{0,9}$/.test(deferred) ? Number(deferred) : undefined;
  const subscriber = memberId ?? filterId;
  const list = useInfiniteQuery(
    trpc.invoices.list.infiniteQueryOptions(
      { limit: PAGE_SIZE, ...(subscriber !== undefined ? { memberId: subscriber } : {}) },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const rows = list.data?.pages.flatMap((page) => page.invoices) ?? [];
  const badFilter = memberId === undefined && deferred !== "" && filterId === undefined;

  return (
    <>
      <Panel
        title="Invoices"
        actions={
          memberId === undefined ? (
            <label className="flex items-center gap-2 text-sm text-gray-700">
              <span>Subscriber id</span>
              <Input
                compact
                inputMode="numeric"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                placeholder="All"
                aria-invalid={badFilter || undefined}
                className="w-28"
              />
            </label>
          ) : null
        }
      >
        {badFilter ? (
          <p className="px-4 py-2 text-sm text-red-700">A subscriber id is a whole number such as 42.</p>
        ) : null}
        <QueryTable
          query={list}
          what="invoices"
          emptyText={subscriber !== undefined ? "This subscriber has no invoices." : "No invoices yet."}
          label="Invoices"
          columns={COLUMNS}
          rows={rows}
          rowKey={(i) => i.id}
          rowProps={(i) => ({ "data-testid": `invoice-${i.sequenced_invoice_number}` })}
        />
        <LoadMore query={list} />
      </Panel>
      <CreditNotesList {...(subscriber !== undefined ? { memberId: subscriber } : {})} />
    </>
  );
}
