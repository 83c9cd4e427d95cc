/**
 * Dunning on the demo paywalled story (docs/subscriptions.md "Dunning"), at desktop and phone
 * sizes: a demo reader with a Yearly subscription (bought through the client API's preview and
 * create with the demo's test gateway) reads a premium story with no banner; the demo's test tool
 * makes the renewal fail now, and the reader, in the grace period, still reads the whole story and
 * sees the banner saying until when, with the link to update the card. Revenue staff see the
 * revenue in grace on the Reports page.
 */

import { expect, expectNoHorizontalPageScroll, seriousViolations, test } from "../fixtures";
import { subscribedReader } from "../subscriptions";

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

for (const viewport of VIEWPORTS) {
  test(`a reader whose renewal failed keeps reading and sees the grace banner (${viewport.name})`, async ({
    page,
    signIn,
  }) => {
    await page.setViewportSize(viewport);
    const email = `grace-${viewport.name}-${Date.now()}@example.com`;
    const { id: subscriptionId } = await subscribedReader(page.request, email);

    // A premium story, signed in as that reader: a subscriber, the whole story, no banner.
    await page.goto("/demo/paywall");
    await page.getByRole("main").getByRole("listitem").getByRole("link").nth(2).click();
    await page.getByLabel("Demo reader e-mail").fill(email);
    await page.getByRole("button", { name: "Sign in" }).click();
    const demo = page.getByTestId("paywall-demo");
    await expect(demo).toHaveAttribute("data-grant-reason", "SUBSCRIBER");
    await expect(page.getByTestId("story-rest").getByRole("paragraph")).toHaveCount(3);
    await expect(page.getByTestId("grace-banner")).toHaveCount(0);

    // The test tool: the test card expires and the renewal charge is declined now.
    await page.getByRole("button", { name: "Make my renewal fail now (test)" }).click();

    // In grace: still a subscriber with the whole story, and the banner with until when and the link.
    const banner = page.getByTestId("grace-banner");
    await expect(banner).toBeVisible();
    await expect(banner).toContainText("Your last payment did not go through.");
    // In the one format, in the reader's zone: "until 3 Dec 2026, 10:30 UTC.".
    await expect(banner).toContainText(/You can keep reading until \d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2} \S+\./);
    await expect(banner.getByRole("link", { name: "Update your card" })).toHaveAttribute(
      "href",
      new RegExp(`/member/card/\\d+\\.${subscriptionId}\\.\\d+\\.\\d+\\.[A-Za-z0-9_-]{43}$`),
    );
    await expect(demo).toHaveAttribute("data-grant-reason", "SUBSCRIBER");
    await expect(page.getByTestId("story-rest").getByRole("paragraph")).toHaveCount(3);
    await expect(page.getByRole("button", { name: "Make my renewal fail now (test)" })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    await expectNoHorizontalPageScroll(page);

    // The same after a reload (the grace period is the subscription's, not the page's).
    await page.reload();
    await expect(page.getByTestId("grace-banner")).toBeVisible();

    // Revenue staff: the Reports page counts the Yearly price as in grace now (recovered or lost later).
    await signIn(REVENUE);
    await page.goto("/admin/subscriptions/reports");
    await expect(page.getByTestId("dunning-at-risk")).toContainText("In grace now:");
    await expect(page.getByTestId("dunning-at-risk")).toContainText("USD");
    await expectNoHorizontalPageScroll(page);
  });
}
