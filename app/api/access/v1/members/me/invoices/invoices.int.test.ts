/**
 * Invoices (docs/subscriptions.md "Invoices"), on PGlite and PostgreSQL: issued by checkout and by
 * the gateway webhook's capture, one per payment, numbered 1..n per account with no gaps, also
 * under concurrent issues and after a rolled-back one.
 */
import { describe, expect, it, vi } from "vitest";

import { GET as ADMIN_DOCUMENT } from "@/app/api/admin/invoices/[invoice_file]/route";
import { formatDateTime, formatMoney } from "@/i18n/translate";
import type { AdminSession } from "@/server/auth/admin-session";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { withTransaction } from "@/server/db/transaction";
import type { TInvoiceWire } from "@/server/subscriptions/invoices/invoice-figures";
import { issueInvoiceForPayment, listAccountInvoices } from "@/server/subscriptions/invoices/invoices";
import { settleOneTimeCharge } from "@/server/subscriptions/payments/gateway-events";
import { insertMember } from "@/server/testing/access-fixtures";
import { createCheckoutFixture, testpayAdapter, testpayPayment, type CheckoutFixture } from "@/server/testing/checkout";
import {
  halfOffAndGst,
  paid,
  readerCheckout,
  serverCreate,
  serverPreview,
  type Json,
  type Made,
} from "@/server/testing/checkout-calls";
import { call } from "@/server/testing/engagement";
import { pdfFacts } from "@/server/testing/pdf-text";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";
import { insertTestGroup, insertTestPlan, insertTestSubscription } from "@/server/testing/subscription-fixtures";

import { GET as DOCUMENT } from "./[invoice_file]/route";
import { GET as LIST } from "./route";

const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

async function checkout(f: CheckoutFixture, sub: Json, state: "captured" | "authorized" = "captured") {
  const previewRes = await serverPreview(f, sub);
  const preview = (await previewRes.json()) as {
    attempt_token: string;
    external_reference_id: string;
    subscription: { payment_amount_cents: number };
  };
  expect(previewRes.status, JSON.stringify(preview)).toBe(200);
  const amount = preview.subscription.payment_amount_cents;
  const payment = testpayPayment(preview.external_reference_id, amount, "USD", state);
  const body = {
    subscription: { ...sub, payment: { ...(sub.payment as Json), amount_cents: amount, ...payment } },
    attempt_token: preview.attempt_token,
  };
  const create = () => serverCreate(f, body);
  const res = await create();
  const made = (await res.json()) as Made;
  expect(res.status, JSON.stringify(made).slice(0, 400)).toBe(201);
  return { made, payment, create };
}

/** `count` subscriptions of one account, each with a captured payment not yet invoiced. */
async function capturedPayments(db: Db, count: number) {
  const account = await createTestPublisher(db);
  const member = await insertMember(db, account.id, "Bo");
  const plan = await insertTestPlan(db, await insertTestGroup(db, account.id), { priceCents: 1200 });
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const sub = await insertTestSubscription(db, { accountId: account.id, memberId: member.id, planId: plan.id });
    const payment = await db.payment.create({
      data: {
        accountId: account.id,
        subscriptionId: sub.id,
        paymentType: "testpay",
        externalPaymentId: `pay_${i}`,
        amountCents: 1200,
        currency: "USD",
        status: "CAPTURED",
      },
    });
    ids.push(payment.id);
  }
  return { accountId: account.id, ids, memberId: member.id };
}

