/**
 * Settings → Privacy (docs/privacy.md "Consent and retention"): an owner sets the retention
 * periods (a bad value is refused before sending), saves, and finds them after a reload; a reader
 * who signed up from the newsletter widget's endpoint has that consent, with its wording, on the
 * Subscribers page's detail. At 1440 and 390 px, with axe and no horizontal scroll.
 */
import { demoAccount, expect, expectCleanPage, openFilters, openSettingsSection, test, VIEWPORTS } from "../fixtures";
import { createNewsletter } from "../newsletters/fixtures";

for (const size of VIEWPORTS) {
  test(`an owner sets retention periods, and a reader's consent shows on their page (${size.name})`, async ({
    page,
    users,
    signIn,
  }) => {
    await page.setViewportSize(size);
    await signIn(users.owner);
    await openSettingsSection(page, "Privacy");
    const form = page.getByTestId("privacy-settings-form");
    await expect(form.getByLabel("IP addresses (days)")).toBeVisible();
    await expect(page.getByTestId("retention-last-run")).toBeVisible();
    await expectCleanPage(page, page.url());

    await form.getByLabel("IP addresses (days)").fill("0");
    await form.getByRole("button", { name: "Save privacy settings" }).click();
    await expect(form.getByTestId("field-error")).toContainText("at least 1 day");
    const ip = size.name === "desktop" ? "14" : "21";
    await form.getByLabel("IP addresses (days)").fill(ip);
    await form.getByLabel("Delivery logs (days)").fill("60");
    await form.getByLabel("Deleted comments (days)").fill("45");
    await form.getByLabel("Remove them").check();
    await form.getByRole("button", { name: "Save privacy settings" }).click();
    await expect(page.getByText("Saved: the next run of the retention job uses these periods.")).toBeVisible();
    await page.reload();
    const saved = page.getByTestId("privacy-settings-form");
    await expect(saved.getByLabel("IP addresses (days)")).toHaveValue(ip);
    await expect(saved.getByLabel("Deleted comments (days)")).toHaveValue("45");
    await expect(saved.getByLabel("Remove them")).toBeChecked();
    await expectCleanPage(page, page.url());

    // A reader signs up from the widget's endpoint: the consent, with the widget's wording, is on their page.
    const run = `privacy-${size.name}-${Date.now().toString(36)}`;
    await createNewsletter(page.request, { name: `Privacy ${run}`, slug: run, trackOpens: false });
    const email = `${run}@example.com`;
    const signUp = await page.request.post("/api/newsletters/subscribe", {
      data: { account_id: demoAccount().accountId, email, newsletters: [run] },
    });
    expect(signUp.status()).toBe(202);
    await page.goto("/admin/subscriptions/subscribers");
    await openFilters(page);
    await page.getByLabel("All members").check();
    await page.getByLabel("Search subscribers").fill(email);
    // The search applies after a pause: until then the list holds every member, so wait for this one alone.
    const results = page.getByTestId("subscriber-results");
    await expect(results.getByRole("button")).toHaveCount(1);
    await expect(results).toContainText(email);
    await results.getByRole("button").click();
    const history = page.getByTestId("consent-history");
    await expect(history).toContainText(`Newsletter “Privacy ${run}”`);
    await expect(history).toContainText("by sign-up widget");
    await history.getByText("Wording agreed to").click();
    await expect(history).toContainText("You can unsubscribe at any time");
    await expectCleanPage(page, page.url());
  });
}
