/**
 * Invoices in the dashboard: a paid (manual) subscription made through the server API is
 * invoiced; a revenue user finds the invoice on the Invoices page by its subscriber's id, and its
 * PDF and printable page open. A refund of part of it issues a credit note, listed under the
 * invoices with its PDF and printable page. On a 1440 px desktop and a 390 px phone, with axe-core.
 */
import {
  atEachViewport,
  expect,
  expectCleanPage,
  expectNoHorizontalPageScroll,
  test,
  trpcCall,
  trpcQuery,
} from "../fixtures";

const REVENUE = { email: "revenue@demo.masthead.test", password: "masthead-demo-revenue" };
const SERVER_KEY = "mh_sk_demo_server_key_local_only_0000";

type Plan = { id: number; price_cents: number; recurring: boolean; enabled: boolean };
type Invoice = {
  id: number;
  sequenced_invoice_number: number;
  subscription_id: number;
  amount_cents: number;
  amount_currency: string;
};

atEachViewport((viewport) => {
  test("a paid subscription's invoice is listed by subscriber, with its PDF and printable page", async ({
    page,
    request,
    signIn,
  }) => {
    const email = `invoiced-${viewport.name}-${Date.now().toString(36)}@example.com`;
    const headers = { "X-SUBAUTH": SERVER_KEY };
    const groups = await request.get("/api/v1/subscription_groups.json", { headers });
    expect(groups.status(), await groups.text()).toBe(200);
    const plans = (
      (await groups.json()) as { subscription_groups: { subscription_plans: Plan[] }[] }
    ).subscription_groups
      .flatMap((g) => g.subscription_plans)
      .filter((p) => p.enabled && !p.recurring && p.price_cents > 0);
    expect(plans.length, "the demo catalogue has a priced one-time plan").toBeGreaterThan(0);
    const subscription = { subscription_plan_id: plans[0]!.id, payment: { payment_type: "manual" } };
    const base = `/api/v1/subscribers/email/${encodeURIComponent(email)}/subscriptions`;
    const preview = await request.post(`${base}/preview.json`, { headers, data: { subscription } });
    expect(preview.status(), await preview.text()).toBe(200);
    const { attempt_token } = (await preview.json()) as { attempt_token: string };
    const made = await request.post(`${base}.json`, { headers, data: { subscription, attempt_token } });
    expect(made.status(), await made.text()).toBe(201);
    const { subscription: sub } = (await made.json()) as {
      subscription: { subscriber_id: number; invoices: Invoice[] };
    };
    expect(sub.invoices).toHaveLength(1);
    const invoice = sub.invoices[0]!;

    await signIn(REVENUE);
    await page.goto("/admin/subscriptions/invoices");
    await expect(page.getByRole("heading", { name: "Invoices", level: 1 })).toBeVisible();
    await page.getByLabel("Subscriber id").fill(String(sub.subscriber_id));
    const row = page.getByTestId(`invoice-${invoice.sequenced_invoice_number}`);
    await expect(row).toBeVisible();
    await expect(page.getByRole("region", { name: "Invoices" }).locator("tbody tr")).toHaveCount(1);
    await expect(row).toContainText(email);
    await expect(row).toContainText(invoice.amount_currency);
    await expectNoHorizontalPageScroll(page);

    const pdfHref = await row.getByRole("link", { name: /PDF/ }).getAttribute("href");
    expect(pdfHref).toBe(`/api/admin/invoices/${invoice.id}.pdf`);
    const pdf = await page.request.get(pdfHref!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");

    const [printable] = await Promise.all([
      page.waitForEvent("popup"),
      row.getByRole("link", { name: /Print/ }).click(),
    ]);
    await expect(printable.getByRole("heading", { name: `Invoice ${invoice.sequenced_invoice_number}` })).toBeVisible();
    await expect(printable.getByRole("table")).toContainText("Total paid");
    await printable.close();

    // A refund of 1.00 of the invoiced payment: a credit note, listed under the invoices.
    const activity = await trpcQuery<{ payments: { id: number; subscription_id: number | null }[] }>(
      page.request,
      "revenue.subscriberActivity",
      { memberId: sub.subscriber_id },
    );
    const paid = activity.payments.find((p) => p.subscription_id === invoice.subscription_id);
    expect(paid, "the invoiced payment is listed").toBeTruthy();
    const refunded = await trpcCall<{ refund: { credit_note_id: number | null } }>(page.request, "revenue.refund", {
      paymentId: paid!.id,
      amountCents: 100,
      reason: `e2e ${viewport.name}`,
    });
    expect(refunded.refund.credit_note_id).not.toBeNull();
    await page.reload();
    await page.getByLabel("Subscriber id").fill(String(sub.subscriber_id));
    const notes = page.getByRole("region", { name: "Credit notes" });
    await expect(notes.locator("tbody tr")).toHaveCount(1);
    const note = notes.locator("tbody tr").first();
    await expect(note).toContainText(String(invoice.sequenced_invoice_number));
    await expect(note).toContainText(`1.00 ${invoice.amount_currency}`);
    await expect(note).toContainText(`e2e ${viewport.name}`);
    await expectCleanPage(page, page.url());
    const notePdf = await note.getByRole("link", { name: /PDF/ }).getAttribute("href");
    expect(notePdf).toBe(`/api/admin/credit-notes/${refunded.refund.credit_note_id}.pdf`);
    const notePdfResponse = await page.request.get(notePdf!);
    expect(notePdfResponse.status()).toBe(200);
    expect((await notePdfResponse.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const [notePage] = await Promise.all([
      page.waitForEvent("popup"),
      note.getByRole("link", { name: /Print/ }).click(),
    ]);
    await expect(notePage.getByRole("heading", { name: /^Credit note \d+$/ })).toBeVisible();
    await expect(notePage.getByRole("table")).toContainText("Total credited");
    await notePage.close();

    // Another subscriber id: not this invoice.
    await page.getByLabel("Subscriber id").fill(String(sub.subscriber_id + 100000));
    await expect(page.getByText("This subscriber has no invoices.")).toBeVisible();
    await expect(page.getByText("This subscriber has no credit notes.")).toBeVisible();
  });
});
