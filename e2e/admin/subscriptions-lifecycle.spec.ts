/**
 * Subscriptions in the dashboard: a revenue user creates a plan on the Plans page, gives a reader
 * a subscription to it, finds it on the Subscriptions page, and cancels it at period end (the
 * reader keeps access until the end; the server API agrees). On a desktop and on a 390 px phone.
 */
import { atEachViewport, expect, expectNoHorizontalPageScroll, openFilters, test } from "../fixtures";

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };
const SERVER_KEY = "mh_sk_demo_server_key_local_only_0000";

atEachViewport((viewport) => {
  test("a revenue user gives a subscription to a new plan, finds it and cancels it at period end", async ({
    page,
    signIn,
  }, testInfo) => {
    const run = `${viewport.name}${Date.now().toString(36)}`;
    const email = `reader-${run}@example.com`;
    await signIn(REVENUE);

    await page.goto("/admin/subscriptions/plans");
    await page.getByRole("button", { name: "Add group" }).click();
    const newGroup = page.getByRole("dialog", { name: "New group" });
    await newGroup.getByLabel("Name").fill(`Digital ${run}`);
    await newGroup.getByRole("button", { name: "Create group" }).click();
    await expect(newGroup).toBeHidden();
    // Listed before its plan is filed under it (the plan form's group choices come from that list).
    await expect(page.getByRole("region", { name: "Subscription groups table" })).toContainText(`Digital ${run}`);
    await page.getByRole("button", { name: "Add plan" }).click();
    const newPlan = page.getByRole("dialog", { name: "New plan" });
    await newPlan.getByLabel("Title").fill(`Monthly ${run}`);
    await newPlan.getByLabel("Group", { exact: true }).selectOption({ label: `Digital ${run}` });
    await newPlan.getByLabel("Price", { exact: true }).fill("9.00");
    await newPlan.getByLabel("Currency").fill("USD");
    await newPlan.getByRole("button", { name: "Create plan" }).click();
    await expect(newPlan).toBeHidden();

    await page.goto("/admin/subscriptions/subscriptions");
    await expect(page.getByRole("heading", { name: "Subscriptions", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "Give a subscription" }).click();
    const grant = page.getByTestId("grant-form");
    await grant.getByLabel("Subscriber e-mail").fill(email);
    await grant.getByLabel("Plan").selectOption({ label: `Digital ${run} · Monthly ${run}` });
    await grant.getByRole("button", { name: "Give subscription" }).click();
    await expect(grant).toBeHidden();

    await openFilters(page);
    await page.getByLabel("Search subscriptions").fill(`reader-${run}`);
    const results = page.getByTestId("subscription-results");
    await expect(results.getByRole("button")).toHaveCount(1);
    await expect(results).toContainText(`Monthly ${run}`);
    await expect(results).toContainText("Active");
    await results.getByRole("button").click();
    const detail = page.getByTestId("subscription-detail");
    await expect(detail.getByTestId("subscription-facts")).toContainText(email);
    await expect(detail.getByTestId("subscription-facts")).toContainText("9.00 USD");
    await expectNoHorizontalPageScroll(page);

    await detail.getByRole("button", { name: "Cancel subscription" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("keeps access until the end");
    // The way back names what is kept: no "Cancel" beside "Cancel subscription".
    await expect(dialog.getByRole("button", { name: "Keep subscription" })).toBeFocused();
    await expect(dialog.getByRole("button", { name: "Cancel", exact: true })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Cancel subscription" }).click();
    await expect(detail.getByTestId("subscription-status")).toContainText("Cancelled");
    await expect(detail.getByTestId("subscription-status")).toContainText("access until end");
    await expect(detail.getByTestId("subscription-timeline")).toContainText("cancel");
    await expect(results).toContainText("Cancelled");
    await page.screenshot({ path: testInfo.outputPath("subscriptions.png"), fullPage: true });

    const res = await page.request.get(
      `/api/v1/subscribers/email/${encodeURIComponent(email)}/subscriptions.json?active_only=true`,
      { headers: { "X-SUBAUTH": SERVER_KEY } },
    );
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { subscriptions: { status: string; active: boolean; cancelled: boolean }[] };
    expect(body.subscriptions).toEqual([
      expect.objectContaining({ status: "cancelled", active: true, cancelled: true }),
    ]);

    await page.goto("/admin/subscriptions/subscribers");
    await openFilters(page);
    await page.getByLabel("Search subscribers").fill(email);
    // The unfiltered list shows until the search answers: wait for it to narrow to this reader.
    const subscribers = page.getByTestId("subscriber-results");
    await expect(subscribers.getByRole("button")).toHaveCount(1);
    await expect(subscribers).toContainText(email);
    await subscribers.getByRole("button").click();
    await expect(page.getByTestId("subscriber-subscriptions")).toContainText(`Monthly ${run}`);
    await expectNoHorizontalPageScroll(page);
  });
});
