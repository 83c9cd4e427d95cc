/**
 * Credit notes (credit-notes.ts, docs/subscriptions.md "Credit notes") on the real database: a
 * refund of an invoiced payment issues one, numbered 1..n per account apart from the invoices,
 * with no gaps also for 20 refunds at once; partial refunds one note each, the taxes split in
 * proportion; a refund that fails issues none and gives no number away; a trial's authorization
 * (never invoiced) none; recording a refund twice makes one note.
 */
import { describe, expect, it } from "vitest";

import { staffActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { withTransaction } from "@/server/db/transaction";
import { issueCreditNoteForRefund, listCreditNotes } from "@/server/subscriptions/invoices/credit-notes";
import { issueInvoiceForPayment } from "@/server/subscriptions/invoices/invoices";
import { refundPayment } from "@/server/subscriptions/invoices/refunds";
import { PaymentAdapterError, type PaymentAdapter } from "@/server/subscriptions/payments/adapter";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";
import {
  insertTestGroup,
  insertTestPlan,
  insertTestSubscriber,
  insertTestSubscription,
} from "@/server/testing/subscription-fixtures";

const gst = [{ name: "GST", rate_basis_points: 1800, inclusive: true }];

/** `count` captured manual payments of 11800 cents (GST 18% inside), each invoiced unless told. */
async function invoicedPayments(db: Db, accountId: number, count: number, opts: { trial?: boolean } = {}) {
  const plan = await insertTestPlan(db, await insertTestGroup(db, accountId), { priceCents: 11_800 });
  const member = await insertTestSubscriber(db, accountId);
  const payments = [];
  for (let i = 0; i < count; i++) {
    const sub = await insertTestSubscription(db, { accountId, memberId: member.id, planId: plan.id });
    // A trial's checkout: the attempt both the subscription and its authorization payment carry.
    const attempt = opts.trial
      ? await db.subscriptionAttempt.create({
          data: {
            accountId,
            memberId: member.id,
            terms: {},
            paymentType: "manual",
            amountCents: 11_800,
            currency: "USD",
            expiresAt: new Date(Date.now() + 3_600_000),
          },
        })
      : null;
    await db.subscription.update({
      where: { id: sub.id },
      data: {
        taxDetail: gst,
        ...(attempt ? { trialEndsAt: new Date(Date.now() + 14 * 86_400_000), attemptId: attempt.id } : {}),
      },
    });
    const payment = await db.payment.create({
      data: {
        accountId,
        subscriptionId: sub.id,
        paymentType: "manual",
        amountCents: 11_800,
        currency: "USD",
        status: "CAPTURED",
        ...(attempt ? { attemptId: attempt.id } : {}),
      },
    });
    await withTransaction(db, (tx) => issueInvoiceForPayment(tx, payment.id));
    payments.push(payment);
  }
  return { payments, member };
}

const notesOf = (db: Db, accountId: number) =>
  db.creditNote.findMany({ where: { accountId }, orderBy: { sequenceNumber: "asc" } });

describe("credit notes", () => {
  it("credits each partial refund of an invoice with its share of the taxes, apart from invoice numbers", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const { payments, member } = await invoicedPayments(db, accountId, 1);
    const invoice = await db.invoice.findUniqueOrThrow({ where: { paymentId: payments[0]!.id } });
    expect(invoice.taxLines).toEqual([{ ...gst[0], amount_cents: 1_800 }]);

    const first = await revenue.caller.revenue.refund({
      paymentId: payments[0]!.id,
      amountCents: 1_000,
      reason: "late",
    });
    const rest = await revenue.caller.revenue.refund({ paymentId: payments[0]!.id });
    const notes = await notesOf(db, accountId);
    expect(notes.map((n) => [n.sequenceNumber, n.amountCents, n.netCents, n.invoiceId])).toEqual([
      [1, 1_000, 847, invoice.id], // 1800 × 1000 / 11800 = 152.5 → 153
      [2, 10_800, 9_153, invoice.id],
    ]);
    expect(notes.map((n) => (n.taxLines as { amount_cents: number }[])[0]!.amount_cents)).toEqual([153, 1_647]);
    expect(first.refund.credit_note_id).toBe(notes[0]!.id);
    expect(rest.refund.credit_note_id).toBe(notes[1]!.id);
    expect(notes[0]!.reason).toBe("late");

    const audit = await db.auditLog.findMany({ where: { accountId, action: "payment.refund" } });
    const metadata = audit.map((a) => a.metadata as { refund_id: number; credit_note_id: number });
    expect(metadata.find((m) => m.refund_id === first.refund.id)?.credit_note_id).toBe(notes[0]!.id);

    const listed = await listCreditNotes(db, { accountId, memberId: member.id });
    expect(listed.map((n) => [n.sequenced_credit_note_number, n.sequenced_invoice_number, n.amount])).toEqual([
      [2, invoice.sequenceNumber, "108.00"],
      [1, invoice.sequenceNumber, "10.00"],
    ]);
    expect(listed[1]!.taxes).toEqual([{ name: "GST", percentage: 18, amount: "1.53" }]);
    expect(await listCreditNotes(db, { accountId, memberId: member.id + 1_000_000 })).toEqual([]);
  });

  it("numbers 20 refunds at once 1..20 with no gaps", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const { payments } = await invoicedPayments(db, accountId, 20);
    const outcomes = await Promise.all(
      payments.map((p) => revenue.caller.revenue.refund({ paymentId: p.id, amountCents: 500 })),
    );
    const notes = await notesOf(db, accountId);
    expect(notes.map((n) => n.sequenceNumber)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(notes.map((n) => n.refundId)).size).toBe(20);
    expect(outcomes.every((o) => o.refund.credit_note_id !== null)).toBe(true);
  });

  it("issues one note for a refund recorded twice, none for a failed refund, and takes no number for it", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const { payments } = await invoicedPayments(db, accountId, 2);

    const refusing: PaymentAdapter = {
      paymentType: "manual",
      provider: null,
      refund: () => Promise.reject(new PaymentAdapterError("card closed")),
    } as unknown as PaymentAdapter;
    await expect(
      refundPayment(db, {
        actor: staffActor({ id: revenue.user.id, accountId, roles: ["REVENUE"] }),
        input: { paymentId: payments[0]!.id, amountCents: 100 },
        adapterFor: () => refusing,
      }),
    ).rejects.toThrow(/card closed/);
    expect(await notesOf(db, accountId)).toEqual([]);

    const done = await revenue.caller.revenue.refund({ paymentId: payments[1]!.id, amountCents: 300 });
    const again = await Promise.all([
      withTransaction(db, (tx) => issueCreditNoteForRefund(tx, done.refund.id)),
      withTransaction(db, (tx) => issueCreditNoteForRefund(tx, done.refund.id)),
    ]);
    expect(again.map((o) => o.issued)).toEqual([false, false]);
    const notes = await notesOf(db, accountId);
    expect(notes.map((n) => [n.sequenceNumber, n.refundId])).toEqual([[1, done.refund.id]]);
  });

  it("issues none for a trial's authorization, which was never invoiced", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const { payments } = await invoicedPayments(db, accountId, 1, { trial: true });
    expect(await db.invoice.count({ where: { paymentId: payments[0]!.id } })).toBe(0);
    const out = await revenue.caller.revenue.refund({ paymentId: payments[0]!.id });
    expect(out.refund.credit_note_id).toBeNull();
    expect(await notesOf(db, accountId)).toEqual([]);
    expect(await trpcCodeOf(revenue.caller.revenue.refund({ paymentId: payments[0]!.id }))).toBe("CONFLICT");
  });
});
