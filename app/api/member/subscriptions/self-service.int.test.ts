/**
 * The self-service page's API (docs/subscriptions.md "Self-service page"), on PGlite and
 * PostgreSQL: a signed-in member's subscriptions and invoices; a plan switch previewed in words
 * and honoured as previewed, refused when the price changed, once on a double submit; cancel with
 * a reason (stored, in the webhook), the retention offer instead (coupon, pause), undo; the
 * payment method replaced through the gateway and used by the next renewal; and the client API
 * (spec §4.3) giving the same results on the same reader.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import type { ApiUser } from "@/server/auth/api-auth";
import { formatInstant } from "@/server/dates.schema";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { withTransaction } from "@/server/db/transaction";
import { findOrCreateJwtMember } from "@/server/members/identities";
import { createMemberSession } from "@/server/members/sessions";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { advanceSubscription } from "@/server/subscriptions/lifecycle";
import {
  PaymentAdapterError,
  type PaymentAdapter,
  type RecurringCharge,
} from "@/server/subscriptions/payments/adapter";
import { paymentAdapterFor, registerPaymentAdapter } from "@/server/subscriptions/payments/registry";
import { endRetentionOffer } from "@/server/subscriptions/retention-offers";
import { createCheckoutFixture } from "@/server/testing/checkout";
import { call } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";
import { insertSelfServiceSubscription, insertTestPlan } from "@/server/testing/subscription-fixtures";

import { PUT as CLIENT_CANCEL } from "../../access/v1/members/me/subscriptions/[subscription_id]/cancel/route";
import { GET as CLIENT_ONE } from "../../access/v1/members/me/subscriptions/[subscription_id]/route";
import { GET as CREDIT_NOTE } from "../credit-notes/[credit_note_file]/route";
import { GET as INVOICE } from "../invoices/[invoice_file]/route";
import { POST as CANCEL } from "./[subscription_id]/cancel/route";
import { PUT as PAYMENT_METHOD } from "./[subscription_id]/payment-method/route";
import { POST as OFFER } from "./[subscription_id]/retention-offer/route";
import { POST as SWITCH_PREVIEW } from "./[subscription_id]/switch/preview/route";
import { POST as SWITCH } from "./[subscription_id]/switch/route";
import { POST as UNDO } from "./[subscription_id]/undo-cancel/route";
import { GET as OVERVIEW } from "./route";
import { POST as SESSION } from "./session/route";

const DAY = 86_400_000;

/** "selfpay": a gateway that charges renewals itself and takes new payment methods, recording both. */
const charges: RecurringCharge[] = [];
const selfpay: PaymentAdapter = {
  paymentTypes: ["selfpay"],
  provider: null,
  takesPayment: true,
  callers: "any",
  async preparePayment() {
    return { externalReferenceId: null };
  },
  async verifyPayment() {
    return { status: "failed", externalPaymentId: null, externalOrderId: null, reason: "not in these tests" };
  },
  async chargeRecurring(_creds, charge) {
    charges.push(charge);
    return { status: "captured", externalPaymentId: `selfpay_${charge.idempotencyKey}` };
  },
  async refund(_creds, request) {
    return { externalRefundId: `selfpay_refund_${request.refundId}` };
  },
  async updatePaymentMethod(_creds, update) {
    if (update.proof.paymentToken === "pm_declined")
      throw new PaymentAdapterError("The card was declined.", "declined");
    return { paymentToken: update.proof.paymentToken, label: `Card ${update.proof.paymentToken.slice(3)}` };
  },
  webhookRequestAuthorized: () => false,
  webhookEventTypeMapping: () => ({}),
  webhookEventDetails() {
    throw new PaymentAdapterError("no webhooks", "invalid");
  },
};

beforeAll(() => {
  if (!paymentAdapterFor("selfpay")) registerPaymentAdapter(selfpay);
});
// Ids restart with every test's empty database: the charges are this test's.
beforeEach(() => {
  charges.length = 0;
});

// The answers' JSON is read loosely in assertions (the routes' own types are the services').
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const user = (id: string): ApiUser => ({ id, name: "Ada", email: null, avatarUrl: null, provider: null });

