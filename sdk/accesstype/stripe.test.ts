/**
 * The SDK's Stripe step (./stripe.ts) with Stripe.js and the page's form stood in for: what it
 * loads and mounts, what it confirms with, and what reaches the create (the PaymentIntent's id
 * only when Stripe took the payment); declines and failed 3-D Secure reject without a create.
 */
import { describe, expect, it } from "vitest";

import { messagesOf, parseMessage } from "@/i18n/messages";
import { translator } from "@/i18n/translate";

import { createAccessType } from "./client";
import { sdkWords, type SdkMessageTable } from "./messages";
import type { FetchLike } from "./request";
import { createStripeGateway, payLabel, STRIPE_JS_URL, type CardForm, type StripeJs } from "./stripe";
import type { PreviewResult } from "./types";

type ConfirmResult = Awaited<ReturnType<ReturnType<StripeJs>["confirmPayment"]>>;

/** The catalogue's `sdk.*` messages of a locale, parsed, as the messages route sends them. */
const table = (locale: "en" | "hi" | "ar"): SdkMessageTable =>
  Object.fromEntries(
    [...messagesOf("paywall", locale)].filter(([k]) => k.startsWith("sdk.")).map(([k, m]) => [k, parseMessage(m)]),
  );
const english = sdkWords("en", "ltr", table("en"), table("en"));

/** Stripe.js as a test double recording its calls; confirmPayment answers the queued results in turn. */
function fakeStripeJs(results: ConfirmResult[]) {
  const log: unknown[][] = [];
  const stripe: StripeJs = (key) => {
    log.push(["Stripe", key]);
    const elements = {
      create(type: "payment") {
        log.push(["create", type]);
        return {
          mount: (target: HTMLElement) => log.push(["mount", target]),
          destroy: () => log.push(["destroy"]),
        };
      },
    };
    return {
      elements(options) {
        log.push(["elements", options]);
        return elements;
      },
      async confirmPayment(options) {
        log.push(["confirmPayment", { ...options, elements: options.elements === elements }]);
        return results.shift() ?? { error: { type: "api_error", message: "no more results" } };
      },
    };
  };
  return { stripe, log };
}

