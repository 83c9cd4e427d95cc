/**
 * The revenue dashboard: a revenue user finds a subscriber by e-mail, refunds part of
 * their payment (confirmed; the payment shows what was refunded and by whom, and the credit note
 * it issued shows at once), sees the reports' charts (revenue per currency with its net, tax
 * and net excluding tax) and the overview's headline numbers; the owner's audit log shows the
 * refund. On a desktop and on a 390 px phone, with no sideways page scroll.
 */
import {
  asStaff,
  atEachViewport,
  auditEntries,
  expect,
  expectNoHorizontalPageScroll,
  openFilters,
  test,
} from "../fixtures";

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };
const SERVER_KEY = "mh_sk_demo_server_key_local_only_0000";
const headers = { "X-SUBAUTH": SERVER_KEY };

atEachViewport((viewport) => {
  test("a revenue user finds a subscriber by e-mail, refunds a payment and sees the charts", async ({
    page,
    browser,
    signIn,
    users,
  }, testInfo) => {
    const run = `${viewport.name}${Date.now().toString(36)}`;
    const email = `refund-${run}@example.com`;

    // A paid subscription (the server API's manual payment of the demo Monthly plan: 9.00 USD
    // captured). Without a trial: the plan's default 14-day trial would charge the 5.00
    // authorization instead (spec §8).
    const groups = await page.request.get("/api/v1/subscription_groups.json", { headers });
    expect(groups.status()).toBe(200);
    const digital = (
      (await groups.json()) as {
        subscription_groups: { name: string; subscription_plans: { id: number; title: string }[] }[];
      }
    ).subscription_groups.find((g) => g.name === "Digital access")!;
    const plan = digital.subscription_plans.find((p) => p.title === "Monthly")!;
    const base = `/api/v1/subscribers/email/${encodeURIComponent(email)}/subscriptions`;
    const body = {
      subscription: { subscription_plan_id: plan.id, trial_period: false, payment: { payment_type: "manual" } },
    };
    const preview = await page.request.post(`${base}/preview.json`, { headers, data: body });
    expect(preview.status(), await preview.text()).toBe(200);
    const { attempt_token } = (await preview.json()) as { attempt_token: string };
    const created = await page.request.post(`${base}.json`, { headers, data: { ...body, attempt_token } });
    expect(created.status(), await created.text()).toBe(201);

    await signIn(REVENUE);

    // The overview's headline numbers above the section cards.
    await page.goto("/admin/subscriptions");
    const headlines = page.getByTestId("revenue-headlines");
    await expect(headlines).toContainText("Active subscriptions");
    await expect(headlines).toContainText("USD");
    await expectNoHorizontalPageScroll(page);

    // Find the subscriber by e-mail and refund 2.50 of the 9.00.
    await page.goto("/admin/subscriptions/subscribers");
    await openFilters(page);
    await page.getByLabel("Search subscribers").fill(email.toUpperCase());
    const results = page.getByTestId("subscriber-results");
    await expect(results.getByRole("button")).toHaveCount(1);
    await results.getByRole("button").click();
    const detail = page.getByTestId("subscriber-detail");
    await expect(detail.getByTestId("subscriber-identities")).toContainText(email);
    await expect(detail.getByTestId("subscriber-subscriptions")).toContainText("Monthly");
    const payments = detail.getByTestId("subscriber-payments");
    await expect(payments).toContainText("9.00 USD");
    // The payment's status in words ("Paid"), not the stored "captured".
    await expect(payments).toContainText("Paid");
    await expect(payments).not.toContainText("captured");
    await expect(detail.getByTestId("subscriber-webhooks")).toContainText("subscription.created");
    await expectNoHorizontalPageScroll(page);

    await expect(detail).toContainText("This subscriber has no credit notes.");
    await payments.getByRole("button", { name: "Refund…" }).click();
    const form = payments.getByRole("form", { name: /Refund payment/ });
    await form.getByLabel("Amount (USD)").fill("12.00");
    await form.getByRole("button", { name: "Refund", exact: true }).click();
    await expect(form.getByTestId("field-error")).toContainText("At most 9.00 USD");
    await form.getByLabel("Amount (USD)").fill("2.50");
    await form.getByLabel("Reason").fill(`e2e ${run}`);
    await form.getByRole("button", { name: "Refund", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("Refund 2.50 USD?");
    await dialog.getByRole("button", { name: "Refund" }).click();
    await expect(payments).toContainText("Refunded 2.50 USD.");
    await expect(payments.getByTestId("payment-refunded")).toContainText("refunded 2.50 USD");
    await expect(payments.getByTestId("payment-refunds")).toContainText(`e2e ${run}`);
    // The credit note the refund issued shows at once, without reopening the subscriber.
    const creditNotes = detail.locator('[data-testid^="credit-note-"]');
    await expect(creditNotes).toHaveCount(1);
    await expect(creditNotes).toContainText("2.50");
    await expect(creditNotes).toContainText(`e2e ${run}`);
    await expectNoHorizontalPageScroll(page);
    await page.screenshot({ path: testInfo.outputPath("subscriber.png"), fullPage: true });

    // The reports: every chart drawn (recharts' SVG), the numbers behind them.
    await page.goto("/admin/subscriptions/reports");
    await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
    for (const id of ["chart-active", "chart-new-churned", "chart-revenue-USD"])
      await expect(page.getByTestId(id).locator("svg.recharts-surface").first()).toBeVisible();
    await expect(page.getByTestId("chart-revenue-USD")).toContainText("refunded");
    // Net, and how much of it is tax, next to each other per currency (the demo GST is for Indian addresses; this reader gave none).
    for (const [id, label] of [
      ["revenue-net", "Net"],
      ["revenue-tax", "Tax"],
      ["revenue-excluding-tax", "Excluding tax"],
    ] as const) {
      const figure = page.getByTestId("chart-revenue-USD").getByTestId(id);
      await expect(figure).toBeVisible();
      await expect(figure).toContainText(label);
      await expect(figure).toContainText("USD");
    }
    const range = page.getByRole("form", { name: "Report range" });
    await range.getByLabel("From", { exact: true }).fill("2024-01-01");
    await range.getByLabel("To", { exact: true }).fill("2025-06-01");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page.getByTestId("field-error")).toContainText("366 days");
    await expectNoHorizontalPageScroll(page);
    await page.screenshot({ path: testInfo.outputPath("reports.png"), fullPage: true });

    // The owner's audit log shows the refund, by the revenue user.
    await asStaff(
      browser,
      users.owner,
      async (owner) => {
        await owner.goto("/admin/audit-log");
        await openFilters(owner);
        await owner.getByLabel("Action").selectOption({ value: "payment.refund" });
        await expect(auditEntries(owner).filter({ hasText: "payment.refund" }).first()).toBeVisible();
        await expectNoHorizontalPageScroll(owner);
      },
      { viewport: { width: viewport.width, height: viewport.height } },
    );
  });
});
