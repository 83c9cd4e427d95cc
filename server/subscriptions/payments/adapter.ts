/**
 * The payment-adapter contract (interface-spec §5 "Payment adapter", §6 "Payment-gateway
 * webhooks"), as TypeScript. Checkout never talks to a gateway itself: it asks the adapter named
 * by the request's `payment_type` (registry.ts). Every method receives the account's gateway
 * credentials (decrypted for the call only, never logged) and the environment.
 *
 * Lifecycle of one paid checkout:
 *   preview  → preparePayment(): e.g. create the gateway's order; its id is the preview's
 *              `external_reference_id`, frozen in the attempt.
 *   (the reader pays in the gateway's own widget)
 *   create   → verifyPayment(): prove that `payment_token` is a payment of exactly the attempt's
 *              amount and currency for that order. CAPTURED makes the subscription active,
 *              AUTHORIZED/PENDING leaves it pending (a gateway webhook confirms it later),
 *              FAILED refuses the create (422).
 *   webhook  → webhookRequestAuthorized(), webhookEventTypeMapping(), webhookEventDetails(), …
 */
import type { DurationUnit } from "../../generated/prisma/enums";
import type { GatewaySubscriptionRecord } from "./gateway-records";
import type { GatewayJobName } from "./jobs";

export type GatewayEnvironment = "live" | "sandbox";

/** Spec §5: app_key, secret, enabled, webhook_secret, and the environment. */
export type GatewayCredentials = {
  app_key: string;
  secret: string;
  enabled: boolean;
  webhook_secret: string | null;
  environment: GatewayEnvironment;
  /** Stripe: the account's Stripe Tax setting (payments/stripe-tax.ts); absent for other gateways. */
  stripe_tax?: { enabled: boolean; inclusive: boolean };
};

/** What checkout knows when it asks for a payment (all money in integer minor units). */
export type PaymentIntent = {
  accountId: number;
  /** The attempt (preview) id: a stable idempotency key / receipt for the gateway. */
  attemptId: string;
  /** What this payment is: with a trial, only the authorization (refunded). */
  amountCents: number;
  currency: string;
  recurring: boolean;
  /** A recurring plan's trial: the first period's charge (`periodCents`) is due when it ends. */
  trial?: { length: number; unit: DurationUnit } | null;
  /** What each period is charged: the price after coupon and tax. */
  periodCents?: number;
  /** A recurring plan's billing period (gateways that make the recurring price themselves, e.g. Stripe). */
  period?: { length: number; unit: DurationUnit } | null;
  /** `metadata` carries gateway mappings a publisher configures (e.g. `razorpay_plan_id` for recurring plans). */
  plan: { id: number | null; title: string; metadata?: Record<string, unknown> | null };
  subscriber: { id: number | null; name: string | null; email: string | null; phone: string | null };
  /** The subscriber's recorded gateway customers (checkout passes them for a known reader; absent: a guest). */
  customers?: GatewayCustomers;
};

export type PreparedPayment = {
  /** The gateway's order / subscription id; the preview's `external_reference_id`. */
  externalReferenceId: string | null;
  /** Anything the browser's gateway widget needs (never a secret). */
  clientOptions?: Record<string, unknown>;
};

export type PaymentProof = {
  /** payment.payment_token from the create: the gateway's payment id. */
  paymentToken: string | null;
  /** The order frozen in the attempt at preview. */
  externalReferenceId: string | null;
  /** Other fields the client sent in `payment` (e.g. a gateway signature). */
  extra: Record<string, unknown>;
};

export type VerifiedPayment = {
  status: "captured" | "authorized" | "pending" | "failed";
  /** The gateway's payment id as recorded (unique per account and payment_type). */
  externalPaymentId: string | null;
  externalOrderId: string | null;
  /** Why, when failed (shown to the client in the 422). */
  reason?: string;
  /** Stored on the payment row; never a secret. */
  details?: Record<string, unknown>;
  /** The gateway's customer that paid (Stripe's cus_…): the buyer's from then on when they have none. */
  gatewayCustomerId?: string | null;
};

