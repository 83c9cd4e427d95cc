/**
 * The self-service page's API (docs/subscriptions.md "Self-service page"), on PGlite and
 * PostgreSQL: a signed-in member's subscriptions in words, and their invoices and credit notes
 * with a PDF only they can open; the payment method replaced through the gateway and used by the
 * next renewal; the client API (spec §4.3) giving the same results on the same reader; and a
 * session opened for the reader of a publisher-signed JWT. Switching plans and cancelling have
 * files of their own (self-service-switch, self-service-cancel).
 */
import { describe, expect, it } from "vitest";

import type { ApiUser } from "@/server/auth/api-auth";
import { findOrCreateJwtMember } from "@/server/members/identities";
import { createMemberSession } from "@/server/members/sessions";
import { call } from "@/server/testing/engagement";
import { read, renew, setupSelfService, withSelfpayGateway, type Json } from "@/server/testing/self-service";
import { createTestStaff } from "@/server/testing/staff";

import { PUT as CLIENT_CANCEL } from "../../access/v1/members/me/subscriptions/[subscription_id]/cancel/route";
import { GET as CLIENT_ONE } from "../../access/v1/members/me/subscriptions/[subscription_id]/route";
import { GET as CREDIT_NOTE } from "../credit-notes/[credit_note_file]/route";
import { GET as INVOICE } from "../invoices/[invoice_file]/route";
import { PUT as PAYMENT_METHOD } from "./[subscription_id]/payment-method/route";
import { POST as UNDO } from "./[subscription_id]/undo-cancel/route";
import { GET as OVERVIEW } from "./route";
import { POST as SESSION } from "./session/route";

