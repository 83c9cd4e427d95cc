/**
 * The subscriptions catalogue in the dashboard: a revenue user creates a group and a plan (price
 * typed as a decimal, a free trial), and the plan is listed at once by the client API
 * (GET /api/v1/subscription_groups?key=) in cents. On a desktop and on a 390 px phone.
 */
import { atEachViewport, expect, expectNoHorizontalPageScroll, test } from "../fixtures";

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };
const DEMO_CLIENT_KEY = "mh_pk_demo_public_client_key_local_only";

atEachViewport((viewport) => {
  test("a revenue user creates a group and a plan, and readers' listing shows it", async ({
    page,
    signIn,
  }, testInfo) => {
    const run = `${viewport.name}${Date.now().toString(36)}`;
    await signIn(REVENUE);
    await page.goto("/admin/subscriptions/plans");
    await expect(page.getByRole("heading", { name: "Plans", level: 1 })).toBeVisible();
    await expectNoHorizontalPageScroll(page);

    await page.getByRole("button", { name: "Add group" }).click();
    const newGroup = page.getByRole("dialog", { name: "New group" });
    await newGroup.getByLabel("Name").fill(`Print ${run}`);
    await newGroup.getByRole("button", { name: "Create group" }).click();
    await expect(newGroup).toBeHidden();
    await expect(page.getByTestId("group-row").filter({ hasText: `Print ${run}` })).toBeVisible();

    await page.getByRole("button", { name: "Add plan" }).click();
    const newPlan = page.getByRole("dialog", { name: "New plan" });
    await newPlan.getByLabel("Title").fill(`Weekend ${run}`);
    await newPlan.getByLabel("Group", { exact: true }).selectOption({ label: `Print ${run}` });
    // A float-looking amount is refused before sending; 12.29 is kept exactly as 1229 cents.
    await newPlan.getByLabel("Price", { exact: true }).fill("12.295");
    await newPlan.getByRole("button", { name: "Create plan" }).click();
    await expect(newPlan.getByTestId("field-error")).toHaveText("Enter an amount such as 9.99");
    await newPlan.getByLabel("Price", { exact: true }).fill("12.29");
    await newPlan.getByLabel("Currency").fill("EUR");
    // Prices in other currencies: one line, each checked before sending.
    await newPlan.getByLabel("Prices in other currencies").fill("EUR 11, GBP 10.5");
    await newPlan.getByRole("button", { name: "Create plan" }).click();
    await expect(newPlan.getByTestId("field-error")).toHaveText(
      "EUR is the default currency: its price is the Price above",
    );
    await newPlan.getByLabel("Prices in other currencies").fill("GBP 10.5, usd 13");
    // A new plan renews automatically unless told; a free trial is for such plans: said before sending.
    const renews = newPlan.getByRole("group", { name: "Renews automatically" });
    await expect(renews.getByLabel("Yes")).toBeChecked();
    await renews.getByLabel("No").check();
    await newPlan.getByLabel("Free trial").fill("7");
    await newPlan.getByLabel("Trial unit").selectOption("days");
    await newPlan.getByRole("button", { name: "Create plan" }).click();
    await expect(newPlan.getByTestId("field-error")).toHaveText("Only a plan that renews automatically has a trial");
    await renews.getByLabel("Yes").check();
    if (viewport.name === "phone") await expectNoHorizontalPageScroll(page);
    await newPlan.getByRole("button", { name: "Create plan" }).click();
    await expect(newPlan).toBeHidden();
    const row = page.getByTestId("plan-row").filter({ hasText: `Weekend ${run}` });
    await expect(row).toContainText("12.29 EUR (also GBP 10.50, USD 13.00)");
    await expect(row).toContainText("On, recurring, 7 days free");
    await page.screenshot({ path: testInfo.outputPath("plans.png"), fullPage: true });

    const response = await page.request.get(`/api/v1/subscription_groups?key=${DEMO_CLIENT_KEY}`);
    expect(response.status()).toBe(200);
    const groups = (await response.json()) as {
      name: string;
      subscription_plans: { title: string; price_cents: number; price_currency: string; recurring: boolean }[];
    }[];
    const group = groups.find((g) => g.name === `Print ${run}`);
    expect(group?.subscription_plans).toEqual([
      expect.objectContaining({
        title: `Weekend ${run}`,
        price_cents: 1229,
        price_currency: "EUR",
        prices: { EUR: { amount_cents: 1229 }, GBP: { amount_cents: 1050 }, USD: { amount_cents: 1300 } },
        recurring: true,
        trial_period_enabled: true,
        max_trial_period_length: 7,
        max_trial_period_unit: "days",
      }),
    ]);
  });
});
