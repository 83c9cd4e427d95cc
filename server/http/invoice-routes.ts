/**
 * What the invoice and credit note document routes share (docs/subscriptions.md "Invoices"): the
 * answer of one invoice or credit note as a PDF or a printable page. Who may read it is decided by the caller's
 * `getInvoiceOrThrow` (the subscriber's own, or revenue staff); this only renders, in the
 * subscriber's language with times in the account's zone (a reader and the staff get the same
 * document).
 */
import type { Db } from "../db/client";
import { readerMail } from "../mail/reader-mail";
import { creditNoteDocumentModel, type CreditNoteDocumentRow } from "../subscriptions/invoices/credit-note-document";
import {
  invoiceDocumentModel,
  renderDocumentHtml,
  type DocumentModel,
} from "../subscriptions/invoices/invoice-document";
import type { InvoiceRow } from "../subscriptions/invoices/invoices";
import type { TInvoiceFormat } from "../subscriptions/invoices/invoices.schema";
import { renderDocumentPdf } from "../subscriptions/invoices/pdf-document";

const PRIVATE = { "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" };

/** The invoice in `format`; `pdfHref` is the printable page's link to its PDF. */
export async function invoiceDocumentResponse(db: Db, invoice: InvoiceRow, format: TInvoiceFormat, pdfHref: string) {
  const lang = await readerMail(db, invoice.accountId, invoice.memberId);
  return documentResponse(
    invoiceDocumentModel(invoice, lang),
    format,
    pdfHref,
    `invoice-${invoice.sequenceNumber}.pdf`,
  );
}

/** A credit note in `format` (credit-note-document.ts), as an invoice is answered. */
export async function creditNoteDocumentResponse(
  db: Db,
  note: CreditNoteDocumentRow,
  format: TInvoiceFormat,
  pdfHref: string,
) {
  const lang = await readerMail(db, note.accountId, note.memberId);
  return documentResponse(
    creditNoteDocumentModel(note, lang),
    format,
    pdfHref,
    `credit-note-${note.sequenceNumber}.pdf`,
  );
}

async function documentResponse(
  model: DocumentModel,
  format: TInvoiceFormat,
  pdfHref: string,
  filename: string,
): Promise<Response> {
  if (format === "html")
    return new Response(renderDocumentHtml(model, { pdfHref }), {
      headers: {
        ...PRIVATE,
        "Content-Type": "text/html; charset=utf-8",
        "Content-Language": model.locale,
        // A static page: no script but the print button's handler, nothing loaded from elsewhere.
        "Content-Security-Policy":
          "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-hashes' 'sha256-MguIPR6qNR8D3B+eAlK+bIRTZe8t3wkOY4B/56Me9FU='; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        "Referrer-Policy": "no-referrer",
      },
    });
  const pdf = await renderDocumentPdf(model);
  return new Response(new Uint8Array(pdf), {
    headers: {
      ...PRIVATE,
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Content-Language": model.locale,
      "Content-Length": String(pdf.length),
    },
  });
}

/** The same path with `.pdf` for `.html` (query kept: the client API's key and JWT). */
export function pdfHrefOf(url: URL): string {
  return `${url.pathname.replace(/\.html$/, ".pdf")}${url.search}`;
}
