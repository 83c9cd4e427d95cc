import { describe, expect, it } from "vitest";

import { messagesOf, parseMessage } from "@/i18n/messages";

import { createAccessType, drainQueue, requestFromPaymentObject, userState, type StorageLike } from "./client";
import { buildRequest, type FetchLike } from "./request";

type Call = { url: URL; method: string; headers: Record<string, string>; body: unknown; keepalive?: boolean };

/** A fake API: answers by "METHOD path" and records every call. */
function fakeApi(answers: Record<string, { status?: number; body?: unknown }>) {
  const calls: Call[] = [];
  const fetch: FetchLike = async (url, init = {}) => {
    const parsed = new URL(url);
    calls.push({
      url: parsed,
      method: init.method ?? "GET",
      headers: init.headers ?? {},
      body: init.body === undefined ? undefined : JSON.parse(init.body),
      keepalive: init.keepalive,
    });
    const answer = answers[`${init.method ?? "GET"} ${parsed.pathname}`] ?? {
      status: 404,
      body: { error: { code: "NOT_FOUND", message: "no" } },
    };
    const status = answer.status ?? 200;
    return {
      status,
      ok: status >= 200 && status < 300,
      text: async () => (answer.body === undefined ? "" : JSON.stringify(answer.body)),
    };
  };
  return { fetch, calls };
}

function memoryStorage(): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

const CONFIG = { key: "mh_pk_test", baseUrl: "https://api.example.test" };

describe("buildRequest", () => {
  it("puts the key first, leaves empty parameters out and sends JSON", () => {
    const r = buildRequest(
      CONFIG,
      "POST",
      "/api/access/v1/members/me/subscriptions/preview",
      { accesstype_jwt: "j.w.t", readerId: null, x: "" },
      { a: 1 },
    );
    expect(r.url).toBe(
      "https://api.example.test/api/access/v1/members/me/subscriptions/preview?key=mh_pk_test&accesstype_jwt=j.w.t",
    );
    expect(r.headers["Content-Type"]).toBe("application/json");
    expect(r.body).toBe('{"a":1}');
  });

  it("keeps a base URL's path and sends text/plain when asked (a pingback needs no preflight)", () => {
    const r = buildRequest(
      { key: "k&=", baseUrl: "https://x.test/masthead" },
      "POST",
      "api/x",
      { "disable-meter": true },
      { granted: true },
      true,
    );
    expect(r.url).toBe("https://x.test/masthead/api/x?key=k%26%3D&disable-meter=true");
    expect(r.headers["Content-Type"]).toBe("text/plain;charset=UTF-8");
  });
});

describe("userState", () => {
  it("reads setUser's argument", () => {
    expect(userState({ isLoggedIn: false })).toEqual({ jwt: null, email: null, phone: null, loggedIn: false });
    expect(userState({ accesstypeJwt: "t", emailAddress: "a@b.c" })).toEqual({
      jwt: "t",
      email: "a@b.c",
      phone: null,
      loggedIn: true,
    });
    expect(userState({ emailAddress: "a@b.c", mobileNumber: "+919876543210" }).loggedIn).toBe(false);
  });
});

