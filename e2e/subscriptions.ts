/** Subscriptions for the specs, made through the interface's server API of the demo publisher. */
import type { APIRequestContext } from "@playwright/test";

import { expect } from "./fixtures";

export const SERVER_KEY = "mh_sk_demo_server_key_local_only_0000";

type Group = { name: string; subscription_plans: { id: number; title: string }[] };

/** A monthly recurring subscription for the reader with this e-mail, made through the server API (manual payment). */
export async function subscribeMonthly(request: APIRequestContext, email: string) {
  const headers = { "X-SUBAUTH": SERVER_KEY };
  const groups = await request.get("/api/v1/subscription_groups.json", { headers });
  expect(groups.status()).toBe(200);
  const digital = ((await groups.json()) as { subscription_groups: Group[] }).subscription_groups.find(
    (g) => g.name === "Digital access",
  )!;
  const monthly = digital.subscription_plans.find((p) => p.title === "Monthly")!;
  const subscription = { subscription_plan_id: monthly.id, payment: { payment_type: "manual" }, trial_period: false };
  const base = `/api/v1/subscribers/email/${encodeURIComponent(email)}`;
  const preview = await request.post(`${base}/subscriptions/preview.json`, { headers, data: { subscription } });
  expect(preview.status(), await preview.text()).toBe(200);
  const { attempt_token } = (await preview.json()) as { attempt_token: string };
  const created = await request.post(`${base}/subscriptions.json`, { headers, data: { subscription, attempt_token } });
  expect(created.status(), await created.text()).toBe(201);
}
