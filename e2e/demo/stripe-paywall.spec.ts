/**
 * Paying with Stripe on the demo paywall (docs/subscriptions.md "Stripe" and "Browser SDK"), at
 * desktop and phone sizes, against the fake Stripe (its API for the app, its Stripe.js in the
 * browser: e2e/fake-stripe-server.ts), with axe on each step:
 * - a one-time plan: a declined card is said and grants nothing, then a good card buys it;
 * - a recurring plan with a 3-D Secure challenge completed: a subscriber at once; the reader's
 *   self-service page sends the card change to Stripe's hosted portal; its renewal, once the period
 *   has ended, fails at Stripe (invoice.payment_failed): the grace period and its banner, and the
 *   Reports page counts it in grace;
 * - a recurring plan whose challenge fails: nothing granted, the reader told.
 */
import type { Page } from "@playwright/test";

import { expect, expectNoHorizontalPageScroll, seriousViolations, test } from "../fixtures";
import { CARDS, disableStripe, enableStripe, payByCard, stripeRenewalFails } from "../stripe";

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

test.beforeAll(async ({ browser }) => enableStripe(browser));
test.afterAll(async ({ browser }) => disableStripe(browser));

/** A new demo reader signed in on a premium story, at the paywall (the meter is off: a hard paywall). */
async function readerAtPaywall(page: Page, email: string) {
  await page.goto("/demo/paywall");
  await page.getByRole("main").getByRole("listitem").getByRole("link").nth(2).click();
  await page.getByLabel("Demo reader e-mail").fill(email);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(page.getByTestId("paywall-demo")).toHaveAttribute("data-access", "denied");
}

const created = (page: Page) =>
  page.waitForResponse(
    (r) => r.url().includes("/api/access/v1/members/me/subscriptions?") && r.request().method() === "POST",
  );

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };

