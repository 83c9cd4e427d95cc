/**
 * An invoice as a document (docs/subscriptions.md "Invoices"): the same lines in two forms, a PDF
 * made by pdfkit and a printable HTML page (print CSS: A4, no navigation, black on white). Both are
 * built from the issued invoice row only, never from the catalogue as it is now. Credit notes
 * (credit-note-document.ts) print through the same two renderers. Both are in the subscriber's
 * language (their saved locale, else the account's default: the `mail` catalogue's "doc…" words
 * with the account's overrides), whoever opens them, reader or staff; times in that locale and the
 * account's zone (`accounts.time_zone`), zone named ("29 Nov 2026, 10:30 IST"); amounts by `Intl`
 * from integer minor units. The HTML page carries the locale's lang and dir (an Arabic invoice
 * reads right to left, its table's columns in logical order); the PDF (fonts, right-to-left
 * lines) is ./pdf-document.ts's.
 */
import "server-only";

import type { ReaderMail } from "../../i18n/reader-mail";
import { escapeHtml } from "../../security/html";
import { invoiceTaxLines, taxLinePercentage } from "./invoice-figures";
import type { InvoiceRow } from "./invoices";

export type InvoiceDocumentLine = { label: string; amount: string; strong?: boolean };

/** The reader's language for a document: locale, direction, words, the account's zone, money. */
export type DocumentLanguage = Pick<ReaderMail, "locale" | "dir" | "t" | "dateTime" | "money">;

/** What a document prints: seller, title, facts (number, date…), who is billed, the lines. */
export type DocumentModel = {
  locale: DocumentLanguage["locale"];
  dir: DocumentLanguage["dir"];
  title: string;
  seller: string;
  /** Under the seller's name: the postal address's lines, then "VAT number: …" when set. */
  sellerLines: string[];
  facts: { label: string; value: string }[];
  billedToLabel: string;
  billedTo: string[];
  lines: InvoiceDocumentLine[];
  createdAt: Date;
  /** The printable page's own words. */
  actions: { label: string; print: string; downloadPdf: string };
};

/** A rate as the locale writes a percentage ("18%", "18 %", "٪18"); up to three decimals (8.875). */
export function percentWords(rate: number, locale: DocumentLanguage["locale"]): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 3 }).format(rate / 100);
}

/** The service period in words: "start – end", "from start", or null without a start. */
export function periodWords(period: { start: Date | null; end: Date | null }, lang: DocumentLanguage): string | null {
  if (!period.start) return null;
  if (!period.end) return lang.t("docPeriodFrom", { start: lang.dateTime(period.start) });
  return lang.t("docPeriodRange", { start: lang.dateTime(period.start), end: lang.dateTime(period.end) });
}

/** The parts every document shares: its language, the seller, the printable page's words. */
export function documentFrame(
  lang: DocumentLanguage,
  seller: { sellerName: string; sellerAddress: string | null; sellerTaxId: string | null },
) {
  return {
    locale: lang.locale,
    dir: lang.dir,
    seller: seller.sellerName,
    sellerLines: sellerLines(seller, lang),
    billedToLabel: lang.t("docBilledTo"),
    actions: { label: lang.t("docActions"), print: lang.t("docPrint"), downloadPdf: lang.t("docDownloadPdf") },
  };
}

/**
 * What both forms print: heading, parties and the lines, in the subscriber's language; amounts by
 * `Intl` in that locale from integer minor units, times in the account's zone with the zone named.
 */
export function invoiceDocumentModel(row: InvoiceRow, lang: DocumentLanguage): DocumentModel {
  const { t } = lang;
  const money = (cents: number) => lang.money(cents, row.currency);
  const period = periodWords({ start: row.periodStart, end: row.periodEnd }, lang);
  const lines: InvoiceDocumentLine[] = [
    { label: period ? `${row.planName} · ${period}` : row.planName, amount: money(row.basePriceCents) },
  ];
  if (row.discountCents > 0 || row.couponCode)
    lines.push({
      label: !row.couponCode
        ? t("docDiscount")
        : row.discountPercentage !== null
          ? t("docDiscountCouponPercent", {
              coupon: row.couponCode,
              percent: percentWords(row.discountPercentage, lang.locale),
            })
          : t("docDiscountCoupon", { coupon: row.couponCode }),
      amount: money(-row.discountCents),
    });
  lines.push({ label: t("docNet"), amount: money(row.netCents) });
  for (const tax of invoiceTaxLines(row))
    lines.push({
      label: t(tax.inclusive ? "docTaxIncluded" : "docTax", {
        tax: tax.name,
        percent: percentWords(taxLinePercentage(tax), lang.locale),
      }),
      amount: money(tax.amount_cents),
    });
  if (row.roundOffCents !== 0) lines.push({ label: t("docRoundOff"), amount: money(row.roundOffCents) });
  if (row.creditCents > 0) lines.push({ label: t("docPlanChangeCredit"), amount: money(-row.creditCents) });
  lines.push({ label: t("docTotalPaid"), amount: money(row.amountCents), strong: true });
  return {
    ...documentFrame(lang, row),
    title: t("docInvoiceTitle", { number: String(row.sequenceNumber) }),
    facts: [
      { label: t("docInvoiceNumber"), value: String(row.sequenceNumber) },
      { label: t("docDate"), value: lang.dateTime(row.createdAt) },
      ...(period ? [{ label: t("docServicePeriod"), value: period }] : []),
      {
        label: t("docPayment"),
        value: `${row.paymentType}${row.externalPaymentId ? ` · ${row.externalPaymentId}` : ""}`,
      },
    ],
    billedTo: [row.subscriberName, row.subscriberEmail].filter((v): v is string => !!v),
    lines,
    createdAt: row.createdAt,
  };
}