/** A refund staff asked for (refunds.ts): part or all of a captured payment, in its currency. */
type RefundRequest = {
  accountId: number;
  /** Our payment_refunds row id: a stable receipt / idempotency key for the gateway. */
  refundId: number;
  paymentType: string;
  externalPaymentId: string | null;
  /** The whole payment, and the part to give back now (integer minor units, > 0). */
  paymentAmountCents: number;
  amountCents: number;
  currency: string;
  reason: string | null;
};

type RefundResult = {
  /** The gateway's refund id (null for adapters that move no money). */
  externalRefundId: string | null;
  /** Stored on the refund row; never a secret. */
  details?: Record<string, unknown>;
};

/** A received gateway webhook, as the route hands it over: the raw body is what was signed. */
export type GatewayRequest = { headers: Headers; rawBody: string };

/** Spec §6 webhook_event_details: what the service stores and acts on. */
export type GatewayEventDetails = {
  /** The gateway's event id (deduplication key); falls back to a digest of the body. */
  eventId: string;
  /** The gateway's event name, a key of webhookEventTypeMapping(). */
  event: string;
  externalPaymentId: string | null;
  externalOrderId: string | null;
  externalSubscriptionId: string | null;
  amountCents: number | null;
  currency: string | null;
  /** Notes the gateway echoes back (e.g. our attempt id). */
  notes: Record<string, unknown>;
  /** The gateway's status of the payment or subscription in the event (spec §6 `status`). */
  status?: string | null;
  /** The payment belongs to a gateway subscription (a recurring charge, not a one-time order). */
  recurring?: boolean;
  /**
   * The payment method the gateway now charges for the subscription (a card change reported by
   * a subscription's update event): its reference and a label ("Visa ending 1111"); null: none named.
   */
  paymentMethod?: { token: string; label: string | null } | null;
  /**
   * A refund the event reports (payment_refunded): the gateway's refund id, the amount given back
   * (integer minor units) and, when the refund was asked for through Masthead, our refund's id as
   * the gateway echoes it (Razorpay's receipt `refund_<id>`, Stripe's metadata).
   */
  refund?: { id: string; amountCents: number; mastheadRefundId: number | null } | null;
  /**
   * A dispute (chargeback) the event reports (payment_disputed): the gateway's id, the amount
   * disputed, where it stands (open until the bank decides) and the gateway's reason.
   */
  dispute?: { id: string; amountCents: number; status: "open" | "won" | "lost"; reason: string | null } | null;
  /** When the gateway made the event (its own clock): a state older than Masthead's last word is stale. */
  occurredAt?: Date | null;
  /**
   * The gateway subscription's state as the event shows it (subscription events): renewing
   * ("active"), set to cancel at its period's end ("cancelling"), not collecting ("paused", until
   * `resumesAt` when it says so) or "ended"; "other" for states Masthead does not follow (incomplete).
   */
  gatewaySubscription?: {
    state: "active" | "cancelling" | "paused" | "ended" | "other";
    resumesAt: Date | null;
  } | null;
  /** Spec §6 optional fields. */
  email?: string | null;
  contact?: string | null;
  feeCents?: number | null;
  feeCurrency?: string | null;
};

/** One recurring charge the lifecycle asks for: a period of a subscription, in integer cents. */
export type RecurringCharge = {
  accountId: number;
  subscriptionId: number;
  /** Stable for this period ("sub:<id>:<period start ISO>"): a repeated call (a retry after a crash) must not charge twice. */
  idempotencyKey: string;
  amountCents: number;
  currency: string;
  /** The gateway's reference kept on the subscription (its payment token / gateway subscription id). */
  paymentToken: string | null;
  periodStart: Date;
  periodEnd: Date | null;
};

export type RecurringChargeResult =
  | { status: "captured"; externalPaymentId: string | null; details?: Record<string, unknown> }
  | { status: "failed"; reason: string };

