import { describe, expect, it } from "vitest";

import { nextLifecycleStep, type LifecycleState } from "./lifecycle-steps";

const at = (iso: string) => new Date(iso);
const base: LifecycleState = {
  status: "ACTIVE",
  deletedAt: null,
  recurring: true,
  endTimestamp: at("2026-02-01T00:00:00Z"),
  cancelledAt: null,
  nextPaymentDueDate: at("2026-02-01T00:00:00Z"),
  graceEndsAt: null,
  chargeRetryAt: null,
  gatewayWordDueAt: null,
  renewalReminderSentAt: null,
};
const step = (s: Partial<LifecycleState>, now: string, chargeable = true) =>
  nextLifecycleStep({ ...base, ...s }, at(now), { chargeable });
const show = (r: ReturnType<typeof step>) => (r ? [r.kind, r.at.toISOString()] : null);

describe("nextLifecycleStep", () => {
  it("reminds 7 days before the payment, once per period, then charges at the due date", () => {
    expect(show(step({}, "2026-01-10T00:00:00Z"))).toEqual(["remind", "2026-01-25T00:00:00.000Z"]);
    expect(show(step({ renewalReminderSentAt: at("2026-01-25T00:00:00Z") }, "2026-01-26T00:00:00Z"))).toEqual([
      "charge",
      "2026-02-01T00:00:00.000Z",
    ]);
    // A reminder of the previous period does not count for this one.
    expect(show(step({ renewalReminderSentAt: at("2025-12-25T00:00:00Z") }, "2026-01-26T00:00:00Z"))?.[0]).toBe(
      "remind",
    );
    // Too late to remind (the payment is due): the charge, not a reminder.
    expect(show(step({}, "2026-02-01T00:00:00Z"))).toEqual(["charge", "2026-02-01T00:00:00.000Z"]);
  });

  it("charges at the trial's end, before the period's end", () => {
    const trial = { nextPaymentDueDate: at("2026-01-08T00:00:00Z"), endTimestamp: at("2026-02-08T00:00:00Z") };
    expect(show(step({ ...trial, renewalReminderSentAt: at("2026-01-01T00:00:00Z") }, "2026-01-02T00:00:00Z"))).toEqual(
      ["charge", "2026-01-08T00:00:00.000Z"],
    );
  });

  it("enters the grace period at the end when nobody charges (gateway-driven or manual)", () => {
    expect(show(step({ renewalReminderSentAt: at("2026-01-25T00:00:00Z") }, "2026-01-26T00:00:00Z", false))).toEqual([
      "enter_grace",
      "2026-02-01T00:00:00.000Z",
    ]);
  });

  it("awaits the word of a gateway that charges periods itself, then enters the grace period without it", () => {
    const selfBilled = (s: Partial<LifecycleState>, now: string) =>
      show(nextLifecycleStep({ ...base, ...s }, at(now), { chargeable: false, gatewayWordWithinMs: 86_400_000 }));
    const reminded = { renewalReminderSentAt: at("2026-01-25T00:00:00Z") };
    expect(selfBilled(reminded, "2026-01-26T00:00:00Z")).toEqual(["await_gateway", "2026-02-01T00:00:00.000Z"]);
    // Awaiting: the grace period (with its e-mail) only when the word is due and none came.
    const waiting = {
      ...reminded,
      gatewayWordDueAt: at("2026-02-02T00:00:00Z"),
      graceEndsAt: at("2026-02-02T00:00:00Z"),
    };
    expect(selfBilled(waiting, "2026-02-01T01:00:00Z")).toEqual(["enter_grace", "2026-02-02T00:00:00.000Z"]);
    // Cancelled while awaiting: it ends when the word was due.
    expect(selfBilled({ ...waiting, cancelledAt: at("2026-02-01T02:00:00Z") }, "2026-02-01T03:00:00Z")).toEqual([
      "expire",
      "2026-02-02T00:00:00.000Z",
    ]);
    // A cancelled subscription, or a gateway Masthead charges through, does not wait.
    expect(selfBilled({ ...reminded, cancelledAt: at("2026-01-20T00:00:00Z") }, "2026-01-26T00:00:00Z")?.[0]).toBe(
      "expire",
    );
    expect(
      show(nextLifecycleStep({ ...base, ...reminded }, at("2026-01-26T00:00:00Z"), { chargeable: false }))?.[0],
    ).toBe("enter_grace");
  });

  it("billed elsewhere: no reminder, charge or grace period; it expires at its end (or an open grace's end)", () => {
    const elsewhere = (s: Partial<LifecycleState>, now: string) =>
      show(nextLifecycleStep({ ...base, ...s }, at(now), { chargeable: false, billedElsewhere: true }));
    expect(elsewhere({}, "2026-01-10T00:00:00Z")).toEqual(["expire", "2026-02-01T00:00:00.000Z"]);
    expect(elsewhere({}, "2026-02-03T00:00:00Z")).toEqual(["expire", "2026-02-01T00:00:00.000Z"]);
    expect(elsewhere({ graceEndsAt: at("2026-02-08T00:00:00Z") }, "2026-02-03T00:00:00Z")).toEqual([
      "expire",
      "2026-02-08T00:00:00.000Z",
    ]);
    expect(elsewhere({ endTimestamp: null }, "2026-01-10T00:00:00Z")).toBeNull();
    expect(elsewhere({ status: "EXPIRED" }, "2026-01-10T00:00:00Z")).toBeNull();
  });

  it("expires at the grace period's end, and cancelled or one-time subscriptions at their end", () => {
    expect(show(step({ graceEndsAt: at("2026-02-08T00:00:00Z") }, "2026-02-02T00:00:00Z"))).toEqual([
      "expire",
      "2026-02-08T00:00:00.000Z",
    ]);
    expect(
      show(step({ status: "CANCELLED", cancelledAt: at("2026-01-05T00:00:00Z") }, "2026-01-26T00:00:00Z")),
    ).toEqual(["expire", "2026-02-01T00:00:00.000Z"]);
    expect(show(step({ recurring: false, nextPaymentDueDate: null }, "2026-01-10T00:00:00Z"))).toEqual([
      "remind",
      "2026-01-25T00:00:00.000Z",
    ]);
    expect(
      show(
        step(
          { recurring: false, nextPaymentDueDate: null, renewalReminderSentAt: at("2026-01-25T00:00:00Z") },
          "2026-01-26T00:00:00Z",
        ),
      ),
    ).toEqual(["expire", "2026-02-01T00:00:00.000Z"]);
  });

  it("in grace after a failed charge: retries at charge_retry_at, before the grace period's end", () => {
    const grace = { endTimestamp: at("2026-02-01T00:00:00Z"), graceEndsAt: at("2026-02-08T00:00:00Z") };
    expect(show(step({ ...grace, chargeRetryAt: at("2026-02-02T00:00:00Z") }, "2026-02-01T12:00:00Z"))).toEqual([
      "retry_charge",
      "2026-02-02T00:00:00.000Z",
    ]);
    // No retry left, a retry at the grace end (too late), nobody to charge, or cancelled: the expiry.
    for (const s of [
      { ...grace },
      { ...grace, chargeRetryAt: at("2026-02-08T00:00:00Z") },
      { ...grace, status: "CANCELLED" as const, cancelledAt: at("2026-02-01T06:00:00Z") },
    ])
      expect(show(step(s, "2026-02-01T12:00:00Z"))?.[0]).toBe("expire");
    expect(
      show(step({ ...grace, chargeRetryAt: at("2026-02-02T00:00:00Z") }, "2026-02-01T12:00:00Z", false))?.[0],
    ).toBe("expire");
  });

  it("has nothing to do for expired, failed, pending, deleted or endless subscriptions", () => {
    for (const s of [
      { status: "EXPIRED" as const },
      { status: "FAILED" as const },
      { status: "PENDING" as const },
      { deletedAt: at("2026-01-01T00:00:00Z") },
      { endTimestamp: null, nextPaymentDueDate: null },
    ])
      expect(step(s, "2026-01-10T00:00:00Z")).toBeNull();
  });
});
