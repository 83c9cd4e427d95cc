/**
 * Credit note lists and documents (docs/subscriptions.md "Credit notes"), on PGlite and
 * PostgreSQL: the reader's own on the client API (list, PDF, printable page; another reader's is
 * 404), the account's for revenue staff (tRPC list, PDF and page; other roles and accounts refused).
 */
import { describe, expect, it, vi } from "vitest";

import { GET as ADMIN_DOCUMENT } from "@/app/api/admin/credit-notes/[credit_note_file]/route";
import type { AdminSession } from "@/server/auth/admin-session";
import { getDb } from "@/server/db";
import type { TCreditNoteWire } from "@/server/subscriptions/invoices/credit-notes";
import { createCheckoutFixture, type CheckoutFixture } from "@/server/testing/checkout";
import { readerCheckout as checkoutOnClientApi } from "@/server/testing/checkout-calls";
import { call } from "@/server/testing/engagement";
import { createTestStaff } from "@/server/testing/staff";

import { GET as DOCUMENT } from "./[credit_note_file]/route";
import { GET as LIST } from "./route";

const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

/** A reader (JWT id) checks out the monthly plan on the client API: one captured, invoiced payment. */
async function readerCheckout(f: CheckoutFixture, id: string) {
  const { q, invoice } = await checkoutOnClientApi(f, id);
  const row = await f.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
  return { q, invoice, paymentId: row.paymentId };
}

describe("credit note lists and documents", () => {
  it("gives a reader their own credit notes; revenue staff the account's; anyone else 404", async () => {
    const f = await createCheckoutFixture(await getDb());
    const ada = await readerCheckout(f, "cn-ada");
    const bo = await readerCheckout(f, "cn-bo");
    const revenue = await createTestStaff(f.db, { account: f.account.id, roles: ["REVENUE"] });
    const refund = await revenue.caller.revenue.refund({
      paymentId: ada.paymentId,
      amountCents: 250,
      reason: "outage",
    });
    const noteId = refund.refund.credit_note_id!;
    expect(noteId).toEqual(expect.any(Number));

    const list = await call(LIST, "GET", ada.q, {});
    expect(list.status).toBe(200);
    const notes = ((await list.json()) as { credit_notes: TCreditNoteWire[] }).credit_notes;
    expect(notes).toEqual([
      expect.objectContaining({
        id: noteId,
        sequenced_credit_note_number: 1,
        invoice_id: ada.invoice.id,
        sequenced_invoice_number: ada.invoice.sequenced_invoice_number,
        amount_cents: 250,
        amount: "2.50",
        amount_currency: "USD",
        reason: "outage",
      }),
    ]);
    expect(((await (await call(LIST, "GET", bo.q, {})).json()) as { credit_notes: unknown[] }).credit_notes).toEqual(
      [],
    );

    const pdf = await call(DOCUMENT, "GET", ada.q, { credit_note_file: `${noteId}.pdf` });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toContain('filename="credit-note-1.pdf"');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");
    const htmlPath = `/api/access/v1/members/me/credit-notes/${noteId}.html${ada.q.slice(2)}`;
    const html = await call(DOCUMENT, "GET", htmlPath, { credit_note_file: `${noteId}.html` });
    expect(html.status).toBe(200);
    const page = await html.text();
    expect(page).toContain("Credit note 1");
    expect(page).toContain(`${ada.invoice.sequenced_invoice_number} of `);
    expect(page).toContain("$2.50");
    expect(page).toContain("outage");
    expect(page).toContain("Reader cn-ada");

    for (const file of [`${noteId}.pdf`, `${noteId}.html`])
      expect((await call(DOCUMENT, "GET", bo.q, { credit_note_file: file })).status).toBe(404);
    for (const file of ["abc.pdf", `${noteId}.doc`, `0${noteId}.pdf`, "99999999999.pdf"])
      expect((await call(DOCUMENT, "GET", ada.q, { credit_note_file: file })).status, file).toBe(400);

    // The dashboard: the list (tRPC) and the documents, for revenue staff of the account only.
    expect((await revenue.caller.invoices.creditNotes({})).map((n) => n.id)).toEqual([noteId]);
    const member = await f.db.invoice.findUniqueOrThrow({ where: { id: bo.invoice.id } });
    expect(await revenue.caller.invoices.creditNotes({ memberId: member.memberId })).toEqual([]);
    const admin = (file: string) =>
      ADMIN_DOCUMENT(new Request(`http://localhost/api/admin/credit-notes/${file}`), {
        params: Promise.resolve({ credit_note_file: file }),
      });
    session.current = revenue.session;
    expect((await admin(`${noteId}.pdf`)).status).toBe(200);
    expect((await admin(`${noteId}.html`)).status).toBe(200);
    session.current = (await createTestStaff(f.db, { account: f.account.id, roles: ["EDITOR"] })).session;
    expect((await admin(`${noteId}.pdf`)).status).toBe(403);
    session.current = (await createTestStaff(f.db, { roles: ["REVENUE"] })).session;
    expect((await admin(`${noteId}.pdf`)).status).toBe(404);
    session.current = null;
    expect((await admin(`${noteId}.pdf`)).status).toBe(401);
  });
});
