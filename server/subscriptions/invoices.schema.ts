/**
 * The wire of invoices (docs/subscriptions.md "Invoices"): the document path parameter and the
 * dashboard list's input. Imports only zod (forms and components may import it).
 */
import { z } from "zod";

export const INVOICE_FORMATS = ["pdf", "html"] as const;
export type TInvoiceFormat = (typeof INVOICE_FORMATS)[number];

const MAX_ID = 2_147_483_647;

/** `<id>.pdf` or `<id>.html`: the invoice id (1…2147483647, canonical digits) and the format. */
export const ZInvoiceFile = z
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
export type TListInvoicesInput = z.input<typeof ZListInvoicesInput>;

/** The dashboard's credit notes: the newest `limit`, optionally one subscriber's. */
export const ZListCreditNotesInput = z.object({
  memberId: z.number().int().min(1).max(MAX_ID).optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
