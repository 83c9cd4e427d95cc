/**
 * The rest of the revenue catalogue in the dashboard, on a desktop and on a 390 px phone: a
 * revenue user creates a story asset, a campaign that displays it, a pay-per-story plan for a
 * story picked by search, and a fixed-amount coupon for that campaign. Bad input (refused in the
 * browser, or by the server's rules with a 422) shows next to its field and saves nothing. Each
 * page fits the window and axe-core finds no serious violation. An editor cannot reach the pages.
 */
import type { Page, TestInfo } from "@playwright/test";

import { expect, expectNoHorizontalPageScroll, seriousViolations, test, trpcQuery } from "../fixtures";

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };
const PAGES = [
  "/admin/subscriptions/assets",
  "/admin/subscriptions/campaigns",
  "/admin/subscriptions/pricing-plans",
  "/admin/subscriptions/coupons",
] as const;

/** Open a catalogue page: its heading, the list loaded, no sideways scroll, no serious axe finding. */
async function openPage(page: Page, path: string, heading: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^Loading/ })).toHaveCount(0);
  await expectNoHorizontalPageScroll(page, path);
  expect(await seriousViolations(page), path).toEqual([]);
}

/** The dialog's form fits the window and has no serious axe finding either. */
async function checkDialog(page: Page, what: string, testInfo: TestInfo) {
  await page.screenshot({ path: testInfo.outputPath(`${what.replaceAll(" ", "-")}.png`) });
  await expectNoHorizontalPageScroll(page, what);
  expect(await seriousViolations(page), what).toEqual([]);
}

