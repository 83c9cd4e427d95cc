/**
 * Credit notes (docs/subscriptions.md "Credit notes"): one per succeeded refund of an invoiced
 * payment, issued by `issueCreditNoteForRefund` in the transaction that records the refund as
 * succeeded (refunds.ts, the one refund path: staff's refunds and a trial's authorization). A
 * trial's authorization was never invoiced, so its refund makes no note.
 *
 * Numbers: 1, 2, 3… per account with no gaps, a sequence of their own: the account's
 * `credit_note_counters` row is raised by one upsert in the issuing transaction, so concurrent
 * notes queue on it and a transaction that rolls back gives its number back. A refund has at most
 * one note (unique `refund_id`): recording it twice answers the note already issued.
 *
 * Reading: as invoices are read (invoices.ts `InvoiceReader`): the subscriber's own, or the
 * account's revenue staff's; anyone else's id is NOT_FOUND.
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { centsToDecimal } from "../money.schema";
import { creditNoteFigures } from "./credit-note-figures";
import { invoiceTaxLines, taxLinePercentage } from "./invoice-figures";
import type { InvoiceReader } from "./invoices";

export type CreditNoteRow = Prisma.CreditNoteGetPayload<object>;

type CreditNoteOutcome =
  { issued: true; creditNote: CreditNoteRow } | { issued: false; creditNote: CreditNoteRow | null; reason: string };

/**
 * Issue the credit note of a succeeded refund, once. Must run in the transaction that records the
 * refund as succeeded, so the refund, its note and the account's number move together.
 */
export async function issueCreditNoteForRefund(
  tx: TransactionClient,
  refundId: number,
  options: { now?: Date } = {},
): Promise<CreditNoteOutcome> {
  // One issue of a refund at a time: a concurrent call waits for the first one's commit.
  await tx.$queryRawUnsafe(`SELECT id FROM payment_refunds WHERE id = $1 FOR UPDATE`, refundId);
  const refund = await tx.paymentRefund.findUnique({
    where: { id: refundId },
    include: { creditNote: true, payment: { include: { invoice: true } } },
  });
  if (!refund) return { issued: false, creditNote: null, reason: "No such refund." };
  if (refund.creditNote) return { issued: false, creditNote: refund.creditNote, reason: "Already credited." };
  if (refund.status !== "SUCCEEDED")
    return { issued: false, creditNote: null, reason: "The refund has not succeeded." };
  const invoice = refund.payment.invoice;
  if (!invoice) return { issued: false, creditNote: null, reason: "The payment was not invoiced." };

  // The invoice's earlier notes, under the invoice's row lock (notes of one invoice one at a time).
  await tx.$queryRawUnsafe(`SELECT id FROM invoices WHERE id = $1 FOR UPDATE`, invoice.id);
  const before = await tx.creditNote.aggregate({ where: { invoiceId: invoice.id }, _sum: { amountCents: true } });
  const figures = creditNoteFigures({
    invoice,
    refundedBeforeCents: before._sum.amountCents ?? 0,
    amountCents: refund.amountCents,
  });
  const [counter] = await tx.$queryRawUnsafe<{ last_number: number }[]>(
    `INSERT INTO credit_note_counters (account_id, last_number) VALUES ($1, 1)
     ON CONFLICT (account_id) DO UPDATE SET last_number = credit_note_counters.last_number + 1
     RETURNING last_number`,
    invoice.accountId,
  );
  const creditNote = await tx.creditNote.create({
    data: {
      accountId: invoice.accountId,
      sequenceNumber: Number(counter!.last_number),
      invoiceId: invoice.id,
      refundId: refund.id,
      memberId: invoice.memberId,
      currency: invoice.currency,
      netCents: figures.netCents,
      taxLines: figures.taxLines,
      amountCents: figures.amountCents,
      reason: refund.reason,
      createdAt: options.now ?? new Date(),
    },
  });
  return { issued: true, creditNote };
}

/** A credit note on the wire; amounts as decimals in the currency's minor units, as invoices'. */
function creditNoteToWire(row: CreditNoteRow & { invoice: { sequenceNumber: number } }) {
  const money = (c: number) => centsToDecimal(c, row.currency);
  return {
    id: row.id,
    sequenced_credit_note_number: row.sequenceNumber,
    invoice_id: row.invoiceId,
    sequenced_invoice_number: row.invoice.sequenceNumber,
    refund_id: row.refundId,
    amount_cents: row.amountCents,
    amount_currency: row.currency,
    amount: money(row.amountCents),
    amount_before_tax: money(row.netCents),
    taxes: invoiceTaxLines(row).map((l) => ({
      name: l.name,
      percentage: taxLinePercentage(l),
      amount: money(l.amount_cents),
    })),
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
  };
}

export type TCreditNoteWire = ReturnType<typeof creditNoteToWire>;

export const notFoundCreditNote = () => new AppError("NOT_FOUND", "No credit note has this id.");

const withInvoiceNumber = { invoice: { select: { sequenceNumber: true } } } as const;

/** One credit note the reader may see, or NOT_FOUND (another subscriber's or account's alike). */
export async function getCreditNoteOrThrow(db: Db, args: { reader: InvoiceReader; id: number }) {
  const { reader } = args;
  const note = await db.creditNote.findFirst({
    where: {
      id: args.id,
      accountId: reader.accountId,
      ...(reader.via === "subscriber" ? { memberId: reader.memberId } : {}),
    },
    include: {
      invoice: {
        select: {
          sequenceNumber: true,
          sellerName: true,
          sellerAddress: true,
          sellerTaxId: true,
          periodStart: true,
          periodEnd: true,
          subscriberName: true,
          subscriberEmail: true,
          planName: true,
          createdAt: true,
        },
      },
    },
  });
  if (!note) throw notFoundCreditNote();
  return note;
}

/** Credit notes, newest first: a reader's own (client API) or the account's (dashboard). */
export async function listCreditNotes(db: Db, args: { accountId: number; memberId?: number; limit?: number }) {
  const rows = await db.creditNote.findMany({
    where: { accountId: args.accountId, ...(args.memberId !== undefined ? { memberId: args.memberId } : {}) },
    orderBy: { sequenceNumber: "desc" },
    include: withInvoiceNumber,
    take: args.limit ?? 500,
  });
  return rows.map(creditNoteToWire);
}
