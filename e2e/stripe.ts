/**
 * Stripe on the demo account for the browser specs: revenue staff save the fake Stripe's keys
 * (e2e/fake-stripe-config.ts) as the account's Stripe gateway, let the "Digital access" plans
 * take Stripe, and add a one-time "Week pass" plan; `undo` puts the account back as the seed left
 * it for the other specs (gateway removed, the Week pass disabled, the plans' providers and the
 * seeded meter back). The reader's side: the paywall's card form.
 */
import type { APIRequestContext, Browser, Page } from "@playwright/test";

import { FAKE_STRIPE_KEYS, FAKE_STRIPE_URL } from "./fake-stripe-config";
import { expect, seriousViolations, submitSignIn, trpcCall, trpcQuery } from "./fixtures";

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };
const SEEDED_METER = { enabled: true, freeStories: 2, periodLength: 1, periodUnit: "months", meterAnonymous: true };
const WEEK_PASS = "Week pass";

type Plan = {
  id: number;
  title: string;
  group_name: string;
  subscription_group_id: number;
  supported_payment_providers: string[];
};

/** Stripe test cards, as Stripe documents them. */
export const CARDS = {
  succeeds: "4242 4242 4242 4242",
  declined: "4000 0000 0000 0002",
  threeDSecure: "4000 0027 6000 3184",
};

async function asRevenue<T>(browser: Browser, work: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto("/admin/sign-in");
    await submitSignIn(page, REVENUE);
    await expect(page).toHaveURL(/\/admin$/);
    return await work(page);
  } finally {
    await context.close();
  }
}

async function digitalPlans(page: Page): Promise<Plan[]> {
  const { plans } = await trpcQuery<{ plans: Plan[] }>(page.request, "subscriptions.plans.list", undefined);
  return plans.filter((p) => p.group_name === "Digital access");
}

/** The demo account takes Stripe (the fake), with a hard paywall (no free stories) so a new reader meets it at once. */
export async function enableStripe(browser: Browser): Promise<void> {
  await asRevenue(browser, async (page) => {
    await trpcCall(page.request, "paymentGateways.save", {
      provider: "stripe",
      environment: "sandbox",
      appKey: FAKE_STRIPE_KEYS.publishableKey,
      secret: FAKE_STRIPE_KEYS.secretKey,
      webhookSecret: FAKE_STRIPE_KEYS.webhookSecret,
    });
    await trpcCall(page.request, "paymentGateways.setEnabled", { provider: "stripe", enabled: true });
    await trpcCall(page.request, "paywallMeter.update", { ...SEEDED_METER, enabled: false });
    const plans = await digitalPlans(page);
    for (const plan of plans.filter((p) => p.title !== WEEK_PASS && !p.supported_payment_providers.includes("stripe")))
      await trpcCall(page.request, "subscriptions.plans.update", {
        id: plan.id,
        supportedPaymentProviders: [...plan.supported_payment_providers, "stripe"],
      });
    const week = plans.find((p) => p.title === WEEK_PASS);
    if (week) await trpcCall(page.request, "subscriptions.plans.setEnabled", { id: week.id, enabled: true });
    else
      await trpcCall(page.request, "subscriptions.plans.create", {
        groupId: plans[0]!.subscription_group_id,
        title: WEEK_PASS,
        description: "Seven days of every story, paid once.",
        durationLength: 1,
        durationUnit: "weeks",
        priceCents: 300,
        priceCurrency: "USD",
        recurring: false,
        supportedPaymentProviders: ["stripe"],
      });
  });
}

/** The demo account as the seed left it, for the other specs. */
export async function disableStripe(browser: Browser): Promise<void> {
  await asRevenue(browser, async (page) => {
    // The seed has no Stripe keys: removed, so the gateways page's specs find Razorpay's row alone.
    await trpcCall(page.request, "paymentGateways.delete", { provider: "stripe" });
    await trpcCall(page.request, "paywallMeter.update", SEEDED_METER);
    for (const plan of await digitalPlans(page)) {
      if (plan.title === WEEK_PASS)
        await trpcCall(page.request, "subscriptions.plans.setEnabled", { id: plan.id, enabled: false });
      else if (plan.supported_payment_providers.includes("stripe"))
        await trpcCall(page.request, "subscriptions.plans.update", {
          id: plan.id,
          supportedPaymentProviders: plan.supported_payment_providers.filter((p) => p !== "stripe"),
        });
    }
  });
}

/** "Pay by card" for the plan: Stripe's card form in the dialog, filled with `card` and paid (axe on the form). */
export async function payByCard(page: Page, plan: string, card: string): Promise<void> {
  await page.getByRole("button", { name: `Pay by card: ${plan}` }).click();
  const dialog = page.getByRole("dialog", { name: "Pay by card" });
  const form = dialog.getByRole("form", { name: "Card payment" });
  await expect(form.getByLabel("Card number")).toBeVisible();
  await form.getByLabel("Card number").fill(card);
  await form.getByLabel("Expiration date (MM / YY)").fill("12 / 34");
  await form.getByLabel("Security code").fill("123");
  expect(await seriousViolations(page)).toEqual([]);
  await form.getByRole("button", { name: /^Pay / }).click();
}

/**
 * Stripe's side of a renewal that fails: the fake Stripe's billing cycle declines the
 * subscription's card, and the signed `invoice.payment_failed` Stripe sends is delivered to the
 * demo account's webhook URL (as the gateways page shows it). Answers the app's reply status.
 */
export async function stripeRenewalFails(browser: Browser, request: APIRequestContext, subscriptionId: string) {
  const path = await asRevenue(browser, async (page) => {
    const gateways = await trpcQuery<{ provider: string; webhookPath: string }[]>(
      page.request,
      "paymentGateways.list",
      undefined,
    );
    return gateways.find((g) => g.provider === "stripe")!.webhookPath;
  });
  const renewed = await request.post(`${FAKE_STRIPE_URL}/_fake/subscriptions/${subscriptionId}/renew`, {
    headers: { authorization: `Bearer ${FAKE_STRIPE_KEYS.secretKey}` },
    data: { outcome: "failed" },
  });
  expect(renewed.status(), await renewed.text()).toBe(200);
  const { webhook } = (await renewed.json()) as { webhook: { body: string; headers: Record<string, string> } };
  const delivered = await request.post(path, { headers: webhook.headers, data: webhook.body });
  return delivered.status();
}
