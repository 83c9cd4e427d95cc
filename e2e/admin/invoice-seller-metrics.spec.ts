/**
 * Complete invoices and revenue metrics (issue 41, revenue staff): a revenue user sets the seller
 * on invoices (legal name, address, VAT number); an invoice issued then prints it with its
 * service period, and keeps it after the seller is edited again. On the Reports page the revenue
 * metrics show as cards and charts, and each figure's definition is reachable by keyboard and is
 * the "?" button's accessible description. 1440 px and 390 px, with axe-core.
 */
import { atEachViewport, expect, expectNoHorizontalPageScroll, seriousViolations, test } from "../fixtures";

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };
const SERVER_KEY = "mh_sk_demo_server_key_local_only_0000";

type Plan = { id: number; price_cents: number; recurring: boolean; enabled: boolean };
type Invoice = { id: number; sequenced_invoice_number: number; service_period: { start: string } | null };

// The seller is the demo account's: one test edits it at a time.
test.describe.configure({ mode: "serial" });

atEachViewport((viewport) => {
  test("the seller set on the Invoices page is frozen onto the invoices issued then, with the service period", async ({
    page,
    request,
    signIn,
  }) => {
    const tag = `${viewport.name}-${Date.now().toString(36)}`;
    await signIn(REVENUE);
    await page.goto("/admin/subscriptions/invoices");
    const form = page.getByTestId("invoice-seller-form");
    await expect(form).toBeVisible();
    const before = {
      legalName: await form.getByLabel("Legal name").inputValue(),
      address: await form.getByLabel("Postal address").inputValue(),
      taxId: await form.getByLabel("Tax id (VAT number)").inputValue(),
    };

    // A tax id with markup is refused, the field named.
    await form.getByLabel("Tax id (VAT number)").fill("<b>GB1</b>");
    await form.getByRole("button", { name: "Save seller" }).click();
    await expect(form.getByText(/letters, digits, spaces/)).toBeVisible();

    await form.getByLabel("Legal name").fill(`Masthead Media Ltd ${tag}`);
    await form.getByLabel("Postal address").fill("1 Fleet Street\nLondon EC4Y 1AA");
    await form.getByLabel("Tax id (VAT number)").fill("GB 123 4567 89");
    await form.getByRole("button", { name: "Save seller" }).click();
    await expect(page.getByText("Saved: invoices issued from now on name this seller.")).toBeVisible();
    await expectNoHorizontalPageScroll(page);
    expect(await seriousViolations(page)).toEqual([]);

    // An invoice issued now (a manual one-time subscription through the server API).
    const headers = { "X-SUBAUTH": SERVER_KEY };
    const groups = await request.get("/api/v1/subscription_groups.json", { headers });
    const plans = (
      (await groups.json()) as { subscription_groups: { subscription_plans: Plan[] }[] }
    ).subscription_groups
      .flatMap((g) => g.subscription_plans)
      .filter((p) => p.enabled && !p.recurring && p.price_cents > 0);
    const subscription = { subscription_plan_id: plans[0]!.id, payment: { payment_type: "manual" } };
    const base = `/api/v1/subscribers/email/${encodeURIComponent(`seller-${tag}@example.com`)}/subscriptions`;
    const preview = await request.post(`${base}/preview.json`, { headers, data: { subscription } });
    const { attempt_token } = (await preview.json()) as { attempt_token: string };
    const made = await request.post(`${base}.json`, { headers, data: { subscription, attempt_token } });
    expect(made.status(), await made.text()).toBe(201);
    const invoice = ((await made.json()) as { subscription: { invoices: Invoice[] } }).subscription.invoices[0]!;
    expect(invoice.service_period).not.toBeNull();

    const printable = await page.context().newPage();
    await printable.goto(`/api/admin/invoices/${invoice.id}.html`);
    await expect(printable.getByRole("heading", { name: `Masthead Media Ltd ${tag}`, level: 1 })).toBeVisible();
    await expect(printable.getByText("VAT number: GB 123 4567 89")).toBeVisible();
    await expect(printable.getByText("1 Fleet Street")).toBeVisible();
    await expect(printable.getByText("Service period")).toBeVisible();
    // The period's two instants in the account's zone, named: "1 Dec 2026, 10:30 UTC – 1 Jan 2027, 10:30 UTC".
    await expect(printable.getByRole("table")).toContainText(
      /\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2} \S+ – \d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2} \S+/,
    );

    // Edited again: the issued invoice keeps the seller it was issued with.
    await page.reload();
    await form.getByLabel("Legal name").fill(`Renamed ${tag}`);
    await form.getByRole("button", { name: "Save seller" }).click();
    await expect(page.getByText("Saved: invoices issued from now on name this seller.")).toBeVisible();
    await printable.reload();
    await expect(printable.getByRole("heading", { name: `Masthead Media Ltd ${tag}`, level: 1 })).toBeVisible();
    await printable.close();

    // The list shows the invoice's service period.
    await page.getByLabel("Subscriber id").fill("");
    await expect(page.getByTestId(`invoice-${invoice.sequenced_invoice_number}`)).toContainText(
      /\d{4}, \d{2}:\d{2} \S+ – /,
    );

    // Put the demo account's seller back.
    await page.reload();
    await form.getByLabel("Legal name").fill(before.legalName);
    await form.getByLabel("Postal address").fill(before.address);
    await form.getByLabel("Tax id (VAT number)").fill(before.taxId);
    await form.getByRole("button", { name: "Save seller" }).click();
    await expect(page.getByText("Saved: invoices issued from now on name this seller.")).toBeVisible();
  });

  test("the Reports page shows the revenue metrics with their definitions by keyboard", async ({ page, signIn }) => {
    await signIn(REVENUE);
    await page.goto("/admin/subscriptions/reports");
    const metrics = page.getByTestId("revenue-metrics");
    await expect(metrics.getByRole("heading", { name: /^This month/ })).toBeVisible();
    for (const label of ["MRR", "ARR", "Churn rate", "ARPU", "Trial conversion"])
      await expect(metrics.getByRole("term").filter({ hasText: label }).first()).toBeVisible();
    await expect(page.getByTestId("chart-mrr")).toBeVisible();
    await expect(page.getByTestId("chart-churn-trials")).toBeVisible();

    const what = metrics.getByRole("button", { name: "What is MRR?" }).first();
    await expect(what).toHaveAccessibleDescription(/Monthly recurring revenue/);
    await what.focus();
    const tip = metrics.getByRole("tooltip").filter({ hasText: "Monthly recurring revenue" }).first();
    await expect(tip).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(tip).toBeHidden();
    await page.keyboard.press("Tab");
    await expect(metrics.getByRole("button", { name: "What is ARR?" }).first()).toBeFocused();
    await expect(metrics.getByRole("tooltip").filter({ hasText: "12 × MRR" }).first()).toBeVisible();

    await expectNoHorizontalPageScroll(page);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
