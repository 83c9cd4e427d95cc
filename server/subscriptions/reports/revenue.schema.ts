/**
 * Inputs of the revenue dashboard: refunds, the subscriber lookup and the reports'
 * date range. Money is integer cents; days are calendar days of the account's zone written
 * YYYY-MM-DD.
 */
import { z } from "zod";

import { nextDay, zDayRange, zonedDayStart } from "../../dates.schema";

const MAX_INT = 2_147_483_647;

/** A refund of part (amountCents) or all (no amount: what is left) of a captured payment. */
export const ZRefundPaymentInput = z.object({
  paymentId: z.number().int().min(1).max(MAX_INT),
  amountCents: z.number().int().min(1).max(MAX_INT).optional(),
  reason: z.string().trim().max(500).optional(),
});
export type TRefundPaymentInput = z.output<typeof ZRefundPaymentInput>;

export const ZSubscriberDetailInput = z.object({ memberId: z.number().int().min(1).max(MAX_INT) });

/** `from` and `to` are days of the account's zone, both included; at most 366 days. */
export const ZReportRangeInput = zDayRange(366);
export type TReportRangeInput = z.output<typeof ZReportRangeInput>;

/**
 * The range's bounds as instants on `zone`'s clocks: [start of `from`, start of the day after
 * `to`), and its days.
 */
export function rangeBounds(range: TReportRangeInput, zone: string): { start: Date; end: Date; days: string[] } {
  const days: string[] = [];
  for (let day = range.from; day <= range.to; day = nextDay(day)) days.push(day);
  return { start: zonedDayStart(range.from, zone), end: zonedDayStart(nextDay(range.to), zone), days };
}
