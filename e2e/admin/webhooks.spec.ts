/**
 * An owner adds a webhook pointing at a real receiver, sends a test event, sees it in the log with
 * its attempt, and redelivers it. The server's local runner does the sending.
 */
import { verifyQtSignature } from "../../server/webhooks/signing";
import { deliveriesTo, expect, test, trpcCall } from "../fixtures";

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

test("the endpoint's state follows its deliveries without a reload, and a disabled endpoint is sent nothing", async ({
  page,
  signIn,
  users,
  webhookReceiver,
}) => {
  let failing = true;
  webhookReceiver.setBehaviour(() => ({ status: failing ? 503 : 200, body: failing ? "down" : "ok" }));
  await signIn(users.owner);
  const { endpoint } = await trpcCall<{ endpoint: { id: string } }>(page.request, "webhooks.create", {
    kind: "CONTENT",
    url: webhookReceiver.url,
    description: "Flaky receiver",
    events: ["story-publish"],
  });
  await page.goto(`/admin/webhooks/${endpoint.id}`);
  await expect(page.getByTestId("webhook-url")).toHaveText(webhookReceiver.url);

  // The first attempt fails: the endpoint says so as soon as the log shows it.
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByTestId("delivery").first()).toContainText("HTTP 503", { timeout: 20_000 });
  await expect(page.getByText(/^Failing since/)).toBeVisible();

  // The receiver recovers: the next delivery succeeds and the warning goes, with no reload.
  failing = false;
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByTestId("delivery").first()).toHaveAttribute("data-status", "SUCCEEDED", { timeout: 20_000 });
  await expect(page.getByText(/^Failing since/)).toHaveCount(0);

  // Disabled: nothing can be sent to it, and the page says why.
  await page.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByText("Disabled: nothing is sent to it, not even a test event.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send test event" })).toBeDisabled();
});
