/**
 * Payment gateways in the dashboard: a revenue user saves Razorpay keys, the secrets are never
 * shown again (only their last four characters), an edit that leaves them empty keeps them, the
 * webhook URL to paste into Razorpay is shown, and the client API's payment options list the
 * public key only; Stripe keys are checked against the fake Stripe and the check's findings said
 * in words. On a desktop and on a 390 px phone.
 */
import { FAKE_STRIPE_KEYS } from "../fake-stripe-config";
import { atEachViewport, expect, expectNoHorizontalPageScroll, test } from "../fixtures";

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };
const DEMO_CLIENT_KEY = "mh_pk_demo_public_client_key_local_only";

atEachViewport((viewport) => {
  test("a revenue user saves Razorpay keys that are never shown again", async ({ page, signIn }, testInfo) => {
    const run = `${viewport.name}${Date.now().toString(36)}`.toUpperCase();
    const appKey = `rzp_test_${run}`;
    const secret = `key-secret-${run}-A1B2`;
    const webhookSecret = `webhook-secret-${run}-C3D4`;
    await signIn(REVENUE);
    await page.goto("/admin/subscriptions/gateways");
    await expect(page.getByRole("heading", { name: "Payment gateways", level: 1 })).toBeVisible();
    await expectNoHorizontalPageScroll(page);

    // One set of keys per gateway: start from none (another viewport's run may have saved some).
    const rows = page.getByTestId("gateway-row");
    if ((await rows.count()) > 0) {
      await rows.first().getByRole("button", { name: "Delete Razorpay" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await expect(rows).toHaveCount(0);
    }

    await page.getByRole("button", { name: "Add payment gateway" }).click();
    const dialog = page.getByRole("dialog", { name: "New payment gateway" });
    await dialog.getByLabel("App key (key id)").fill(appKey);
    await dialog.getByLabel("Secret (key secret)").fill(secret);
    await dialog.getByLabel("Webhook secret").fill(webhookSecret);
    await expect(dialog.getByLabel("Secret (key secret)")).toHaveAttribute("type", "password");
    if (viewport.name === "phone") await expectNoHorizontalPageScroll(page);
    await dialog.getByRole("button", { name: "Create payment gateway" }).click();
    await expect(dialog).toBeHidden();

    const row = rows.filter({ hasText: appKey });
    await expect(row).toBeVisible();
    await expect(row).toContainText("Secret …A1B2");
    await expect(row).toContainText("Webhook secret …C3D4");
    await expect(row).toContainText("Enabled");
    await expect(row.getByTestId("gateway-webhook-url")).toHaveText(
      /^http:\/\/localhost:\d+\/api\/v1\/payment_gateways\/razorpay\/webhooks\/\d+$/,
    );
    expect(await page.content()).not.toContain(secret);
    expect(await page.content()).not.toContain(webhookSecret);
    await expectNoHorizontalPageScroll(page);
    await page.screenshot({ path: testInfo.outputPath("gateways.png"), fullPage: true });

    // Edit: the secret fields start empty, and empty keeps the saved secrets.
    await row.getByRole("button", { name: "Edit Razorpay" }).click();
    const edit = page.getByRole("dialog", { name: 'Edit payment gateway "Razorpay"' });
    await expect(edit.getByLabel("Secret (key secret)")).toHaveValue("");
    await expect(edit).toContainText("Leave empty to keep it.");
    await edit.getByLabel("Live").check();
    await edit.getByRole("button", { name: "Save payment gateway" }).click();
    await expect(edit).toBeHidden();
    await expect(row).toContainText("live");
    await expect(row).toContainText("Secret …A1B2");

    // What a reader's browser gets: the public key, never a secret.
    const response = await page.request.get(`/api/access/v1/payment_options?key=${DEMO_CLIENT_KEY}`);
    expect(response.status()).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      payment_options: {
        razorpay: { app_key: appKey, environment: "live", payment_types: ["razorpay", "razorpay_recurring"] },
      },
    });
    expect(text).not.toContain(secret);
    expect(text).not.toContain(webhookSecret);
  });

  test("a revenue user saves Stripe keys and the connection check says what is wrong in words", async ({
    page,
    signIn,
  }) => {
    await signIn(REVENUE);
    await page.goto("/admin/subscriptions/gateways");
    const rows = page.getByTestId("gateway-row");
    const stripeRow = rows.filter({ hasText: FAKE_STRIPE_KEYS.publishableKey });
    // A live secret key beside a test publishable key is refused at once, in words.
    await page.getByRole("button", { name: "Add payment gateway" }).click();
    const dialog = page.getByRole("dialog", { name: "New payment gateway" });
    await dialog.getByLabel("Gateway").selectOption("stripe");
    await dialog.getByLabel("App key (key id)").fill(FAKE_STRIPE_KEYS.publishableKey);
    await dialog.getByLabel("Secret (key secret)").fill("sk_live_NotAKeyStripeKnows0000");
    await dialog.getByRole("button", { name: "Create payment gateway" }).click();
    await expect(dialog).toContainText("The secret key is a live key, the publishable key a test key.");
    // A test key Stripe does not know, and no webhook secret: saved, then checked.
    await dialog.getByLabel("Secret (key secret)").fill("sk_test_NotAKeyStripeKnows0000");
    await dialog.getByRole("button", { name: "Create payment gateway" }).click();
    await expect(dialog).toBeHidden();
    const check = stripeRow.getByTestId("gateway-connection-check");
    await check.getByRole("button", { name: "Check connection" }).click();
    await expect(check).toContainText("Needs attention");
    await expect(check.locator("[data-problem]").first()).toBeVisible();
    await expect(check).toContainText(/webhook/i);
    await expectNoHorizontalPageScroll(page);
    expect(await page.content()).not.toContain("sk_test_NotAKeyStripeKnows0000");

    // The fake Stripe's own test keys and its signing secret: connected, in test mode.
    await stripeRow.getByRole("button", { name: "Edit Stripe" }).click();
    const edit = page.getByRole("dialog", { name: 'Edit payment gateway "Stripe"' });
    await edit.getByLabel("Secret (key secret)").fill(FAKE_STRIPE_KEYS.secretKey);
    await edit.getByLabel("Webhook secret").fill(FAKE_STRIPE_KEYS.webhookSecret);
    await edit.getByRole("button", { name: "Save payment gateway" }).click();
    await expect(edit).toBeHidden();
    await check.getByRole("button", { name: "Check connection" }).click();
    await expect(check).toContainText("Connected");
    await expect(check).toContainText("test mode");
    await expectNoHorizontalPageScroll(page);

    // Gone again: the demo account's seed has no Stripe keys.
    await stripeRow.getByRole("button", { name: "Delete Stripe" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect(stripeRow).toHaveCount(0);
  });
});
