/**
 * What the invoice document routes share (docs/subscriptions.md "Invoices"): the answer of one
 * invoice as a PDF or a printable page. Who may read it is decided by the caller's
 * `getInvoiceOrThrow` (the subscriber's own, or revenue staff); this only renders.
 */
import { renderInvoiceHtml, renderInvoicePdf } from "../subscriptions/invoice-document";
import type { InvoiceRow } from "../subscriptions/invoices";
import type { TInvoiceFormat } from "../subscriptions/invoices.schema";

const PRIVATE = { "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" };

/** The invoice in `format`; `pdfHref` is the printable page's link to its PDF. */
export async function invoiceDocumentResponse(
  invoice: InvoiceRow,
  format: TInvoiceFormat,
  pdfHref: string,
): Promise<Response> {
  if (format === "html")
    return new Response(renderInvoiceHtml(invoice, { pdfHref }), {
      headers: {
        ...PRIVATE,
        "Content-Type": "text/html; charset=utf-8",
        // A static page: no script but the print button's handler, nothing loaded from elsewhere.
        "Content-Security-Policy":
          "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-hashes' 'sha256-MguIPR6qNR8D3B+eAlK+bIRTZe8t3wkOY4B/56Me9FU='; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        "Referrer-Policy": "no-referrer",
      },
    });
  const pdf = await renderInvoicePdf(invoice);
  return new Response(new Uint8Array(pdf), {
    headers: {
      ...PRIVATE,
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="invoice-${invoice.sequenceNumber}.pdf"`,
      "Content-Length": String(pdf.length),
    },
  });
}

/** The same path with `.pdf` for `.html` (query kept: the client API's key and JWT). */
export function pdfHrefOf(url: URL): string {
  return `${url.pathname.replace(/\.html$/, ".pdf")}${url.search}`;
}