for (const viewport of VIEWPORTS) {
  // eslint-disable-next-line max-lines-per-function -- one viewport's walk: its steps run in order in one browser
  test.describe(`on a ${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    // eslint-disable-next-line max-lines-per-function -- one journey through the dashboard: each step needs the one before it
    test("a revenue user creates an asset, a campaign, a pay-per-story plan and a fixed coupon", async ({
      page,
      signIn,
    }, testInfo) => {
      test.setTimeout(180_000);
      const run = `${viewport.name}${Date.now().toString(36)}`;
      await signIn(REVENUE);

      // The area's index and the navigation lead to the new pages.
      await page.goto("/admin/subscriptions");
      const nav = page.getByRole("navigation", { name: "Dashboard" });
      for (const [slug, name] of [
        ["assets", "Assets"],
        ["campaigns", "Campaigns"],
        ["pricing-plans", "Pay per story"],
        ["coupons", "Coupons"],
      ] as const) {
        await expect(page.getByRole("main").locator(`a[href="/admin/subscriptions/${slug}"]`)).toContainText(name);
        // (Folded behind "Menu" on a phone, so found by its address rather than as a visible link.)
        await expect(nav.locator(`a[href="/admin/subscriptions/${slug}"]`)).toHaveText(name);
      }

      // ── An asset: stories of access level 500 ──
      await openPage(page, "/admin/subscriptions/assets", "Assets");
      await page.getByRole("button", { name: "Add asset" }).click();
      const newAsset = page.getByRole("dialog", { name: "New asset" });
      await newAsset.getByLabel("Title").fill(`Gold stories ${run}`);
      await expect(newAsset.getByLabel("Access level")).toHaveCount(0);
      await newAsset.getByLabel("Type").selectOption("story");
      await newAsset.getByLabel("Access level").fill("gold");
      await newAsset.getByRole("button", { name: "Create asset" }).click();
      await expect(newAsset.getByTestId("field-error")).toHaveText("Enter a whole number");
      await checkDialog(page, "new asset dialog", testInfo);
      await newAsset.getByLabel("Access level").fill("500");
      await newAsset.getByRole("button", { name: "Create asset" }).click();
      await expect(newAsset).toBeHidden();
      const assetRow = page.getByTestId("asset-row").filter({ hasText: `Gold stories ${run}` });
      await expect(assetRow).toContainText("story");
      await expect(assetRow).toContainText("500");

      // ── A campaign: the target's rule (more than 0) comes back from the server next to its field ──
      await openPage(page, "/admin/subscriptions/campaigns", "Campaigns");
      await page.getByRole("button", { name: "Add campaign" }).click();
      const newCampaign = page.getByRole("dialog", { name: "New campaign" });
      await newCampaign.getByLabel("Name").fill(`Fund ${run}`);
      await newCampaign.getByLabel("Currency").fill("EUR");
      await newCampaign.getByLabel("Target", { exact: true }).fill("25OO");
      await newCampaign.getByRole("button", { name: "Create campaign" }).click();
      await expect(newCampaign.getByTestId("field-error")).toHaveText("Enter an amount such as 9.99");
      await newCampaign.getByLabel("Target", { exact: true }).fill("0");
      await newCampaign.getByRole("button", { name: "Create campaign" }).click();
      await expect(newCampaign.getByTestId("field-error")).toHaveText("must be more than 0 for a campaign");
      const groupsAfterRefusal = await trpcQuery<{ name: string }[]>(
        page.request,
        "subscriptions.groups.list",
        undefined,
      );
      expect(groupsAfterRefusal.map((g) => g.name)).not.toContain(`Fund ${run}`);
      await newCampaign.getByLabel("Target", { exact: true }).fill("2500.50");
      await newCampaign
        .getByRole("checkbox", { name: `Gold stories ${run} (story, level 500)` })
        .last()
        .check();
      await checkDialog(page, "new campaign dialog", testInfo);
      await newCampaign.getByRole("button", { name: "Create campaign" }).click();
      await expect(newCampaign).toBeHidden();
      const campaignRow = page.getByTestId("campaign-row").filter({ hasText: `Fund ${run}` });
      await expect(campaignRow).toContainText("2,500.50 EUR");
      await expect(campaignRow).toContainText("0.00 EUR (0.00 %)");
      const campaign = (
        await trpcQuery<
          {
            name: string;
            target_amount_cents: number;
            display_assets: { title: string }[];
            subscription_type: string;
          }[]
        >(page.request, "subscriptions.groups.list", undefined)
      ).find((g) => g.name === `Fund ${run}`);
      expect(campaign).toMatchObject({
        subscription_type: "campaign",
        target_amount_cents: 250050,
        display_assets: [{ title: `Gold stories ${run}` }],
      });

      // ── A pay-per-story plan for one story, picked by search ──
      await openPage(page, "/admin/subscriptions/pricing-plans", "Pay per story");
      await page.getByRole("button", { name: "Add pricing plan" }).click();
      const newPricing = page.getByRole("dialog", { name: "New pricing plan" });
      await newPricing.getByLabel(/^Title/).fill(`One story ${run}`);
      await newPricing.getByLabel("Which ones").fill("elections");
      const result = newPricing
        .getByTestId("asset-result")
        .filter({ hasText: /elections/i })
        .first();
      await expect(result).toBeVisible();
      const headline = (await result.locator("span span").first().textContent())!;
      await result.getByRole("button", { name: /^Add/ }).click();
      await expect(newPricing.getByTestId("chosen-assets")).toContainText(headline);
      await newPricing.getByLabel("Price", { exact: true }).fill("1.999");
      await newPricing.getByRole("button", { name: "Create pricing plan" }).click();
      await expect(newPricing.getByTestId("field-error")).toHaveText("Enter an amount such as 9.99");
      await checkDialog(page, "new pricing plan dialog", testInfo);
      await newPricing.getByLabel("Price", { exact: true }).fill("1.99");
      await newPricing.getByRole("button", { name: "Create pricing plan" }).click();
      await expect(newPricing).toBeHidden();
      const pricingRow = page.getByTestId("pricing-plan-row").filter({ hasText: `One story ${run}` });
      await expect(pricingRow).toContainText("1 story");
      await expect(pricingRow).toContainText("1.99 USD");
      await expect(pricingRow).toContainText("Lifetime");
      // Editing shows the chosen story by its headline.
      await pricingRow.getByRole("button", { name: /^Edit/ }).click();
      const editPricing = page.getByRole("dialog", { name: /^Edit pricing plan/ });
      await expect(editPricing.getByTestId("chosen-assets")).toContainText(headline);
      await editPricing.getByRole("radio", { name: "No" }).check();
      await editPricing.getByRole("button", { name: "Save pricing plan" }).click();
      await expect(editPricing).toBeHidden();
      await expect(pricingRow).toContainText("Off");

      // ── A fixed-amount coupon for the campaign; the limits' rule comes back from the server ──
      await openPage(page, "/admin/subscriptions/coupons", "Coupons");
      const code = `FIX${run}`.toUpperCase().slice(0, 32);
      await page.getByRole("button", { name: "Add coupon" }).click();
      const newCoupon = page.getByRole("dialog", { name: "New coupon" });
      await newCoupon.getByLabel("Code").fill(code);
      await newCoupon.getByRole("radio", { name: "A fixed amount" }).check();
      await expect(newCoupon.getByRole("textbox", { name: "Percent off" })).toHaveCount(0);
      await newCoupon.getByLabel("Amount off").fill("5");
      await newCoupon.getByLabel("Currency").fill("eur");
      await newCoupon.getByLabel("Uses in all").fill("100");
      await newCoupon.getByLabel("Uses per subscriber").fill("200");
      // The last day is the account's (UTC here): valid through its last minute.
      await newCoupon.getByLabel("Valid until (optional)", { exact: true }).fill("2030-11-30");
      await newCoupon.getByRole("checkbox", { name: `Fund ${run}` }).check();
      await checkDialog(page, "new coupon dialog", testInfo);
      await newCoupon.getByRole("button", { name: "Create coupon" }).click();
      await expect(newCoupon.getByTestId("field-error")).toHaveText("must not be more than maxRedemptions");
      const couponsAfterRefusal = await trpcQuery<{ code: string }[]>(
        page.request,
        "subscriptions.coupons.list",
        undefined,
      );
      expect(couponsAfterRefusal.map((c) => c.code)).not.toContain(code);
      await newCoupon.getByLabel("Uses per subscriber").fill("1");
      await newCoupon.getByRole("button", { name: "Create coupon" }).click();
      await expect(newCoupon).toBeHidden();
      const couponRow = page.getByTestId("coupon-row").filter({ hasText: code });
      await expect(couponRow).toContainText("5.00 EUR");
      await expect(couponRow).toContainText("0 of 100");
      await expect(couponRow).toContainText("1 group");
      await expect(couponRow).toContainText("30 Nov 2030, 23:59 UTC");
      const coupon = (
        await trpcQuery<
          { code: string; discountType: string; amountOffCents: number; amountCurrency: string; validUntil: string }[]
        >(page.request, "subscriptions.coupons.list", undefined)
      ).find((c) => c.code === code);
      expect(coupon).toMatchObject({
        discountType: "fixed",
        amountOffCents: 500,
        amountCurrency: "EUR",
        validUntil: "2030-11-30T23:59:59.999Z",
      });
      // Editing turns it into a percent coupon: the amount goes, the limits stay.
      await couponRow.getByRole("button", { name: /^Edit/ }).click();
      const editCoupon = page.getByRole("dialog", { name: /^Edit coupon/ });
      await expect(editCoupon.getByRole("textbox", { name: "Amount off" })).toHaveValue("5.00");
      await expect(editCoupon.getByLabel("Valid until (optional)", { exact: true })).toHaveValue("2030-11-30");
      await editCoupon.getByRole("radio", { name: "A percentage" }).check();
      await editCoupon.getByRole("textbox", { name: "Percent off" }).fill("15");
      await editCoupon.getByRole("button", { name: "Save coupon" }).click();
      await expect(editCoupon).toBeHidden();
      await expect(couponRow).toContainText("15 %");
      await expect(couponRow).toContainText("0 of 100");
      await page.screenshot({ path: testInfo.outputPath("coupons.png"), fullPage: true });
    });
  });
}

test("an editor cannot reach the revenue pages or their procedures", async ({ page, signIn, users }) => {
  await signIn(users.editor);
  await expect(
    page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Subscriptions", exact: true }),
  ).toHaveCount(0);
  for (const path of PAGES) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  }
  for (const procedure of ["subscriptions.assets.list", "subscriptions.pricingPlans.list"]) {
    const api = await page.request.get(`/api/trpc/${procedure}`);
    expect(api.status(), procedure).toBe(403);
  }
  const search = await page.request.get(
    `/api/trpc/subscriptions.pricingPlans.searchAssets?input=${encodeURIComponent(JSON.stringify({ json: { assetType: "story" } }))}`,
  );
  expect(search.status()).toBe(403);
});
