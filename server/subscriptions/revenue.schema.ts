/**
 * Inputs of the revenue dashboard: refunds, the subscriber lookup and the reports'
 * date range. Money is integer cents; days are UTC calendar days written YYYY-MM-DD.
 */
import { z } from "zod";

const MAX_INT = 2_147_483_647;

/** A refund of part (amountCents) or all (no amount: what is left) of a captured payment. */
export const ZRefundPaymentInput = z.object({
  paymentId: z.number().int().min(1).max(MAX_INT),
  amountCents: z.number().int().min(1).max(MAX_INT).optional(),
  reason: z.string().trim().max(500).optional(),
});
export type TRefundPaymentInput = z.output<typeof ZRefundPaymentInput>;

export const ZSubscriberDetailInput = z.object({ memberId: z.number().int().min(1).max(MAX_INT) });

/** The longest range a report covers, in days (both ends included). */
export const REPORT_MAX_DAYS = 366;
const DAY_MS = 86_400_000;

const zUtcDay = z.iso.date().refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), "is not a calendar day");

/** `from` and `to` are UTC days, both included; at most 366 days. */
export const ZReportRangeInput = z
  .object({ from: zUtcDay, to: zUtcDay })
  .refine((r) => r.from <= r.to, { message: "must not be before from", path: ["to"] })
  .refine(
    (r) => (Date.parse(`${r.to}T00:00:00Z`) - Date.parse(`${r.from}T00:00:00Z`)) / DAY_MS + 1 <= REPORT_MAX_DAYS,
    {
      message: `covers at most ${REPORT_MAX_DAYS} days`,
      path: ["to"],
    },
  );
export type TReportRangeInput = z.output<typeof ZReportRangeInput>;

/** The range's bounds as instants: [start of `from`, start of the day after `to`). */
export function rangeBounds(range: TReportRangeInput): { start: Date; end: Date; days: string[] } {
  const start = new Date(`${range.from}T00:00:00.000Z`);
  const end = new Date(Date.parse(`${range.to}T00:00:00.000Z`) + DAY_MS);
  const days: string[] = [];
  for (let t = start.getTime(); t < end.getTime(); t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return { start, end, days };
}