// The answers' JSON is read loosely in assertions (the routes' own types are the services').
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return */
const charges = withSelfpayGateway();
const setup = setupSelfService;
const user = (id: string): ApiUser => ({ id, name: "Ada", email: null, avatarUrl: null, provider: null });

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("the self-service page's API", () => {
  it("lists the member's subscriptions in words and their invoices with a PDF only they can open", async () => {
    const s = await setup();
    const due = (await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } })).nextPaymentDueDate!;
    await renew(s.db, s.sub.id, new Date(due.getTime() + 1000)); // a captured renewal is invoiced
    const res = await call(OVERVIEW, "GET", "/api/member/subscriptions", {}, undefined, { "X-QT-AUTH": s.token });
    const body = await read(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const [card] = body.subscriptions as Json[];
    expect(card).toMatchObject({
      id: s.sub.id,
      plan_name: "Standard",
      status: "active",
      amount: "$10.00",
      can_cancel: true,
      can_undo_cancel: false,
      can_update_payment_method: true,
    });
    expect(card!.summary).toMatch(/^Next payment: \$10\.00 on \d+ \w{3} \d{4}, \d{2}:\d{2} UTC\.$/);
    // Only plans it can switch to: recurring like it, with a price in its currency.
    const options = card!.switch_options as Json[];
    expect(options).toContainEqual({
      id: s.premium.id,
      title: "Premium",
      switch_type: "upgrade",
      price: "$12.00",
      period: "per month",
    });
    expect(options.map((o) => o.id)).not.toContain(s.f.monthly.id); // one-time

    const [invoice] = body.invoices as Json[];
    expect(invoice).toMatchObject({ amount: "$10.00", pdf_href: `/api/member/invoices/${invoice!.id}.pdf` });

    const pdf = await call(INVOICE, "GET", invoice!.pdf_href, { invoice_file: `${invoice!.id}.pdf` }, undefined, {
      "X-QT-AUTH": s.token,
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bob = await findOrCreateJwtMember(s.db, { accountId: s.f.account.id, user: user("r-bob"), now: new Date() });
    const other = await createMemberSession(s.db, { memberId: bob.id, now: new Date(), days: 1 });
    const refused = await call(INVOICE, "GET", invoice!.pdf_href, { invoice_file: `${invoice!.id}.pdf` }, undefined, {
      "X-QT-AUTH": other.token,
    });
    expect(refused.status).toBe(404);
    // A refund of it is a credit note, listed with its PDF (the member's own only).
    const payment = await s.db.payment.findFirstOrThrow({ where: { subscriptionId: s.sub.id } });
    const staff = await createTestStaff(s.db, { roles: ["REVENUE"], account: s.f.account.id });
    await staff.caller.revenue.refund({ paymentId: payment.id, amountCents: 300 });
    const withNote = await read(
      await call(OVERVIEW, "GET", "/api/member/subscriptions", {}, undefined, { "X-QT-AUTH": s.token }),
    );
    const [note] = withNote.credit_notes as Json[];
    expect(note).toMatchObject({ amount: "$3.00", invoice_number: invoice!.number });
    const notePdf = await call(CREDIT_NOTE, "GET", note!.pdf_href, { credit_note_file: `${note!.id}.pdf` }, undefined, {
      "X-QT-AUTH": s.token,
    });
    expect(notePdf.status).toBe(200);
    expect(notePdf.headers.get("content-type")).toBe("application/pdf");
    const notTheirs = await call(
      CREDIT_NOTE,
      "GET",
      note!.pdf_href,
      { credit_note_file: `${note!.id}.pdf` },
      undefined,
      {
        "X-QT-AUTH": other.token,
      },
    );
    expect(notTheirs.status).toBe(404);
    // Another member's subscription is not found; no session is a 401.
    expect((await s.page(UNDO, "POST", "/undo-cancel", undefined, other.token)).status).toBe(404);
    expect((await call(OVERVIEW, "GET", "/api/member/subscriptions", {})).status).toBe(401);
  });

  it("updates the payment method through the gateway; the next renewal uses it; a refused card changes nothing", async () => {
    const s = await setup();
    const refused = await s.page(PAYMENT_METHOD, "PUT", "/payment-method", { payment_token: "pm_declined" });
    expect(refused.status).toBe(422);
    expect((await read(refused)).error.message).toMatch(/declined/);
    expect((await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } })).paymentToken).toBeNull();

    const res = await s.page(PAYMENT_METHOD, "PUT", "/payment-method", { payment_token: "pm_visa4242" });
    const body = await read(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ label: "Card visa4242" });
    expect((await s.page(PAYMENT_METHOD, "PUT", "/payment-method", { payment_token: "pm_visa4242" })).status).toBe(200);
    expect(
      await s.db.auditLog.count({
        where: { action: "subscription.payment_method.update", targetId: String(s.sub.id) },
      }),
    ).toBe(1);
    await renew(s.db, s.sub.id, new Date(s.sub.endTimestamp!.getTime() + 1000));
    expect(charges.filter((c) => c.subscriptionId === s.sub.id).map((c) => c.paymentToken)).toEqual(["pm_visa4242"]);

    // A gateway that cannot change methods through Masthead: 422.
    await s.db.subscription.update({ where: { id: s.sub.id }, data: { paymentType: "manual" } });
    const no = await s.page(PAYMENT_METHOD, "PUT", "/payment-method", { payment_token: "pm_x" });
    expect(no.status).toBe(422);
    expect((await read(no)).error.message).toMatch(/cannot be changed here/);
  });

  it("gives the same results through the client API: a cancel there is undone on the page and seen there", async () => {
    const s = await setup();
    const path = `/api/access/v1/members/me/subscriptions/${s.sub.id}`;
    const q = `?key=${s.f.key}&accesstype_jwt=${s.jwt}`;
    const params = { subscription_id: String(s.sub.id) };
    expect((await call(CLIENT_CANCEL, "PUT", `${path}/cancel${q}`, params)).status).toBe(204);
    const overview = await read(
      await call(OVERVIEW, "GET", "/api/member/subscriptions", {}, undefined, { "X-QT-AUTH": s.token }),
    );
    expect(overview.subscriptions[0]).toMatchObject({ status: "cancelled", can_undo_cancel: true, cancellation: null });
    expect((await s.page(UNDO, "POST", "/undo-cancel")).status).toBe(200);
    const seen = await read(await call(CLIENT_ONE, "GET", `${path}${q}`, params));
    expect(seen.subscription).toMatchObject({ status: "active", cancelled: false, cancelled_at: null });

    // With a reason, the client API's cancel stores it as the page's does.
    expect((await call(CLIENT_CANCEL, "PUT", `${path}/cancel${q}`, params, { reason: "nope" })).status).toBe(400);
    const withReason = await call(CLIENT_CANCEL, "PUT", `${path}/cancel${q}`, params, {
      reason: "found_alternative",
      comment: "Another paper",
    });
    expect(withReason.status).toBe(204);
    const again = await read(
      await call(OVERVIEW, "GET", "/api/member/subscriptions", {}, undefined, { "X-QT-AUTH": s.token }),
    );
    expect(again.subscriptions[0]).toMatchObject({
      status: "cancelled",
      cancellation: { reason: "found_alternative", comment: "Another paper", outcome: "cancelled" },
    });
  });

  it("opens a session for the reader of a publisher-signed JWT: the page then shows that reader's subscriptions", async () => {
    const s = await setup();
    expect((await call(SESSION, "POST", `/api/member/subscriptions/session?key=${s.f.key}`, {})).status).toBe(401);
    const res = await call(SESSION, "POST", `/api/member/subscriptions/session?key=${s.f.key}&svc_jwt=${s.jwt}`, {});
    expect(res.status).toBe(200);
    expect(await read(res)).toEqual({ subscriber_id: s.ada.id });
    const token = res.headers.get("X-QT-AUTH")!;
    expect(res.headers.get("set-cookie")).toContain("HttpOnly");
    const session = await s.db.memberSession.findFirstOrThrow({
      where: { memberId: s.ada.id },
      orderBy: { createdAt: "desc" },
    });
    expect(session.expiresAt.getTime() - session.createdAt.getTime()).toBe(2 * 3_600_000);
    const overview = await read(
      await call(OVERVIEW, "GET", "/api/member/subscriptions", {}, undefined, { "X-QT-AUTH": token }),
    );
    expect((overview.subscriptions as Json[]).map((x) => x.id)).toEqual([s.sub.id]);
  });

  it("the JWT exchange sets no session cookie on a request from another site", async () => {
    const s = await setup();
    const path = `/api/member/subscriptions/session?key=${s.f.key}&svc_jwt=${s.jwt}`;
    const crossSite: Record<string, string>[] = [
      { origin: "https://evil.example.net", "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of crossSite) {
      const res = await call(SESSION, "POST", path, {}, undefined, headers);
      expect(res.status).toBe(200);
      expect(res.headers.get("X-QT-AUTH")).toBeTruthy();
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    const own = await call(SESSION, "POST", path, {}, undefined, { "sec-fetch-site": "same-origin" });
    expect(own.headers.get("set-cookie")).toContain("HttpOnly");
  });
});
