import { languageTag, sdkWords, wordsFromAnswer, type SdkMessageTable, type SdkWords } from "./messages";
import { buildRequest, sdkError, send, type FetchLike } from "./request";
import type {
  AccessGrant,
  AccessTypeApi,
  AccessTypeConfig,
  AccessTypeError,
  AccessTypeUser,
  AssetRef,
  GatewayHandler,
  GatewayPayment,
  PaymentObject,
  PaymentOption,
  PreviewResult,
  ProceedOptions,
  ReaderOffer,
  SubscriptionRequest,
} from "./types";

/**
 * The AccessType browser SDK as a factory with its browser dependencies passed in (fetch, storage,
 * script loading), so the request building and the flows are unit-tested in Node
 * (client.test.ts). index.ts wires it to the real browser and defines `window.AccessType`.
 *
 * Every call goes to the Masthead API named by `baseUrl` with the account's client `key`; calls
 * for a reader add `accesstype_jwt` (the publisher-signed JWT given to `setUser`). Guests (a
 * `setUser` with an e-mail or phone but no JWT) check out through `subscription-without-login`.
 * Every promise rejects with `{status, error: {code, message, details?}}`.
 */
/* eslint-disable @typescript-eslint/only-throw-error --
   the SDK's documented contract: promises reject with the plain `{status, error}` object. */
export type { GatewayHandler, GatewayPayment } from "./types";

const SDK_VERSION = "1.0.0";

export type StorageLike = { getItem(key: string): string | null; setItem(key: string, value: string): void };

type Deps = {
  fetch: FetchLike;
  storage?: StorageLike | null;
  randomId: () => string;
  /** Gateways with a browser step (razorpay and stripe in the browser build); more through registerGateway. */
  gateways?: Record<string, GatewayHandler>;
  /** The language of the page where `container` is (its closest lang attribute), or null. */
  pageLanguage?: (container: ProceedOptions["container"]) => string | null;
  /** English, the words until (or unless) the reader's arrive: the catalogue's `sdk.*` messages, parsed. */
  english?: SdkMessageTable;
};

type UserState = {
  jwt: string | null;
  email: string | null;
  phone: string | null;
  loggedIn: boolean;
};

const READER_ID_KEY = "masthead_reader_id";

/** Turn setUser's argument into the SDK's reader state. */
export function userState(user: AccessTypeUser | null | undefined): UserState {
  if (!user || ("isLoggedIn" in user && user.isLoggedIn === false))
    return { jwt: null, email: null, phone: null, loggedIn: false };
  const u = user;
  const jwt = u.accesstypeJwt || null;
  return { jwt, email: u.emailAddress || null, phone: u.mobileNumber || null, loggedIn: jwt !== null };
}

/** The preview/create body the client API takes from the React component's payment object. */
export function requestFromPaymentObject(paymentObject: PaymentObject, paymentType: string): SubscriptionRequest {
  const plan = paymentObject.plan;
  // The amount is sent when the payment object names one (the React component does); otherwise
  // the preview computes it (a trial's authorization amount, a coupon, tax) and the create sends
  // the preview's frozen amount back.
  const amount = paymentObject.payment?.amount_cents;
  const request: SubscriptionRequest = {
    subscription_plan_id: plan.id,
    subscription_type: paymentObject.type === "dynamic_asset" ? "dynamic_asset" : paymentObject.type || "standard",
    payment: {
      payment_type: paymentObject.payment?.payment_type || paymentType,
      ...(typeof amount === "number" ? { amount_cents: amount } : {}),
      amount_currency: paymentObject.payment?.amount_currency || plan.price_currency,
    },
  };
  if (paymentObject.coupon_code) request.coupon_code = paymentObject.coupon_code;
  if (paymentObject.metadata) request.metadata = paymentObject.metadata;
  if (paymentObject.recipient_subscriber) request.recipient_subscriber = paymentObject.recipient_subscriber;
  if (paymentObject.offer_id) request.offer_id = paymentObject.offer_id;
  if (paymentObject.exposure_id) request.exposure_id = paymentObject.exposure_id;
  if (paymentObject.trial_period_length) {
    request.trial_period_length = paymentObject.trial_period_length;
    request.trial_period_unit = paymentObject.trial_period_unit ?? "days";
  }
  if (paymentObject.type === "dynamic_asset" && paymentObject.assets?.length) {
    request.dynamic_assets = paymentObject.assets.map((a) => ({ id: String(a.id) }));
    request.type = "dynamic_assets";
  }
  return request;
}

