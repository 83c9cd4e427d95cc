/** GET /api/access/v1/payment_options?key= (client key): the account's enabled gateways for the browser. */
import { describe, expect, it } from "vitest";

import { resetEnvCache } from "@/env.js";
import { createApiKey } from "@/server/auth/api-keys";
import { getDb } from "@/server/db";
import { call } from "@/server/testing/engagement";
import { createTestStaff } from "@/server/testing/staff";

import { GET as paymentOptions } from "./route";

const SECRET = "rzp-key-secret-Alpha-0123456789";
const WEBHOOK_SECRET = "rzp-webhook-secret-Beta-9876543210";

describe("GET /api/access/v1/payment_options", () => {
  it("lists the enabled gateways with their public key and payment types, never a secret", async () => {
    const db = await getDb();
    const owner = await createTestStaff(db, { roles: ["OWNER"] });
    const { key } = await createApiKey(db, { accountId: owner.account.id, kind: "CLIENT", name: "paywall" });
    const get = (k: string | null) =>
      call(paymentOptions, "GET", `/api/access/v1/payment_options${k ? `?key=${k}` : ""}`, {});

    let res = await get(key);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ payment_options: {} });

    await owner.caller.paymentGateways.save({
      provider: "razorpay",
      environment: "sandbox",
      appKey: "rzp_test_PUBLIC01",
      secret: SECRET,
      webhookSecret: WEBHOOK_SECRET,
    });
    res = await get(key);
    const body: unknown = await res.json();
    expect(body).toEqual({
      payment_options: {
        razorpay: {
          app_key: "rzp_test_PUBLIC01",
          environment: "sandbox",
          payment_types: ["razorpay", "razorpay_recurring"],
        },
      },
    });
    expect(JSON.stringify(body)).not.toContain(SECRET);
    expect(JSON.stringify(body)).not.toContain(WEBHOOK_SECRET);
    expect(res.headers.get("cache-control")).toBe("no-store");

    await owner.caller.paymentGateways.setEnabled({ provider: "razorpay", enabled: false });
    expect(await (await get(key)).json()).toEqual({ payment_options: {} });

    expect((await get(null)).status).toBe(401);
    expect((await get("mh_pk_not_a_key_at_all_000000")).status).toBe(401);
  });

  it("names where the browser loads Stripe.js: STRIPE_JS_URL, Stripe's own by default", async () => {
    const db = await getDb();
    const owner = await createTestStaff(db, { roles: ["OWNER"] });
    const { key } = await createApiKey(db, { accountId: owner.account.id, kind: "CLIENT", name: "paywall" });
    await owner.caller.paymentGateways.save({
      provider: "stripe",
      environment: "sandbox",
      appKey: "pk_test_PUBLIC01",
      secret: "sk_test_SECRET0123456789",
      webhookSecret: "whsec_SECRET0123456789",
    });
    const stripeOption = async () => {
      const res = await call(paymentOptions, "GET", `/api/access/v1/payment_options?key=${key}`, {});
      return ((await res.json()) as { payment_options: Record<string, unknown> }).payment_options.stripe;
    };
    const saved = process.env.STRIPE_JS_URL;
    try {
      delete process.env.STRIPE_JS_URL;
      resetEnvCache();
      expect(await stripeOption()).toEqual({
        app_key: "pk_test_PUBLIC01",
        environment: "sandbox",
        payment_types: ["stripe", "stripe_recurring"],
        js_url: "https://js.stripe.com/v3/",
      });
      process.env.STRIPE_JS_URL = "http://127.0.0.1:4999/v3/";
      resetEnvCache();
      expect(await stripeOption()).toMatchObject({ js_url: "http://127.0.0.1:4999/v3/" });
    } finally {
      if (saved === undefined) delete process.env.STRIPE_JS_URL;
      else process.env.STRIPE_JS_URL = saved;
      resetEnvCache();
    }
  });
});