for (const viewport of VIEWPORTS) {
  test.describe(`paying with Stripe (${viewport.name})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("a one-time plan: a declined card is said and grants nothing; a good card buys it", async ({ page }) => {
      await readerAtPaywall(page, `stripe-once-${viewport.name}-${Date.now()}@example.com`);
      const demo = page.getByTestId("paywall-demo");
      await expect(page.getByRole("button", { name: "Pay by card: Week pass" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      // An incomplete card: Stripe.js says so in the form, which stays open.
      await page.getByRole("button", { name: "Pay by card: Week pass" }).click();
      const dialog = page.getByRole("dialog", { name: "Pay by card" });
      await expect(dialog.getByRole("button", { name: "Pay $3.00" })).toBeVisible();
      await dialog.getByRole("button", { name: "Pay $3.00" }).click();
      await expect(dialog.getByRole("alert")).toHaveText("Your card number is invalid.");
      await expectNoHorizontalPageScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByRole("status").filter({ hasText: "Payment cancelled" })).toBeVisible();

      // Declined: the reader is told, nothing is created, the story stays closed.
      let creates = 0;
      page.on("request", (r) => {
        if (r.method() === "POST" && r.url().includes("/api/access/v1/members/me/subscriptions?")) creates++;
      });
      await payByCard(page, "Week pass", CARDS.declined);
      await expect(page.getByTestId("payment-error")).toHaveText(
        "The payment did not go through, and you have not subscribed. Your card was declined.",
      );
      await expect(page.getByRole("alert").filter({ hasText: "Your card was declined." })).toBeVisible();
      await expect(dialog).toHaveCount(0);
      expect(creates).toBe(0);
      await expect(demo).toHaveAttribute("data-access", "denied");
      expect(await seriousViolations(page)).toEqual([]);

      // A good card: preview, Stripe confirms, create; the whole story.
      const create = created(page);
      await payByCard(page, "Week pass", CARDS.succeeds);
      const answer = await create;
      expect(answer.status()).toBe(201);
      expect(((await answer.json()) as { subscription: unknown }).subscription).toMatchObject({
        status: "active",
        payment_type: "stripe",
      });
      await expect(demo).toHaveAttribute("data-grant-reason", "SUBSCRIBER");
      await expect(page.getByTestId("story-rest").getByRole("paragraph")).toHaveCount(3);
      await expect(page.getByTestId("payment-error")).toHaveCount(0);
      await expectNoHorizontalPageScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("a recurring plan with 3-D Secure completed; the card changes on Stripe's portal; a failed renewal at Stripe starts the grace period", async ({
      page,
      browser,
      signIn,
    }) => {
      await readerAtPaywall(page, `stripe-3ds-${viewport.name}-${Date.now()}@example.com`);
      const preview = page.waitForResponse((r) => r.url().includes("/subscriptions/preview") && r.ok());
      const create = created(page);
      await payByCard(page, "Yearly", CARDS.threeDSecure);
      const subscriptionId = ((await (await preview).json()) as { external_reference_id: string })
        .external_reference_id;
      expect(subscriptionId).toMatch(/^sub_/);

      // Stripe.js's challenge, in the page.
      const challenge = page.getByRole("dialog", { name: "3D Secure 2 Test Page" });
      await expect(challenge).toBeVisible();
      await expect(challenge.getByRole("button", { name: "Complete authentication" })).toBeFocused();
      await expectNoHorizontalPageScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
      await challenge.getByRole("button", { name: "Complete authentication" }).click();
      const answer = await create;
      expect(answer.status()).toBe(201);
      expect(((await answer.json()) as { subscription: unknown }).subscription).toMatchObject({
        status: "active",
        payment_type: "stripe_recurring",
      });
      const demo = page.getByTestId("paywall-demo");
      await expect(demo).toHaveAttribute("data-grant-reason", "SUBSCRIBER");
      await expect(page.getByText("Thanks for subscribing: you have full access.")).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      // The self-service page: the card of a Stripe subscription changes on Stripe's Customer Portal.
      await page.getByRole("link", { name: "Manage your subscriptions" }).click();
      await expect(page).toHaveURL(/\/member\/subscriptions$/);
      const card = page.getByTestId("subscription-card").filter({ hasText: "Yearly" });
      await expect(card.getByText("Active", { exact: true })).toBeVisible();
      await card.getByRole("button", { name: "Update payment method" }).click();
      const portal = card.getByRole("link", { name: "Update your card at Stripe" });
      await expect(portal).toBeVisible();
      await expectNoHorizontalPageScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
      // The link opens (a new tab) the page's redirect to a Customer Portal session Stripe made for
      // this subscription's customer; Stripe's portal itself is not reachable from the tests.
      await expect(portal).toHaveAttribute("target", "_blank");
      const hosted = await page.request.get((await portal.getAttribute("href"))!, { maxRedirects: 0 });
      expect(hosted.status()).toBe(303);
      expect(hosted.headers()["location"]).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_/);

      // The renewal: the period ends (the demo's test tool), Masthead awaits Stripe's word and the
      // reader keeps reading, told nothing; Stripe's failed charge then starts the grace period.
      await page.goBack();
      await expect(demo).toHaveAttribute("data-grant-reason", "SUBSCRIBER");
      await page.getByRole("button", { name: "Make my renewal fail now (test)" }).click();
      await expect(page.getByRole("button", { name: "Make my renewal fail now (test)" })).toBeVisible();
      await expect(page.getByTestId("grace-banner")).toHaveCount(0);
      expect(await stripeRenewalFails(browser, page.request, subscriptionId)).toBe(200);
      // The event is settled by a background job: the page shows it once that has run.
      const banner = page.getByTestId("grace-banner");
      await expect(async () => {
        await page.reload();
        await expect(banner).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      await expect(demo).toHaveAttribute("data-grant-reason", "SUBSCRIBER");
      await expect(banner).toContainText("Your last payment did not go through.");
      await expectNoHorizontalPageScroll(page);
      expect(await seriousViolations(page)).toEqual([]);

      // Revenue staff: the Stripe payments are this month's revenue, and the renewal is in grace.
      await signIn(REVENUE);
      await page.goto("/admin/subscriptions/reports");
      await expect(page.getByTestId("dunning-at-risk")).toContainText("In grace now:");
      await page.goto("/admin/subscriptions");
      const revenue = page.getByTestId("revenue-headlines");
      await expect(revenue).toContainText("Revenue this month");
      await expect(revenue).toContainText("USD");
      await expectNoHorizontalPageScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("a recurring plan whose 3-D Secure challenge fails: nothing granted, the reader told", async ({ page }) => {
      await readerAtPaywall(page, `stripe-3ds-fail-${viewport.name}-${Date.now()}@example.com`);
      let creates = 0;
      page.on("request", (r) => {
        if (r.method() === "POST" && r.url().includes("/api/access/v1/members/me/subscriptions?")) creates++;
      });
      // The monthly plan's trial: today's charge is only the card check.
      await page.getByRole("button", { name: "Pay by card: Monthly" }).click();
      await expect(
        page.getByRole("dialog", { name: "Pay by card" }).getByRole("button", { name: "Pay $5.00" }),
      ).toBeVisible();
      await page.getByRole("dialog", { name: "Pay by card" }).getByRole("button", { name: "Cancel" }).click();
      await payByCard(page, "Monthly", CARDS.threeDSecure);
      const challenge = page.getByRole("dialog", { name: "3D Secure 2 Test Page" });
      await challenge.getByRole("button", { name: "Fail authentication" }).click();
      await expect(page.getByTestId("payment-error")).toContainText(
        "The payment did not go through, and you have not subscribed. We are unable to authenticate your payment method.",
      );
      expect(creates).toBe(0);
      await expect(page.getByTestId("paywall-demo")).toHaveAttribute("data-access", "denied");
      expect(await seriousViolations(page)).toEqual([]);
      await page.reload();
      await expect(page.getByTestId("paywall-demo")).toHaveAttribute("data-access", "denied");
      expect(await page.evaluate(async () => (await window.AccessType!.getSubscriptions()).length)).toBe(0);
    });
  });
}
