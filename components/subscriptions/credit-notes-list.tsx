"use client";

/**
 * The account's credit notes for revenue staff (tRPC invoices.creditNotes): one per refund of an
 * invoiced payment, with the invoice it credits, the amount, the date and links to the PDF and the
 * printable page (GET /api/admin/credit-notes/<id>.pdf|.html), newest first. Shown under the
 * invoices (invoices-list.tsx), for the same subscriber when the invoices are filtered.
 */
import { useQuery } from "@tanstack/react-query";

import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import { DateTime, Panel, QueryTable, textLinkClasses, type Column } from "@/components/ui";

type CreditNote = RouterOutputs["invoices"]["creditNotes"][number];

const LIMIT = 50;

const COLUMNS: readonly Column<CreditNote>[] = [
  {
    header: "Number",
    cell: (n) => <span className="font-medium text-gray-900 tabular-nums">{n.sequenced_credit_note_number}</span>,
  },
  { header: "Invoice", cell: (n) => <span className="tabular-nums">{n.sequenced_invoice_number}</span> },
  {
    header: "Amount",
    cell: (n) => (
      <span className="whitespace-nowrap tabular-nums">
        {n.amount} {n.amount_currency}
      </span>
    ),
    className: "text-right",
  },
  { header: "Reason", cell: (n) => n.reason ?? "", className: "max-w-48 truncate" },
  { header: "Date", cell: (n) => <DateTime value={new Date(n.created_at)} />, className: "whitespace-nowrap" },
  {
    header: "Documents",
    hideHeader: true,
    cell: (n) => (
      <span className="flex gap-3 whitespace-nowrap">
        {/* Plain links: documents of an API route, not pages of the app's router. */}
        <a className={textLinkClasses} href={`/api/admin/credit-notes/${n.id}.pdf`} download>
          PDF<span className="sr-only"> of credit note {n.sequenced_credit_note_number}</span>
        </a>
        <a className={textLinkClasses} href={`/api/admin/credit-notes/${n.id}.html`} target="_blank" rel="noopener">
          Print<span className="sr-only"> credit note {n.sequenced_credit_note_number}</span>
        </a>
      </span>
    ),
  },
];

export function CreditNotesList({ memberId }: { memberId?: number }) {
  const trpc = useTRPC();
  const list = useQuery(
    trpc.invoices.creditNotes.queryOptions({ limit: LIMIT, ...(memberId !== undefined ? { memberId } : {}) }),
  );
  const rows = list.data ?? [];
  return (
    <Panel title="Credit notes">
      <QueryTable
        query={list}
        what="credit notes"
        emptyText={memberId !== undefined ? "This subscriber has no credit notes." : "No credit notes yet."}
        label="Credit notes"
        columns={COLUMNS}
        rows={rows}
        rowKey={(n) => n.id}
        rowProps={(n) => ({ "data-testid": `credit-note-${n.sequenced_credit_note_number}` })}
      />
      {rows.length === LIMIT ? <p className="px-4 py-2 text-sm text-gray-600">The newest {LIMIT} are shown.</p> : null}
    </Panel>
  );
}
