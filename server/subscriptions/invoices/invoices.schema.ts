/**
 * The wire of invoices (docs/subscriptions.md "Invoices"): the document path parameter and the
 * dashboard list's input. Pure (forms and components may import it).
 */
import { z } from "zod";

import { formatInstant } from "../../dates.schema";

export const INVOICE_FORMATS = ["pdf", "html"] as const;
export type TInvoiceFormat = (typeof INVOICE_FORMATS)[number];

const MAX_ID = 2_147_483_647;

/** `<id>.pdf` or `<id>.html`: the invoice id (1…2147483647, canonical digits) and the format. */
const ZInvoiceFile = z
  .string()
  .regex(/^[1-9]\d{0,9}\.(pdf|html)$/, "must be <invoice id>.pdf or <invoice id>.html")
  .transform((s) => {
    const [id, format] = s.split(".") as [string, TInvoiceFormat];
    return { id: Number.parseInt(id, 10), format };
  })
  .refine((f) => f.id <= MAX_ID, "must be <invoice id>.pdf or <invoice id>.html");

export const ZInvoiceFileParams = z.object({ invoice_file: ZInvoiceFile });

/** `<id>.pdf` or `<id>.html` of a credit note (credit-notes.ts), as an invoice's. */
export const ZCreditNoteFileParams = z.object({
  credit_note_file: z
    .string()
    .regex(/^[1-9]\d{0,9}\.(pdf|html)$/, "must be <credit note id>.pdf or <credit note id>.html")
    .pipe(ZInvoiceFile),
});

/** The dashboard's list: newest first, optionally one subscriber's, keyset pages by number. */
export const ZListInvoicesInput = z.object({
  memberId: z.number().int().min(1).max(MAX_ID).optional(),
  /** The `nextCursor` of the previous page (an invoice number: older ones follow). */
  cursor: z.number().int().min(1).max(MAX_ID).nullish(),
  limit: z.number().int().min(1).max(100).default(50),
});

/** The dashboard's credit notes: the newest `limit`, optionally one subscriber's. */
export const ZListCreditNotesInput = z.object({
  memberId: z.number().int().min(1).max(MAX_ID).optional(),
  limit: z.number().int().min(1).max(200).default(50),
});

/** Control characters but tab and newline: nothing a document or a page should print. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

const sellerLine = (max: number) =>
  z
    .string()
    .max(max * 2)
    .transform((s) => s.replace(CONTROL, "").replace(/\s+/g, " ").trim())
    .pipe(z.string().max(max, `must be at most ${max} characters`));

/**
 * The seller every new invoice names (the Invoices page's "Seller on invoices"): the legal name
 * (empty: the publication's name), the postal address (one to eight lines) and the tax id (VAT
 * number). Plain text, normalised at save: control characters dropped, spaces collapsed, blank
 * lines removed.
 */
export const ZInvoiceSellerInput = z.object({
  legalName: sellerLine(200),
  address: z
    .string()
    .max(2000)
    .transform((s) =>
      s
        .replace(/\r\n?/g, "\n")
        .split("\n")
        .map((line) => line.replace(CONTROL, "").replace(/\s+/g, " ").trim())
        .filter(Boolean)
        .join("\n"),
    )
    .refine((s) => s.length <= 600, "must be at most 600 characters")
    .refine((s) => s.split("\n").length <= 8, "must be at most 8 lines"),
  taxId: sellerLine(50).refine(
    (s) => s === "" || /^[\p{L}\p{N}][\p{L}\p{N} .\-/]*$/u.test(s),
    "may hold letters, digits, spaces, dots, dashes and slashes only",
  ),
});
export type TInvoiceSellerInput = z.input<typeof ZInvoiceSellerInput>;

export type TInvoiceSellerView = {
  legalName: string;
  address: string;
  taxId: string;
  /** What invoices name when the legal name is empty: the publication's name. */
  fallbackName: string;
  updatedAt: string | null;
};

/** The service period an invoice paid for: [start, end) instants; end null for no end. */
export type ServicePeriod = { start: Date | null; end: Date | null };

/**
 * A service period in words, in the one format with the zone: "1 Dec 2026, 01:00 CET – 1 Jan
 * 2027, 01:00 CET" (from the instant it starts to the instant it ends); no end → "from 1 Dec
 * 2026, 01:00 CET". Null without a start. `zone`: the account's on documents and in the
 * dashboard (undefined: the runtime's).
 */
export function servicePeriodWords(period: ServicePeriod, zone?: string): string | null {
  if (!period.start) return null;
  if (!period.end) return `from ${formatInstant(period.start, zone)}`;
  return `${formatInstant(period.start, zone)} – ${formatInstant(period.end, zone)}`;
}