describe("requestFromPaymentObject", () => {
  it("makes the client API's preview body from the React component's payment object", () => {
    expect(
      requestFromPaymentObject(
        {
          type: "standard",
          plan: { id: 7, price_cents: 900, price_currency: "USD", discounted_price_cents: 720 },
          payment: { amount_cents: 720 },
          coupon_code: "WELCOME20",
          metadata: { source: "paywall" },
        },
        "razorpay",
      ),
    ).toEqual({
      subscription_plan_id: 7,
      subscription_type: "standard",
      payment: { payment_type: "razorpay", amount_cents: 720, amount_currency: "USD" },
      coupon_code: "WELCOME20",
      metadata: { source: "paywall" },
    });
  });

  it("carries a paywall offer, its test exposure and its trial days", () => {
    const body = requestFromPaymentObject(
      {
        plan: { id: 7, price_cents: 900, price_currency: "USD" },
        offer_id: 3,
        exposure_id: "0b6f4f2e-8a51-4a52-9d5e-3c1f1e1a2b3c",
        trial_period_length: 7,
      },
      "demo_test",
    );
    expect(body).toMatchObject({
      offer_id: 3,
      exposure_id: "0b6f4f2e-8a51-4a52-9d5e-3c1f1e1a2b3c",
      trial_period_length: 7,
      trial_period_unit: "days",
    });
  });

  it("leaves the amount to the preview when the payment object names none", () => {
    expect(
      requestFromPaymentObject({ plan: { id: 7, price_cents: 900, price_currency: "EUR" } }, "demo_test").payment,
    ).toEqual({
      payment_type: "demo_test",
      amount_currency: "EUR",
    });
  });

  it("sends pay-per-asset purchases with dynamic_assets", () => {
    const body = requestFromPaymentObject(
      { type: "dynamic_asset", plan: { id: 3, price_cents: 100, price_currency: "INR" }, assets: [{ id: "s-1" }] },
      "razorpay",
    );
    expect(body).toMatchObject({
      subscription_type: "dynamic_asset",
      dynamic_assets: [{ id: "s-1" }],
      type: "dynamic_assets",
    });
  });
});

