/**
 * A credit note as a document (docs/subscriptions.md "Credit notes"), printed by the invoices'
 * renderers (invoice-document.ts): the seller and buyer as the credited invoice froze them, the
 * invoice it credits, the refunded amount before tax, its taxes and the total credited. Times in
 * the account's zone, in the one format with the zone.
 */
import "server-only";

import { formatInstant } from "../dates.schema";
import type { CreditNoteRow } from "./credit-notes";
import { sellerLines, type DocumentModel, type InvoiceDocumentLine } from "./invoice-document";
import { invoiceTaxLines, servicePeriodWords, taxLinePercentage } from "./invoice-figures";
import { centsToDecimal } from "./money.schema";

export type CreditNoteDocumentRow = CreditNoteRow & {
  invoice: {
    sequenceNumber: number;
    sellerName: string;
    sellerAddress: string | null;
    sellerTaxId: string | null;
    periodStart: Date | null;
    periodEnd: Date | null;
    subscriberName: string | null;
    subscriberEmail: string | null;
    planName: string;
    createdAt: Date;
  };
};

export function creditNoteDocumentModel(row: CreditNoteDocumentRow, zone: string): DocumentModel {
  const money = (cents: number) => `${row.currency} ${centsToDecimal(cents, row.currency)}`;
  const invoice = row.invoice;
  const period = servicePeriodWords({ start: invoice.periodStart, end: invoice.periodEnd }, zone);
  const lines: InvoiceDocumentLine[] = [
    {
      label: `Refund: ${invoice.planName}${period ? ` · ${period}` : ""}, before tax`,
      amount: money(row.netCents),
    },
  ];
  for (const tax of invoiceTaxLines(row))
    lines.push({
      label: `${tax.name} ${taxLinePercentage(tax)} %`,
      amount: money(tax.amount_cents),
    });
  lines.push({ label: "Total credited", amount: money(row.amountCents), strong: true });
  return {
    title: `Credit note ${row.sequenceNumber}`,
    seller: invoice.sellerName,
    sellerLines: sellerLines(invoice),
    facts: [
      { label: "Credit note number", value: String(row.sequenceNumber) },
      { label: "Date", value: formatInstant(row.createdAt, zone) },
      {
        label: "Credits invoice",
        value: `${invoice.sequenceNumber} of ${formatInstant(invoice.createdAt, zone)}`,
      },
      ...(row.reason ? [{ label: "Reason", value: row.reason }] : []),
    ],
    billedTo: [invoice.subscriberName, invoice.subscriberEmail].filter((v): v is string => !!v),
    lines,
    createdAt: row.createdAt,
  };
}