describe("issueInvoiceForPayment from checkout", () => {
  it("invoices a captured checkout with its coupon and tax, once, and the subscription carries it", async () => {
    const f = await createCheckoutFixture(await getDb());
    await halfOffAndGst(f);
    const sub = { ...paid(f.monthly.id), coupon_code: "HALF", metadata: { address: { country: "IN" } } };
    const { made, payment, create } = await checkout(f, sub);
    expect(made.subscription.status).toBe("active");
    expect(made.subscription.invoices).toEqual([
      {
        id: expect.any(Number) as number,
        sequenced_invoice_number: 1,
        subscription_id: made.subscription.id,
        base_price: "10.00",
        amount_cents: 590,
        amount_currency: "USD",
        amount_after_discount_before_tax: "5.00",
        discount_details: { code: "HALF", discount_percentage: 50, discount_amount: "5.00" },
        invoice_taxes: { GST: { percentage: 18, amount: "0.90", currency: "USD" } },
        round_off: "0.00",
        credit_applied: "0.00",
        external_payment_id: payment.payment_token,
        downloadable: true,
        created_at: expect.any(String) as string,
        seller: { name: f.account.name, address: null, tax_id: null },
        service_period: { start: expect.any(String) as string, end: expect.any(String) as string },
      },
    ]);
    // The same create again answers the same subscription: still one invoice.
    const again = (await (await create()).json()) as Made;
    expect(again.subscription.invoices.map((i) => i.id)).toEqual(made.subscription.invoices.map((i) => i.id));
    expect(await f.db.invoice.count({ where: { accountId: f.account.id } })).toBe(1);
  });

  it("issues none while a payment is only authorized, and one when the gateway's capture settles it", async () => {
    const f = await createCheckoutFixture(await getDb());
    const { made, payment } = await checkout(f, paid(f.monthly.id), "authorized");
    expect(made.subscription.status).toBe("pending");
    expect(made.subscription.invoices).toEqual([]);
    const details = {
      eventId: "evt_1",
      event: "payment.captured",
      externalPaymentId: payment.payment_token,
      externalOrderId: null,
      externalSubscriptionId: null,
      amountCents: 1000,
      currency: "USD",
      notes: {},
      status: "captured",
    };
    const settle = (eventId: string) =>
      withTransaction(f.db, (tx) =>
        settleOneTimeCharge(tx, {
          accountId: f.account.id,
          adapter: testpayAdapter,
          details: { ...details, eventId },
          now: new Date(),
        }),
      );
    // The gateway sends the capture twice, at once: one invoice.
    const outcomes = await Promise.all([settle("evt_1"), settle("evt_2")]);
    expect(outcomes.map((o) => o.status)).toEqual(["processed", "processed"]);
    const invoices = await f.db.invoice.findMany({ where: { accountId: f.account.id } });
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      sequenceNumber: 1,
      amountCents: 1000,
      externalPaymentId: payment.payment_token,
    });
  });

  it("does not invoice a trial's authorization charge, a free plan, or a payment not captured", async () => {
    const f = await createCheckoutFixture(await getDb());
    const { made } = await checkout(f, paid(f.trial.id));
    // The subscription carries the plan's price (what the first charge after the trial takes);
    // the trial's authorization charge itself is not invoiced.
    expect(made.subscription.payment_amount_cents).toBe(f.trial.priceCents);
    expect(made.subscription.invoices).toEqual([]);
    const { ids } = await capturedPayments(f.db, 2);
    await f.db.payment.update({ where: { id: ids[0]! }, data: { status: "AUTHORIZED" } });
    await f.db.payment.update({ where: { id: ids[1]! }, data: { amountCents: 0 } });
    for (const id of ids) {
      const outcome = await withTransaction(f.db, (tx) => issueInvoiceForPayment(tx, id));
      expect(outcome.issued).toBe(false);
    }
    expect(await f.db.invoice.count({ where: { accountId: f.account.id } })).toBe(0);
  });
});

