/**
 * The subscription catalogue's rules, on PGlite and PostgreSQL: plans, groups, coupons and tax
 * rules that break a rule are refused (422, or 400 for a bad shape) and write nothing; another
 * account's rows are not found; a group's proration of switches is on unless turned off; every
 * change is audited on the account; the dashboard's procedures are for REVENUE staff and owners.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { createCoupon, updateCoupon } from "@/server/subscriptions/catalogue/coupons";
import { createGroup, updateGroup } from "@/server/subscriptions/catalogue/groups";
import { createPlan, updatePlan } from "@/server/subscriptions/catalogue/plans";
import { createTaxRule } from "@/server/subscriptions/catalogue/taxes";
import { appErrorCodeOf } from "@/server/testing/app-errors";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";
import { catalogue, monthly, publisher } from "@/server/testing/subscription-catalogue";

describe("catalogue rules and audit", () => {
  it("refuses plans that break a rule (422) and bad shapes (400), writing nothing", async () => {
    const db = await getDb();
    const c = await catalogue(db);
    const before = await db.subscriptionPlan.count({ where: { accountId: c.account.id } });
    const code = (input: Record<string, unknown>) =>
      appErrorCodeOf(createPlan(db, { actor: c.actor, input: monthly(c.standard.id, input) }));
    expect(await code({ durationUnit: "lifetime", recurring: true })).toBe("UNPROCESSABLE");
    expect(
      await code({ recurring: false, trialPeriodEnabled: true, maxTrialPeriodLength: 7, maxTrialPeriodUnit: "days" }),
    ).toBe("UNPROCESSABLE");
    expect(await code({ trialPeriodEnabled: true })).toBe("UNPROCESSABLE");
    expect(await code({ userLimit: 3 })).toBe("UNPROCESSABLE");
    expect(await code({ prices: { EUR: { amount_cents: 5 } } })).toBe("UNPROCESSABLE");
    expect(await code({ priceCents: 9.5 })).toBe("BAD_REQUEST");
    expect(await code({ priceCents: -1 })).toBe("BAD_REQUEST");
    expect(await code({ priceCurrency: "EURO" })).toBe("BAD_REQUEST");
    expect(await code({ durationUnit: "days" })).toBe("BAD_REQUEST");
    expect(await appErrorCodeOf(createPlan(db, { actor: c.actor, input: monthly(c.team.id) }))).toBe("UNPROCESSABLE");
    expect(await code({ trialPeriodEnabled: true, maxTrialPeriodLength: 14, maxTrialPeriodUnit: "days" })).toBe("OK");
    expect(await db.subscriptionPlan.count({ where: { accountId: c.account.id } })).toBe(before + 1);

    // An update is checked on the merged record.
    expect(
      await appErrorCodeOf(updatePlan(db, { actor: c.actor, input: { id: c.live.id, durationUnit: "lifetime" } })),
    ).toBe("UNPROCESSABLE");
    const changed = await updatePlan(db, { actor: c.actor, input: { id: c.live.id, priceCents: 1299 } });
    expect(changed.prices).toEqual({ EUR: { amount_cents: 1299 }, USD: { amount_cents: 1099 } });

    // Another account's plan or group is not found.
    const other = await publisher(db);
    expect(await appErrorCodeOf(updatePlan(db, { actor: other.actor, input: { id: c.live.id, title: "x" } }))).toBe(
      "NOT_FOUND",
    );
    expect(await appErrorCodeOf(createPlan(db, { actor: other.actor, input: monthly(c.standard.id) }))).toBe(
      "NOT_FOUND",
    );
    expect(
      await appErrorCodeOf(createGroup(db, { actor: other.actor, input: { name: "x", assetIds: [c.asset.id] } })),
    ).toBe("UNPROCESSABLE");
  });

  it("groups: campaign needs a target > 0; type changes keep plans consistent", async () => {
    const db = await getDb();
    const c = await catalogue(db);
    expect(
      await appErrorCodeOf(
        createGroup(db, {
          actor: c.actor,
          input: { name: "C", subscriptionType: "campaign", currency: "EUR", targetAmountCents: 0 },
        }),
      ),
    ).toBe("UNPROCESSABLE");
    expect(
      await appErrorCodeOf(
        createGroup(db, { actor: c.actor, input: { name: "C", subscriptionType: "campaign", targetAmountCents: 100 } }),
      ),
    ).toBe("UNPROCESSABLE");
    expect(
      await appErrorCodeOf(createGroup(db, { actor: c.actor, input: { name: "S", targetAmountCents: 100 } })),
    ).toBe("UNPROCESSABLE");
    expect(
      await appErrorCodeOf(updateGroup(db, { actor: c.actor, input: { id: c.team.id, subscriptionType: "standard" } })),
    ).toBe("UNPROCESSABLE");
    expect(
      await appErrorCodeOf(updateGroup(db, { actor: c.actor, input: { id: c.standard.id, name: "Digital+" } })),
    ).toBe("OK");
  });

  it("groups: proration of plan switches is on by default and is turned off and on again", async () => {
    const db = await getDb();
    const c = await catalogue(db);
    const made = await createGroup(db, { actor: c.actor, input: { name: "Prorated" } });
    expect(made.proration_enabled).toBe(true);
    const off = await updateGroup(db, { actor: c.actor, input: { id: made.id, prorationEnabled: false } });
    expect(off.proration_enabled).toBe(false);
    expect((await db.subscriptionGroup.findUniqueOrThrow({ where: { id: made.id } })).prorationEnabled).toBe(false);
    // Another change leaves it as it is; a non-boolean is refused.
    expect((await updateGroup(db, { actor: c.actor, input: { id: made.id, name: "Renamed" } })).proration_enabled).toBe(
      false,
    );
    expect(
      await appErrorCodeOf(
        updateGroup(db, { actor: c.actor, input: { id: made.id, prorationEnabled: "no" as unknown as boolean } }),
      ),
    ).toBe("BAD_REQUEST");
    const on = await createGroup(db, { actor: c.actor, input: { name: "Scheduled", prorationEnabled: false } });
    expect(on.proration_enabled).toBe(false);
  });

  it("coupons: percent 1-100, fixed with a currency, dates in order, code unique per account", async () => {
    const db = await getDb();
    const c = await catalogue(db);
    const base = {
      code: "welcome-10",
      discountType: "percent" as const,
      percentOff: 10,
      validFrom: "2026-01-01T00:00:00Z",
      planIds: [c.live.id],
    };
    const coupon = await createCoupon(db, { actor: c.actor, input: base });
    expect(coupon).toMatchObject({ code: "WELCOME-10", percentOff: 10, redemptionsCount: 0, planIds: [c.live.id] });
    expect(await appErrorCodeOf(createCoupon(db, { actor: c.actor, input: { ...base, code: "WELCOME-10" } }))).toBe(
      "CONFLICT",
    );
    expect(
      await appErrorCodeOf(createCoupon(db, { actor: c.actor, input: { ...base, code: "P0", percentOff: 10 } })),
    ).toBe("BAD_REQUEST");
    expect(
      await appErrorCodeOf(createCoupon(db, { actor: c.actor, input: { ...base, code: "P101", percentOff: 101 } })),
    ).toBe("UNPROCESSABLE");
    expect(
      await appErrorCodeOf(createCoupon(db, { actor: c.actor, input: { ...base, code: "P000", percentOff: 0 } })),
    ).toBe("UNPROCESSABLE");
    expect(
      await appErrorCodeOf(
        createCoupon(db, {
          actor: c.actor,
          input: { ...base, code: "FIX1", discountType: "fixed", percentOff: null, amountOffCents: 500 },
        }),
      ),
    ).toBe("UNPROCESSABLE");
    expect(
      await appErrorCodeOf(
        createCoupon(db, {
          actor: c.actor,
          input: {
            ...base,
            code: "FIX2",
            discountType: "fixed",
            percentOff: null,
            amountOffCents: 500,
            amountCurrency: "EUR",
          },
        }),
      ),
    ).toBe("OK");
    expect(
      await appErrorCodeOf(
        createCoupon(db, { actor: c.actor, input: { ...base, code: "LATE", validUntil: "2025-12-31T00:00:00Z" } }),
      ),
    ).toBe("UNPROCESSABLE");
    expect(
      await appErrorCodeOf(createCoupon(db, { actor: c.actor, input: { ...base, code: "ELSE", planIds: [999_999] } })),
    ).toBe("UNPROCESSABLE");
    expect(await appErrorCodeOf(updateCoupon(db, { actor: c.actor, input: { id: coupon.id, percentOff: 150 } }))).toBe(
      "UNPROCESSABLE",
    );
    // Another account may use the same code.
    const other = await publisher(db);
    expect(await appErrorCodeOf(createCoupon(db, { actor: other.actor, input: { ...base, planIds: [] } }))).toBe("OK");
    // Two concurrent creates of one code: exactly one.
    const results = await Promise.allSettled([
      createCoupon(db, { actor: c.actor, input: { ...base, code: "RACE" } }),
      createCoupon(db, { actor: c.actor, input: { ...base, code: "RACE" } }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await db.coupon.count({ where: { accountId: c.account.id, code: "RACE" } })).toBe(1);
  });

  it("tax rules: basis points 0-10000, a region needs a country", async () => {
    const db = await getDb();
    const c = await catalogue(db);
    expect(
      await createTaxRule(db, {
        actor: c.actor,
        input: { name: "GST", rateBasisPoints: 1800, country: "in", inclusive: true },
      }),
    ).toMatchObject({ country: "IN", rateBasisPoints: 1800 });
    expect(
      await appErrorCodeOf(createTaxRule(db, { actor: c.actor, input: { name: "X", rateBasisPoints: 10_001 } })),
    ).toBe("BAD_REQUEST");
    expect(
      await appErrorCodeOf(
        createTaxRule(db, { actor: c.actor, input: { name: "X", rateBasisPoints: 500, region: "KA" } }),
      ),
    ).toBe("UNPROCESSABLE");
  });

  it("every change writes an audit row on the account", async () => {
    const db = await getDb();
    const c = await catalogue(db);
    const actions = (
      await db.auditLog.findMany({ where: { accountId: c.account.id }, orderBy: { createdAt: "asc" } })
    ).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        "subscription_asset.create",
        "subscription_group.create",
        "subscription_plan.create",
        "subscription_plan.disable",
        "subscription_plan.delete",
      ]),
    );
    const entry = await db.auditLog.findFirstOrThrow({
      where: { accountId: c.account.id, action: "subscription_plan.create", targetId: String(c.live.id) },
    });
    expect(entry).toMatchObject({ actorId: c.user.id, targetType: "subscription_plan" });
  });

  it("the dashboard's procedures are for REVENUE staff and owners only", async () => {
    const db = await getDb();
    const c = await catalogue(db);
    const editor = await createTestStaff(db, { account: c.account.id, roles: ["EDITOR"] });
    const owner = await createTestStaff(db, { account: c.account.id, roles: ["OWNER"] });
    expect(await trpcCodeOf(editor.caller.subscriptions.groups.list())).toBe("FORBIDDEN");
    expect(await trpcCodeOf(owner.caller.subscriptions.groups.list())).toBe("OK");
    const groups = await c.caller.subscriptions.groups.list();
    expect(groups.map((g) => g.name).sort()).toEqual(["Digital", "Save the paper", "Staff only", "Teams"]);
    expect(
      await trpcCodeOf(c.caller.subscriptions.plans.create(monthly(c.standard.id, { durationUnit: "lifetime" }))),
    ).toBe("UNPROCESSABLE_CONTENT");
  });
});
