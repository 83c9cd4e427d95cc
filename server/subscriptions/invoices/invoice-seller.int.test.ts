/**
 * Complete invoices (docs/subscriptions.md "Invoices"), on PGlite and PostgreSQL: the seller's
 * legal name, address and tax id set by revenue staff and frozen onto each invoice when it is
 * issued; the service period of a first payment (checkout) and of a renewal (the lifecycle's
 * recurring charge), on the wire, the printable page and the PDF.
 */
import { afterEach, describe, expect, it } from "vitest";

import { formatDateTime } from "@/i18n/translate";

import { getDb } from "../../db";
import { createCheckoutFixture, type CheckoutFixture } from "../../testing/checkout";
import { readerCheckout } from "../../testing/checkout-calls";
import { now, resetClock, setClock } from "../../testing/clock";
import { runJobsNow, testJobDeps } from "../../testing/jobs";
import { documentLanguage } from "../../testing/pdf-text";
import { scriptedGateway } from "../../testing/scripted-gateway";
import { createTestStaff, trpcCodeOf } from "../../testing/staff";
import { insertRecurringTestSubscription } from "../../testing/subscription-fixtures";
import { scheduleSubscriptionLifecycle } from "../recurring/lifecycle";
import { invoiceDocumentModel, renderInvoiceHtml } from "./invoice-document";
import { invoiceToWire } from "./invoices";
import { renderInvoicePdf } from "./pdf-document";

/** A reader checks out the fixture's monthly plan on the client API: one invoice. */
const checkout = async (f: CheckoutFixture, id: string) => (await readerCheckout(f, id)).subscription;

describe("the seller on invoices", () => {
  it("is set by revenue staff, validated, audited, and frozen onto each invoice at issue", async () => {
    const f = await createCheckoutFixture(await getDb());
    const revenue = await createTestStaff(f.db, { account: f.account.id, roles: ["REVENUE"] });
    const editor = await createTestStaff(f.db, { account: f.account.id, roles: ["EDITOR"] });

    // Nothing set: invoices name the publication, with no address or tax id.
    expect(await revenue.caller.invoices.seller()).toMatchObject({
      legalName: "",
      address: "",
      taxId: "",
      fallbackName: f.account.name,
      updatedAt: null,
    });
    const before = await checkout(f, "r-before");
    expect(before.invoices[0]!.seller).toEqual({ name: f.account.name, address: null, tax_id: null });

    // Refused: another role, and input that breaks the rules (nothing saved).
    expect(await trpcCodeOf(editor.caller.invoices.updateSeller({ legalName: "X", address: "", taxId: "" }))).toBe(
      "FORBIDDEN",
    );
    for (const bad of [
      { legalName: "x".repeat(201), address: "", taxId: "" },
      { legalName: "", address: Array.from({ length: 9 }, (_, i) => `line ${i}`).join("\n"), taxId: "" },
      { legalName: "", address: "", taxId: "<script>" },
    ])
      expect(await trpcCodeOf(revenue.caller.invoices.updateSeller(bad))).toBe("BAD_REQUEST");
    expect(await f.db.invoiceSeller.count({ where: { accountId: f.account.id } })).toBe(0);

    // Saved, normalised: blank lines and stray spaces dropped.
    const saved = await revenue.caller.invoices.updateSeller({
      legalName: "  Daily   Masthead Ltd ",
      address: "1 Fleet Street\r\n\r\n  London EC4Y 1AA \nUnited Kingdom",
      taxId: " GB 123 4567 89 ",
    });
    expect(saved).toMatchObject({
      legalName: "Daily Masthead Ltd",
      address: "1 Fleet Street\nLondon EC4Y 1AA\nUnited Kingdom",
      taxId: "GB 123 4567 89",
    });
    const audit = await f.db.auditLog.findFirstOrThrow({
      where: { accountId: f.account.id, action: "invoice_seller.update" },
    });
    expect(audit.actorId).toBe(revenue.user.id);

    const during = await checkout(f, "r-during");
    const seller = { name: "Daily Masthead Ltd", address: "1 Fleet Street\nLondon EC4Y 1AA\nUnited Kingdom" };
    expect(during.invoices[0]!.seller).toEqual({ ...seller, tax_id: "GB 123 4567 89" });

    // A later edit changes new invoices only: the issued ones keep the seller they were issued with.
    await revenue.caller.invoices.updateSeller({
      legalName: "Masthead Media plc",
      address: "2 Strand",
      taxId: "GB999",
    });
    const after = await checkout(f, "r-after");
    expect(after.invoices[0]!.seller).toEqual({ name: "Masthead Media plc", address: "2 Strand", tax_id: "GB999" });
    const issued = await f.db.invoice.findMany({
      where: { accountId: f.account.id },
      orderBy: { sequenceNumber: "asc" },
    });
    expect(issued.map((i) => [i.sequenceNumber, i.sellerName, i.sellerTaxId])).toEqual([
      [1, f.account.name, null],
      [2, "Daily Masthead Ltd", "GB 123 4567 89"],
      [3, "Masthead Media plc", "GB999"],
    ]);

    // The documents of invoice 2 print its frozen seller, not the one set now.
    const second = issued[1]!;
    const html = renderInvoiceHtml(second, documentLanguage("en", "UTC"));
    expect(html).toContain("Daily Masthead Ltd");
    expect(html).toContain("1 Fleet Street<br>London EC4Y 1AA<br>United Kingdom<br>VAT number: GB 123 4567 89");
    expect(html).not.toContain("Masthead Media plc");
    const pdf = await renderInvoicePdf(second, documentLanguage("en", "UTC"));
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // The dashboard's list carries the seller and the period too.
    const listed = await revenue.caller.invoices.list({});
    expect(listed.invoices.find((i) => i.id === second.id)?.seller).toEqual({ ...seller, tax_id: "GB 123 4567 89" });
  });
});

