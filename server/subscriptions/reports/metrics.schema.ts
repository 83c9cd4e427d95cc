/**
 * The revenue metrics' vocabulary (docs/subscriptions.md "Revenue metrics"): the definitions the
 * Reports page shows in each figure's tooltip, and the wire shape of `revenue.metrics`. Imports
 * nothing (components import it).
 */

export const METRIC_KEYS = ["mrr", "arr", "churn", "arpu", "trialConversion"] as const;
export type TMetricKey = (typeof METRIC_KEYS)[number];

/** Each figure's name and definition, as the tooltips and docs say them. */
export const METRIC_DEFINITIONS: Record<TMetricKey, { label: string; definition: string }> = {
  mrr: {
    label: "MRR",
    definition:
      "Monthly recurring revenue: what the recurring subscriptions paying at the month's end (or now) bring in a month, per currency, after discounts and without tax. A yearly price counts a twelfth, a weekly one 52/12, a daily one 365/12. Trials, one-time and lifetime subscriptions are not counted.",
  },
  arr: {
    label: "ARR",
    definition: "Annual recurring revenue: 12 × MRR, per currency.",
  },
  churn: {
    label: "Churn rate",
    definition:
      "Of the recurring subscriptions paying at the start of the month, the share whose access ended during the month (cancelled and not renewed, or expired after failed charges).",
  },
  arpu: {
    label: "ARPU",
    definition:
      "Average revenue per paying subscriber: MRR divided by the number of subscribers (readers) with a paying recurring subscription, per currency.",
  },
  trialConversion: {
    label: "Trial conversion",
    definition:
      "Of the trials that ended during the month, the share that became paid: a charge was captured at or after the trial's end.",
  },
};

export type TMoneyFigure = { currency: string; cents: number };

/** One month's figures (or one plan's in the current month). Rates are 0…1; null: nothing to divide by. */
export type TMonthMetrics = {
  /** "2026-11": a calendar month of the account's zone. */
  month: string;
  mrr: TMoneyFigure[];
  arr: TMoneyFigure[];
  arpu: TMoneyFigure[];
  paying_subscribers: number;
  paying_at_start: number;
  ended: number;
  churn_rate: number | null;
  trials_ended: number;
  trials_converted: number;
  trial_conversion: number | null;
};

export type TRevenueMetrics = {
  /** Oldest first: the last 12 months of the account's zone, the current one (to now) last. */
  months: TMonthMetrics[];
  /** The current month's figures per plan, the plan with the highest MRR first. */
  plans: ({ plan_id: number | null; plan_name: string } & TMonthMetrics)[];
  currencies: string[];
};