/**
 * Callbacks queued before the script loaded (`(window.accesstypeq = window.accesstypeq || []).push(fn)`)
 * run now, in order; later pushes run at once. A callback that throws does not stop the others.
 */
export function drainQueue<T>(
  queued: unknown,
  api: T,
  onError: (error: unknown) => void = () => {},
): { push(callback: (api: T) => void): number } {
  const run = (callback: unknown) => {
    if (typeof callback !== "function") return;
    try {
      (callback as (api: T) => void)(api);
    } catch (error) {
      onError(error);
    }
  };
  if (Array.isArray(queued)) for (const callback of queued) run(callback);
  let count = 0;
  return {
    push(callback) {
      run(callback);
      return ++count;
    },
  };
}

type Query = Record<string, string | number | boolean | null | undefined>;

/** What one AccessType object holds: its config, its reader, its gateways and the words it asked for. */
type SdkState = {
  deps: Deps;
  config: { key: string; baseUrl: string; env: string; locale: string };
  user: UserState;
  gateways: Record<string, GatewayHandler>;
  memoryReaderId: string | null;
  wordsByUrl: Map<string, Promise<SdkWords>>;
};

type Session = ReturnType<typeof sdkSession>;

/** The calls and reader facts every method group shares, over one state. */
function sdkSession(state: SdkState) {
  const { deps, config } = state;
  const ready = () => {
    if (!config.key) throw sdkError(0, "NOT_CONFIGURED", "AccessType has no account key: load the script with ?key=.");
    if (!config.baseUrl) throw sdkError(0, "NOT_CONFIGURED", "AccessType has no base URL.");
    return config;
  };
  const call = async (method: string, path: string, query: Query = {}, body?: unknown) =>
    send(deps.fetch, buildRequest(ready(), method, path, query, body));
  const me = () => ({ accesstype_jwt: state.user.jwt });
  const needsReader = () => {
    if (!state.user.jwt)
      throw sdkError(401, "UNAUTHORIZED", "No reader: call AccessType.setUser with an accesstypeJwt first.");
  };
  const readerId = () => {
    if (state.memoryReaderId) return state.memoryReaderId;
    let id: string | null = null;
    try {
      id = deps.storage?.getItem(READER_ID_KEY) ?? null;
    } catch {
      id = null;
    }
    if (!id || !/^[A-Za-z0-9_.-]{8,128}$/.test(id)) {
      id = deps.randomId();
      try {
        deps.storage?.setItem(READER_ID_KEY, id);
      } catch {
        // Storage refused (private mode): this page view keeps the id in memory.
      }
    }
    state.memoryReaderId = id;
    return id;
  };
  const storyPath = (asset: AssetRef, what: string) => {
    if (!asset || asset.id === undefined || asset.id === null || String(asset.id) === "")
      throw sdkError(400, "BAD_REQUEST", "The asset needs an id.");
    return `/api/access/v1/stories/${encodeURIComponent(String(asset.id))}/${what}`;
  };
  return { state, ready, call, me, needsReader, readerId, storyPath };
}

/**
 * The reader's words for a payment drawn in `container`: asked once per page and language (the
 * answer is public and cached), English when they cannot be had; never rejects.
 */
function wordsFor(session: Session, container: ProceedOptions["container"]): Promise<SdkWords> {
  const { deps, config, wordsByUrl } = session.state;
  const english = deps.english ?? {};
  const request = buildRequest(session.ready(), "GET", "/api/access/v1/messages", {
    locale: languageTag(config.locale),
    lang: languageTag(deps.pageLanguage?.(container) ?? null),
  });
  let words = wordsByUrl.get(request.url);
  if (!words) {
    const fallback = sdkWords("en", "ltr", english, english);
    words = send(deps.fetch, request).then(
      (data) => wordsFromAnswer(data, english) ?? fallback,
      () => {
        wordsByUrl.delete(request.url); // asked again next time
        return fallback;
      },
    );
    wordsByUrl.set(request.url, words);
  }
  return words;
}

