/** Subscriptions for the specs, made through the interface's server API of the demo publisher. */
import type { APIRequestContext } from "@playwright/test";

import { expect } from "./fixtures";

export const SERVER_KEY = "mh_sk_demo_server_key_local_only_0000";
/** The demo publisher's public client key. */
export const CLIENT_KEY = "mh_pk_demo_public_client_key_local_only";
const KEY = CLIENT_KEY;

type Group = { name: string; subscription_plans: { id: number; title: string }[] };

/**
 * A monthly recurring subscription for the reader with this e-mail (or this identity of another
 * provider: "publisher" for a publisher-JWT reader's id), made through the server API (manual payment).
 */
export async function subscribeMonthly(request: APIRequestContext, email: string, provider = "email") {
  const headers = { "X-SUBAUTH": SERVER_KEY };
  const groups = await request.get("/api/v1/subscription_groups.json", { headers });
  expect(groups.status()).toBe(200);
  const digital = ((await groups.json()) as { subscription_groups: Group[] }).subscription_groups.find(
    (g) => g.name === "Digital access",
  )!;
  const monthly = digital.subscription_plans.find((p) => p.title === "Monthly")!;
  const subscription = { subscription_plan_id: monthly.id, payment: { payment_type: "manual" }, trial_period: false };
  const base = `/api/v1/subscribers/${provider}/${encodeURIComponent(email)}`;
  const preview = await request.post(`${base}/subscriptions/preview.json`, { headers, data: { subscription } });
  expect(preview.status(), await preview.text()).toBe(200);
  const { attempt_token } = (await preview.json()) as { attempt_token: string };
  const created = await request.post(`${base}/subscriptions.json`, { headers, data: { subscription, attempt_token } });
  expect(created.status(), await created.text()).toBe(201);
}

/**
 * A demo reader (a publisher JWT from the demo) with an active Yearly subscription paid through
 * demo_test, through the interface's client API: its id and the query that speaks as the reader.
 */
export async function subscribedReader(request: APIRequestContext, email: string): Promise<{ id: number; q: string }> {
  const minted = await request.post(`/api/demo/reader-jwt?key=${KEY}`, { data: { email } });
  expect(minted.status(), await minted.text()).toBe(200);
  const { accesstype_jwt: jwt } = (await minted.json()) as { accesstype_jwt: string };
  const groups = (await (await request.get(`/api/v1/subscription_groups.json?key=${KEY}`)).json()) as {
    subscription_groups: { name: string; subscription_plans: { id: number; title: string }[] }[];
  };
  const yearly = groups.subscription_groups
    .find((g) => g.name === "Digital access")!
    .subscription_plans.find((p) => p.title === "Yearly")!;
  const q = `key=${KEY}&accesstype_jwt=${jwt}`;
  const subscription = {
    subscription_plan_id: yearly.id,
    payment: { payment_type: "demo_test", amount_currency: "USD" },
  };
  const preview = await request.post(`/api/access/v1/members/me/subscriptions/preview?${q}`, {
    data: { subscription },
  });
  expect(preview.status(), await preview.text()).toBe(200);
  const previewed = (await preview.json()) as {
    attempt_token: string;
    external_reference_id: string;
    subscription: { payment_amount_cents: number };
  };
  const attempt = previewed.external_reference_id.replace(/^demo_order_/, "");
  const created = await request.post(`/api/access/v1/members/me/subscriptions?${q}`, {
    data: {
      subscription: {
        ...subscription,
        payment: {
          ...subscription.payment,
          amount_cents: previewed.subscription.payment_amount_cents,
          payment_token: `demo_pay_${attempt}`,
        },
      },
      attempt_token: previewed.attempt_token,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { id: ((await created.json()) as { subscription: { id: number } }).subscription.id, q };
}
