/**
 * The built-in test receiver: an owner points a new webhook at it from the Webhooks page ("Use the
 * test receiver"), sends a test event from the webhook's page, and sees the test in the delivery
 * log (marked "Test") and what the receiver got, its signature valid; at 1440 and 390 px, with no
 * serious axe violation and no sideways scrolling.
 */
import { expect, expectCleanPage, test, VIEWPORTS } from "../fixtures";

for (const viewport of VIEWPORTS) {
  test(`an owner tries a webhook with the built-in test receiver (${viewport.name})`, async ({
    page,
    signIn,
    users,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await signIn(users.owner);
    await page.goto("/admin/webhooks");
    const panel = page.getByTestId("test-receiver");
    const url = (await panel.getByTestId("test-receiver-url").textContent())!.trim();
    expect(url).toMatch(/\/api\/webhooks\/test-receiver\/\d+-[A-Za-z0-9_-]{43}$/);
    await expect(panel.getByRole("button", { name: "Copy URL" })).toBeVisible();
    await expectCleanPage(page, page.url());

    await panel.getByRole("button", { name: "Use the test receiver" }).click();
    await expect(page.getByLabel("Endpoint URL")).toHaveValue(url);
    await page.getByLabel("story-publish").check();
    await page.getByRole("button", { name: "Add webhook" }).last().click();
    await page.getByRole("button", { name: "Done" }).click();

    // The newest webhook at the receiver (earlier runs may have made others).
    await page.getByRole("link", { name: url }).first().click();
    await expect(page.getByTestId("webhook-url")).toHaveText(url);
    const testPanel = page.getByTestId("test-delivery");
    await testPanel.getByLabel("Event").selectOption("story-publish");
    await testPanel.getByRole("button", { name: "Send a test event" }).click();
    await expect(page.getByTestId("test-delivery-result")).toContainText("the receiver answered 200");

    // In the log at once, marked as a test.
    const delivery = page.getByTestId("delivery").first();
    await expect(delivery).toHaveAttribute("data-status", "SUCCEEDED");
    await expect(delivery).toContainText("Test");
    await expect(delivery).toContainText("HTTP 200");

    // What the receiver got: this request, its signature valid.
    const receipt = page.getByTestId("test-receiver-receipts").getByTestId("test-receipt").first();
    await expect(receipt).toHaveAttribute("data-valid", "true");
    await expect(receipt).toContainText("Signature valid");
    await receipt.locator("summary").click();
    await expect(receipt.getByLabel("Body received")).toContainText('"story-publish"');
    await expectCleanPage(page, page.url());
  });
}