/** The seller's address lines and tax id as a document prints them under the seller's name. */
function sellerLines(
  row: { sellerAddress: string | null; sellerTaxId: string | null },
  lang: Pick<DocumentLanguage, "t">,
): string[] {
  return [
    ...(row.sellerAddress ? row.sellerAddress.split("\n").filter(Boolean) : []),
    ...(row.sellerTaxId ? [lang.t("docTaxId", { id: row.sellerTaxId })] : []),
  ];
}

/** The invoice as a printable HTML page: one self-contained document, print CSS included. */
export function renderInvoiceHtml(row: InvoiceRow, lang: DocumentLanguage, options: { pdfHref?: string } = {}): string {
  return renderDocumentHtml(invoiceDocumentModel(row, lang), options);
}

/** The page's style sheet: logical sides (start, end), so a right-to-left page mirrors. */
const PAGE_CSS = `
    :root { color-scheme: light; }
    body { font: 15px/1.5 system-ui, sans-serif; color: #111; background: #f4f4f5; margin: 0; }
    main { max-width: 46rem; margin: 2rem auto; background: #fff; padding: 2.5rem; border-radius: 8px; }
    h1 { font-size: 1.6rem; margin: 0; }
    p.seller { margin: .25rem 0 0; color: #444; }
    h2 { font-size: 1.1rem; font-weight: 500; margin: .25rem 0 1.5rem; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: 0 0 1.5rem; color: #444; }
    dd { margin: 0; overflow-wrap: anywhere; }
    table { width: 100%; border-collapse: collapse; }
    th { text-align: start; font-weight: 400; padding: .4rem 0; }
    td { text-align: end; padding: .4rem 0; white-space: nowrap; font-variant-numeric: tabular-nums; }
    tr.total th, tr.total td { font-weight: 700; border-top: 2px solid #111; }
    nav { max-width: 46rem; margin: 1rem auto 0; display: flex; gap: 1rem; }
    @page { size: A4; margin: 18mm; }
    @media print {
      body { background: #fff; font-size: 11pt; }
      main { margin: 0; padding: 0; max-width: none; border-radius: 0; }
      nav { display: none; }
    }
  `;

/** A document model as a printable HTML page: one self-contained document, print CSS included. */
export function renderDocumentHtml(model: DocumentModel, options: { pdfHref?: string } = {}): string {
  const rows = model.lines
    .map(
      (l) =>
        `<tr${l.strong ? ' class="total"' : ""}><th scope="row">${escapeHtml(l.label)}</th><td>${escapeHtml(l.amount)}</td></tr>`,
    )
    .join("\n        ");
  return `<!doctype html>
<html lang="${model.locale}" dir="${model.dir}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>${escapeHtml(`${model.seller}: ${model.title}`)}</title>
  <style>${PAGE_CSS}  </style>
</head>
<body>
  <nav aria-label="${escapeHtml(model.actions.label)}">
    <button type="button" onclick="window.print()">${escapeHtml(model.actions.print)}</button>
    ${options.pdfHref ? `<a href="${escapeHtml(options.pdfHref)}">${escapeHtml(model.actions.downloadPdf)}</a>` : ""}
  </nav>
  <main>
    <h1>${escapeHtml(model.seller)}</h1>
    ${model.sellerLines.length ? `<p class="seller">${model.sellerLines.map(escapeHtml).join("<br>")}</p>` : ""}
    <h2>${escapeHtml(model.title)}</h2>
    <dl>
      ${model.facts.map((f) => `<dt>${escapeHtml(f.label)}</dt><dd>${escapeHtml(f.value)}</dd>`).join("\n      ")}
      <dt>${escapeHtml(model.billedToLabel)}</dt><dd dir="auto">${model.billedTo.map(escapeHtml).join("<br>") || "–"}</dd>
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
