/** The jobs a gateway event maps to (interface-spec §6). The subscription lifecycle processes them. */
export const GATEWAY_JOB_NAMES = [
  /** Creates the subscription from the event details when a completed payment has none. */
  "one_time_subscription_charged",
  /** Extends end_timestamp. */
  "recurring_subscription_charged",
  /** Cancels the subscription. */
  "recurring_subscription_cancelled",
  /** Designed here (not in the spec's list): the gateway now charges another card; stores its reference. */
  "recurring_subscription_payment_method_updated",
  /**
   * Designed here (not in the spec's list): the gateway's subscription changed state (set to
   * cancel at its period's end or taken back, its collection paused or resumed, on the gateway's
   * own pages): Masthead follows (payments/gateway-subscription-events.ts); a card change the
   * same event reports is stored as recurring_subscription_payment_method_updated does.
   */
  "recurring_subscription_updated",
  /**
   * Designed here (not in the spec's list): the gateway's charge of a period failed and it may retry
   * on its own (Razorpay's subscription.pending, Stripe's invoice.payment_failed): the grace period
   * starts at once, with its one e-mail, if the paid period has ended.
   */
  "recurring_subscription_payment_failed",
  /**
   * Designed here (not in the spec's list): a payment was refunded at the gateway (its own
   * dashboard, or a refund asked through Masthead whose answer was lost): recorded once, with its
   * credit note, as a refund staff make here is.
   */
  "payment_refunded",
  /**
   * Designed here (not in the spec's list): a payment is disputed (a chargeback), or its dispute
   * was decided; a lost one is recorded as the money going back (gateway-disputes.ts).
   */
  "payment_disputed",
] as const;
export type GatewayJobName = (typeof GATEWAY_JOB_NAMES)[number];