describe("drainQueue", () => {
  it("runs queued callbacks in order, then later pushes at once, and survives one that throws", () => {
    const seen: string[] = [];
    const errors: unknown[] = [];
    const queue = drainQueue(
      [
        (api: string) => seen.push(`1:${api}`),
        () => {
          throw new Error("boom");
        },
        "not a function",
        (api: string) => seen.push(`2:${api}`),
      ],
      "AT",
      (e) => errors.push(e),
    );
    expect(seen).toEqual(["1:AT", "2:AT"]);
    expect(errors).toHaveLength(1);
    queue.push((api) => seen.push(`3:${api}`));
    expect(seen).toEqual(["1:AT", "2:AT", "3:AT"]);
  });
});

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("AccessType", () => {
  it("lists plans and campaigns by key, and asset plans by id", async () => {
    const api = fakeApi({
      "GET /api/v1/subscription_groups.json": { body: { subscription_groups: [{ id: 1 }] } },
      "GET /api/v1/campaigns.json": { body: { subscription_groups: [{ id: 2 }] } },
      "GET /api/v1/asset/story/pricing_plans.json": { body: { pricing_plans: [{ id: 3 }] } },
    });
    const at = createAccessType(CONFIG, { fetch: api.fetch, randomId: () => "reader-0001" });
    expect(await at.getPlans()).toEqual([{ id: 1 }]);
    expect(await at.getCampaigns()).toEqual([{ id: 2 }]);
    expect(await at.getAssetPlans({ id: "abc", type: "story" })).toEqual([{ id: 3 }]);
    expect(api.calls[2]!.url.searchParams.get("id")).toBe("abc");
    expect(api.calls.every((c) => c.url.searchParams.get("key") === "mh_pk_test")).toBe(true);
  });

  it("asks for access with a reader id kept in storage, and pings back as text/plain with keepalive", async () => {
    const grant = {
      granted: true,
      grantReason: "METERING",
      data: { numberRemaining: 1, isLoggedIn: false, isLast: false },
    };
    const api = fakeApi({
      "GET /api/access/v1/stories/s%201/access": { body: grant },
      "POST /api/access/v1/stories/s%201/pingback": { body: {} },
    });
    const storage = memoryStorage();
    let n = 0;
    const at = createAccessType(CONFIG, { fetch: api.fetch, storage, randomId: () => `reader-000${++n}` });
    expect(await at.isAssetAccessible({ id: "s 1", type: "story" }, true)).toEqual(grant);
    await at.pingbackAssetAccess({ id: "s 1", type: "story" }, grant);
    const [access, ping] = api.calls;
    expect(access!.url.searchParams.get("readerId")).toBe("reader-0001");
    expect(access!.url.searchParams.get("disable-meter")).toBe("true");
    expect(access!.url.searchParams.has("accesstype_jwt")).toBe(false);
    expect(ping!.headers["Content-Type"]).toMatch(/^text\/plain/);
    expect(ping!.body).toEqual(grant);
    expect(ping!.keepalive).toBe(true);
    expect(ping!.url.searchParams.get("readerId")).toBe("reader-0001");
    // A second SDK on the same storage (the next page view) is the same reader.
    const again = createAccessType(CONFIG, { fetch: api.fetch, storage, randomId: () => "other-00001" });
    expect(again.getReaderId()).toBe("reader-0001");
  });

  it("asks for the reader's offer with the reader id and the page's context", async () => {
    const answer = { offer: null, experiment: null };
    const api = fakeApi({ "GET /api/access/v1/offer": { body: answer } });
    const at = createAccessType(CONFIG, { fetch: api.fetch, storage: memoryStorage(), randomId: () => "reader-0009" });
    expect(await at.getOffer({ locale: "fr", utmMedium: "email" })).toEqual(answer);
    const [call] = api.calls;
    expect(call!.url.searchParams.get("readerId")).toBe("reader-0009");
    expect(call!.url.searchParams.get("utm_medium")).toBe("email");
    expect(call!.url.searchParams.get("locale")).toBe("fr");
    expect(call!.url.searchParams.has("ref")).toBe(false);
  });

  it("rejects with {status, error} on an API error, and {status: 0} when there is no answer", async () => {
    const api = fakeApi({
      "POST /api/access/v1/coupons/validate": {
        status: 422,
        body: {
          error: { code: "UNPROCESSABLE", message: "Expired.", details: [{ field: "coupon_code", issue: "expired" }] },
        },
      },
    });
    const at = createAccessType(CONFIG, { fetch: api.fetch, randomId: () => "reader-0001" });
    await expect(at.validateCoupon({ subscriptionPlanId: 1, couponCode: "OLD" })).rejects.toEqual({
      status: 422,
      error: { code: "UNPROCESSABLE", message: "Expired.", details: [{ field: "coupon_code", issue: "expired" }] },
    });
    expect(api.calls[0]!.body).toEqual({ subscription_plan_id: 1, coupon_code: "OLD" });
    const offline = createAccessType(CONFIG, {
      fetch: async () => {
        throw new TypeError("Failed to fetch");
      },
      randomId: () => "reader-0001",
    });
    await expect(offline.getPlans()).rejects.toMatchObject({ status: 0, error: { code: "NETWORK_ERROR" } });
    const unconfigured = createAccessType({}, { fetch: api.fetch, randomId: () => "reader-0001" });
    await expect(unconfigured.getPlans()).rejects.toMatchObject({ error: { code: "NOT_CONFIGURED" } });
  });

  it("needs a reader for a reader's calls, and sends the JWT once set", async () => {
    const api = fakeApi({
      "GET /api/access/v1/members/me/subscriptions": { body: [{ id: 5 }] },
      "PUT /api/access/v1/members/me/subscriptions/5/cancel": { status: 204 },
      "POST /api/access/v1/members/me/metadata": { status: 204 },
    });
    const at = createAccessType(CONFIG, { fetch: api.fetch, randomId: () => "reader-0001" });
    expect(await at.getSubscriptions()).toEqual([]);
    await expect(at.cancelSubscription(5)).rejects.toMatchObject({ status: 401 });
    expect(api.calls).toHaveLength(0);
    await at.setUser({ accesstypeJwt: "h.p.s", emailAddress: "ada@example.com" });
    expect(await at.getSubscriptions()).toEqual([{ id: 5 }]);
    expect(await at.cancelSubscription(5)).toEqual({});
    expect(await at.setSubscriberMetadata({ phone_number: "+14155550100" })).toBe(true);
    expect(api.calls.map((c) => `${c.method} ${c.url.searchParams.get("accesstype_jwt")}`)).toEqual([
      "GET h.p.s",
      "PUT h.p.s",
      "POST h.p.s",
    ]);
  });

  it("proceeds through preview, the gateway's step and create with the attempt token", async () => {
    const preview = {
      subscription: { id: null, payment_amount_cents: 500, payment_amount_currency: "USD" },
      attempt_token: "att.sig",
      external_reference_id: "order_1",
    };
    const api = fakeApi({
      "GET /api/access/v1/payment_options": {
        body: { payment_options: { razorpay: { app_key: "rzp_test_1", environment: "sandbox" } } },
      },
      "POST /api/access/v1/members/me/subscriptions/preview": { body: preview },
      "POST /api/access/v1/members/me/subscriptions": {
        status: 201,
        body: { subscription: { id: 42, status: "active" } },
      },
    });
    const seen: unknown[] = [];
    const at = createAccessType(CONFIG, {
      fetch: api.fetch,
      randomId: () => "reader-0001",
      gateways: {
        razorpay: async (args) => {
          seen.push(args.option, args.preview.external_reference_id);
          return { payment_token: "pay_1", razorpay_signature: "sig" };
        },
      },
    });
    await at.setUser({ accesstypeJwt: "h.p.s" });
    at.registerGateway("test_gw", async () => ({ payment_token: "t" }));
    const options = await at.getPaymentOptions();
    expect(Object.keys(options).sort()).toEqual(["razorpay", "test_gw"]);
    expect(options.razorpay!.app_key).toBe("rzp_test_1");
    const result = await options.razorpay!.proceed({
      plan: { id: 7, price_cents: 900, price_currency: "USD" },
      payment: { amount_cents: 900 },
    });
    expect(result.subscription).toEqual({ id: 42, status: "active" });
    expect(seen).toEqual([{ app_key: "rzp_test_1", environment: "sandbox" }, "order_1"]);
    const [previewCall, createCall] = api.calls.filter((c) => c.method === "POST");
    expect(previewCall!.body).toEqual({
      subscription: {
        subscription_plan_id: 7,
        subscription_type: "standard",
        payment: { payment_type: "razorpay", amount_cents: 900, amount_currency: "USD" },
      },
    });
    expect(createCall!.body).toEqual({
      subscription: {
        subscription_plan_id: 7,
        subscription_type: "standard",
        payment: {
          payment_type: "razorpay",
          amount_cents: 500, // what the preview froze (a trial's authorization amount),
          amount_currency: "USD",
          payment_token: "pay_1",
          razorpay_signature: "sig",
        },
      },
      attempt_token: "att.sig",
    });
  });

  it("checks a guest out without login, with the e-mail and phone of setUser", async () => {
    const api = fakeApi({
      "POST /api/access/v1/subscription-without-login/preview": {
        body: { subscription: {}, attempt_token: "a.b", external_reference_id: null },
      },
      "POST /api/access/v1/subscription-without-login": { body: { subscription: { id: 9 } } },
    });
    const at = createAccessType(CONFIG, { fetch: api.fetch, randomId: () => "reader-0001" });
    const request = {
      subscription_plan_id: 1,
      payment: { payment_type: "demo_test", amount_cents: 0, amount_currency: "USD" },
    };
    await expect(at.preview(request)).rejects.toMatchObject({ status: 401 });
    await at.setUser({ emailAddress: "guest@example.com", mobileNumber: "+14155550100" });
    const { attempt_token } = await at.preview(request);
    expect(await at.create({ ...request, attempt_token })).toEqual({ id: 9 });
    expect(api.calls[1]!.body).toEqual({
      emailAddress: "guest@example.com",
      phoneNumber: "+14155550100",
      subscription: request,
      attempt_token: "a.b",
    });
    expect(api.calls[1]!.url.searchParams.has("accesstype_jwt")).toBe(false);
  });
});