describe("invoice numbers", () => {
  it("numbers 20 concurrent issues 1..20, once per payment even when each is issued twice at once", async () => {
    const db = await getDb();
    const { accountId, ids } = await capturedPayments(db, 20);
    const outcomes = await Promise.all(
      [...ids, ...ids].map((id) => withTransaction(db, (tx) => issueInvoiceForPayment(tx, id))),
    );
    expect(outcomes.filter((o) => o.issued)).toHaveLength(20);
    const invoices = await db.invoice.findMany({ where: { accountId }, orderBy: { sequenceNumber: "asc" } });
    expect(invoices.map((i) => i.sequenceNumber)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(invoices.map((i) => i.paymentId)).size).toBe(20);
    // Another account starts at 1.
    const other = await capturedPayments(db, 1);
    const first = await withTransaction(db, (tx) => issueInvoiceForPayment(tx, other.ids[0]!));
    expect(first.invoice?.sequenceNumber).toBe(1);
  });

  it("gives a rolled-back issue's number back: no gap", async () => {
    const db = await getDb();
    const { accountId, ids } = await capturedPayments(db, 3);
    await withTransaction(db, (tx) => issueInvoiceForPayment(tx, ids[0]!));
    await expect(
      withTransaction(db, async (tx) => {
        await issueInvoiceForPayment(tx, ids[1]!);
        throw new Error("the capture failed after the invoice");
      }),
    ).rejects.toThrow("the capture failed");
    await withTransaction(db, (tx) => issueInvoiceForPayment(tx, ids[2]!));
    const invoices = await db.invoice.findMany({ where: { accountId }, orderBy: { sequenceNumber: "asc" } });
    expect(invoices.map((i) => [i.paymentId, i.sequenceNumber])).toEqual([
      [ids[0], 1],
      [ids[2], 2],
    ]);
  });

  it("lists an account's invoices newest first, by subscriber, in keyset pages", async () => {
    const db = await getDb();
    const { accountId, ids, memberId } = await capturedPayments(db, 3);
    for (const id of ids) await withTransaction(db, (tx) => issueInvoiceForPayment(tx, id));
    const first = await listAccountInvoices(db, { accountId, limit: 2 });
    expect(first.invoices.map((i) => i.sequenced_invoice_number)).toEqual([3, 2]);
    const second = await listAccountInvoices(db, { accountId, limit: 2, cursor: first.nextCursor });
    expect(second).toMatchObject({ nextCursor: null });
    expect(second.invoices.map((i) => i.sequenced_invoice_number)).toEqual([1]);
    expect((await listAccountInvoices(db, { accountId, memberId, limit: 10 })).invoices).toHaveLength(3);
    expect((await listAccountInvoices(db, { accountId, memberId: memberId + 1000, limit: 10 })).invoices).toEqual([]);
  });
});

