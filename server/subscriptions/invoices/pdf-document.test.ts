/**
 * Invoices and credit notes as PDFs in every script (docs/i18n.md "PDFs"): the locale's Noto font
 * is embedded, a PDF reader gets the document's words back from it (the ToUnicode maps hold their
 * characters, each line's /ActualText the words in reading order), a name in another script gets
 * a font that has its letters, and the file stays small (fonts are subsets).
 */
import { describe, expect, it } from "vitest";

import { documentLanguage, pdfFacts } from "../../testing/pdf-text";
import { creditNoteDocumentModel, type CreditNoteDocumentRow } from "./credit-note-document";
import { invoiceDocumentModel } from "./invoice-document";
import type { InvoiceRow } from "./invoices";
import { renderDocumentPdf, renderInvoicePdf } from "./pdf-document";

const invoice = (over: Partial<InvoiceRow> = {}): InvoiceRow => ({
  id: 1,
  accountId: 1,
  sequenceNumber: 42,
  paymentId: 1,
  subscriptionId: 1,
  memberId: 1,
  currency: "INR",
  basePriceCents: 49_900,
  discountCents: 5_000,
  couponCode: "DIWALI",
  discountPercentage: 10,
  netCents: 38_051,
  taxLines: [{ name: "GST", rate_basis_points: 1800, amount_cents: 6_849, inclusive: false }],
  roundOffCents: 0,
  creditCents: 0,
  amountCents: 44_900,
  externalPaymentId: "pay_123",
  paymentType: "razorpay",
  planName: "Premium",
  subscriberName: "Ada Lovelace",
  subscriberEmail: "ada@example.com",
  sellerName: "The Gazette",
  sellerAddress: "1 Main St\nMumbai",
  sellerTaxId: "27AAAAA0000A1Z5",
  periodStart: new Date("2026-11-01T00:00:00Z"),
  periodEnd: new Date("2026-12-01T00:00:00Z"),
  createdAt: new Date("2026-11-01T00:00:05Z"),
  ...over,
});

/**
 * The characters of `words` no drawn glyph maps back to (none expected). Canonically decomposed:
 * Tamil's two-part vowel signs (ொ) are drawn as their two parts (ெ, ா), which is what they are.
 */
const extractable = (characters: Set<string>, words: string) => {
  const mapped = new Set([...characters].join("").normalize("NFD"));
  return [...words.replace(/\s/g, "").normalize("NFD")].filter((c) => !mapped.has(c));
};

describe("an invoice PDF", () => {
  it.each([
    ["hi", "NotoSansDevanagari", ["इनवॉइस 42", "कुल भुगतान", "छूट के बाद, टैक्स से पहले की राशि"]],
    ["ta", "NotoSansTamil", ["விலைப்பட்டியல் 42", "செலுத்திய மொத்தம்"]],
    ["ar", "NotoSansArabic", ["فاتورة رقم 42", "إجمالي المدفوع"]],
  ] as const)("for a %s reader embeds %s and holds the reader's words", async (locale, font, words) => {
    const pdf = await renderInvoicePdf(invoice(), documentLanguage(locale, "Asia/Kolkata"));
    const facts = pdfFacts(pdf);
    expect(facts.fonts.some((f) => f.includes(`+${font}-Regular`))).toBe(true);
    expect(facts.fonts.some((f) => f.includes(`+${font}-Bold`))).toBe(true);
    for (const word of words) {
      expect(extractable(facts.characters, word)).toEqual([]);
      expect(facts.actualText.some((line) => line.includes(word))).toBe(true);
    }
    // The Latin plan name and the amounts are there too (the script's font has Latin and digits).
    expect(facts.actualText.some((line) => line.includes("Premium"))).toBe(true);
    expect(facts.actualText).toContain(
      new Intl.NumberFormat(locale, { style: "currency", currency: "INR" }).format(449),
    );
    expect(pdf.length).toBeLessThan(120_000);
  });

  it("draws a name in another script with a font that has its letters", async () => {
    const arabicName = new Intl.DisplayNames("ar", { type: "region" }).of("EG")!;
    const tamilName = new Intl.DisplayNames("ta", { type: "region" }).of("IN")!;
    const pdf = await renderInvoicePdf(
      invoice({ subscriberName: `${arabicName} ${tamilName}`, planName: "Premium" }),
      documentLanguage("en", "UTC"),
    );
    const facts = pdfFacts(pdf);
    for (const font of ["NotoSans-Regular", "NotoSansArabic-Regular", "NotoSansTamil-Regular"])
      expect(facts.fonts.some((f) => f.endsWith(`+${font}`))).toBe(true);
    expect(extractable(facts.characters, arabicName + tamilName)).toEqual([]);
    expect(facts.actualText).toContain(`${arabicName} ${tamilName}`);
    expect(facts.actualText).toContain("Total paid");
  });

  it("says the document's language and keeps the model's lines in the Arabic page's reading order", async () => {
    const model = invoiceDocumentModel(invoice(), documentLanguage("ar", "Asia/Kolkata"));
    expect(model.dir).toBe("rtl");
    const pdf = await renderDocumentPdf(model);
    expect(pdf.toString("latin1")).toMatch(/\/Lang \(ar\)/);
    // A long label wraps: its lines, joined, are the label.
    const text = pdfFacts(pdf).actualText.join(" ");
    const labels = model.lines.map((l) => l.label);
    expect(labels.filter((l) => text.includes(l))).toEqual(labels);
  });
});

describe("a credit note PDF", () => {
  it("is in the subscriber's language too", async () => {
    const row = invoice();
    const note: CreditNoteDocumentRow = {
      id: 1,
      accountId: 1,
      sequenceNumber: 7,
      invoiceId: 1,
      refundId: 1,
      memberId: 1,
      currency: "INR",
      netCents: 38_051,
      taxLines: row.taxLines,
      amountCents: 44_900,
      reason: null,
      createdAt: new Date("2026-11-03T00:00:00Z"),
      invoice: row,
    };
    const model = creditNoteDocumentModel(note, documentLanguage("hi", "Asia/Kolkata"));
    expect(model.title).toBe("क्रेडिट नोट 7");
    const facts = pdfFacts(await renderDocumentPdf(model));
    expect(facts.actualText).toContain("क्रेडिट नोट 7");
    expect(facts.actualText).toContain("कुल क्रेडिट");
  });
});
