/**
 * A document model (invoice-document.ts, credit-note-document.ts) as a PDF: A4, in the model's
 * locale, with the Noto fonts its scripts need embedded as subsets (../../pdf/fonts.ts) and each line
 * ordered for its direction (../../pdf/text.ts). In a right-to-left locale the page mirrors: the
 * seller and facts align right, a line's label is on the right and its amount on the left.
 */
import "server-only";

import PDFDocument from "pdfkit";

import { PdfText, type Box } from "../../pdf/text";
import { invoiceDocumentModel, type DocumentLanguage, type DocumentModel } from "./invoice-document";
import type { InvoiceRow } from "./invoices";

const GREY = "#444";

/** An invoice as a PDF in `lang` (the subscriber's language, the account's zone). */
export function renderInvoicePdf(row: InvoiceRow, lang: DocumentLanguage): Promise<Buffer> {
  return renderDocumentPdf(invoiceDocumentModel(row, lang));
}

/** The document model as a PDF. */
export function renderDocumentPdf(model: DocumentModel): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margin: 56,
    lang: model.locale,
    displayTitle: true,
    info: { Title: `${model.seller}: ${model.title}`, Author: model.seller, CreationDate: model.createdAt },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const text = new PdfText(doc, model.locale);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const full: Box = { x: left, width };
  /** The newsroom's or the reader's own words (names, addresses): in their own direction. */
  const data: Box = { ...full, auto: true };
  /** Two columns in reading order: the first on the locale's start side. */
  const columns = (first: number): [Box, Box] => {
    const a = width * first;
    const rtl = text.dir === "rtl";
    return [
      { x: rtl ? left + width - a : left, width: a },
      { x: rtl ? left : left + a, width: width - a, align: "end" },
    ];
  };

  let y = doc.page.margins.top;
  y = text.write(model.seller, data, y, { size: 20, weight: "bold" });
  for (const line of model.sellerLines) y = text.write(line, data, y, { size: 10, color: GREY });
  y = text.write(model.title, full, y + 8, { size: 14 });

  y += 6;
  const [factLabel, factValue] = columns(0.3);
  for (const fact of model.facts) {
    const after = text.write(fact.label, factLabel, y, { size: 10, color: GREY });
    const value: Box = { ...factValue, align: "start", auto: true };
    y = Math.max(after, text.write(fact.value, value, y, { size: 10, color: GREY }));
  }
  y = text.write(model.billedToLabel, full, y + 12, { size: 10, weight: "bold" });
  for (const line of model.billedTo) y = text.write(line, data, y, { size: 10 });

  y += 24;
  const [label, amount] = columns(0.65);
  for (const line of model.lines) {
    const style = { size: 11, weight: line.strong ? ("bold" as const) : ("regular" as const) };
    if (line.strong) {
      doc
        .moveTo(left, y - 2)
        .lineTo(left + width, y - 2)
        .stroke();
      y += 2;
    }
    const gap = 12;
    const labelBox = { x: text.dir === "rtl" ? label.x + gap : label.x, width: label.width - gap };
    const after = text.write(line.label, labelBox, y, style);
    y = Math.max(after, text.write(line.amount, amount, y, style)) + 4;
  }
  doc.end();
  return done;
}