/**
 * A reader replaces the payment method of a subscription (the self-service page): the gateway's
 * card form (or setup flow) hands the browser a token for the new method; the adapter checks it
 * with the gateway and answers the reference later charges use (the subscription's payment_token).
 */
type PaymentMethodUpdate = {
  accountId: number;
  subscriptionId: number;
  /** The reference charges use now (the subscription's payment_token). */
  currentPaymentToken: string | null;
  /** The gateway's subscription id as checkout froze it (the attempt's external_reference_id). */
  gatewayReference?: string | null;
  /** What the gateway's form handed the browser: its token and any signature fields. */
  proof: { paymentToken: string; extra: Record<string, unknown> };
};

/**
 * A reader asks where to change the card of a subscription whose gateway hosts that page itself
 * (the self-service page links there); the gateway later reports the change by webhook.
 */
type HostedPaymentMethodRequest = {
  accountId: number;
  subscriptionId: number;
  /** The gateway's subscription id as checkout froze it (the attempt's external_reference_id). */
  gatewayReference: string | null;
  currentPaymentToken: string | null;
};

type UpdatedPaymentMethod = {
  /** The reference the next charges use (stored as the subscription's payment_token). */
  paymentToken: string;
  /** Shown to the reader ("Visa ending 4242"); never a secret, never a full card number. */
  label: string | null;
};

/**
 * A change Masthead makes to a subscription that the gateway charges by itself (no
 * chargeRecurring): the gateway is told before Masthead records it (server/subscriptions/recurring/gateway-sync.ts).
 */
export type GatewaySubscriptionChange = {
  accountId: number;
  subscriptionId: number;
  /** The gateway's subscription id as checkout froze it (the attempt's external_reference_id). */
  gatewayReference: string;
  /**
   * Stable for this change of this state of the subscription: a repeat after a crash between the
   * gateway's answer and Masthead's write sends the same key (gateways that take one replay the answer).
   */
  idempotencyKey: string;
};

/**
 * Optional: the subscription changes a gateway that charges each period itself is told of. Each
 * reads the gateway's subscription first: already as wanted counts as done (a repeat is harmless).
 * Throws a PaymentAdapterError: "declined" when the gateway refuses or cannot do it for this
 * subscription (Masthead answers 422 with the message), "unavailable" when it cannot be reached.
 */
export type GatewaySubscriptionControls = {
  /** Stop renewing at the end of the paid period (a trial: at its end); access stays until then. */
  cancelAtPeriodEnd(creds: GatewayCredentials | null, change: GatewaySubscriptionChange): Promise<void>;
  /**
   * Take back a cancel at period end (the period has not ended). Absent: the gateway cannot
   * (Razorpay: a cancelled subscription cannot be reactivated), and Masthead refuses the undo (422).
   */
  undoCancelAtPeriodEnd?(creds: GatewayCredentials | null, change: GatewaySubscriptionChange): Promise<void>;
  /** End the gateway's subscription now (one never paid, that must not be charged later). */
  cancelNow(creds: GatewayCredentials | null, change: GatewaySubscriptionChange): Promise<void>;
  /**
   * Charge nothing until `resumesAt` (Masthead's pause after the paid period); the first charge
   * after it is the pause's end. Gateways that can only pause now and resume on request pause now.
   */
  pauseCollection(
    creds: GatewayCredentials | null,
    change: GatewaySubscriptionChange & { resumesAt: Date },
  ): Promise<void>;
  /** Charge again from now on (a pause ended or taken back). */
  resumeCollection(creds: GatewayCredentials | null, change: GatewaySubscriptionChange): Promise<void>;
};

// ─── Plan switches on gateways that charge by themselves (../recurring/plan-switch-gateway.ts) ───────────