/** Plans, campaigns, an asset's plans and coupons: public, no reader needed. */
function catalogueMethods({ call }: Session) {
  return {
    async getPlans() {
      const data = (await call("GET", "/api/v1/subscription_groups.json")) as { subscription_groups?: unknown[] };
      return (data?.subscription_groups ?? []) as never;
    },
    async getCampaigns() {
      const data = (await call("GET", "/api/v1/campaigns.json")) as { subscription_groups?: unknown[] };
      return (data?.subscription_groups ?? []) as never;
    },
    async getAssetPlans(asset: AssetRef) {
      const type = asset?.type || "story";
      const data = (await call("GET", `/api/v1/asset/${encodeURIComponent(type)}/pricing_plans.json`, {
        id: asset?.id,
      })) as { pricing_plans?: unknown[] };
      return (data?.pricing_plans ?? []) as never;
    },
    async validateCoupon(args: { subscriptionPlanId: number; couponCode: string; currency?: string }) {
      return (await call(
        "POST",
        "/api/access/v1/coupons/validate",
        {},
        {
          subscription_plan_id: args.subscriptionPlanId,
          coupon_code: args.couponCode,
          ...(args.currency ? { currency: args.currency } : {}),
        },
      )) as never;
    },
  };
}

/** Checkout: preview, create and the payment options whose `proceed` runs both around a gateway's step. */
function checkoutMethods(session: Session, own: () => Pick<AccessTypeApi, "preview" | "create">) {
  const { state, call, me, readerId } = session;
  const guestBody = () => ({
    ...(state.user.email ? { emailAddress: state.user.email } : {}),
    ...(state.user.phone ? { phoneNumber: state.user.phone } : {}),
  });
  const checkoutPath = () => {
    if (state.user.jwt) return "/api/access/v1/members/me/subscriptions";
    if (state.user.email || state.user.phone) return "/api/access/v1/subscription-without-login";
    throw sdkError(
      401,
      "UNAUTHORIZED",
      "Call AccessType.setUser with an accesstypeJwt, an emailAddress or a mobileNumber first.",
    );
  };

  async function proceed(
    name: string,
    option: Record<string, unknown>,
    paymentObject: PaymentObject,
    ui: ProceedOptions = {},
  ) {
    if (!paymentObject?.plan?.id) throw sdkError(400, "BAD_REQUEST", "The payment object needs plan.id.");
    const request = requestFromPaymentObject(paymentObject, name);
    const handler = state.gateways[name];
    // The reader's words are asked for beside the preview (a gateway with a browser step shows them).
    const [preview, words] = await Promise.all([
      own().preview(request),
      handler ? wordsFor(session, ui?.container) : null,
    ]);
    const paid: GatewayPayment = handler
      ? await handler({
          preview,
          paymentObject,
          option,
          user: state.user,
          config: { env: state.config.env },
          ui: ui ?? {},
          words: words!,
        })
      : { payment_token: paymentObject.payment?.payment_token ?? null };
    const frozen = preview.subscription ?? ({} as PreviewResult["subscription"]);
    const subscription = await own().create({
      ...request,
      payment: {
        ...request.payment,
        ...(typeof frozen.payment_amount_cents === "number" ? { amount_cents: frozen.payment_amount_cents } : {}),
        ...(frozen.payment_amount_currency ? { amount_currency: frozen.payment_amount_currency } : {}),
        ...paid,
      },
      attempt_token: preview.attempt_token,
    });
    return { subscription, preview };
  }

  return {
    async preview(request: SubscriptionRequest) {
      const path = checkoutPath();
      return (await call("POST", `${path}/preview`, me(), { ...guestBody(), subscription: request })) as never;
    },
    async create(request: SubscriptionRequest & { attempt_token: string }) {
      const path = checkoutPath();
      const { attempt_token, ...subscription } = request;
      // The reader id names the browser: the story whose wall it hit gets the conversion.
      const query = { ...me(), readerId: readerId() };
      const data = (await call("POST", path, query, { ...guestBody(), subscription, attempt_token })) as {
        subscription?: unknown;
      };
      return (data?.subscription ?? data) as never;
    },
    async getPaymentOptions() {
      let listed: Record<string, Record<string, unknown>> = {};
      try {
        const data = (await call("GET", "/api/access/v1/payment_options")) as {
          payment_options?: Record<string, Record<string, unknown>>;
        };
        listed = data?.payment_options ?? {};
      } catch (error) {
        // No gateway configured (or none reachable) is an empty list, not a failure.
        if ((error as AccessTypeError).status !== 404) throw error;
      }
      const options: Record<string, PaymentOption> = {};
      const names = new Set([...Object.keys(listed), ...Object.keys(state.gateways)]);
      for (const name of names) {
        const option = listed[name] ?? {};
        options[name] = {
          ...option,
          proceed: (paymentObject: PaymentObject, ui?: ProceedOptions) => proceed(name, option, paymentObject, ui),
        };
      }
      return options;
    },
  };
}

