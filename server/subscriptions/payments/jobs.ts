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
] as const;
export type GatewayJobName = (typeof GATEWAY_JOB_NAMES)[number];