/** The gateway subscription a plan switch changes, and the plan it is to charge. */
export type GatewayPlanChange = {
  accountId: number;
  subscriptionId: number;
  /** The switch's attempt: the idempotency key of every call (one attempt, one change at the gateway). */
  attemptId: string;
  /** The gateway's subscription id (the checkout attempt's external_reference_id). */
  gatewayReference: string | null;
  currency: string;
  /** The target plan; `metadata` carries its gateway mappings (`stripe_price_id`, `razorpay_plan_id`, …). */
  plan: { id: number; title: string; metadata: Record<string, unknown> | null };
  /** What the target charges each period (integer minor units), and its period. */
  priceCents: number;
  period: { length: number; unit: DurationUnit };
  /** The current plan's period, and the end of the period being paid (the next charge) as Masthead knows it. */
  fromPeriod: { length: number; unit: DurationUnit };
  periodEnd: Date | null;
};

/** How a switch reaches the gateway: from its next charge on, or now with the gateway's own proration. */
export type GatewayPlanChangeTiming =
  | { when: "next_period" }
  | {
      when: "now";
      /** The instant the proration is computed at (Unix seconds), frozen at the preview. */
      prorationDate: number;
      /** What the preview showed the gateway would charge now (quotePlanChange's amountCents). */
      expectedCents: number;
    };

/** What the gateway will charge for switching now (quotePlanChange), in integer minor units. */
export type GatewayProration = {
  prorationDate: number;
  /** Charged now: the rest of the period on the new price less the unused time on the old (may be < 0: a credit). */
  amountCents: number;
  /** The unused time on the old price (≥ 0). */
  creditCents: number;
  /** The new price for the rest of the period (or for a whole new period when the cycle resets). */
  restCents: number;
  /** Another billing interval: the gateway starts a new period now. */
  resetsCycle: boolean;
  /** When the gateway charges next after the switch. */
  nextChargeAt: Date | null;
};

type GatewayPlanChangeResult =
  | {
      status: "changed";
      /** What was charged now (a switch "now"): the gateway's payment id (Stripe: the invoice), once recorded. */
      charge: { externalPaymentId: string; amountCents: number; details?: Record<string, unknown> } | null;
      /** When the gateway charges next (its answer); null: unchanged or not said. */
      nextChargeAt: Date | null;
    }
  | { status: "failed"; reason: string };

/**
 * A plan switch on a gateway that charges its subscriptions by itself (no chargeRecurring): it must
 * charge the new plan's price too. Adapters without these leave the gateway untold.
 */
export interface GatewayPlanChanges {
  /** Which timings changePlan makes. */
  readonly planChangeTimings?: readonly GatewayPlanChangeTiming["when"][];
  /**
   * Why this switch cannot be made on the gateway as Masthead means it (shown in a 422 at the
   * preview), checked without calling it; null: it can.
   */
  planChangeRefusal?(change: GatewayPlanChange, when: GatewayPlanChangeTiming["when"]): string | null;
  /** What the gateway would charge for switching now, computed at `prorationDate` (the preview). */
  quotePlanChange?(
    creds: GatewayCredentials | null,
    change: GatewayPlanChange,
    prorationDate: number,
  ): Promise<GatewayProration>;
  /**
   * Change the gateway subscription's plan. "now": charged through the gateway as quoted; a charge
   * of another amount than `expectedCents`, or a declined one, leaves the gateway subscription as
   * it was and answers `failed` with the reason. Idempotent on the attempt: a repeated call answers
   * the first one's outcome. Throws a PaymentAdapterError when the gateway cannot be reached
   * ("unavailable") or refuses the request ("invalid", "declined").
   */
  changePlan?(
    creds: GatewayCredentials | null,
    change: GatewayPlanChange,
    timing: GatewayPlanChangeTiming,
  ): Promise<GatewayPlanChangeResult>;
}

