/**
 * An invoice as a document (docs/subscriptions.md "Invoices"): the same lines in two forms, a PDF
 * made by pdfkit and a printable HTML page (print CSS: A4, no navigation, black on white). Both are
 * built from the issued invoice row only, never from the catalogue as it is now. Credit notes
 * (credit-note-document.ts) print through the same two renderers. Times are printed in the one
 * format with the zone, in the account's zone (`accounts.time_zone`): "1 Dec 2026, 10:30 CET".
 */
import "server-only";

import PDFDocument from "pdfkit";

import { formatInstant } from "../dates.schema";
import { invoiceTaxLines, servicePeriodWords, taxLinePercentage } from "./invoice-figures";
import type { InvoiceRow } from "./invoices";
import { centsToDecimal } from "./money.schema";

export type InvoiceDocumentLine = { label: string; amount: string; strong?: boolean };

/** What a document prints: seller, title, facts (number, date…), who is billed, the lines. */
export type DocumentModel = {
  title: string;
  seller: string;
  /** Under the seller's name: the postal address's lines, then "VAT number: …" when set. */
  sellerLines: string[];
  facts: { label: string; value: string }[];
  billedTo: string[];
  lines: InvoiceDocumentLine[];
  createdAt: Date;
};

/** What both forms print: heading, parties and the lines, amounts as "USD 5.90"; times in `zone`. */
export function invoiceDocumentModel(row: InvoiceRow, zone: string): DocumentModel {
  const money = (cents: number) => `${row.currency} ${centsToDecimal(cents, row.currency)}`;
  const period = servicePeriodWords({ start: row.periodStart, end: row.periodEnd }, zone);
  const lines: InvoiceDocumentLine[] = [
    { label: period ? `${row.planName} · ${period}` : row.planName, amount: money(row.basePriceCents) },
  ];
  if (row.discountCents > 0 || row.couponCode)
    lines.push({
      label: `Discount${row.couponCode ? ` (${row.couponCode}${row.discountPercentage !== null ? `, ${row.discountPercentage} %` : ""})` : ""}`,
      amount: money(-row.discountCents),
    });
  lines.push({ label: "Amount after discount, before tax", amount: money(row.netCents) });
  for (const tax of invoiceTaxLines(row))
    lines.push({
      label: `${tax.name} ${taxLinePercentage(tax)} %${tax.inclusive ? " (included in the price)" : ""}`,
      amount: money(tax.amount_cents),
    });
  if (row.roundOffCents !== 0) lines.push({ label: "Round off", amount: money(row.roundOffCents) });
  if (row.creditCents > 0) lines.push({ label: "Credit from a plan change", amount: money(-row.creditCents) });
  lines.push({ label: "Total paid", amount: money(row.amountCents), strong: true });
  return {
    title: `Invoice ${row.sequenceNumber}`,
    seller: row.sellerName,
    sellerLines: sellerLines(row),
    facts: [
      { label: "Invoice number", value: String(row.sequenceNumber) },
      { label: "Date", value: formatInstant(row.createdAt, zone) },
      ...(period ? [{ label: "Service period", value: period }] : []),
      { label: "Payment", value: `${row.paymentType}${row.externalPaymentId ? ` · ${row.externalPaymentId}` : ""}` },
    ],
    billedTo: [row.subscriberName, row.subscriberEmail].filter((v): v is string => !!v),
    lines,
    createdAt: row.createdAt,
  };
}

/** The seller's address lines and tax id as a document prints them under the seller's name. */
export function sellerLines(row: { sellerAddress: string | null; sellerTaxId: string | null }): string[] {
  return [
    ...(row.sellerAddress ? row.sellerAddress.split("\n").filter(Boolean) : []),
    ...(row.sellerTaxId ? [`VAT number: ${row.sellerTaxId}`] : []),
  ];
}

/** The invoice as a PDF (A4, pdfkit's standard Helvetica), times in `zone`. */
export function renderInvoicePdf(row: InvoiceRow, zone: string): Promise<Buffer> {
  return renderDocumentPdf(invoiceDocumentModel(row, zone));
}