describe("the reader's words", () => {
  const preview = { subscription: { payment_amount_cents: 500 }, attempt_token: "a.t", external_reference_id: "o" };
  const table = (locale: "en" | "hi") =>
    Object.fromEntries(
      [...messagesOf("paywall", locale)].filter(([k]) => k.startsWith("sdk.")).map(([k, m]) => [k, parseMessage(m)]),
    );

  function checkout(
    messages: { status?: number; body?: unknown } = { body: { locale: "hi", dir: "ltr", messages: table("hi") } },
  ) {
    const api = fakeApi({
      "GET /api/access/v1/payment_options": { body: { payment_options: { card: {}, plain: {} } } },
      "POST /api/access/v1/members/me/subscriptions/preview": { body: preview },
      "POST /api/access/v1/members/me/subscriptions": { status: 201, body: { subscription: { id: 1 } } },
      "GET /api/access/v1/messages": messages,
    });
    const heard: { locale: string; dir: string; cancel: string }[] = [];
    let pageLang: string | null = null;
    const at = createAccessType(CONFIG, {
      fetch: api.fetch,
      randomId: () => "reader-0001",
      english: table("en"),
      pageLanguage: () => pageLang,
      gateways: {
        card: async ({ words }) => {
          heard.push({ locale: words.locale, dir: words.dir, cancel: words.t("sdk.cancel") });
          return { payment_token: "t" };
        },
      },
    });
    const pay = async (gateway = "card") => {
      await at.setUser({ accesstypeJwt: "h.p.s" });
      await (
        await at.getPaymentOptions()
      )[gateway]!.proceed({ plan: { id: 7, price_cents: 900, price_currency: "USD" } });
    };
    const asked = () =>
      api.calls
        .filter((c) => c.url.pathname === "/api/access/v1/messages")
        .map((c) => Object.fromEntries([...c.url.searchParams].filter(([name]) => name !== "key")));
    return { at, pay, heard, asked, setPageLang: (lang: string | null) => (pageLang = lang) };
  }

  it("asks with the explicit locale, then the page's language, and hands the gateway the answer's words", async () => {
    const c = checkout();
    await c.pay();
    c.setPageLang("ta-IN");
    await c.pay();
    c.at.init({ locale: "hi" });
    await c.pay();
    c.at.setLocale("pt-BR").setLocale(null);
    c.setPageLang("not a language!");
    await c.pay();
    // The last is the first's request again (no locale, no usable language): answered from before.
    expect(c.asked()).toEqual([{}, { lang: "ta-IN" }, { locale: "hi", lang: "ta-IN" }]);
    expect(c.heard).toHaveLength(4);
    expect(c.heard[0]).toEqual({ locale: "hi", dir: "ltr", cancel: messagesOf("paywall", "hi").get("sdk.cancel") });
  });

  it("asks once per page and language, and not at all for a gateway with no browser step", async () => {
    const c = checkout();
    await c.pay();
    await c.pay();
    await c.pay("plain");
    expect(c.asked()).toEqual([{}]);
    expect(c.heard).toHaveLength(2);
  });

  it("goes on in English when the words cannot be had, and asks again next time", async () => {
    for (const answer of [
      { status: 500, body: { error: { code: "INTERNAL", message: "x" } } },
      { body: { nope: 1 } },
    ]) {
      const c = checkout(answer);
      await c.pay();
      await c.pay();
      expect(c.heard.map((h) => [h.locale, h.cancel])).toEqual([
        ["en", "Cancel"],
        ["en", "Cancel"],
      ]);
      // A failed request is asked again; a bad answer (the server answered) is kept.
      expect(c.asked()).toHaveLength(answer.status === 500 ? 2 : 1);
    }
  });
});
