/**
 * The public types of Masthead's browser SDK (`window.AccessType`), served as
 * `/frontend/v2/accesstype.d.ts`. Type declarations only: this file is the .d.ts as written.
 *
 * Wire objects (subscriptions, groups, plans) are snake_case, exactly as the REST API answers
 * them (docs/subscriptions.md); the SDK passes them through unchanged.
 */

/** Every rejection of an SDK promise: the HTTP status (0: no answer) and the API's error object. */
export type AccessTypeError = {
  status: number;
  error: { code: string; message: string; details?: { field: string; issue: string }[] };
};

/** `setUser`: a signed-in reader (the publisher's JWT) or a guest (e-mail and/or E.164 phone). */
export type AccessTypeUser =
  | { accesstypeJwt?: string | null; emailAddress?: string | null; mobileNumber?: string | null; isLoggedIn?: true }
  | { isLoggedIn: false };

/** `type` is "story" (or "collection" for pay-per-asset plans). */
export type AssetRef = { id: string; type: string };

/** The access grant object (also the AMP entitlement and the pingback body). */
export type AccessGrant = {
  granted: boolean;
  grantReason: string | null;
  data: {
    numberRemaining: number | null;
    isLoggedIn: boolean;
    isLast: boolean;
    /** Which wall a denied reader meets: "registration" (sign up or sign in), "paid", null when granted. */
    wall?: "registration" | "paid" | null;
    [key: string]: unknown;
  };
  [key: string]: unknown;
};

export type Money = { amount_cents: number; amount_currency: string };

export type SubscriptionPlan = {
  id: number;
  title: string;
  description: string | null;
  price_cents: number;
  price_currency: string;
  prices: Record<string, { amount_cents: number }>;
  duration_length: number;
  duration_unit: string;
  recurring: boolean;
  supported_payment_providers: string[];
  trial_period_enabled?: boolean;
  max_trial_period_length?: number | null;
  max_trial_period_unit?: string | null;
  [key: string]: unknown;
};

export type SubscriptionGroup = {
  id: number;
  name: string;
  description: string | null;
  subscription_type: string;
  subscription_plans: SubscriptionPlan[];
  [key: string]: unknown;
};

export type PricingPlan = {
  id: number;
  price_cents: number;
  price_currency: string;
  duration_length: number;
  duration_unit: string;
  [key: string]: unknown;
};

export type Subscription = {
  id: number | null;
  subscription_plan_id: number;
  status: string;
  active: boolean;
  payment_type: string | null;
  payment_amount_cents: number | null;
  payment_amount_currency: string | null;
  trial_period_length?: number | null;
  trial_period_unit?: string | null;
  start_timestamp: string | null;
  end_timestamp: string | null;
  [key: string]: unknown;
};

export type CouponValidation = {
  valid: boolean;
  discount_detail: Record<string, unknown>;
  price_cents: number;
  discounted_price_cents: number;
  price_currency: string;
  [key: string]: unknown;
};

export type SubscriberMetadata = {
  address: Record<string, string | null> | null;
  phone_number: string | null;
  other: Record<string, unknown> | null;
};

/** The body of a preview (spec §4.3); `create` adds `attempt_token` and `payment.payment_token`. */
export type SubscriptionRequest = {
  subscription_plan_id: number;
  subscription_type?: string;
  payment: { payment_type: string; amount_cents?: number; amount_currency?: string; [key: string]: unknown };
  coupon_code?: string | null;
  metadata?: Record<string, unknown>;
  notes?: string;
  dynamic_assets?: { id: string }[];
  type?: string;
  recipient_subscriber?: Record<string, unknown>;
  [key: string]: unknown;
};

export type PreviewResult = {
  subscription: Subscription;
  attempt_token: string;
  external_reference_id: string | null;
  /** What the gateway's widget needs for this payment (Stripe: publishable_key, mode, client_secret). */
  payment_options?: Record<string, unknown>;
  [key: string]: unknown;
};

/** The payment object the AccessType React component builds and hands to `proceed`. */
export type PaymentObject = {
  type?: string;
  plan: {
    id: number;
    title?: string;
    description?: string | null;
    price_cents: number;
    price_currency: string;
    duration_length?: number;
    duration_unit?: string;
    discounted_price_cents?: number | null;
  };
  metadata?: Record<string, unknown>;
  coupon_code?: string | null;
  payment?: { payment_type?: string; amount_cents?: number; amount_currency?: string; payment_token?: string };
  assets?: { id: string; title?: string; slug?: string }[];
  recipient_subscriber?: Record<string, unknown>;
  options?: { urls?: { cancel_url?: string; return_url?: string; success_url?: string } };
  /** The paywall offer bought from, and its test exposure (getOffer's answer). */
  offer_id?: number | null;
  exposure_id?: string | null;
  /** A trial shorter than the plan's (an offer's trial days). */
  trial_period_length?: number;
  trial_period_unit?: "days" | "weeks" | "months" | "years";
};

/** getOffer's answer: the paywall's offer for this reader, and the A/B test arm they are in. */
export type ReaderOffer = {
  offer: {
    id: number;
    headline: string;
    body: string;
    locale: string;
    dir: "ltr" | "rtl";
    coupon_code: string | null;
    trial_days: number | null;
    plans: {
      id: number;
      title: string;
      price_cents: number;
      price_currency: string;
      offer_price_cents: number | null;
      trial_days: number | null;
    }[];
  } | null;
  experiment: { id: string; arm: "a" | "b"; exposure_id: string } | null;
};