/** A document model as a PDF (A4, pdfkit's standard Helvetica). */
export function renderDocumentPdf(model: DocumentModel): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margin: 56,
    info: { Title: `${model.seller}: ${model.title}`, Author: model.seller, CreationDate: model.createdAt },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  doc.font("Helvetica-Bold").fontSize(20).text(model.seller);
  if (model.sellerLines.length) {
    doc.font("Helvetica").fontSize(10).fillColor("#444");
    for (const line of model.sellerLines) doc.text(line);
    doc.fillColor("#000");
  }
  doc.moveDown(0.5).font("Helvetica").fontSize(14).text(model.title);
  doc.moveDown(0.5).fontSize(10).fillColor("#444");
  for (const fact of model.facts) doc.text(`${fact.label}: ${fact.value}`);
  doc.moveDown().fillColor("#000").font("Helvetica-Bold").text("Billed to");
  doc.font("Helvetica");
  for (const line of model.billedTo) doc.text(line);
  doc.moveDown(1.5);

  for (const line of model.lines) {
    const y = doc.y;
    if (line.strong) {
      doc
        .moveTo(left, y - 4)
        .lineTo(left + width, y - 4)
        .stroke();
      doc.font("Helvetica-Bold");
    } else doc.font("Helvetica");
    doc.fontSize(11).text(line.label, left, y, { width: width * 0.65 });
    const after = doc.y;
    doc.text(line.amount, left + width * 0.65, y, { width: width * 0.35, align: "right" });
    doc.y = Math.max(after, doc.y) + 6;
  }
  doc.end();
  return done;
}

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** The invoice as a printable HTML page (times in `zone`): one self-contained document, print CSS included. */
export function renderInvoiceHtml(row: InvoiceRow, zone: string, options: { pdfHref?: string } = {}): string {
  return renderDocumentHtml(invoiceDocumentModel(row, zone), options);
}

/** A document model as a printable HTML page: one self-contained document, print CSS included. */
export function renderDocumentHtml(model: DocumentModel, options: { pdfHref?: string } = {}): string {
  const rows = model.lines
    .map(
      (l) =>
        `<tr${l.strong ? ' class="total"' : ""}><th scope="row">${escapeHtml(l.label)}</th><td>${escapeHtml(l.amount)}</td></tr>`,
    )
    .join("\n        ");
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>${escapeHtml(`${model.seller}: ${model.title}`)}</title>
  <style>
    :root { color-scheme: light; }
    body { font: 15px/1.5 system-ui, sans-serif; color: #111; background: #f4f4f5; margin: 0; }
    main { max-width: 46rem; margin: 2rem auto; background: #fff; padding: 2.5rem; border-radius: 8px; }
    h1 { font-size: 1.6rem; margin: 0; }
    p.seller { margin: .25rem 0 0; color: #444; }
    h2 { font-size: 1.1rem; font-weight: 500; margin: .25rem 0 1.5rem; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: 0 0 1.5rem; color: #444; }
    dd { margin: 0; overflow-wrap: anywhere; }
    table { width: 100%; border-collapse: collapse; }
    th { text-align: left; font-weight: 400; padding: .4rem 0; }
    td { text-align: right; padding: .4rem 0; white-space: nowrap; font-variant-numeric: tabular-nums; }
    tr.total th, tr.total td { font-weight: 700; border-top: 2px solid #111; }
    nav { max-width: 46rem; margin: 1rem auto 0; display: flex; gap: 1rem; }
    @page { size: A4; margin: 18mm; }
    @media print {
      body { background: #fff; font-size: 11pt; }
      main { margin: 0; padding: 0; max-width: none; border-radius: 0; }
      nav { display: none; }
    }
  </style>
</head>
<body>
  <nav aria-label="Document actions">
    <button type="button" onclick="window.print()">Print</button>
    ${options.pdfHref ? `<a href="${escapeHtml(options.pdfHref)}">Download PDF</a>` : ""}
  </nav>
  <main>
    <h1>${escapeHtml(model.seller)}</h1>
    ${model.sellerLines.length ? `<p class="seller">${model.sellerLines.map(escapeHtml).join("<br>")}</p>` : ""}
    <h2>${escapeHtml(model.title)}</h2>
    <dl>
      ${model.facts.map((f) => `<dt>${escapeHtml(f.label)}</dt><dd>${escapeHtml(f.value)}</dd>`).join("\n      ")}
      <dt>Billed to</dt><dd>${model.billedTo.map(escapeHtml).join("<br>") || "–"}</dd>
    </dl>
    <table>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </main>
</body>
</html>`;
}