export interface PaymentAdapter extends GatewayPlanChanges {
  /** The payment_type value(s) it answers: "manual", "sponsored", "razorpay", "razorpay_recurring". */
  readonly paymentTypes: readonly string[];
  /** The provider name credentials are stored under (null: needs none, e.g. manual). */
  readonly provider: string | null;
  /**
   * Whether a create with this payment type is a payment at all. Manual and sponsored are not:
   * the subscription is active at once (sponsored) or as the server API says (manual).
   */
  readonly takesPayment: boolean;
  /** Who may use it: "server" (X-SUBAUTH only), or "any" (the client API and guests too). */
  readonly callers: "server" | "any";
  /**
   * Why a coupon cannot be used on this gateway's recurring subscriptions (the gateway charges
   * each period a price Masthead cannot lower); checkout refuses the combination with it (422).
   * Absent: coupons apply.
   */
  readonly recurringCouponRefusal?: string;
  /**
   * What a reader's browser needs besides the public key to run the gateway's widget, added to the
   * gateway's entry of GET /api/access/v1/payment_options (Stripe: where Stripe.js is loaded from).
   */
  browserOptions?(): Record<string, string>;

  preparePayment(creds: GatewayCredentials | null, intent: PaymentIntent): Promise<PreparedPayment>;
  verifyPayment(creds: GatewayCredentials | null, intent: PaymentIntent, proof: PaymentProof): Promise<VerifiedPayment>;

  /** Spec §6 webhook_request_authorized?: false stops processing. Constant-time comparisons. */
  webhookRequestAuthorized(creds: GatewayCredentials, request: GatewayRequest): boolean;
  /** Spec §6 webhook_event_type_mapping: gateway event name → job. */
  webhookEventTypeMapping(): Readonly<Record<string, GatewayJobName>>;
  /** Spec §6 webhook_event_details; throws a PaymentAdapterError on a body it cannot read. */
  webhookEventDetails(request: GatewayRequest): GatewayEventDetails;
  /** Spec §6: a payment event with no subscription: cancel the gateway subscription and refund. */
  beforeExitOnSubscriptionAbsence?(creds: GatewayCredentials, details: GatewayEventDetails): Promise<void>;
  /**
   * Charge one period of a recurring subscription (the lifecycle), for gateways where the
   * service initiates the charge. Absent: the gateway charges by itself (Razorpay subscriptions)
   * and says so with a recurring_subscription_charged webhook, or nobody charges (manual).
   * Must be idempotent on `charge.idempotencyKey`: the same key answers the same payment.
   */
  chargeRecurring?(creds: GatewayCredentials | null, charge: RecurringCharge): Promise<RecurringChargeResult>;
  /**
   * Give back `amountCents` of a captured payment (the revenue dashboard). Throws a
   * PaymentAdapterError when the gateway refuses ("declined") or cannot be reached
   * ("unavailable"); the caller then releases what it reserved. Adapters without it cannot refund.
   */
  refund?(creds: GatewayCredentials | null, request: RefundRequest): Promise<RefundResult>;
  /**
   * Replace the payment method the subscription's charges use (the self-service page). Throws a
   * PaymentAdapterError when the gateway refuses the new method ("declined") or cannot be
   * reached ("unavailable"). Adapters without it: the method cannot be changed through Masthead.
   */
  updatePaymentMethod?(creds: GatewayCredentials | null, update: PaymentMethodUpdate): Promise<UpdatedPaymentMethod>;
  /**
   * Where the subscriber changes the card on the gateway's own hosted page (an https URL), for
   * gateways that take the new card there and report it by webhook (`paymentMethod` in the event
   * details). Throws a PaymentAdapterError when the gateway has no such page for this
   * subscription ("declined") or cannot be reached ("unavailable").
   */
  hostedPaymentMethodUpdate?(
    creds: GatewayCredentials | null,
    request: HostedPaymentMethodRequest,
  ): Promise<{ url: string }>;
  /**
   * For a gateway that charges periods itself (no chargeRecurring): how long after a period's end
   * its word on the renewal (a charge, a failure) may take. Until then the reader keeps reading and
   * is told nothing (lifecycle-steps.ts "await_gateway"); with no word by then, the grace period
   * and its e-mail start. Absent: the grace period starts at the period's end.
   */
  readonly renewalReportedWithinMs?: number;
  /** The gateway's name as readers know it ("Razorpay"), for links to its hosted pages. */
  readonly displayName?: string;
  /**
   * Other ids under which Masthead may have recorded the gateway payment `externalPaymentId` names,
   * for events that name a payment another way than the charge was recorded (Stripe records a
   * subscription's charge by its invoice; its refunds and disputes name the PaymentIntent). Throws
   * a PaymentAdapterError when the gateway cannot be reached (the event's job retries).
   */
  paymentAliases?(creds: GatewayCredentials, externalPaymentId: string): Promise<string[]>;
  /**
   * For a gateway that charges periods itself: cancel, undo, pause and resume are told to it
   * (GatewaySubscriptionControls). Absent: Masthead changes only its own rows.
   */
  readonly subscriptionControls?: GatewaySubscriptionControls;
  /** The gateway's subscriptions of one of its customers (an import taking a reader over from it). */
  customerSubscriptions?(creds: GatewayCredentials, customerId: string): Promise<GatewaySubscriptionRecord[]>;
  /** Spec §6 renewal: the gateway subscription's current end. */
  renewal?(creds: GatewayCredentials, details: GatewayEventDetails): Promise<{ endTimestamp: Date | null }>;
}

