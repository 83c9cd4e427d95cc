/**
 * The one issuer of the account's numbered documents: invoices (./invoices.ts, one per captured
 * payment) and credit notes (./credit-notes.ts, one per succeeded refund of an invoiced payment).
 *
 * Issuing runs in the transaction that records what the document is for, once: the source row
 * (the payment, the refund) is locked, so a concurrent issue waits for the first one's commit and
 * then finds its document. Numbers are 1, 2, 3… per account and kind with no gaps: the account's
 * counter row (`invoice_counters`, `credit_note_counters`) is raised by one upsert in the issuing
 * transaction, so concurrent issues of one account queue on that row and a transaction that rolls
 * back gives its number back (a database sequence would not).
 *
 * Reading: a document is the subscriber's own (client API, by the reader's JWT) or the account's
 * revenue staff's (dashboard); anyone else's id is NOT_FOUND, never FORBIDDEN (`readableBy`).
 * What a document prints is ./invoice-document.ts's (documentFrame: the seller block as the
 * invoice froze it; renderDocumentHtml and ./pdf-document.ts: the two forms).
 */
import "server-only";

import type { TransactionClient } from "../../db/client";
import { sqlIdentifier } from "../../db/sql";

/** Rows an issue locks: one issue of a payment, refund or invoice at a time. */
type LockedTable = "payments" | "payment_refunds" | "invoices";

/** Each kind of document has its own gapless sequence per account. */
type Counter = "invoice_counters" | "credit_note_counters";

export async function lockForIssue(tx: TransactionClient, table: LockedTable, id: number): Promise<void> {
  await tx.$queryRaw`SELECT id FROM ${sqlIdentifier(table)} WHERE id = ${id} FOR UPDATE`;
}

/** The account's next number of `counter`'s kind, taken in the issuing transaction. */
async function nextNumber(tx: TransactionClient, counter: Counter, accountId: number): Promise<number> {
  const table = sqlIdentifier(counter);
  const [row] = await tx.$queryRaw<{ last_number: number }[]>`
    INSERT INTO ${table} (account_id, last_number) VALUES (${accountId}, 1)
    ON CONFLICT (account_id) DO UPDATE SET last_number = ${table}.last_number + 1
    RETURNING last_number`;
  return Number(row!.last_number);
}

/** An issue's outcome: the new document, or the one already issued (or none) and why not. */
type Issued<Row> = { issued: true; document: Row } | { issued: false; document: Row | null; reason: string };

/** What `prepare` finds: nothing to issue (with the document already issued, if any), or what to create. */
export type Prepared<Row> =
  { existing: Row | null; reason: string } | { accountId: number; create: (sequenceNumber: number) => Promise<Row> };

/**
 * Issue a document once: lock `source`, let `prepare` read it (under the lock) and say whether and
 * what to issue, then take the account's next number and `create` the document with it.
 */
export async function issueOnce<Row>(
  tx: TransactionClient,
  args: { source: { table: LockedTable; id: number }; counter: Counter; prepare: () => Promise<Prepared<Row>> },
): Promise<Issued<Row>> {
  await lockForIssue(tx, args.source.table, args.source.id);
  const prepared = await args.prepare();
  if ("reason" in prepared) return { issued: false, document: prepared.existing, reason: prepared.reason };
  const document = await prepared.create(await nextNumber(tx, args.counter, prepared.accountId));
  return { issued: true, document };
}

/** Who reads: a subscriber (their own documents only) or the account's revenue staff (all of them). */
export type InvoiceReader = { accountId: number } & ({ via: "subscriber"; memberId: number } | { via: "staff" });

/** The documents `reader` may see, as a `where`. */
export function readableBy(reader: InvoiceReader): { accountId: number; memberId?: number } {
  return ownedBy(reader.accountId, reader.via === "subscriber" ? reader.memberId : undefined);
}

/** An account's documents, or one subscriber's of them, as a `where`. */
export function ownedBy(accountId: number, memberId?: number): { accountId: number; memberId?: number } {
  return { accountId, ...(memberId !== undefined ? { memberId } : {}) };
}
