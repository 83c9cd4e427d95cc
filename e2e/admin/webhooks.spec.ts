/**
 * An owner adds a webhook pointing at a real receiver, sends a test event, sees it in the log with
 * its attempt, and redelivers it. The server's local runner does the sending.
 */
import { verifyQtSignature } from "../../server/webhooks/signing";
import { deliveriesTo, expect, test } from "../fixtures";

test("an owner adds a webhook, sends a test event, sees it delivered and redelivers it", async ({
  page,
  signIn,
  users,
  webhookReceiver,
}) => {
  webhookReceiver.setBehaviour(() => ({ status: 200, headers: { "Content-Type": "text/plain" }, body: "thanks" }));
  const url = webhookReceiver.url;

  await signIn(users.owner);
  await page.getByRole("navigation").getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();

  await page.getByRole("button", { name: "Add webhook" }).click();
  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByLabel("Description").fill("Newsroom Slack bridge");
  await page.getByLabel("story-publish").check();
  await page.getByLabel("story-submit").check();
  await page.getByRole("button", { name: "Add webhook" }).last().click();

  const secret = (await page.getByTestId("secret-value").textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("secret-once")).toHaveCount(0);

  await page.getByRole("link", { name: url }).click();
  await expect(page.getByTestId("webhook-url")).toHaveText(url);
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByText("Test event queued")).toBeVisible();

  // The log refreshes itself while the delivery is pending.
  const delivery = page.getByTestId("delivery").first();
  await expect(delivery).toHaveAttribute("data-status", "SUCCEEDED", { timeout: 20_000 });
  await expect(delivery).toContainText("webhook-test");
  await expect(delivery).toContainText("HTTP 200");
  const received = deliveriesTo(webhookReceiver);
  expect(received).toHaveLength(1);
  expect(received[0]!.event).toBe("webhook-test");
  expect(verifyQtSignature(received[0]!.body, secret, received[0]!.signature)).toBe(true);

  await delivery.locator("summary").first().click();
  await expect(delivery).toContainText("Attempt 1");
  await expect(delivery).toContainText("thanks");

  await delivery.getByRole("button", { name: "Redeliver" }).click();
  await expect(page.getByTestId("delivery")).toHaveCount(2);
  await expect(page.getByTestId("delivery").first()).toContainText("redelivery");
  await expect(page.getByTestId("delivery").first()).toHaveAttribute("data-status", "SUCCEEDED", { timeout: 20_000 });
  const again = deliveriesTo(webhookReceiver);
  expect(again).toHaveLength(2);
  expect(JSON.parse(again[1]!.body)).toEqual(JSON.parse(again[0]!.body));

  await page.getByLabel("Status").selectOption("FAILED");
  await expect(page.getByText("No deliveries with this status.")).toBeVisible();

  // It is in the audit log too.
  await page.goto("/admin/audit-log");
  await expect(page.getByRole("cell").filter({ hasText: "webhook.redeliver" }).first()).toBeVisible();
});