/** The page's card form, driven by the test: submit/cancel as the reader would. */
function fakeForm() {
  const state = { submit: () => {}, cancel: () => {}, busy: false, error: "", removed: false };
  const mountPoint = { tag: "div" } as unknown as HTMLElement;
  const form: CardForm = {
    mountPoint,
    onSubmit: (h) => void (state.submit = h),
    onCancel: (h) => void (state.cancel = h),
    busy: (on) => void (state.busy = on),
    error: (m) => void (state.error = m),
    remove: () => void (state.removed = true),
  };
  return { form, state, mountPoint };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function preview(over: Partial<PreviewResult> = {}): PreviewResult {
  return {
    attempt_token: "att_1",
    external_reference_id: "pi_123",
    subscription: {
      id: null,
      subscription_plan_id: 7,
      status: "pending",
      active: false,
      payment_type: "stripe",
      payment_amount_cents: 900,
      payment_amount_currency: "USD",
      start_timestamp: null,
      end_timestamp: null,
    },
    payment_options: {
      publishable_key: "pk_test_abc",
      mode: "payment",
      payment_intent_id: "pi_123",
      client_secret: "pi_123_secret_xyz",
    },
    ...over,
  };
}

function setup(results: ConfirmResult[], container: unknown = "#pay", words = english) {
  const js = fakeStripeJs(results);
  const { form, state, mountPoint } = fakeForm();
  const loaded: string[] = [];
  const forms: unknown[] = [];
  const handler = createStripeGateway({
    loadStripe: async (url) => {
      loaded.push(url);
      return js.stripe;
    },
    cardForm: (where, formWords, label) => {
      forms.push([where, label, formWords.locale]);
      return where ? form : null;
    },
    returnUrl: () => "https://news.example/story",
  });
  const user = { jwt: "j", email: null, phone: null, loggedIn: true };
  const run = (p = preview(), option: Record<string, unknown> = { app_key: "pk_test_listed" }) =>
    handler({
      preview: p,
      paymentObject: { plan: { id: 7, price_cents: 900, price_currency: "USD" } },
      option,
      user,
      config: { env: "" },
      ui: { container: container as string },
      words,
    });
  return { run, js, state, loaded, forms, mountPoint };
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("the SDK's Stripe step", () => {
  it("loads Stripe.js, mounts the Payment Element with the preview's client secret, and hands back the PaymentIntent", async () => {
    const t = setup([{ paymentIntent: { id: "pi_123", status: "succeeded" } }]);
    const paid = t.run(preview(), { app_key: "pk_test_listed", js_url: "http://127.0.0.1:4999/v3/" });
    await settle();
    expect(t.loaded).toEqual(["http://127.0.0.1:4999/v3/"]);
    expect(t.forms).toEqual([["#pay", expect.stringMatching(/^Pay .*9\.00/), "en"]]);
    expect(t.js.log.slice(0, 4)).toEqual([
      ["Stripe", "pk_test_abc"],
      ["elements", { clientSecret: "pi_123_secret_xyz", locale: "en" }],
      ["create", "payment"],
      ["mount", t.mountPoint],
    ]);
    t.state.submit();
    expect(t.state.busy).toBe(true);
    await expect(paid).resolves.toEqual({ payment_token: "pi_123" });
    expect(t.js.log).toContainEqual([
      "confirmPayment",
      { elements: true, confirmParams: { return_url: "https://news.example/story" }, redirect: "if_required" },
    ]);
    expect(t.js.log.at(-1)).toEqual(["destroy"]);
    expect(t.state.removed).toBe(true);
  });

  it("defaults to Stripe's own Stripe.js and the listed key when the preview names none", async () => {
    const t = setup([{ paymentIntent: { id: "pi_9", status: "processing" } }]);
    const p = preview({ payment_options: { client_secret: "pi_9_secret_1", mode: "subscription" } });
    const paid = t.run(p);
    await settle();
    expect(t.loaded).toEqual([STRIPE_JS_URL]);
    expect(t.js.log[0]).toEqual(["Stripe", "pk_test_listed"]);
    t.state.submit();
    // processing (a slow method): the create decides; it records the payment pending.
    await expect(paid).resolves.toEqual({ payment_token: "pi_9" });
  });

  it("keeps the form open on a card Stripe.js finds incomplete, and the reader pays after correcting it", async () => {
    const t = setup([
      { error: { type: "validation_error", code: "invalid_number", message: "Your card number is invalid." } },
      { paymentIntent: { id: "pi_123", status: "succeeded" } },
    ]);
    const paid = t.run();
    await settle();
    t.state.submit();
    await settle();
    expect([t.state.error, t.state.busy, t.state.removed]).toEqual(["Your card number is invalid.", false, false]);
    t.state.submit();
    expect(t.state.error).toBe("");
    await expect(paid).resolves.toEqual({ payment_token: "pi_123" });
  });

  it("rejects a decline and a failed 3-D Secure challenge with Stripe's words, the form gone", async () => {
    for (const error of [
      { type: "card_error", code: "card_declined", message: "Your card was declined." },
      {
        type: "invalid_request_error",
        code: "payment_intent_authentication_failure",
        message: "We are unable to authenticate your payment method.",
      },
    ]) {
      const t = setup([{ error }]);
      const paid = t.run();
      await settle();
      t.state.submit();
      await expect(paid).rejects.toEqual({ status: 402, error: { code: "PAYMENT_FAILED", message: error.message } });
      expect(t.state.removed).toBe(true);
    }
  });

  it("rejects a PaymentIntent Stripe did not take, a cancel, and a preview without a Stripe payment or a container", async () => {
    const open = setup([{ paymentIntent: { id: "pi_123", status: "requires_payment_method" } }]);
    const unpaid = open.run();
    await settle();
    open.state.submit();
    await expect(unpaid).rejects.toMatchObject({ status: 402, error: { code: "PAYMENT_FAILED" } });

    const cancelled = setup([]);
    const closing = cancelled.run();
    await settle();
    cancelled.state.cancel();
    await expect(closing).rejects.toMatchObject({ status: 0, error: { code: "PAYMENT_CANCELLED" } });
    expect(cancelled.js.log.some(([name]) => name === "confirmPayment")).toBe(false);

    await expect(setup([]).run(preview({ payment_options: {} }))).rejects.toMatchObject({
      status: 422,
      error: { code: "UNPROCESSABLE" },
    });
    await expect(setup([], null).run()).rejects.toMatchObject({ status: 400, error: { code: "BAD_REQUEST" } });
  });

  it("through proceed: the create gets the PaymentIntent as payment_token, and no create follows a decline", async () => {
    const calls: { method: string; path: string; body: unknown }[] = [];
    const fetch: FetchLike = async (url, init = {}) => {
      const path = new URL(url).pathname;
      calls.push({ method: init.method ?? "GET", path, body: init.body ? JSON.parse(init.body) : undefined });
      const body = path.endsWith("/preview")
        ? preview()
        : path.endsWith("/payment_options")
          ? { payment_options: { stripe: { app_key: "pk_test_abc", js_url: STRIPE_JS_URL } } }
          : { subscription: { id: 5, status: "active" } };
      return { status: 200, ok: true, text: async () => JSON.stringify(body) };
    };
    const declined = fakeStripeJs([{ error: { type: "card_error", message: "Your card was declined." } }]);
    const js = fakeStripeJs([{ paymentIntent: { id: "pi_123", status: "succeeded" } }]);
    let current = declined;
    const { form, state } = fakeForm();
    const api = createAccessType(
      { key: "k", baseUrl: "https://mh.example" },
      {
        fetch,
        randomId: () => "reader-0001",
        english: table("en"),
        gateways: {
          stripe: createStripeGateway({
            loadStripe: async () => current.stripe,
            cardForm: () => form,
            returnUrl: () => "https://news.example/",
          }),
        },
      },
    );
    await api.setUser({ accesstypeJwt: "jwt" });
    const plan = { id: 7, price_cents: 900, price_currency: "USD" };
    const failing = (await api.getPaymentOptions()).stripe!.proceed(
      { plan, payment: { payment_type: "stripe" } },
      { container: "#pay" },
    );
    await settle();
    state.submit();
    await expect(failing).rejects.toMatchObject({ status: 402 });
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual([
      "/api/access/v1/members/me/subscriptions/preview",
    ]);

    current = js;
    const paying = (await api.getPaymentOptions()).stripe!.proceed(
      { plan, payment: { payment_type: "stripe" } },
      { container: "#pay" },
    );
    await settle();
    state.submit();
    await expect(paying).resolves.toMatchObject({ subscription: { id: 5 } });
    const create = calls.at(-1)!;
    expect(create.path).toBe("/api/access/v1/members/me/subscriptions");
    expect(create.body).toMatchObject({
      attempt_token: "att_1",
      subscription: { payment: { payment_type: "stripe", payment_token: "pi_123", amount_cents: 900 } },
    });
  });

  it("says the amount on the Pay button in the currency's own digits", () => {
    expect(payLabel(preview(), english)).toMatch(/^Pay .*9\.00$/);
    const yen = preview();
    yen.subscription = { ...yen.subscription, payment_amount_cents: 500, payment_amount_currency: "JPY" };
    expect(payLabel(yen, english)).toMatch(/^Pay .*500$/);
    yen.subscription = { ...yen.subscription, payment_amount_currency: null };
    expect(payLabel(yen, english)).toBe("Pay");
  });

  it("speaks the reader's locale: the Pay button, the errors, Stripe's own form where Stripe has the locale", async () => {
    const hindi = sdkWords("hi", "ltr", table("hi"), table("en"));
    const t = translator("paywall", "hi");
    const dollars = new Intl.NumberFormat("hi", { style: "currency", currency: "USD" }).format(9);
    expect(payLabel(preview(), hindi)).toBe(t("sdk.pay", { amount: dollars }));
    expect(payLabel(preview(), hindi)).not.toMatch(/Pay/);

    const cancelled = setup([], "#pay", hindi);
    const closing = cancelled.run();
    await settle();
    expect(cancelled.forms).toEqual([["#pay", t("sdk.pay", { amount: dollars }), "hi"]]);
    // Stripe.js has no Hindi: it follows the browser.
    expect(cancelled.js.log[1]).toEqual(["elements", { clientSecret: "pi_123_secret_xyz", locale: "auto" }]);
    cancelled.state.cancel();
    await expect(closing).rejects.toEqual({
      status: 0,
      error: { code: "PAYMENT_CANCELLED", message: t("sdk.formClosed") },
    });

    const arabic = sdkWords("ar", "rtl", table("ar"), table("en"));
    const open = setup([{ paymentIntent: { id: "pi_1", status: "requires_payment_method" } }], "#pay", arabic);
    const unpaid = open.run();
    await settle();
    expect(open.js.log[1]).toEqual(["elements", { clientSecret: "pi_123_secret_xyz", locale: "ar" }]);
    open.state.submit();
    await expect(unpaid).rejects.toEqual({
      status: 402,
      error: { code: "PAYMENT_FAILED", message: translator("paywall", "ar")("sdk.paymentNotCompleted") },
    });
  });
});
