/**
 * Gifts (spec §4.2 rule 4, §4.3 gift rows), on PGlite and PostgreSQL: preview and create with
 * recipient_subscriber on the server API and the client API; the recipient holds the
 * subscription (created when new), the buyer is its gifter, custom_message is kept, and the
 * gift lists show it.
 */
import { describe, expect, it } from "vitest";

import { GET as CLIENT_GIFTS } from "@/app/api/access/v1/members/me/subscription-gifts/route";
import { POST as CLIENT_PREVIEW } from "@/app/api/access/v1/members/me/subscriptions/preview/route";
import { POST as CLIENT_CREATE } from "@/app/api/access/v1/members/me/subscriptions/route";
import { POST as SERVER_CREATE } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions.json/route";
import { POST as SERVER_PREVIEW } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriptions/preview.json/route";
import { getDb } from "@/server/db";
import { createCheckoutFixture, testpayPayment, type CheckoutFixture } from "@/server/testing/checkout";
import { call, readerJwt } from "@/server/testing/engagement";

import { GET as SERVER_GIFTS } from "./route";

type Json = Record<string, unknown>;
type Sub = {
  id: number;
  subscriber_id: number;
  gifter: { id: number; name: string | null; email: string | null } | null;
  custom_message: string | null;
  subscriber: { subscriber_identities: { provider: string; value: string }[] };
};
type Err = { error: { code: string; details?: { field: string; issue: string }[] } };

const ada = { provider: "email", identity: "ada@example.com" };
const toBo = { recipient_identity_provider: "email", recipient_identity: "Bo@Example.com" };

function subscription(f: CheckoutFixture, extra: Json = {}) {
  return {
    subscription_plan_id: f.monthly.id,
    payment: { payment_type: "testpay", amount_currency: "USD" },
    ...extra,
  };
}

async function serverGift(f: CheckoutFixture, extra: Json = {}) {
  const sub = subscription(f, extra);
  const res = await call(SERVER_PREVIEW, "POST", "/x", ada, { subscription: sub }, { "x-subauth": f.serverKey });
  const preview = (await res.json()) as Json & { attempt_token: string; external_reference_id: string };
  return { res, preview, sub };
}

describe("gifts", () => {
  it("server API: the recipient holds the gift, the buyer is its gifter, custom_message is kept and listed", async () => {
    const f = await createCheckoutFixture(await getDb());
    const { res, preview, sub } = await serverGift(f, { recipient_subscriber: toBo, custom_message: "Happy birthday" });
    expect(res.status, JSON.stringify(preview)).toBe(200);
    expect(preview).toMatchObject({
      custom_message: "Happy birthday",
      recipient_subscriber: { provider: "email", value: "bo@example.com" },
    });
    const payment = testpayPayment(preview.external_reference_id, 1000, "USD");
    const body = {
      subscription: { ...sub, payment: { ...sub.payment, amount_cents: 1000, ...payment } },
      attempt_token: preview.attempt_token,
    };
    const made = await call(SERVER_CREATE, "POST", "/x", ada, body, { "x-subauth": f.serverKey });
    const gift = ((await made.json()) as { subscription: Sub }).subscription;
    expect(made.status, JSON.stringify(gift)).toBe(201);
    expect(gift.custom_message).toBe("Happy birthday");
    expect(gift.subscriber.subscriber_identities).toEqual([{ provider: "email", value: "bo@example.com" }]);
    expect(gift.gifter).toMatchObject({ email: "ada@example.com" });
    expect(gift.gifter!.id).not.toBe(gift.subscriber_id);
    // Two readers, one record each; both announced.
    expect(await f.db.member.count({ where: { accountId: f.account.id } })).toBe(2);
    const created = await f.db.webhookEvent.count({ where: { accountId: f.account.id, name: "subscriber.created" } });
    expect(created).toBe(2);

    const again = await call(SERVER_CREATE, "POST", "/x", ada, body, { "x-subauth": f.serverKey });
    expect(again.status).toBe(200);

    const listed = await call(SERVER_GIFTS, "GET", "/x", ada, undefined, { "x-subauth": f.serverKey });
    const gifts = ((await listed.json()) as { subscriptions: Sub[] }).subscriptions;
    expect(gifts.map((g) => g.id)).toEqual([gift.id]);
    const bo = await call(SERVER_GIFTS, "GET", "/x", { provider: "email", identity: "bo@example.com" }, undefined, {
      "x-subauth": f.serverKey,
    });
    expect(((await bo.json()) as { subscriptions: Sub[] }).subscriptions).toEqual([]);
  });

  it("refuses a gift (a custom_message) without a recipient, to the gifter themself, and a create naming another recipient", async () => {
    const f = await createCheckoutFixture(await getDb());
    let r = await serverGift(f, { custom_message: "For nobody" });
    expect(r.res.status).toBe(422);
    expect((r.preview as unknown as Err).error.details?.[0]?.field).toBe("recipient_subscriber");
    r = await serverGift(f, {
      recipient_subscriber: { recipient_identity_provider: "email", recipient_identity: "ADA@example.com" },
    });
    expect(r.res.status).toBe(422);
    expect((r.preview as unknown as Err).error.details?.[0]).toEqual({
      field: "recipient_subscriber",
      issue: "must differ from the gifter",
    });

    r = await serverGift(f, { recipient_subscriber: toBo });
    expect(r.res.status).toBe(200);
    const payment = testpayPayment(r.preview.external_reference_id, 1000, "USD");
    const swapped = {
      subscription: {
        ...r.sub,
        recipient_subscriber: { recipient_identity_provider: "email", recipient_identity: "cy@example.com" },
        payment: { ...r.sub.payment, amount_cents: 1000, ...payment },
      },
      attempt_token: r.preview.attempt_token,
    };
    const res = await call(SERVER_CREATE, "POST", "/x", ada, swapped, { "x-subauth": f.serverKey });
    expect(res.status).toBe(422);
    expect(((await res.json()) as Err).error.details?.map((d) => d.field)).toContain("recipient_subscriber");
    expect(await f.db.subscription.count({ where: { accountId: f.account.id } })).toBe(0);
  });

  it("client API: a reader gives a subscription; members/me/subscription-gifts lists it", async () => {
    const f = await createCheckoutFixture(await getDb());
    const jwt = await readerJwt({ id: "r-ada", name: "Ada" });
    const q = `?key=${f.key}&accesstype_jwt=${jwt}`;
    const sub = subscription(f, { recipient_subscriber: toBo, custom_message: "For you" });
    const res = await call(CLIENT_PREVIEW, "POST", `/x${q}`, {}, { subscription: sub });
    const preview = (await res.json()) as Json & { attempt_token: string; external_reference_id: string };
    expect(res.status, JSON.stringify(preview)).toBe(200);
    const payment = testpayPayment(preview.external_reference_id, 1000, "USD");
    const made = await call(
      CLIENT_CREATE,
      "POST",
      `/x${q}`,
      {},
      {
        subscription: { ...sub, payment: { ...sub.payment, amount_cents: 1000, ...payment } },
        attempt_token: preview.attempt_token,
      },
    );
    const gift = ((await made.json()) as { subscription: Sub }).subscription;
    expect(made.status, JSON.stringify(gift)).toBe(201);
    expect(gift.custom_message).toBe("For you");
    expect(gift.gifter).not.toBeNull();
    const listed = await call(CLIENT_GIFTS, "GET", `/x${q}`, {});
    expect(((await listed.json()) as Sub[]).map((g) => g.id)).toEqual([gift.id]);
  });
});
