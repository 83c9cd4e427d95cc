/**
 * The demo paywalled story (docs/subscriptions.md "Demo paywalled story"), as a reader meets it,
 * at desktop and phone sizes: the meter's free stories are counted (2 a month on the demo
 * publisher), the third story shows the paywall with a coupon field (the discounted price, or why a
 * code is refused), the reader checks out through the SDK's preview
 * and create (the demo's test gateway), and then reads the whole story as a subscriber.
 */
import type { Page } from "@playwright/test";

import { expect, seriousViolations, test, trpcCall } from "../fixtures";

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** axe-core's serious and critical findings (WCAG 2.1 A and AA), one line each. */
async function openStory(page: Page, index: number) {
  await page.goto("/demo/paywall");
  const links = page.getByRole("main").getByRole("listitem").getByRole("link");
  await expect(links).toHaveCount(3);
  await links.nth(index).click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

test("the SDK script is served with its types", async ({ request }) => {
  const script = await request.get("/frontend/v2/accesstype.js?key=mh_pk_demo_public_client_key_local_only");
  expect(script.status()).toBe(200);
  expect(script.headers()["content-type"]).toContain("javascript");
  expect(await script.text()).toContain("accesstypeq");
  const stable = await request.get("/sdk/masthead-access.js");
  expect(await stable.text()).toBe(await script.text());
  const again = await request.get("/sdk/masthead-access.js", {
    headers: { "If-None-Match": stable.headers()["etag"]! },
  });
  expect(again.status()).toBe(304);
  expect(await (await request.get("/frontend/v2/accesstype.d.ts")).text()).toContain("interface AccessTypeApi");
});

for (const viewport of VIEWPORTS) {
  test(`a reader hits the meter, subscribes through preview and create, and reads (${viewport.name})`, async ({
    page,
    signIn,
  }) => {
    await page.setViewportSize(viewport);
    // The seeded meter (2 free stories a month), whatever another spec saved in the dashboard.
    await signIn(REVENUE);
    await trpcCall(page.request, "paywallMeter.update", {
      enabled: true,
      freeStories: 2,
      periodLength: 1,
      periodUnit: "months",
      meterAnonymous: true,
    });
    const email = `reader-${viewport.name}-${Date.now()}@example.com`;

    // Sign in as a demo reader (a JWT minted for the e-mail), then read two free stories.
    await openStory(page, 0);
    await page.getByLabel("Demo reader e-mail").fill(email);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    const demo = page.getByTestId("paywall-demo");
    await expect(demo).toHaveAttribute("data-access", "granted");
    await expect(demo).toHaveAttribute("data-grant-reason", "METERING");
    await expect(page.getByText("Free story. 1 free story left this month.")).toBeVisible();
    await expect(page.getByTestId("story-rest").getByRole("paragraph")).toHaveCount(3);

    await openStory(page, 1);
    await expect(demo).toHaveAttribute("data-grant-reason", "METERING");
    await expect(page.getByText("This is your last free story this month.")).toBeVisible();

    // A free story read again is not counted twice: still granted.
    await openStory(page, 0);
    await expect(demo).toHaveAttribute("data-access", "granted");

    // The third story: the meter is spent, the paywall shows the Digital access plans and no story.
    await openStory(page, 2);
    await expect(demo).toHaveAttribute("data-access", "denied");
    await expect(page.getByRole("heading", { name: "Subscribe to keep reading" })).toBeVisible();
    await expect(page.getByTestId("story-rest")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Subscribe: Yearly" })).toBeVisible();
    // The monthly plan's trial is said before its price, and what its checkout charges today.
    await expect(page.getByText("14 days free, then $9.00 per month")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Subscribe: Monthly" }).click();
    const trialDialog = page.getByRole("dialog", { name: "Test payment" });
    await expect(trialDialog.getByText("Monthly: $5.00.")).toBeVisible();
    await expect(trialDialog.getByTestId("trial-explanation")).toHaveText(
      "Today: $5.00 to check your card, refunded at once; it is not a payment. " +
        "Your first payment, $9.00, is taken when the 14-day trial ends.",
    );
    expect(await seriousViolations(page)).toEqual([]);
    await trialDialog.getByRole("button", { name: "Cancel" }).click();
    await expect(trialDialog).toHaveCount(0);

    // A coupon: an unknown code is refused with the reason; WELCOME20 (seeded for the monthly plan)
    // shows the discounted price there and why it is refused on the yearly plan.
    const couponStatus = page.getByTestId("coupon-status");
    await page.getByLabel("Coupon code").fill("NO-SUCH-CODE");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(couponStatus).toHaveText("NO-SUCH-CODE cannot be used: There is no coupon with this code.");
    await page.getByLabel("Coupon code").fill("welcome20");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(couponStatus).toHaveText("WELCOME20 applies to Monthly.");
    const monthlyLine = page.locator("[data-testid^=plan-price-]").filter({ hasText: "Monthly" });
    await expect(monthlyLine).toContainText("14 days free, then $9.00 $7.20 per month with WELCOME20");
    await expect(monthlyLine.locator("s")).toHaveText("$9.00");
    await expect(page.locator("[data-testid^=plan-price-]").filter({ hasText: "Yearly" })).toContainText(
      "WELCOME20: This coupon does not apply to this plan.",
    );
    expect(await seriousViolations(page)).toEqual([]);

    // Checking out with it: the preview gets the code, and the first payment after the trial is the discounted one.
    const preview = page.waitForRequest((r) => r.url().includes("/subscriptions/preview") && r.method() === "POST");
    await page.getByRole("button", { name: "Subscribe: Monthly" }).click();
    expect(JSON.stringify((await preview).postDataJSON())).toContain('"coupon_code":"WELCOME20"');
    const couponDialog = page.getByRole("dialog", { name: "Test payment" });
    await expect(couponDialog.getByTestId("payment-coupon")).toHaveText("Coupon WELCOME20 applied.");
    await expect(couponDialog.getByTestId("trial-explanation")).toContainText("Your first payment, $7.20,");
    await couponDialog.getByRole("button", { name: "Cancel" }).click();
    await expect(couponDialog).toHaveCount(0);
    await page.getByRole("button", { name: "Remove coupon" }).click();
    await expect(couponStatus).toHaveText("");

    // Check out: the SDK previews, the test gateway "pays", the SDK creates.
    const checkout = page.waitForResponse(
      (r) => r.url().includes("/api/access/v1/members/me/subscriptions?") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Subscribe: Yearly" }).click();
    const dialog = page.getByRole("dialog", { name: "Test payment" });
    await expect(dialog).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Pay (test)" }).click();
    const created = await checkout;
    expect(created.status()).toBeLessThan(300);
    // Paid through the test gateway and captured: active at once.
    expect(((await created.json()) as { subscription: unknown }).subscription).toMatchObject({
      status: "active",
      payment_type: "demo_test",
    });

    await expect(demo).toHaveAttribute("data-grant-reason", "SUBSCRIBER");
    await expect(page.getByText("Thanks for subscribing: you have full access.")).toBeVisible();
    await expect(page.getByTestId("story-rest").getByRole("paragraph")).toHaveCount(3);

    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);

    // The reader manages the subscription just bought on the account page, signed in by the same JWT.
    await page.getByRole("link", { name: "Manage your subscriptions" }).click();
    await expect(page).toHaveURL(/\/member\/subscriptions$/);
    const card = page.getByTestId("subscription-card").filter({ hasText: "Yearly" });
    await expect(card.getByRole("heading", { name: "Yearly" })).toBeVisible();
    await expect(card.getByText("Active", { exact: true })).toBeVisible();
  });
}
