/**
 * Revenue staff's CSV exports (GET /api/admin/exports/<kind>.csv) on PGlite and PostgreSQL: every
 * row of the account (across keyset pages), money as amount, cents and currency, times in UTC,
 * text that a spreadsheet would run as a formula defused; REVENUE and OWNER only, the account's
 * rows only, a bad kind or `who` a 400.
 */
import { describe, expect, it, vi } from "vitest";

import type { AdminSession } from "@/server/auth/admin-session";
import { getDb } from "@/server/db";
import { withTransaction } from "@/server/db/transaction";
import { issueInvoiceForPayment } from "@/server/subscriptions/invoices/invoices";
import { insertMember } from "@/server/testing/access-fixtures";
import { createTestStaff } from "@/server/testing/staff";
import { insertTestGroup, insertTestPlan, insertTestSubscription } from "@/server/testing/subscription-fixtures";

import { GET } from "./route";

const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

const download = (file: string, query = "") =>
  GET(new Request(`http://localhost/api/admin/exports/${file}${query}`), {
    params: Promise.resolve({ export_file: file }),
  });

/** The CSV's lines as cells (the fields these tests write hold no quoted commas but the one checked). */
async function linesOf(res: Response): Promise<string[]> {
  return (await res.text()).split("\r\n").filter(Boolean);
}

describe("revenue exports", () => {
  it("exports every subscriber, subscription, payment and invoice of the account, and only those", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const plan = await insertTestPlan(db, await insertTestGroup(db, accountId));
    const ada = await db.member.update({
      where: { id: (await insertMember(db, accountId)).id },
      data: { name: '=HYPERLINK("http://evil.example")', email: "ada@example.com" },
    });
    const bo = await insertMember(db, accountId, "Bo, Jr");
    const sub = await insertTestSubscription(db, { accountId, memberId: ada.id, planId: plan.id });
    const start = new Date("2026-03-02T10:00:00Z");
    // 501 payments: more than one page.
    await db.payment.createMany({
      data: Array.from({ length: 501 }, (_, i) => ({
        accountId,
        subscriptionId: sub.id,
        paymentType: "manual",
        externalPaymentId: `pay-${i}`,
        amountCents: 999,
        currency: "USD",
        status: "CAPTURED" as const,
        createdAt: new Date(start.getTime() + i * 1000),
      })),
    });
    const first = await db.payment.findFirstOrThrow({ where: { accountId, externalPaymentId: "pay-0" } });
    const issued = await withTransaction(db, (tx) => issueInvoiceForPayment(tx, first.id));
    if (!issued.issued) throw new Error(issued.reason);
    // Another account's rows never appear.
    const stranger = await createTestStaff(db, { roles: ["REVENUE"] });
    const strangerPlan = await insertTestPlan(db, await insertTestGroup(db, stranger.account.id));
    const carl = await insertMember(db, stranger.account.id, "Carl");
    await insertTestSubscription(db, { accountId: stranger.account.id, memberId: carl.id, planId: strangerPlan.id });

    session.current = revenue.session;
    const subscribers = await download("subscribers.csv");
    expect(subscribers.status).toBe(200);
    expect(subscribers.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(subscribers.headers.get("content-disposition")).toMatch(
      /^attachment; filename="subscribers-\d{4}-\d\d-\d\d\.csv"$/,
    );
    expect(await linesOf(subscribers)).toEqual([
      "subscriber_id,name,email,standing,identities,created_at",
      `${ada.id},"'=HYPERLINK(""http://evil.example"")",ada@example.com,active,email:ada@example.com,${ada.createdAt.toISOString()}`,
    ]);
    const all = await linesOf(await download("subscribers.csv", "?who=all"));
    expect(all.slice(1).map((l) => l.split(",")[0])).toEqual([String(ada.id), String(bo.id)]);
    expect(all[2]).toContain('"Bo, Jr"');

    const subs = await linesOf(await download("subscriptions.csv"));
    expect(subs).toHaveLength(2);
    expect(subs[1]!.split(",").slice(0, 6)).toEqual([
      String(sub.id),
      String(ada.id),
      "ada@example.com",
      String(plan.id),
      sub.planName,
      "active",
    ]);

    const payments = await linesOf(await download("payments.csv"));
    expect(payments).toHaveLength(502);
    expect(payments[0]).toBe(
      "payment_id,created_at,subscription_id,subscriber_id,payment_type,external_payment_id,status,amount,amount_cents,refunded_cents,currency,trial_authorization",
    );
    expect(payments[1]!.split(",").slice(1)).toEqual([
      "2026-03-02T10:00:00.000Z",
      String(sub.id),
      String(ada.id),
      "manual",
      "pay-0",
      "captured",
      "9.99",
      "999",
      "0",
      "USD",
      "no",
    ]);
    expect(new Set(payments.slice(1).map((l) => l.split(",")[5])).size).toBe(501);

    const invoices = await linesOf(await download("invoices.csv"));
    expect(invoices).toHaveLength(2);
    expect(invoices[0]).toBe(
      "invoice_number,invoice_id,issued_at,subscriber_id,subscriber_name,subscriber_email,plan,currency,base_price_cents,discount_cents,coupon_code,net_cents,tax_cents,amount,amount_cents,payment_type,external_payment_id,payment_id",
    );
    const invoice = issued.invoice;
    expect(invoices[1]).toBe(
      [
        invoice.sequenceNumber,
        invoice.id,
        invoice.createdAt.toISOString(),
        ada.id,
        `"'=HYPERLINK(""http://evil.example"")"`,
        "ada@example.com",
        sub.planName,
        "USD",
        invoice.basePriceCents,
        invoice.discountCents,
        "",
        invoice.netCents,
        invoice.amountCents - invoice.netCents - invoice.roundOffCents,
        "9.99",
        999,
        "manual",
        "pay-0",
        first.id,
      ].join(","),
    );
  });

  it("is for revenue staff and owners: 401 signed out, 403 other roles; 400 for an unknown export or who", async () => {
    const db = await getDb();
    const owner = await createTestStaff(db, { roles: ["OWNER"] });
    session.current = null;
    expect((await download("payments.csv")).status).toBe(401);
    session.current = (await createTestStaff(db, { account: owner.account.id, roles: ["EDITOR"] })).session;
    expect((await download("payments.csv")).status).toBe(403);
    session.current = owner.session;
    expect((await download("payments.csv")).status).toBe(200);
    for (const file of ["members.csv", "payments.json", "payments", "../payments.csv"]) {
      const res = await download(file);
      expect(res.status, file).toBe(400);
      expect(((await res.json()) as { error: { details: { field: string }[] } }).error.details[0]!.field).toContain(
        "export_file",
      );
    }
    expect((await download("subscribers.csv", "?who=everyone")).status).toBe(400);
  });
});
