/**
 * Checkout from the reader's side, on PGlite and PostgreSQL: the client API (the reader of a JWT,
 * whose attempt token no other reader can use) and guest checkout (an e-mail and a phone joined
 * to one subscriber). Paid flows use testpay (server/testing/checkout.ts).
 */
import { describe, expect, it } from "vitest";

import { POST as CLIENT_PREVIEW } from "@/app/api/access/v1/members/me/subscriptions/preview/route";
import { POST as CLIENT_CREATE } from "@/app/api/access/v1/members/me/subscriptions/route";
import { POST as GUEST_PREVIEW } from "@/app/api/access/v1/subscription-without-login/preview/route";
import { POST as GUEST_CREATE } from "@/app/api/access/v1/subscription-without-login/route";
import { getDb } from "@/server/db";
import { createCheckoutFixture, testpayPayment } from "@/server/testing/checkout";
import { ok, paid, refused, serverCreate, serverPreview } from "@/server/testing/checkout-calls";
import { call, readerJwt } from "@/server/testing/engagement";

const setup = async () => createCheckoutFixture(await getDb());

describe("client API checkout", () => {
  it("checks out the JWT reader, and refuses its token to another reader", async () => {
    const f = await setup();
    const jwt = await readerJwt({ id: "r-1", name: "Ada", email: "ada@example.com" });
    const q = (j: string) => `/x?key=${f.key}&accesstype_jwt=${j}`;
    const preview = await ok(
      await call(CLIENT_PREVIEW, "POST", q(jwt), {}, { subscription: paid(f.monthly.id, 1000) }),
    );
    const payment = testpayPayment(preview.external_reference_id, 1000, "USD");
    const body = {
      subscription: { ...paid(f.monthly.id, 1000), payment: { ...paid(f.monthly.id, 1000).payment, ...payment } },
      attempt_token: preview.attempt_token,
    };
    const other = await readerJwt({ id: "r-2", name: "Bo" });
    await refused(await call(CLIENT_CREATE, "POST", q(other), {}, body), 422, "attempt_token");
    await refused(await call(CLIENT_CREATE, "POST", `/x?key=${f.key}`, {}, body), 401);
    const made = await ok(await call(CLIENT_CREATE, "POST", q(jwt), {}, body), 201);
    expect(made.subscription).toMatchObject({
      status: "active",
      created_by: "client_api",
      preferred_identity: { provider: "publisher", value: "r-1" },
      subscriber: { name: "Ada" },
    });
    // The same JWT reader through svc_jwt is the same subscriber.
    const p2 = await ok(
      await call(CLIENT_PREVIEW, "POST", `/x?key=${f.key}&svc_jwt=${jwt}`, {}, { subscription: paid(f.monthly.id) }),
    );
    expect(p2.subscription.subscriber.id).toBe(made.subscription.subscriber_id);
  });
});

describe("guest checkout", () => {
  it("attaches the e-mail and the phone to one subscriber; mobile_number stays subscription metadata", async () => {
    const f = await setup();
    const guest = { emailAddress: "Gus@Example.com", phoneNumber: "+919876543210" };
    await refused(await call(GUEST_PREVIEW, "POST", `/x?key=${f.key}`, {}, { subscription: paid(f.monthly.id) }), 400);
    const sub = { ...paid(f.monthly.id, 1000), metadata: { mobile_number: "+15550000000" } };
    const preview = await ok(await call(GUEST_PREVIEW, "POST", `/x?key=${f.key}`, {}, { ...guest, subscription: sub }));
    const payment = testpayPayment(preview.external_reference_id, 1000, "USD");
    const body = {
      ...guest,
      subscription: { ...sub, payment: { ...sub.payment, ...payment } },
      attempt_token: preview.attempt_token,
    };
    await refused(
      await call(GUEST_CREATE, "POST", `/x?key=${f.key}`, {}, { ...body, phoneNumber: "+919876543211" }),
      422,
      "attempt_token",
    );
    const made = await ok(await call(GUEST_CREATE, "POST", `/x?key=${f.key}`, {}, body), 201);
    expect(made.subscription).toMatchObject({
      created_by: "guest_checkout",
      metadata: { mobile_number: "+15550000000" },
    });
    expect(made.subscription.subscriber.subscriber_identities).toEqual([
      { provider: "email", value: "gus@example.com" },
      { provider: "phone", value: "+919876543210" },
    ]);
    expect(await f.db.member.count({ where: { accountId: f.account.id } })).toBe(1);

    // The phone alone later finds the same subscriber.
    const p2 = await ok(
      await call(
        GUEST_PREVIEW,
        "POST",
        `/x?key=${f.key}`,
        {},
        { phoneNumber: "+919876543210", subscription: paid(f.free.id) },
      ),
    );
    expect(p2.attempt_token).toBeTruthy();
    // An e-mail of one subscriber with the phone of another: 409.
    await ok(await serverPreview(f, paid(f.monthly.id), {}, { provider: "phone", identity: "+14155550123" }));
    const manual = { subscription_plan_id: f.free.id, payment: { payment_type: "manual" } };
    const pp = await ok(await serverPreview(f, manual, {}, { provider: "phone", identity: "+14155550123" }));
    await ok(
      await serverCreate(
        f,
        { subscription: manual, attempt_token: pp.attempt_token },
        { provider: "phone", identity: "+14155550123" },
      ),
      201,
    );
    const clash = { emailAddress: "gus@example.com", phoneNumber: "+14155550123" };
    const free = { subscription_plan_id: f.free.id, payment: { payment_type: "sponsored" } };
    const cp = await ok(await call(GUEST_PREVIEW, "POST", `/x?key=${f.key}`, {}, { ...clash, subscription: free }));
    await refused(
      await call(
        GUEST_CREATE,
        "POST",
        `/x?key=${f.key}`,
        {},
        { ...clash, subscription: free, attempt_token: cp.attempt_token },
      ),
      409,
    );
  });
});
