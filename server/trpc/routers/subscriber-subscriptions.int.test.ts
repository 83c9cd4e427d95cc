import { describe, expect, it } from "vitest";

import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import { getDb } from "../../db";
import { withTransaction } from "../../db/transaction";
import { endRetentionOffer } from "../../subscriptions/self-service/retention-offers";
import { selfServiceOverview } from "../../subscriptions/self-service/self-service";
import { resolveSubscriber } from "../../subscriptions/subscribers/subscribers";
import { subscriptionStatusLabel } from "../../subscriptions/subscribers/subscription-status.schema";
import { createTestTeam, trpcCodeOf } from "../../testing/staff";
import {
  insertTestGroup,
  insertTestPlan,
  insertTestSubscriber,
  insertTestSubscription,
} from "../../testing/subscription-fixtures";

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("subscriberSubscriptions router", () => {
  it("lists, filters and pages the account's subscriptions for revenue staff only", async () => {
    const db = await getDb();
    const { revenue, editor } = await createTestTeam(db, "subl", { revenue: ["REVENUE"], editor: ["EDITOR"] });
    const other = await createTestTeam(db, "subl-other", { revenue: ["REVENUE"] });
    const accountId = revenue.account.id;
    const group = await insertTestGroup(db, accountId);
    const monthly = await insertTestPlan(db, group);
    const yearly = await insertTestPlan(db, group, { title: "Yearly", durationUnit: "YEARS", priceCents: 9000 });
    const ada = await insertTestSubscriber(db, accountId, "ada@example.com");
    const bo = (await resolveSubscriber(db, { accountId, provider: "phone", identity: "+14155550123", create: true }))!;
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push(await insertTestSubscription(db, { accountId, memberId: ada.id, planId: monthly.id }));
    }
    const bos = await insertTestSubscription(db, { accountId, memberId: bo.id, planId: yearly.id, status: "PENDING" });

    const first = await revenue.caller.subscriberSubscriptions.list({ limit: 2 });
    expect(first.items.map((s) => s.id)).toEqual([bos.id, made[2]!.id]);
    const second = await revenue.caller.subscriberSubscriptions.list({ limit: 2, cursor: first.nextCursor });
    expect(second.items.map((s) => s.id)).toEqual([made[1]!.id, made[0]!.id]);
    expect(second.nextCursor).toBeNull();
    expect((await revenue.caller.subscriberSubscriptions.list({ q: "ADA@" })).items).toHaveLength(3);
    expect((await revenue.caller.subscriberSubscriptions.list({ q: "555012" })).items.map((s) => s.id)).toEqual([
      bos.id,
    ]);
    expect((await revenue.caller.subscriberSubscriptions.list({ status: "pending" })).items).toHaveLength(1);
    expect((await revenue.caller.subscriberSubscriptions.list({ planId: yearly.id })).items).toHaveLength(1);
    expect((await revenue.caller.subscriberSubscriptions.list({ memberId: ada.id })).items).toHaveLength(3);
    expect(await trpcCodeOf(revenue.caller.subscriberSubscriptions.list({ cursor: "bogus" }))).toBe("BAD_REQUEST");
    expect((await other.revenue.caller.subscriberSubscriptions.list({})).items).toEqual([]);
    expect(await trpcCodeOf(editor.caller.subscriberSubscriptions.list({}))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(other.revenue.caller.subscriberSubscriptions.get({ id: bos.id }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(other.revenue.caller.subscriberSubscriptions.cancel({ id: bos.id }))).toBe("NOT_FOUND");
    // A creation without an audit entry (made before creations were audited) still starts the timeline, once.
    expect((await revenue.caller.subscriberSubscriptions.get({ id: made[0]!.id })).timeline).toEqual([
      expect.objectContaining({ action: "subscription.create", by: "server_api" }),
    ]);
    // A creation that was audited (checkout, the server API) is listed once, from its audit entry.
    await recordAudit(db, {
      actor: systemActor(accountId, "server_api"),
      action: "subscription.create",
      targetType: "subscription",
      targetId: made[1]!.id,
      metadata: { subscriber_id: ada.id, plan_id: monthly.id },
    });
    const created = (await revenue.caller.subscriberSubscriptions.get({ id: made[1]!.id })).timeline;
    expect(created.map((e) => e.action)).toEqual(["subscription.create"]);
    expect(created[0]!.detail).toMatchObject({ plan_id: monthly.id });
  });

  it("cancels and extends with the staff user in the audit timeline, and gives a complimentary subscription", async () => {
    const db = await getDb();
    const { revenue } = await createTestTeam(db, "suba", { revenue: ["REVENUE"] });
    const accountId = revenue.account.id;
    const group = await insertTestGroup(db, accountId);
    const plan = await insertTestPlan(db, group);
    const disabled = await insertTestPlan(db, group, { title: "Old", enabled: false });

    const given = await revenue.caller.subscriberSubscriptions.grant({ email: "Cy@Example.com", planId: plan.id });
    expect(given).toMatchObject({
      status: "active",
      active: true,
      payment_type: "manual",
      payment_amount_cents: 0,
      created_by: "dashboard",
      recurring: false,
      plan_name: "Monthly",
      subscriber: { subscriber_identities: [{ provider: "email", value: "cy@example.com" }] },
    });
    for (const name of ["subscription.created", "subscription.activated", "subscriber.created"]) {
      expect(await db.webhookEvent.count({ where: { accountId, name } }), name).toBe(1);
    }
    // A second gift to the same reader: no second subscriber.created.
    await revenue.caller.subscriberSubscriptions.grant({ email: "cy@example.com", planId: plan.id });
    expect(await db.webhookEvent.count({ where: { accountId, name: "subscriber.created" } })).toBe(1);
    expect(
      await trpcCodeOf(revenue.caller.subscriberSubscriptions.grant({ email: "cy@example.com", planId: disabled.id })),
    ).toBe("UNPROCESSABLE_CONTENT");

    const to = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);
    const extended = await revenue.caller.subscriberSubscriptions.extend({ id: given.id, extendTo: to });
    expect(extended.end_timestamp).toBe(`${to}T23:59:59.999Z`);
    const cancelled = await revenue.caller.subscriberSubscriptions.cancel({ id: given.id });
    expect(cancelled).toMatchObject({ status: "cancelled", active: true });
    expect(
      await trpcCodeOf(revenue.caller.subscriberSubscriptions.extend({ id: given.id, extendTo: "indefinitely" })),
    ).toBe("UNPROCESSABLE_CONTENT");

    const detail = await revenue.caller.subscriberSubscriptions.get({ id: given.id });
    // The gift is the creation: listed once.
    expect(detail.timeline.map((e) => e.action)).toEqual([
      "subscription.grant",
      "subscription.extend",
      "subscription.cancel",
    ]);
    expect(detail.timeline[2]!.by).toBe(revenue.user.name);
    expect(detail.payments).toEqual([]);
    const audit = await db.auditLog.findFirstOrThrow({ where: { accountId, action: "subscription.cancel" } });
    expect(audit.actorId).toBe(revenue.user.id);
  });

  it("pauses a live recurring subscription for whole periods: no renewal, no access, then it resumes", async () => {
    const db = await getDb();
    const { revenue, editor } = await createTestTeam(db, "subp", { revenue: ["REVENUE"], editor: ["EDITOR"] });
    const other = await createTestTeam(db, "subp-other", { revenue: ["REVENUE"] });
    const accountId = revenue.account.id;
    const group = await insertTestGroup(db, accountId);
    const monthly = await insertTestPlan(db, group, { recurring: true });
    const oneTime = await insertTestPlan(db, group, { title: "Pass", recurring: false });
    const reader = await insertTestSubscriber(db, accountId, "pia@example.com");
    const sub = await insertTestSubscription(db, { accountId, memberId: reader.id, planId: monthly.id });
    const pass = await insertTestSubscription(db, { accountId, memberId: reader.id, planId: oneTime.id });
    const before = await db.subscription.findUniqueOrThrow({ where: { id: sub.id } });

    // Refused: bad input, another role, another account, what cannot be paused.
    expect(await trpcCodeOf(revenue.caller.subscriberSubscriptions.pause({ id: sub.id, periods: 13 }))).toBe(
      "BAD_REQUEST",
    );
    expect(await trpcCodeOf(editor.caller.subscriberSubscriptions.pause({ id: sub.id, periods: 1 }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(other.revenue.caller.subscriberSubscriptions.pause({ id: sub.id, periods: 1 }))).toBe(
      "NOT_FOUND",
    );
    expect(await trpcCodeOf(revenue.caller.subscriberSubscriptions.pause({ id: pass.id, periods: 1 }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect(await db.subscriptionCancellation.count({ where: { accountId } })).toBe(0);

    const applied = await revenue.caller.subscriberSubscriptions.pause({ id: sub.id, periods: 2 });
    expect(applied).toMatchObject({ kind: "pause", periods: 2, paused_from: before.endTimestamp!.toISOString() });
    const paused = await db.subscription.findUniqueOrThrow({ where: { id: sub.id } });
    expect(paused).toMatchObject({ status: "CANCELLED", nextPaymentDueDate: null, endTimestamp: before.endTimestamp });
    const row = await db.subscriptionCancellation.findFirstOrThrow({ where: { subscriptionId: sub.id } });
    expect(row).toMatchObject({ outcome: "paused", reason: "temporary", offer: applied });
    // Stored cancelled, shown paused until it resumes: the list, the detail and the reader's page.
    const listed = await revenue.caller.subscriberSubscriptions.list({ memberId: reader.id });
    expect(listed.items.map((s) => [s.id, s.paused_until])).toEqual([
      [pass.id, null],
      [sub.id, applied.until],
    ]);
    const shown = (await revenue.caller.subscriberSubscriptions.get({ id: sub.id })).subscription;
    expect(shown.paused_until).toBe(applied.until);
    expect(subscriptionStatusLabel(shown)).toMatchObject({ label: "Paused", paused: true });
    const page = await selfServiceOverview(db, { accountId, memberId: reader.id, now: new Date() });
    expect(page.subscriptions.find((c) => c.id === sub.id)?.paused_until).toBe(applied.until);
    expect(await db.job.count({ where: { name: "subscription.retention_offer", status: "PENDING" } })).toBe(1);
    expect(await db.auditLog.findFirstOrThrow({ where: { accountId, action: "subscription.pause" } })).toMatchObject({
      actorId: revenue.user.id,
      targetId: String(sub.id),
      metadata: { periods: 2 },
    });
    // Paused once: a second pause is refused (it no longer renews).
    expect(await trpcCodeOf(revenue.caller.subscriberSubscriptions.pause({ id: sub.id, periods: 1 }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect((await revenue.caller.retentionOffer.cancellations()).map((c) => c.outcome)).toEqual(["paused"]);

    // Paused is its own filter value and its own standing, never "cancelled"/"cancelling".
    const dropped = await insertTestSubscription(db, {
      accountId,
      memberId: reader.id,
      planId: monthly.id,
      status: "CANCELLED",
      cancelledAt: new Date(),
    });
    const ids = async (status: "paused" | "cancelled" | "expired" | "active") =>
      (await revenue.caller.subscriberSubscriptions.list({ status })).items.map((s) => s.id);
    expect(await ids("paused")).toEqual([sub.id]);
    expect(await ids("cancelled")).toEqual([dropped.id]);
    expect(await ids("expired")).toEqual([]);
    expect(await ids("active")).toEqual([pass.id]);
    expect(
      (await revenue.caller.subscriberSubscriptions.list({ status: "paused", cursor: listed.nextCursor })).items,
    ).toHaveLength(1);
    expect((await other.revenue.caller.subscriberSubscriptions.list({ status: "paused" })).items).toEqual([]);
    expect(await trpcCodeOf(revenue.caller.subscriberSubscriptions.list({ status: "pausd" as "paused" }))).toBe(
      "BAD_REQUEST",
    );
    await db.subscription.update({ where: { id: pass.id }, data: { deletedAt: new Date() } });
    const [standing] = await revenue.caller.subscribers.search({ q: "pia@example.com" });
    expect(standing?.standing).toBe("paused");
    await db.subscription.update({ where: { id: pass.id }, data: { deletedAt: null } });

    // At the pause's end the job wakes it: active, a period due at once.
    const until = new Date(applied.until);
    const woken = await withTransaction(db, (tx) =>
      endRetentionOffer(tx, { subscriptionId: sub.id, cancellationId: row.id, now: until }),
    );
    expect(woken).toBe("resumed");
    expect((await revenue.caller.subscriberSubscriptions.get({ id: sub.id })).subscription.paused_until).toBeNull();
    expect(await db.subscription.findUniqueOrThrow({ where: { id: sub.id } })).toMatchObject({
      status: "ACTIVE",
      cancelledAt: null,
      nextPaymentDueDate: until,
    });
  });
});