describe("invoice documents and lists", () => {
  it("gives a reader their own invoices as a list, a PDF and a printable page; another reader gets 404", async () => {
    const f = await createCheckoutFixture(await getDb());
    const ada = await readerCheckout(f, "r-ada");
    const bo = await readerCheckout(f, "r-bo");
    expect([ada.invoice.sequenced_invoice_number, bo.invoice.sequenced_invoice_number]).toEqual([1, 2]);

    const list = await call(LIST, "GET", ada.q, {});
    expect(list.status).toBe(200);
    expect(((await list.json()) as { invoices: TInvoiceWire[] }).invoices.map((i) => i.id)).toEqual([ada.invoice.id]);

    const pdf = await call(DOCUMENT, "GET", ada.q, { invoice_file: `${ada.invoice.id}.pdf` }, undefined, {
      accept: "application/pdf",
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("cache-control")).toContain("no-store");
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(bytes.length).toBeGreaterThan(800);

    // The document names its times in the account's zone.
    await f.db.account.update({ where: { id: f.account.id }, data: { timeZone: "Asia/Tokyo" } });
    const issued = await f.db.invoice.findUniqueOrThrow({ where: { id: ada.invoice.id } });
    const htmlPath = `/api/access/v1/members/me/invoices/${ada.invoice.id}.html${ada.q.slice(2)}`;
    const html = await call(DOCUMENT, "GET", htmlPath, { invoice_file: `${ada.invoice.id}.html` }, undefined, {
      accept: "text/html",
    });
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toContain("text/html");
    const page = await html.text();
    expect(page).toContain("Invoice 1");
    expect(page).toContain("$10.00");
    expect(page).toContain("@media print");
    expect(page).toContain(`<dt>Date</dt><dd>${formatDateTime(issued.createdAt, "en", "Asia/Tokyo")}</dd>`);
    expect(formatDateTime(issued.createdAt, "en", "Asia/Tokyo")).toMatch(/ GMT\+9$/);
    expect(page).toContain(`href="/api/access/v1/members/me/invoices/${ada.invoice.id}.pdf?key=${f.key}&amp;svc_jwt=`);
    expect(html.headers.get("content-security-policy")).toContain("default-src 'none'");

    // Bo cannot read Ada's invoice, in either form; nor can a caller without a JWT or of another account.
    for (const file of [`${ada.invoice.id}.pdf`, `${ada.invoice.id}.html`])
      expect((await call(DOCUMENT, "GET", bo.q, { invoice_file: file })).status).toBe(404);
    expect((await call(DOCUMENT, "GET", `/x?key=${f.key}`, { invoice_file: `${ada.invoice.id}.pdf` })).status).toBe(
      401,
    );
    const other = await createCheckoutFixture(f.db);
    const otherQ = `/x?key=${other.key}&svc_jwt=${ada.jwt}`;
    expect((await call(DOCUMENT, "GET", otherQ, { invoice_file: `${ada.invoice.id}.pdf` })).status).toBe(404);
    for (const file of ["abc.pdf", `${ada.invoice.id}.doc`, `0${ada.invoice.id}.pdf`, "99999999999.pdf"])
      expect((await call(DOCUMENT, "GET", ada.q, { invoice_file: file })).status, file).toBe(400);
  });

  it("gives revenue staff of the account every invoice, and 404 to another account's staff", async () => {
    const f = await createCheckoutFixture(await getDb());
    const ada = await readerCheckout(f, "r-ada");
    const path = (file: string) =>
      ADMIN_DOCUMENT(new Request(`http://localhost/api/admin/invoices/${file}`), {
        params: Promise.resolve({ invoice_file: file }),
      });
    const revenue = await createTestStaff(f.db, { account: f.account.id, roles: ["REVENUE"] });
    session.current = revenue.session;
    const pdf = await path(`${ada.invoice.id}.pdf`);
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");
    expect((await path(`${ada.invoice.id}.html`)).status).toBe(200);

    session.current = (await createTestStaff(f.db, { account: f.account.id, roles: ["EDITOR"] })).session;
    expect((await path(`${ada.invoice.id}.pdf`)).status).toBe(403);
    session.current = (await createTestStaff(f.db, { roles: ["REVENUE"] })).session;
    expect((await path(`${ada.invoice.id}.pdf`)).status).toBe(404);
    session.current = null;
    expect((await path(`${ada.invoice.id}.pdf`)).status).toBe(401);

    // The dashboard's list (tRPC): the account's, by subscriber; other roles are refused.
    const listed = await revenue.caller.invoices.list({});
    expect(listed.invoices.map((i) => i.id)).toEqual([ada.invoice.id]);
    const subscriberId = listed.invoices[0]!.subscriber_id;
    expect((await revenue.caller.invoices.list({ memberId: subscriberId })).invoices).toHaveLength(1);
    expect((await revenue.caller.invoices.list({ memberId: subscriberId + 1 })).invoices).toHaveLength(0);
    expect(await trpcCodeOf(revenue.caller.invoices.list({ limit: 0 }))).toBe("BAD_REQUEST");
    const editor = await createTestStaff(f.db, { account: f.account.id, roles: ["EDITOR"] });
    expect(await trpcCodeOf(editor.caller.invoices.list({}))).toBe("FORBIDDEN");
  });
});

describe("invoice documents in the subscriber's language", () => {
  it("gives a reader whose saved locale is Hindi the PDF and page in Hindi; an Arabic reader's page reads right to left", async () => {
    const f = await createCheckoutFixture(await getDb());
    const ada = await readerCheckout(f, "r-hi");
    const memberId = (await f.db.invoice.findUniqueOrThrow({ where: { id: ada.invoice.id } })).memberId;
    await f.db.member.update({ where: { id: memberId }, data: { locale: "hi" } });
    const pdf = await call(DOCUMENT, "GET", ada.q, { invoice_file: `${ada.invoice.id}.pdf` });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-language")).toBe("hi");
    const facts = pdfFacts(Buffer.from(await pdf.arrayBuffer()));
    expect(facts.fonts.some((name) => name.endsWith("+NotoSansDevanagari-Regular"))).toBe(true);
    expect(facts.actualText).toEqual(expect.arrayContaining(["इनवॉइस 1", "कुल भुगतान", "बिल किसके नाम"]));
    expect(facts.actualText).toContain(formatMoney(1000, "USD", "hi"));

    await f.db.member.update({ where: { id: memberId }, data: { locale: "ar" } });
    const htmlPath = `/api/access/v1/members/me/invoices/${ada.invoice.id}.html${ada.q.slice(2)}`;
    const page = await (await call(DOCUMENT, "GET", htmlPath, { invoice_file: `${ada.invoice.id}.html` })).text();
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain("فاتورة رقم 1");
    expect(page).toContain(">طباعة</button>");
  });
});