/** What `proceed` resolves to once the subscription is created. */
export type ProceedResult = { subscription: Subscription; preview: PreviewResult };

/**
 * Where a gateway whose widget lives in the page (Stripe's Payment Element) draws its card form:
 * an element, or a CSS selector of one. Gateways with a window of their own (Razorpay) ignore it.
 */
export type ProceedOptions = { container?: HTMLElement | string | null };

export type PaymentOption = {
  app_key?: string;
  environment?: string;
  payment_types?: string[];
  /** Stripe: where Stripe.js is loaded from (https://js.stripe.com/v3/ unless the server says otherwise). */
  js_url?: string;
  /** Preview, let the reader pay in the gateway's widget, then create. */
  proceed(paymentObject: PaymentObject, options?: ProceedOptions): Promise<ProceedResult>;
  [key: string]: unknown;
};

/** What a gateway's browser step returns: fields merged into `payment` of the create. */
export type GatewayPayment = { payment_token?: string | null; [key: string]: unknown };

/**
 * What the SDK says to the reader, in the reader's locale (docs/subscriptions.md, "Browser SDK"):
 * `t(key, values)` formats one of the paywall catalogue's `sdk.*` messages ("sdk.cancel", "sdk.pay"
 * with `{amount}`…), with the account's own words where it has them; `locale` and `dir` are the
 * language and direction to give what is drawn with them.
 */
export type ReaderWords = {
  locale: string;
  dir: "ltr" | "rtl";
  t(key: string, values?: Record<string, string | number>): string;
};

/** A gateway's browser step (registerGateway): let the reader pay for the previewed order. */
export type GatewayHandler = (args: {
  preview: PreviewResult;
  paymentObject: PaymentObject;
  /** What payment_options lists for this gateway (app_key, environment…), or {}. */
  option: Record<string, unknown>;
  user: { jwt: string | null; email: string | null; phone: string | null; loggedIn: boolean };
  config: { env: string };
  /** The second argument of `proceed`, or {}. */
  ui: ProceedOptions;
  /** The reader's words, in the locale chosen for this page (English until, or unless, they load). */
  words: ReaderWords;
}) => Promise<GatewayPayment>;

export type SwitchablePlans = Subscription & {
  upgrade_plan_details?: unknown[];
  downgrade_plan_details?: unknown[];
  crossgrade_plan_details?: unknown[];
};

export type AccessTypeConfig = {
  /** The account's client key (read from the script's `?key=` or `data-key` otherwise). */
  key?: string;
  /** Where the Masthead API is (the script's own origin otherwise). */
  baseUrl?: string;
  /** "sandbox" makes gateway widgets run in their test mode where they have one. */
  env?: string;
  /**
   * The reader's language (a BCP 47 tag: "hi", "pt-BR"), for what the SDK shows (its card form, its
   * errors). Without it, the language of the element the card form is drawn in (its closest `lang`,
   * the page's `<html lang>`), else the account's default; a locale the account does not offer is
   * passed over. Read from the script's `?locale=` or `data-locale` otherwise.
   */
  locale?: string;
};

export interface AccessTypeApi {
  readonly version: string;
  init(config: AccessTypeConfig): AccessTypeApi;
  /** The reader's language for what the SDK shows (null: the page's own again); see AccessTypeConfig.locale. */
  setLocale(locale: string | null): AccessTypeApi;
  setUser(user: AccessTypeUser): Promise<boolean>;
  /** The anonymous reader id the meter counts this browser by (kept in localStorage). */
  getReaderId(): string;

  getPlans(): Promise<SubscriptionGroup[]>;
  getCampaigns(): Promise<SubscriptionGroup[]>;
  getAssetPlans(asset: AssetRef): Promise<PricingPlan[]>;
  validateCoupon(args: {
    subscriptionPlanId: number;
    couponCode: string;
    currency?: string;
  }): Promise<CouponValidation>;

  preview(request: SubscriptionRequest): Promise<PreviewResult>;
  create(request: SubscriptionRequest & { attempt_token: string }): Promise<Subscription>;
  /** Add (or replace) a gateway's browser step; getPaymentOptions then offers it too. */
  registerGateway(name: string, handler: GatewayHandler): void;
  getPaymentOptions(amountCents?: number | null, ...rest: unknown[]): Promise<Record<string, PaymentOption>>;

  getSubscriptions(): Promise<Subscription[]>;
  getSubscription(id: number): Promise<Subscription>;
  getSubscriptionWithSwitchablePlans(id: number, action?: string): Promise<SwitchablePlans>;
  cancelSubscription(id: number): Promise<Record<string, unknown>>;

  isAssetAccessible(asset: AssetRef, disableMetering?: boolean): Promise<AccessGrant>;
  /** The paywall offer for this reader; pass the page's utm_medium and ref (the newsletter rule). */
  getOffer(context?: { locale?: string; utmMedium?: string | null; ref?: string | null }): Promise<ReaderOffer>;
  pingbackAssetAccess(asset: AssetRef, accessData: AccessGrant): Promise<Record<string, unknown>>;

  getSubscriberMetadata(): Promise<SubscriberMetadata>;
  setSubscriberMetadata(metadata: Partial<SubscriberMetadata>): Promise<boolean>;
}

declare global {
  interface Window {
    AccessType?: AccessTypeApi;
    /** Callbacks pushed before the script loaded; run with AccessType once it is ready. */
    accesstypeq?: ((api: AccessTypeApi) => void)[] | { push(callback: (api: AccessTypeApi) => void): void };
  }
}