async function setup(opts: { recurring?: boolean; paymentType?: string } = {}) {
  forgetPublisherCache();
  const db = await getDb();
  const f = await createCheckoutFixture(db);
  const recurring = opts.recurring ?? true;
  const monthly = await insertTestPlan(db, f.group, { title: "Standard", priceCents: 1000, recurring });
  const premium = await insertTestPlan(db, f.group, { title: "Premium", priceCents: 1200, recurring });
  // The JWT reader of the client API and the session member of the page are one member.
  const {
    member: ada,
    jwt,
    token,
    sub,
  } = await insertSelfServiceSubscription(db, {
    accountId: f.account.id,
    planId: monthly.id,
    paymentType: opts.paymentType ?? "selfpay",
  });
  const page = (handler: Parameters<typeof call>[0], method: string, tail: string, body?: unknown, t = token) =>
    call(handler, method, `/api/member/subscriptions/${sub.id}${tail}`, { subscription_id: String(sub.id) }, body, {
      "X-QT-AUTH": t,
    });
  return { db, f, monthly, premium, ada, jwt, token, sub, page };
}

async function read(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

async function renew(db: Db, subscriptionId: number, now: Date) {
  return withTransaction(db, (tx) => advanceSubscription(tx, { subscriptionId, now }));
}

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
      period: "month",
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

  it("with proration off, previews a recurring switch for the period end in words, honours it, once on a double submit", async () => {
    const s = await setup();
    await s.db.subscriptionGroup.update({ where: { id: s.f.group.id }, data: { prorationEnabled: false } });
    // The words name the time in the account's zone: the preview and the confirm say the same instant.
    await s.db.account.update({ where: { id: s.f.account.id }, data: { timeZone: "Asia/Tokyo" } });
    const preview = await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", { subscription_plan_id: s.premium.id });
    const p = await read(preview);
    expect(preview.status, JSON.stringify(p)).toBe(200);
    const end = s.sub.endTimestamp!;
    const day = formatInstant(end, "Asia/Tokyo");
    expect(day).toMatch(/ GMT\+9$/);
    expect(p.words).toBe(
      `Nothing to pay now. You keep your current plan until ${day}; from then you pay $12.00 per month for Premium.`,
    );
    expect(p.switch).toMatchObject({ applies: "scheduled", price_cents: 1200, currency: "USD" });
    expect(p.needs_payment).toBe(false);

    const [a, b] = await Promise.all([
      s.page(SWITCH, "POST", "/switch", { attempt_token: p.attempt_token }),
      s.page(SWITCH, "POST", "/switch", { attempt_token: p.attempt_token }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await read(a)).message).toBe(`Done: your plan changes to Premium on ${day}.`);
    const after = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(after.scheduledPlanId).toBe(s.premium.id);
    expect(after.scheduledSwitchAt?.toISOString()).toBe(p.switch.applies_at);
    expect(after.scheduledSwitch).toMatchObject({ price_cents: 1200 });
    expect(
      await s.db.auditLog.count({ where: { action: "subscription.schedule_switch", targetId: String(s.sub.id) } }),
    ).toBe(1);

    // At the period end the renewal charges exactly the previewed price, on the new plan.
    await renew(s.db, s.sub.id, new Date(end.getTime() + 1000));
    const renewed = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(renewed.planId).toBe(s.premium.id);
    expect(charges.filter((c) => c.subscriptionId === s.sub.id).map((c) => c.amountCents)).toEqual([1200]);
  });

  it("names times in the reader's zone when the page sends it, the preview and the confirm alike; refuses a zone that is not one", async () => {
    const s = await setup();
    await s.db.subscriptionGroup.update({ where: { id: s.f.group.id }, data: { prorationEnabled: false } });
    await s.db.account.update({ where: { id: s.f.account.id }, data: { timeZone: "Asia/Tokyo" } });
    const zone = "?time_zone=America%2FNew_York";
    const overview = await read(
      await call(OVERVIEW, "GET", `/api/member/subscriptions${zone}`, {}, undefined, { "X-QT-AUTH": s.token }),
    );
    const next = s.sub.nextPaymentDueDate ?? s.sub.endTimestamp!;
    expect(overview.subscriptions[0].summary).toBe(
      `Next payment: $10.00 on ${formatInstant(next, "America/New_York")}.`,
    );
    expect(overview.subscriptions[0].summary).toMatch(/ GMT-[45]\.$/);

    const attempts = () => s.db.subscriptionAttempt.count({ where: { accountId: s.f.account.id } });
    const before = await attempts();
    const refused = await s.page(SWITCH_PREVIEW, "POST", "/switch/preview?time_zone=Mars%2FOlympus", {
      subscription_plan_id: s.premium.id,
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await read(refused))).toContain("time_zone");
    expect(await attempts()).toBe(before);

    const p = await read(
      await s.page(SWITCH_PREVIEW, "POST", `/switch/preview${zone}`, { subscription_plan_id: s.premium.id }),
    );
    const at = formatInstant(s.sub.endTimestamp!, "America/New_York");
    expect(p.words).toBe(
      `Nothing to pay now. You keep your current plan until ${at}; from then you pay $12.00 per month for Premium.`,
    );
    const done = await read(await s.page(SWITCH, "POST", `/switch${zone}`, { attempt_token: p.attempt_token }));
    expect(done.message).toBe(`Done: your plan changes to Premium on ${at}.`);
  });

  it("refuses a confirm whose plan price changed since the preview, and changes nothing", async () => {
    const s = await setup();
    const p = await read(
      await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", { subscription_plan_id: s.premium.id }),
    );
    await s.db.subscriptionPlan.update({
      where: { id: s.premium.id },
      data: { priceCents: 1500, prices: { USD: { amount_cents: 1500 } } },
    });
    const res = await s.page(SWITCH, "POST", "/switch", { attempt_token: p.attempt_token });
    const body = await read(res);
    expect(res.status).toBe(409);
    expect(body.error.message).toMatch(/price of "Premium" changed since your preview; nothing was charged/);
    const after = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(after.scheduledPlanId).toBeNull();
    // A recurring switch applied now (proration on): nothing charged, the plan unchanged.
    expect(after.planId).toBe(s.monthly.id);
    expect(charges).toHaveLength(0);
    // A fresh preview shows the new price.
    const again = await read(
      await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", { subscription_plan_id: s.premium.id }),
    );
    expect(again.words).toContain("your next charge of $15.00");
  });

  it("says a one-time switch's prorated charge now, and refuses a plan of another group", async () => {
    const s = await setup({ recurring: false, paymentType: "testpay" });
    const p = await read(
      await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", { subscription_plan_id: s.premium.id }),
    );
    expect(p.switch.applies).toBe("now");
    const charge = p.chargeable_amount_cents as number;
    expect(charge).toBe(1200 - (p.switch.credit_cents as number));
    expect(p.words).toBe(
      `You pay $${(charge / 100).toFixed(2)} now ($12.00 less $${((p.switch.credit_cents as number) / 100).toFixed(2)} for the unused part of your plan), and Premium starts today for 1 month.`,
    );
    expect(p.needs_payment).toBe(true);
    // Without the gateway's payment the switch is refused, and nothing changes.
    expect((await s.page(SWITCH, "POST", "/switch", { attempt_token: p.attempt_token })).status).toBe(422);
    const bad = await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", {
      subscription_plan_id: s.f.monthly.id + 10_000,
    });
    expect(bad.status).toBe(422);
    expect((await s.page(SWITCH_PREVIEW, "POST", "/switch/preview", { subscription_plan_id: "x" })).status).toBe(400);
  });

  it("cancels with a reason: stored, in the audit row and the webhook, once; undo before the end", async () => {
    const s = await setup();
    const bad = await s.page(CANCEL, "POST", "/cancel", { reason: "because" });
    expect(bad.status).toBe(400);
    const res = await s.page(CANCEL, "POST", "/cancel", { reason: "too_expensive", comment: "  Prices went up  " });
    const body = await read(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.subscription).toMatchObject({ status: "cancelled", cancelled: true });
    expect((await s.page(CANCEL, "POST", "/cancel", { reason: "other" })).status).toBe(200);
    const rows = await s.db.subscriptionCancellation.findMany({ where: { subscriptionId: s.sub.id } });
    expect(rows).toEqual([
      expect.objectContaining({ reason: "too_expensive", comment: "Prices went up", outcome: "cancelled" }),
    ]);
    const event = await s.db.webhookEvent.findFirstOrThrow({ where: { name: "subscription.cancelled" } });
    expect((event.payload as Json).cancellation).toEqual({ reason: "too_expensive", comment: "Prices went up" });
    const audit = await s.db.auditLog.findFirstOrThrow({
      where: { action: "subscription.cancel", targetId: String(s.sub.id) },
    });
    expect(audit.metadata).toMatchObject({ reason: "too_expensive" });
    const staff = await createTestStaff(s.db, { roles: ["REVENUE"], account: s.f.account.id });
    expect(await staff.caller.retentionOffer.cancellations()).toEqual([
      expect.objectContaining({
        subscription_id: s.sub.id,
        reason_label: "It costs too much",
        comment: "Prices went up",
        outcome: "cancelled",
        undone: false,
      }),
    ]);

    const overview = await read(
      await call(OVERVIEW, "GET", "/api/member/subscriptions", {}, undefined, { "X-QT-AUTH": s.token }),
    );
    expect(overview.subscriptions[0]).toMatchObject({
      can_undo_cancel: true,
      cancellation: { reason: "too_expensive" },
    });
    expect(overview.subscriptions[0].summary).toMatch(/^Cancelled: you keep access until /);

    const undone = await s.page(UNDO, "POST", "/undo-cancel");
    expect(undone.status).toBe(200);
    const after = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(after).toMatchObject({ status: "ACTIVE", cancelledAt: null, nextPaymentDueDate: s.sub.endTimestamp });
    expect(
      (await s.db.subscriptionCancellation.findFirstOrThrow({ where: { subscriptionId: s.sub.id } })).undoneAt,
    ).not.toBeNull();
    expect(await s.db.webhookEvent.count({ where: { name: "subscription.activated" } })).toBe(1);
    // Not cancelled any more: nothing to undo.
    expect((await s.page(UNDO, "POST", "/undo-cancel")).status).toBe(422);
    // The renewal charges again at the period end.
    await renew(s.db, s.sub.id, new Date(s.sub.endTimestamp!.getTime() + 1000));
    expect(charges.filter((c) => c.subscriptionId === s.sub.id)).toHaveLength(1);
  });

  it("refuses an undo once the period has ended", async () => {
    const s = await setup();
    await s.page(CANCEL, "POST", "/cancel", { reason: "not_using" });
    await s.db.subscription.update({ where: { id: s.sub.id }, data: { endTimestamp: new Date(Date.now() - 1000) } });
    const res = await s.page(UNDO, "POST", "/undo-cancel");
    expect(res.status).toBe(422);
    expect((await read(res)).error.message).toMatch(/period has ended/);
  });

  it("takes the coupon offer instead of cancelling: the next N charges discounted, then the full price", async () => {
    const s = await setup();
    expect((await s.page(OFFER, "POST", "/retention-offer", { reason: "too_expensive" })).status).toBe(422); // none set
    const coupon = await s.db.coupon.create({
      data: {
        accountId: s.f.account.id,
        code: "STAY50",
        discountType: "PERCENT",
        percentOff: 50,
        validFrom: new Date(0),
        maxRedemptionsPerSubscriber: 1,
      },
    });
    const staff = await createTestStaff(s.db, { roles: ["REVENUE"], account: s.f.account.id });
    const other = await s.db.coupon.create({
      data: {
        accountId: (await createTestPublisher(s.db)).id,
        code: "ELSEWHERE",
        discountType: "PERCENT",
        percentOff: 90,
        validFrom: new Date(0),
      },
    });
    await expect(
      staff.caller.retentionOffer.update({ kind: "coupon", coupon_id: other.id, periods: 2, enabled: true }),
    ).rejects.toThrow(/Choose one of your coupons/);
    await staff.caller.retentionOffer.update({ kind: "coupon", coupon_id: coupon.id, periods: 2, enabled: true });
    expect(await staff.caller.retentionOffer.get()).toEqual({
      kind: "coupon",
      coupon_id: coupon.id,
      periods: 2,
      enabled: true,
    });
    const offerShown = async () =>
      (await read(await call(OVERVIEW, "GET", "/api/member/subscriptions", {}, undefined, { "X-QT-AUTH": s.token })))
        .subscriptions[0].offer;
    // A reader who used the coupon as many times as it allows one reader is not offered it.
    const used = await s.db.couponRedemption.create({
      data: { accountId: s.f.account.id, couponId: coupon.id, subscriberId: String(s.ada.id) },
    });
    expect(await offerShown()).toBeNull();
    await s.db.couponRedemption.delete({ where: { id: used.id } });
    expect(await offerShown()).toEqual({
      kind: "coupon",
      periods: 2,
      words: "Stay and get 50% off your next 2 payments.",
    });
    // A double submit takes the offer once: the second waits for the row lock and finds it taken.
    const [res, twice] = await Promise.all([
      s.page(OFFER, "POST", "/retention-offer", { reason: "too_expensive", comment: "cheaper please" }),
      s.page(OFFER, "POST", "/retention-offer", { reason: "too_expensive", comment: "cheaper please" }),
    ]);
    expect([res.status, twice.status].sort()).toEqual([200, 422]);
    const body = await read(res.status === 200 ? res : twice);
    expect(await s.db.subscriptionCancellation.count({ where: { subscriptionId: s.sub.id } })).toBe(1);
    expect((await s.db.coupon.findUniqueOrThrow({ where: { id: coupon.id } })).redemptionsCount).toBe(1);
    expect(await s.db.couponRedemption.count({ where: { couponId: coupon.id } })).toBe(1);
    expect(body.subscription).toMatchObject({ status: "active", cancelled: false, payment_amount_cents: 500 });
    expect(await s.db.subscriptionCancellation.findFirstOrThrow({ where: { subscriptionId: s.sub.id } })).toMatchObject(
      {
        outcome: "offer_accepted",
        reason: "too_expensive",
      },
    );
    // Once per subscription.
    expect((await s.page(OFFER, "POST", "/retention-offer", { reason: "too_expensive" })).status).toBe(422);

    // Two renewals at 5.00, then the job puts 10.00 back before the third.
    let at = new Date(s.sub.endTimestamp!.getTime() + 1000);
    await renew(s.db, s.sub.id, at);
    at = new Date(
      (await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } })).nextPaymentDueDate!.getTime() + 1000,
    );
    await renew(s.db, s.sub.id, at);
    const job = await s.db.job.findFirstOrThrow({ where: { name: "subscription.retention_offer", status: "PENDING" } });
    expect(job.runAt.getTime()).toBeGreaterThan(at.getTime());
    const payload = job.payload as { subscriptionId: number; cancellationId: number };
    expect(await withTransaction(s.db, (tx) => endRetentionOffer(tx, { ...payload, now: job.runAt }))).toBe("restored");
    const sub = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(sub.paymentAmountCents).toBe(1000);
    await renew(s.db, s.sub.id, new Date(sub.nextPaymentDueDate!.getTime() + 1000));
    expect(charges.filter((c) => c.subscriptionId === s.sub.id).map((c) => c.amountCents)).toEqual([500, 500, 1000]);
  });

  it("takes the pause offer: no renewal at the end, woken and charged when the pause ends", async () => {
    const s = await setup();
    const staff = await createTestStaff(s.db, { roles: ["REVENUE"], account: s.f.account.id });
    await staff.caller.retentionOffer.update({ kind: "pause", periods: 2, enabled: true });
    const res = await s.page(OFFER, "POST", "/retention-offer", { reason: "temporary" });
    const body = await read(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.offer).toMatchObject({ kind: "pause", periods: 2, paused_from: s.sub.endTimestamp!.toISOString() });
    const card = async () =>
      (await read(await call(OVERVIEW, "GET", "/api/member/subscriptions", {}, undefined, { "X-QT-AUTH": s.token })))
        .subscriptions[0];
    expect(await card()).toMatchObject({
      paused_until: body.offer.until,
      can_undo_cancel: true,
      summary: expect.stringMatching(
        /^Paused after \d+ \w{3} \d{4}, \d{2}:\d{2} UTC: nothing to pay until it resumes on \d+ \w{3} \d{4}, \d{2}:\d{2} UTC\.$/,
      ),
    });
    await renew(s.db, s.sub.id, new Date(s.sub.endTimestamp!.getTime() + 1000));
    expect((await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } })).status).toBe("EXPIRED");
    expect(charges.filter((c) => c.subscriptionId === s.sub.id)).toHaveLength(0);

    const job = await s.db.job.findFirstOrThrow({ where: { name: "subscription.retention_offer", status: "PENDING" } });
    expect(job.runAt.toISOString()).toBe(body.offer.until);
    const payload = job.payload as { subscriptionId: number; cancellationId: number };
    expect(await withTransaction(s.db, (tx) => endRetentionOffer(tx, { ...payload, now: job.runAt }))).toBe("resumed");
    const woke = await s.db.webhookEvent.findFirstOrThrow({ where: { name: "subscription.activated" } });
    expect(woke.payload).toMatchObject({ resumed_from_pause: true });
    await renew(s.db, s.sub.id, new Date(job.runAt.getTime() + 1000));
    const woken = await s.db.subscription.findUniqueOrThrow({ where: { id: s.sub.id } });
    expect(woken.status).toBe("ACTIVE");
    expect(woken.endTimestamp!.getTime()).toBeGreaterThan(job.runAt.getTime() + 27 * DAY);
    expect(charges.filter((c) => c.subscriptionId === s.sub.id).map((c) => c.amountCents)).toEqual([1000]);
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
});
