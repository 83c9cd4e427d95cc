/**
 * A credit note's figures, as pure functions (unit-tested in credit-note-figures.test.ts). A credit
 * note gives back part or all of an invoice's charge; its taxes are the invoice's tax lines split
 * in proportion to the amount, in integer cents.
 *
 * The split is cumulative: a note's share of a tax line is the share of everything refunded so far
 * (this note included) minus the share of what earlier notes refunded, each rounded half up. So
 * the notes of a fully refunded invoice add up to the invoice's taxes exactly, whatever the order
 * and size of the partial refunds.
 */
import { invoiceTaxLines, type InvoiceTaxLine } from "./invoice-figures";

type CreditNoteFigures = { netCents: number; taxLines: InvoiceTaxLine[]; amountCents: number };

/** round(part × whole / total) in integers, half up; 0 when total is 0. */
function share(whole: number, part: number, total: number): number {
  if (total <= 0) return 0;
  return Number((BigInt(whole) * BigInt(part) * 2n + BigInt(total)) / (BigInt(total) * 2n));
}

/**
 * The figures of a note refunding `amountCents` of an invoice of which `refundedBeforeCents` were
 * credited by earlier notes. Throws when the amounts are not whole, non-negative cents or exceed
 * the invoice's charge.
 */
export function creditNoteFigures(args: {
  invoice: { amountCents: number; taxLines: unknown };
  refundedBeforeCents: number;
  amountCents: number;
}): CreditNoteFigures {
  const total = args.invoice.amountCents;
  const before = args.refundedBeforeCents;
  const amount = args.amountCents;
  for (const v of [total, before, amount])
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError("Amounts are whole, non-negative cents.");
  if (before + amount > total) throw new RangeError("A credit note cannot give back more than the invoice charged.");
  const taxLines = invoiceTaxLines(args.invoice).map((line) => ({
    ...line,
    amount_cents: share(line.amount_cents, before + amount, total) - share(line.amount_cents, before, total),
  }));
  const taxes = taxLines.reduce((sum, l) => sum + l.amount_cents, 0);
  return { netCents: amount - taxes, taxLines, amountCents: amount };
}
