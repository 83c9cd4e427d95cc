/**
 * Revenue staff pause a reader's recurring subscription on the Subscriptions page, at 1440 and
 * 390 px: two periods, after a confirmation; it will not renew, the reader has no access during
 * the pause, and the retention page lists it as paused by staff. With axe, no sideways scroll.
 */
import { expect, expectCleanPage, openFilters, test, VIEWPORTS } from "../fixtures";
import { subscribeMonthly } from "../subscriptions";

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };

for (const viewport of VIEWPORTS) {
  test(`revenue staff pause a recurring subscription for two periods (${viewport.name})`, async ({
    page,
    request,
    signIn,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const email = `paused.${viewport.name}.${Date.now()}@example.com`;
    await subscribeMonthly(request, email);
    await signIn(REVENUE);
    await page.goto("/admin/subscriptions/subscriptions");
    await openFilters(page);
    await page.getByLabel("Search subscriptions").fill(email);
    const results = page.getByTestId("subscription-results");
    await expect(results.getByRole("button")).toHaveCount(1);
    await results.getByRole("button").click();
    const detail = page.getByTestId("subscription-detail");
    await detail.getByLabel("Pause for (periods)").selectOption("2");
    await detail.getByRole("button", { name: "Pause", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("2 months");
    await dialog.getByRole("button", { name: "Pause", exact: true }).click();
    // One format with the zone: "until 26 Jan 2027, 10:30 UTC, then …".
    await expect(
      detail.getByText(/^Paused: no payment and no access until \d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2} \S+, then/),
    ).toBeVisible();
    // Stored cancelled (no renewal), shown as what it is: paused, and when it resumes.
    await expect(detail.getByTestId("subscription-status")).toContainText("Paused");
    await expect(detail.getByTestId("subscription-status")).toContainText("resumes");
    await expect(detail.getByTestId("subscription-status")).not.toContainText("Cancelled");
    await expect(results).toContainText("Paused");
    // The status filter has Paused of its own; Cancelled leaves the paused subscription out.
    await page.getByLabel("Status", { exact: true }).selectOption("paused");
    await expect(results.getByRole("button")).toHaveCount(1);
    await page.getByLabel("Status", { exact: true }).selectOption("cancelled");
    await expect(results.getByRole("button")).toHaveCount(0);
    await page.getByLabel("Status", { exact: true }).selectOption("");
    await expect(results.getByRole("button")).toHaveCount(1);
    await expect(detail.getByRole("button", { name: "Pause", exact: true })).toHaveCount(0);
    await expectCleanPage(page, page.url());

    // Where the reader stands on the Subscribers page: Paused, not Cancelling.
    await page.goto("/admin/subscriptions/subscribers");
    await openFilters(page);
    await page.getByLabel("Search subscribers").fill(email);
    const subscriber = page.getByTestId("subscriber-results").getByRole("button");
    await expect(subscriber).toHaveCount(1);
    await expect(subscriber).toContainText("Paused");
    await expect(subscriber).not.toContainText("Cancelling");

    await page.goto("/admin/subscriptions/retention");
    await expect(page.getByRole("region", { name: "Cancellations table" })).toContainText("Paused by staff");
  });
}
