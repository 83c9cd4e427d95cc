/**
 * Inputs of the revenue dashboard: refunds, the subscriber lookup and the reports'
 * date range. Money is integer cents; days are calendar days of the account's zone written
 * YYYY-MM-DD.
 */
import { z } from "zod";

import { nextDay, zonedDayStart } from "../dates.schema";

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
const REPORT_MAX_DAYS = 366;
const DAY_MS = 86_400_000;

const zUtcDay = z.iso.date().refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), "is not a calendar day");

/** `from` and `to` are days of the account's zone, both included; at most 366 days. */
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

/**
 * The range's bounds as instants on `zone`'s clocks: [start of `from`, start of the day after
 * `to`), and its days.
 */
export function rangeBounds(range: TReportRangeInput, zone: string): { start: Date; end: Date; days: string[] } {
  const days: string[] = [];
  for (let day = range.from; day <= range.to; day = nextDay(day)) days.push(day);
  return { start: zonedDayStart(range.from, zone), end: zonedDayStart(nextDay(range.to), zone), days };
}