/** The reader's own subscriptions (a JWT reader only). */
function subscriptionMethods({ state, call, me, needsReader }: Session) {
  const subscriptionPath = (id: number) => `/api/access/v1/members/me/subscriptions/${encodeURIComponent(String(id))}`;
  return {
    async getSubscriptions() {
      // No reader has no subscriptions (the server answers [] too): no request.
      if (!state.user.jwt) return [] as never;
      const data = (await call("GET", "/api/access/v1/members/me/subscriptions", me())) as
        unknown[] | { subscriptions?: unknown[] };
      return (Array.isArray(data) ? data : (data?.subscriptions ?? [])) as never;
    },
    async getSubscription(id: number) {
      needsReader();
      const data = (await call("GET", subscriptionPath(id), me())) as { subscription?: unknown };
      return (data?.subscription ?? data) as never;
    },
    async getSubscriptionWithSwitchablePlans(id: number) {
      needsReader();
      const data = (await call("GET", subscriptionPath(id), me())) as Record<string, unknown>;
      const { subscription, ...rest } = data ?? {};
      return { ...(subscription as object), ...rest } as never;
    },
    async cancelSubscription(id: number) {
      needsReader();
      return ((await call("PUT", `${subscriptionPath(id)}/cancel`, me())) ?? {}) as never;
    },
  };
}

/** The paywall: an asset's access, the offer, the meter's pingback, and the reader's metadata. */
function readingMethods({ state, ready, call, me, needsReader, readerId, storyPath }: Session) {
  return {
    async isAssetAccessible(asset: AssetRef, disableMetering?: boolean) {
      return (await call("GET", storyPath(asset, "access"), {
        ...me(),
        readerId: readerId(),
        "disable-meter": disableMetering ? "true" : null,
      })) as AccessGrant;
    },
    async getOffer(context: { locale?: string; utmMedium?: string | null; ref?: string | null } = {}) {
      return (await call("GET", "/api/access/v1/offer", {
        ...me(),
        readerId: readerId(),
        locale: context.locale ?? null,
        utm_medium: context.utmMedium ?? null,
        ref: context.ref ?? null,
      })) as ReaderOffer;
    },
    async pingbackAssetAccess(asset: AssetRef, accessData: AccessGrant) {
      const request = buildRequest(
        ready(),
        "POST",
        storyPath(asset, "pingback"),
        { ...me(), readerId: readerId() },
        accessData,
        true,
      );
      // keepalive: the count survives the reader leaving the page right after (as sendBeacon would).
      return ((await send(state.deps.fetch, request, true)) ?? {}) as never;
    },

    async getSubscriberMetadata() {
      return (await call("GET", "/api/access/v1/members/me/metadata", me())) as never;
    },
    async setSubscriberMetadata(metadata: object) {
      needsReader();
      await call("POST", "/api/access/v1/members/me/metadata", me(), metadata);
      return true;
    },
  };
}

/** The `AccessType` object. `config.key` and `config.baseUrl` must be set before the first call. */
export function createAccessType(initial: AccessTypeConfig, deps: Deps): AccessTypeApi {
  const state: SdkState = {
    deps,
    config: {
      key: initial.key ?? "",
      baseUrl: initial.baseUrl ?? "",
      env: initial.env ?? "",
      locale: initial.locale ?? "",
    },
    user: userState(null),
    gateways: { ...deps.gateways },
    memoryReaderId: null,
    wordsByUrl: new Map(),
  };
  const session = sdkSession(state);
  const { config } = state;

  const api: AccessTypeApi = {
    version: SDK_VERSION,
    init(next: AccessTypeConfig) {
      if (next.key !== undefined) config.key = next.key;
      if (next.baseUrl !== undefined) config.baseUrl = next.baseUrl;
      if (next.env !== undefined) config.env = next.env;
      if (next.locale !== undefined) config.locale = next.locale;
      return api;
    },
    setLocale(locale: string | null) {
      config.locale = locale ?? "";
      return api;
    },
    async setUser(next: AccessTypeUser) {
      state.user = userState(next);
      return true;
    },
    getReaderId: session.readerId,
    registerGateway(name: string, handler: GatewayHandler) {
      state.gateways[name] = handler;
    },
    ...catalogueMethods(session),
    ...checkoutMethods(session, () => api),
    ...subscriptionMethods(session),
    ...readingMethods(session),
  };
  return api;
}
