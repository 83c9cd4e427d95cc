/**
 * Invoices (interface-spec §2.2 Invoice; docs/subscriptions.md "Invoices"). One invoice per
 * captured payment, issued in the transaction that captures it, by `issueInvoiceForPayment`:
 * checkout (a payment captured at create), the gateway webhook job (a payment moving to captured)
 * and the lifecycle's recurring charges call it.
 *
 * What is frozen at issue: the figures, the plan, the subscriber, the seller (invoice-seller.ts:
 * legal name, address, tax id as the account has them then) and the service period the payment
 * paid for (`invoiceServicePeriod`). An issued invoice never changes.
 *
 * Numbers: 1, 2, 3… per account with no gaps. The account's `invoice_counters` row is raised by
 * one upsert in the issuing transaction: concurrent issues of one account queue on that row, and
 * a transaction that rolls back gives its number back (a database sequence would not).
 *
 * Reading: an invoice is the subscriber's own (client API, by the reader's JWT) or the account's
 * revenue staff's (dashboard); anyone else's id is NOT_FOUND, never FORBIDDEN.
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import { AppError } from "../../errors";
import { isTrialAuthorization } from "../checkout/trial-history";
import type { Prisma } from "../../generated/prisma/client";
import { invoiceCreditApplied, invoiceFigures, invoiceServicePeriod, invoiceToWire } from "./invoice-figures";
import { sellerOnInvoice } from "./invoice-seller";

export { invoiceToWire, type TInvoiceWire } from "./invoice-figures";

export type InvoiceRow = Prisma.InvoiceGetPayload<object>;

type IssueOutcome =
  { issued: true; invoice: InvoiceRow } | { issued: false; invoice: InvoiceRow | null; reason: string };

/**
 * Issue the invoice of a captured payment, once: a second call (or a concurrent one) answers the
 * invoice already issued. Must run in the transaction that captures the payment, so the payment,
 * its invoice and the account's number move together or not at all.
 *
 * Not invoiced (answered with the reason): a payment not captured, without a subscription, of no
 * amount (manual or sponsored free plans), and a trial's authorization charge (spec §4.2 rule 6: it
 * is refunded; the charges after the trial are invoiced).
 */
export async function issueInvoiceForPayment(
  tx: TransactionClient,
  paymentId: number,
  options: { now?: Date } = {},
): Promise<IssueOutcome> {
  // One issue of a payment at a time: a concurrent call waits here for the first one's commit,
  // then finds its invoice below.
  await tx.$queryRawUnsafe(`SELECT id FROM payments WHERE id = $1 FOR UPDATE`, paymentId);
  const payment = await tx.payment.findUnique({
    where: { id: paymentId },
    include: {
      invoice: true,
      subscription: { include: { member: { select: { name: true, email: true, communicationEmail: true } } } },
      account: { select: { name: true, invoiceSeller: true } },
    },
  });
  if (!payment) return { issued: false, invoice: null, reason: "No such payment." };
  if (payment.invoice) return { issued: false, invoice: payment.invoice, reason: "Already invoiced." };
  if (payment.status !== "CAPTURED") return { issued: false, invoice: null, reason: "The payment is not captured." };
  const subscription = payment.subscription;
  if (!subscription) return { issued: false, invoice: null, reason: "The payment pays for no subscription." };
  // A charge the credit balance paid whole is invoiced too (its credit line shows why it is 0).
  const credit = invoiceCreditApplied(payment.details);
  if (payment.amountCents <= 0 && credit <= 0) return { issued: false, invoice: null, reason: "Nothing was charged." };
  if (isTrialAuthorization(payment, subscription))
    return { issued: false, invoice: null, reason: "A trial's authorization charge, refunded: not invoiced." };

  const period = invoiceServicePeriod(payment.details, subscription);
  const seller = sellerOnInvoice(payment.account);
  // The period priced in full; the credit then comes off it, after tax (as a payment would).
  const figures = invoiceFigures({
    amountCents: payment.amountCents + credit,
    planAmountCents: subscription.planAmountCents,
    discountDetail: (subscription.discountDetail ?? {}) as Record<string, unknown>,
    taxDetail: subscription.taxDetail,
  });
  const [counter] = await tx.$queryRawUnsafe<{ last_number: number }[]>(
    `INSERT INTO invoice_counters (account_id, last_number) VALUES ($1, 1)
     ON CONFLICT (account_id) DO UPDATE SET last_number = invoice_counters.last_number + 1
     RETURNING last_number`,
    payment.accountId,
  );
  const invoice = await tx.invoice.create({
    data: {
      accountId: payment.accountId,
      sequenceNumber: Number(counter!.last_number),
      paymentId: payment.id,
      subscriptionId: subscription.id,
      memberId: subscription.memberId,
      currency: payment.currency.toUpperCase(),
      basePriceCents: figures.basePriceCents,
      discountCents: figures.discountCents,
      couponCode: figures.couponCode,
      discountPercentage: figures.discountPercentage,
      netCents: figures.netCents,
      taxLines: figures.taxLines,
      roundOffCents: figures.roundOffCents,
      creditCents: credit,
      amountCents: payment.amountCents,
      externalPaymentId: payment.externalPaymentId,
      paymentType: payment.paymentType,
      planName: subscription.planName,
      subscriberName: subscription.member.name || null,
      subscriberEmail: subscription.member.communicationEmail ?? subscription.member.email,
      sellerName: seller.name,
      sellerAddress: seller.address,
      sellerTaxId: seller.taxId,
      periodStart: period.start,
      periodEnd: period.end,
      createdAt: options.now ?? new Date(),
    },
  });
  return { issued: true, invoice };
}

