/** The Overview's figures for moderators and revenue staff (work-overview.ts), as the dashboard shows them. */
import type { TMoneyFigure } from "../subscriptions/reports/metrics.schema";

export const RENEWALS_AHEAD_DAYS = 7;
export const REFUNDS_PAST_DAYS = 30;

export type TModerationWork = {
  pending: number;
  oldestPendingAt: Date | null;
  decidedToday: number;
  reported: number;
};

export type TRevenueWork = {
  mrr: TMoneyFigure[];
  payingSubscribers: number;
  inGrace: number;
  renewalsDue: number;
  refunds: { count: number; amounts: TMoneyFigure[] };
};
