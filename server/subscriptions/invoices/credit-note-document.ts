/**
 * A credit note as a document (docs/subscriptions.md "Credit notes"), printed by the invoices'
 * renderers (invoice-document.ts): the seller and buyer as the credited invoice froze them, the
 * invoice it credits, the refunded amount before tax, its taxes and the total credited. In the
 * subscriber's language, times in the account's zone, as invoices are.
 */
import "server-only";

import type { CreditNoteRow } from "./credit-notes";
import {
  documentFrame,
  percentWords,
  periodWords,
  type DocumentLanguage,
  type DocumentModel,
  type InvoiceDocumentLine,
} from "./invoice-document";
import { invoiceTaxLines, taxLinePercentage } from "./invoice-figures";

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

export function creditNoteDocumentModel(row: CreditNoteDocumentRow, lang: DocumentLanguage): DocumentModel {
  const { t } = lang;
  const money = (cents: number) => lang.money(cents, row.currency);
  const invoice = row.invoice;
  const period = periodWords({ start: invoice.periodStart, end: invoice.periodEnd }, lang);
  const lines: InvoiceDocumentLine[] = [
    {
      label: period
        ? t("docRefundPeriod", { plan: invoice.planName, period })
        : t("docRefund", { plan: invoice.planName }),
      amount: money(row.netCents),
    },
  ];
  for (const tax of invoiceTaxLines(row))
    lines.push({
      label: t("docTax", { tax: tax.name, percent: percentWords(taxLinePercentage(tax), lang.locale) }),
      amount: money(tax.amount_cents),
    });
  lines.push({ label: t("docTotalCredited"), amount: money(row.amountCents), strong: true });
  return {
    ...documentFrame(lang, invoice),
    title: t("docCreditNoteTitle", { number: String(row.sequenceNumber) }),
    facts: [
      { label: t("docCreditNoteNumber"), value: String(row.sequenceNumber) },
      { label: t("docDate"), value: lang.dateTime(row.createdAt) },
      {
        label: t("docCreditsInvoice"),
        value: t("docCreditsInvoiceValue", {
          number: String(invoice.sequenceNumber),
          date: lang.dateTime(invoice.createdAt),
        }),
      },
      ...(row.reason ? [{ label: t("docReason"), value: row.reason }] : []),
    ],
    billedTo: [invoice.subscriberName, invoice.subscriberEmail].filter((v): v is string => !!v),
    lines,
    createdAt: row.createdAt,
  };
}