export const notFoundInvoice = () => new AppError("NOT_FOUND", "No invoice has this id.");

/** Who reads: a subscriber (their own invoices only) or the account's revenue staff (all of them). */
export type InvoiceReader = { accountId: number } & ({ via: "subscriber"; memberId: number } | { via: "staff" });

/** One invoice the reader may see, or NOT_FOUND (another subscriber's or account's alike). */
export async function getInvoiceOrThrow(db: Db, args: { reader: InvoiceReader; id: number }): Promise<InvoiceRow> {
  const { reader } = args;
  const invoice = await db.invoice.findFirst({
    where: {
      id: args.id,
      accountId: reader.accountId,
      ...(reader.via === "subscriber" ? { memberId: reader.memberId } : {}),
    },
  });
  if (!invoice) throw notFoundInvoice();
  return invoice;
}

/** A reader's invoices, newest first (the client API). */
export async function listMemberInvoices(db: Db, args: { accountId: number; memberId: number }) {
  const rows = await db.invoice.findMany({
    where: { accountId: args.accountId, memberId: args.memberId },
    orderBy: { sequenceNumber: "desc" },
    take: 500,
  });
  return rows.map(invoiceToWire);
}

/** The dashboard's list: newest first, keyset pages by number, optionally one subscriber's. */
export async function listAccountInvoices(
  db: Db,
  args: { accountId: number; memberId?: number; cursor?: number | null; limit: number },
) {
  const rows = await db.invoice.findMany({
    where: {
      accountId: args.accountId,
      ...(args.memberId !== undefined ? { memberId: args.memberId } : {}),
      ...(args.cursor ? { sequenceNumber: { lt: args.cursor } } : {}),
    },
    orderBy: { sequenceNumber: "desc" },
    take: args.limit + 1,
  });
  const page = rows.slice(0, args.limit);
  return {
    invoices: page.map((row) => ({
      ...invoiceToWire(row),
      subscriber_id: row.memberId,
      subscriber_name: row.subscriberName,
      subscriber_email: row.subscriberEmail,
      plan_name: row.planName,
    })),
    nextCursor: rows.length > args.limit ? (page.at(-1)?.sequenceNumber ?? null) : null,
  };
}
