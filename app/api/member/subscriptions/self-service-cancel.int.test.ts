/**
 * Cancelling on the self-service page's API, on PGlite and PostgreSQL: with a reason (stored, in
 * the audit row and the webhook, once), undone before the period ends and not after; the
 * retention offer taken instead, once: a coupon on the next N charges, then the full price, or a
 * pause with no renewal until it ends.
 */
import { describe, expect, it } from "vitest";

import { withTransaction } from "@/server/db/transaction";
import { endRetentionOffer } from "@/server/subscriptions/self-service/retention-offers";
import { call } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { read, renew, setupSelfService, withSelfpayGateway, type Json } from "@/server/testing/self-service";
import { createTestStaff } from "@/server/testing/staff";

import { POST as CANCEL } from "./[subscription_id]/cancel/route";
import { POST as OFFER } from "./[subscription_id]/retention-offer/route";
import { POST as UNDO } from "./[subscription_id]/undo-cancel/route";
import { GET as OVERVIEW } from "./route";

// The answers' JSON is read loosely in assertions (the routes' own types are the services').
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return */
const charges = withSelfpayGateway();
const setup = setupSelfService;
const DAY = 86_400_000;

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("the self-service page's API", () => {
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
});
