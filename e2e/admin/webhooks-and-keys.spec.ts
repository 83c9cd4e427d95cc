/**
 * The owner's webhooks and API keys, at 1440 and 390 px with axe: "Send a test event" to a
 * receiver on 127.0.0.1 shows the exact request (headers with both signatures, body) and how to
 * verify it, the signature checks out with the secret the owner copied, and the receiver got that
 * very request; the event picker says when each event is sent and has "Select all" / "Clear". On
 * Users & keys the owner creates a named key (shown once), it works on the API, and once revoked
 * the API refuses it at once.
 */
import { verifyQtSignature, verifyStandardSignature } from "../../server/webhooks/signing";
import { expect, expectCleanPage, test, trpcCall, VIEWPORTS } from "../fixtures";

/** One header line's value from the request block ("name: value"). */
function headerOf(block: string, name: string): string {
  const line = block.split("\n").find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}: `));
  expect(line, `${name} in\n${block}`).toBeDefined();
  return line!.slice(name.length + 2);
}

for (const viewport of VIEWPORTS) {
  test(`${viewport.name}: an owner sends a test event to a private receiver and sees the request and its signature`, async ({
    page,
    users,
    signIn,
    webhookReceiver,
  }) => {
    webhookReceiver.setBehaviour(() => ({ status: 200, headers: { "Content-Type": "text/plain" }, body: "received" }));
    await page.setViewportSize(viewport);
    await signIn(users.owner);
    await page.goto("/admin/webhooks");
    await page.getByRole("button", { name: "Add webhook" }).click();
    await page.getByLabel("Endpoint URL").fill(webhookReceiver.url);
    await page.getByLabel("Description").fill(`Test receiver (${viewport.name})`);

    // Each event says when it is sent; Select all / Clear.
    await expect(page.getByText("A story is published (or republished).")).toBeVisible();
    const boxes = page.getByRole("group", { name: "Events" }).getByRole("checkbox");
    await page.getByRole("button", { name: "Select all" }).click();
    const total = await boxes.count();
    expect(total).toBeGreaterThan(5);
    for (let i = 0; i < total; i++) await expect(boxes.nth(i)).toBeChecked();
    await page.getByRole("button", { name: "Clear" }).click();
    for (let i = 0; i < total; i++) await expect(boxes.nth(i)).not.toBeChecked();
    await page.getByLabel("story-publish").check();
    await expectCleanPage(page, `new webhook form (${viewport.name})`);
    await page.getByRole("button", { name: "Add webhook" }).last().click();

    const secret = (await page.getByTestId("secret-value").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("link", { name: webhookReceiver.url }).first().click();
    await expect(page.getByTestId("webhook-url")).toHaveText(webhookReceiver.url);

    const panel = page.getByTestId("test-delivery");
    await panel.getByLabel("Event", { exact: true }).selectOption("story-publish");
    await expect(panel).toContainText("A story is published (or republished).");
    await panel.getByRole("button", { name: "Send a test event" }).click();
    const result = page.getByTestId("test-delivery-result");
    await expect(result).toContainText("Sent: the receiver answered 200");
    await expect(result).toContainText("received");

    const headers = (await result.getByLabel("Request line and headers").textContent())!;
    const body = (await result.getByLabel("Request body").textContent())!;
    expect(headers).toContain(`POST ${webhookReceiver.url}`);
    expect(headerOf(headers, "X-Masthead-Event")).toBe("story-publish");
    expect(JSON.parse(body)).toMatchObject({ v1: { event: { name: "story-publish" }, data: { test: true } } });
    // The secret is never on the page; the signatures shown verify with it.
    await expect(page.getByText(secret)).toHaveCount(0);
    expect(verifyQtSignature(body, secret, headerOf(headers, "X-Qt-Signature"))).toBe(true);
    expect(
      verifyStandardSignature({
        id: headerOf(headers, "webhook-id"),
        timestamp: headerOf(headers, "webhook-timestamp"),
        signature: headerOf(headers, "webhook-signature"),
        body,
        secret,
      }),
    ).toBe(true);
    await expect(page.getByTestId("test-delivery-verify")).toContainText("webhook-id.webhook-timestamp.body");

    // The receiver got exactly that request.
    expect(webhookReceiver.requests).toHaveLength(1);
    expect(webhookReceiver.requests[0]!.body).toBe(body);
    expect(webhookReceiver.requests[0]!.headers["x-qt-signature"]).toBe(headerOf(headers, "X-Qt-Signature"));
    await expectCleanPage(page, `webhook test event (${viewport.name})`);

    const id = new URL(page.url()).pathname.split("/").at(-1)!;
    await trpcCall(page.request, "webhooks.delete", { id });
  });

  test(`${viewport.name}: an owner creates a named API key, it works, and once revoked the API refuses it`, async ({
    page,
    users,
    signIn,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(users.owner);
    await page.goto("/admin/users");
    const rows = page.getByTestId("api-key-row");
    await expect(rows.first()).toBeVisible();
    const name = `Newsletter tool ${viewport.name} ${Date.now()}`;

    await page.getByRole("button", { name: "New key" }).click();
    await page.getByRole("form", { name: "New API key" }).getByLabel("Name").fill(name);
    await page.getByRole("form", { name: "New API key" }).getByLabel("Kind").selectOption("SERVER");
    await expectCleanPage(page, `new API key form (${viewport.name})`);
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("new-key-value").textContent())!.trim();
    expect(key).toMatch(/^mh_sk_[0-9A-Za-z]{32}$/);
    const row = rows.filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(key.slice(0, 10));
    await expect(row).toContainText("never used");
    await expectCleanPage(page, `API key shown once (${viewport.name})`);
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByTestId("new-key-once")).toHaveCount(0);

    const api = () => page.request.get("/api/v1/subscription_groups.json", { headers: { "X-SUBAUTH": key } });
    expect((await api()).status()).toBe(200);

    await row.getByRole("button", { name: `Revoke key ${key.slice(0, 10)}` }).click();
    await expect(page.getByRole("dialog")).toContainText("stops working at once");
    await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
    await expect(row).toContainText("Revoked");
    await expect(row.getByRole("button", { name: /^Revoke key/ })).toHaveCount(0);
    expect((await api()).status()).toBe(401);
    await page.reload();
    await expect(page.getByText(key)).toHaveCount(0);
    await expectCleanPage(page, `API keys after revoking (${viewport.name})`);
  });
}
