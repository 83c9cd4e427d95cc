/**
 * The inputs of the newsletter stats (dashboard, tRPC newsletterStats.*; the CSV routes): a
 * newsletter with a range of days on the account's clocks, and one send.
 */
import { z } from "zod";

import { zCalendarDay, zDayRange } from "../dates.schema";

/** Days the subscribers chart and the sends' list cover at most. */
const STATS_MAX_DAYS = 366;
const zId = z.coerce.number().int().min(1).max(2_147_483_647);

/** Days "from" to "to", both included, in the account's time zone. */
export const ZStatsRange = zDayRange(STATS_MAX_DAYS);
export type TStatsRange = z.output<typeof ZStatsRange>;

export const ZNewsletterStatsInput = z.object({ newsletterId: zId, range: ZStatsRange });

export const ZSendStatsInput = z.object({ sendId: zId });

export const ZNewsletterIdParams = z.object({ id: zId });
export const ZSendIdParams = z.object({ id: zId, sendId: zId });

/** A CSV's optional range: both days, or neither (everything). */
export const ZOptionalStatsRange = z
  .object({ from: zCalendarDay.optional(), to: zCalendarDay.optional() })
  .superRefine((r, ctx) => {
    if ((r.from === undefined) !== (r.to === undefined)) {
      ctx.addIssue({ code: "custom", message: "give both from and to, or neither", path: [r.from ? "to" : "from"] });
      return;
    }
    if (r.from === undefined || r.to === undefined) return;
    const checked = ZStatsRange.safeParse(r);
    for (const issue of checked.error?.issues ?? [])
      ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  });

/** A send's counts (server/newsletters/stats.ts says what each means). */
export type SendCounts = {
  recipients: number;
  delivered: number;
  bounced: number;
  failed: number;
  pending: number;
  opened: number;
  clicked: number;
  unsubscribed: number;
  subscriptionsStarted: number;
};

export type SendStats = SendCounts & {
  /** opened / delivered, 0..1; null when nothing was delivered. */
  openRate: number | null;
  /** clicked / delivered, 0..1; null when nothing was delivered. */
  clickRate: number | null;
};

/** A rate as people read it: "42.5%", "—" for none. */
export function formatRate(value: number | null): string {
  return value === null ? "—" : `${(Math.round(value * 1000) / 10).toFixed(1)}%`;
}
