/**
 * revenue.* – the revenue dashboard (REVENUE, OWNER passes): a subscriber's payments and
 * webhooks, refunds (audited `payment.refund`), the reports aggregated in SQL (reports.ts) and
 * the revenue metrics (metrics.ts).
 */
import { refundPayment } from "../../subscriptions/invoices/refunds";
import { dunningReport } from "../../subscriptions/reports/dunning-report";
import { revenueMetrics } from "../../subscriptions/reports/metrics-load";
import {
  conversionReport,
  revenueHeadlines,
  revenueReport,
  subscriptionsReport,
} from "../../subscriptions/reports/reports";
import {
  ZRefundPaymentInput,
  ZReportRangeInput,
  ZSubscriberDetailInput,
} from "../../subscriptions/reports/revenue.schema";
import { getSubscriberActivity } from "../../subscriptions/subscribers/subscriber-activity";
import { adminProcedure, createTRPCRouter } from "../trpc";

const revenue = adminProcedure(["REVENUE"]);

export const revenueRouter = createTRPCRouter({
  /** One subscriber's payments (with refunds) and the subscription webhooks about them. */
  subscriberActivity: revenue
    .input(ZSubscriberDetailInput)
    .query(({ ctx, input }) =>
      getSubscriberActivity(ctx.db, { accountId: ctx.actor.accountId, memberId: input.memberId }),
    ),

  /** Refund part (amountCents) or the rest of a captured payment through its adapter. */
  refund: revenue
    .input(ZRefundPaymentInput)
    .mutation(({ ctx, input }) => refundPayment(ctx.db, { actor: ctx.actor, input })),

  /** Active, new and churned subscriptions per day of the account's zone. */
  subscriptionsReport: revenue
    .input(ZReportRangeInput)
    .query(({ ctx, input }) =>
      subscriptionsReport(ctx.db, { accountId: ctx.actor.accountId, range: input, now: new Date() }),
    ),

  /** Captured, refunded and net revenue per day of the account's zone and currency (integer cents). */
  revenueReport: revenue
    .input(ZReportRangeInput)
    .query(({ ctx, input }) => revenueReport(ctx.db, { accountId: ctx.actor.accountId, range: input })),

  /** Readers who hit the paywall (the meter's free limit) and of them, who subscribed after. */
  conversionReport: revenue
    .input(ZReportRangeInput)
    .query(({ ctx, input }) => conversionReport(ctx.db, { accountId: ctx.actor.accountId, range: input })),

  /** Recovered and lost revenue of failed recurring charges per day of the account's zone and currency, and what is at risk now. */
  dunningReport: revenue
    .input(ZReportRangeInput)
    .query(({ ctx, input }) => dunningReport(ctx.db, { accountId: ctx.actor.accountId, range: input })),

  /** MRR, ARR, churn rate, ARPU and trial conversion of the last 12 months of the account's zone, and this month's per plan. */
  metrics: revenue.query(({ ctx }) => revenueMetrics(ctx.db, { accountId: ctx.actor.accountId, now: new Date() })),

  /** The overview's headline numbers for this month of the account's zone. */
  headlines: revenue.query(({ ctx }) => revenueHeadlines(ctx.db, { accountId: ctx.actor.accountId, now: new Date() })),
});