/** A gateway said no, or could not be reached: checkout answers 422 (or 502) with `message`. */
export class PaymentAdapterError extends Error {
  constructor(
    message: string,
    readonly kind: "declined" | "unavailable" | "invalid" = "declined",
  ) {
    super(message);
    this.name = "PaymentAdapterError";
  }
}

// ─── A reader's customer at a gateway (Stripe's cus_…), recorded once per reader ─────────────

/**
 * The gateway customers recorded for one subscriber of one account (member_gateway_customers):
 * a gateway that keeps customers (Stripe) makes one at the reader's first checkout and reuses it.
 */
export type GatewayCustomers = {
  /** Stable for the subscriber within the account ("<account>-<member>"), for idempotency keys. */
  readonly key: string;
  /** The customer recorded for the provider and environment, or null. */
  find(provider: string, environment: GatewayEnvironment): Promise<string | null>;
  /** Record `externalId` unless another is recorded already (a concurrent checkout's); answers the recorded one. */
  remember(provider: string, environment: GatewayEnvironment, externalId: string): Promise<string>;
  /** Forget `externalId` (the gateway no longer knows it), if it is still the recorded one. */
  forget(provider: string, environment: GatewayEnvironment, externalId: string): Promise<void>;
};

// ─── Connection check (the dashboard's "Check connection") ───────────────────────────────────

/** One thing wrong with an account's gateway setup, in words its owner can act on. */
export type GatewayCheckProblem = {
  /** Stable, for tests and the dashboard: secret_rejected, key_modes_differ, permission_missing, … */
  code: string;
  message: string;
};

/** What a connection check found: never a secret, nothing Stripe returned about the key but its mode. */
export type GatewayCheck = {
  /** Nothing wrong: readers can pay and the gateway's webhooks are heard. */
  ok: boolean;
  /** The mode the keys say they are of ("test"/"live"), null when they say nothing or disagree. */
  mode: "test" | "live" | null;
  /** The account's environment setting, and whether the keys' mode is it (test = sandbox). */
  environment: GatewayEnvironment;
  environmentMatches: boolean;
  /** Whether the gateway answered at all (false: unreachable, nothing else was checked). */
  reached: boolean;
  problems: GatewayCheckProblem[];
  /** What went well, in words ("The secret key works (a restricted key with every permission Masthead needs)."). */
  notes: string[];
};

export interface PaymentAdapter {
  /**
   * Check the account's credentials against the gateway without moving money or changing
   * anything (the dashboard's "Check connection"). Never throws for what it finds: every
   * problem is in the answer. Adapters without it have no check.
   */
  checkConnection?(creds: GatewayCredentials): Promise<GatewayCheck>;
}