describe("the service period on invoices", () => {
  it("is the subscription's first period for a first payment (checkout)", async () => {
    const f = await createCheckoutFixture(await getDb());
    const made = await checkout(f, "r-first");
    const sub = await f.db.subscription.findUniqueOrThrow({ where: { id: made.id } });
    expect(sub.endTimestamp).not.toBeNull();
    expect(made.invoices[0]!.service_period).toEqual({
      start: sub.startTimestamp.toISOString(),
      end: sub.endTimestamp!.toISOString(),
    });
    const row = await f.db.invoice.findFirstOrThrow({ where: { subscriptionId: made.id } });
    const model = invoiceDocumentModel(row, documentLanguage("en", "Europe/Paris"));
    const at = (d: Date) => formatDateTime(d, "en", "Europe/Paris");
    const words = `${at(sub.startTimestamp)} – ${at(sub.endTimestamp!)}`;
    expect(words).toMatch(/^\d{1,2} \w{3,4} \d{4}, \d{2}:\d{2} CES?T – \d{1,2} \w{3,4} \d{4}, \d{2}:\d{2} CES?T$/);
    expect(model.facts).toContainEqual({ label: "Service period", value: words });
    expect(model.lines[0]!.label).toBe(`${row.planName} · ${words}`);
  });

  it("is the period a renewal paid for: 1 Dec – 31 Dec after a November, not the subscription's first", async () => {
    const db = await getDb();
    const start = new Date("2026-11-01T00:00:00.000Z");
    setClock(start);
    const end = new Date("2026-12-01T00:00:00.000Z");
    const { sub } = await insertRecurringTestSubscription(db, {
      paymentType: PAYMENT_TYPE,
      start,
      end,
      priceCents: 900,
    });
    await db.subscription.update({
      where: { id: sub.id },
      data: { nextPaymentDueDate: end, paymentAmountCents: 900, paymentAmountCurrency: "USD" },
    });
    await scheduleSubscriptionLifecycle(db, { subscriptionId: sub.id, now: start });
    // The renewal falls due on 1 Dec: run the lifecycle's jobs then.
    setClock(end);
    for (let i = 0; i < 5; i++) await runJobsNow(db, testJobDeps({ clock: now }));
    const invoices = await db.invoice.findMany({ where: { subscriptionId: sub.id } });
    expect(invoices).toHaveLength(1);
    const renewal = invoices[0]!;
    expect([renewal.periodStart?.toISOString(), renewal.periodEnd?.toISOString()]).toEqual([
      "2026-12-01T00:00:00.000Z",
      "2027-01-01T00:00:00.000Z",
    ]);
    expect(invoiceToWire(renewal).service_period).toEqual({
      start: "2026-12-01T00:00:00.000Z",
      end: "2027-01-01T00:00:00.000Z",
    });
    // Printed in the account's zone, named: east and west of UTC the days differ from UTC's.
    const paris = documentLanguage("en", "Europe/Paris");
    expect(invoiceDocumentModel(renewal, paris).facts).toContainEqual({
      label: "Service period",
      value: "1 Dec 2026, 01:00 CET – 1 Jan 2027, 01:00 CET",
    });
    expect(invoiceDocumentModel(renewal, paris).facts).toContainEqual({
      label: "Date",
      value: "1 Dec 2026, 01:00 CET",
    });
    expect(renderInvoiceHtml(renewal, documentLanguage("en", "America/New_York"))).toContain(
      "30 Nov 2026, 19:00 GMT-5 – 31 Dec 2026, 19:00 GMT-5",
    );
  });
});

const PAYMENT_TYPE = "invoice_period_test";

scriptedGateway(PAYMENT_TYPE);

afterEach(() => resetClock());
