import { describe, expect, it } from "vitest";

import { createApiKey } from "@/server/accounts/api-keys";
import { staffActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { seedDemoCatalogue } from "@/server/seed/demo-catalogue";
import { createAsset } from "@/server/subscriptions/assets";
import { createCoupon, updateCoupon } from "@/server/subscriptions/coupons";
import { createGroup, deleteGroup, updateGroup } from "@/server/subscriptions/groups";
import { createPlan, deletePlan, setPlanEnabled, updatePlan } from "@/server/subscriptions/plans";
import { createPricingPlan } from "@/server/subscriptions/pricing-plans";
import { createTaxRule } from "@/server/subscriptions/taxes";
import { appErrorCodeOf } from "@/server/testing/app-errors";
import { callGet, readJson } from "@/server/testing/route-calls";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";

import { GET as PRICING_PLANS } from "./asset/[asset_type]/pricing_plans.json/route";
import { GET as CAMPAIGNS_JSON } from "./campaigns.json/route";
import { GET as CAMPAIGNS_BY_KEY } from "./campaigns/route";
import { GET as GROUP_SUBSCRIPTIONS } from "./group_subscriptions/route";
import { GET as GROUP_ACCESS } from "./group-access/route";
import { GET as GROUPS_JSON } from "./subscription_groups.json/route";
import { GET as GROUP_BY_ID } from "./subscription_groups/[group_id]/route";
import { GET as GROUPS_BY_KEY } from "./subscription_groups/route";

type Group = {
  id: number;
  name: string;
  subscription_type: string;
  public: boolean;
  subscription_plans: {
    id: number;
    title: string;
    price_cents: number;
    prices: Record<string, { amount_cents: number }>;
  }[];
  assets: { id: number; title: string; type: string; metadata: Record<string, unknown> }[];
} & Record<string, unknown>;

async function publisher(db: Db) {
  const staff = await createTestStaff(db, { roles: ["REVENUE"] });
  const actor = staffActor({ id: staff.user.id, accountId: staff.account.id, roles: ["REVENUE"] });
  const server = await createApiKey(db, { accountId: staff.account.id, kind: "SERVER", name: "s" });
  const client = await createApiKey(db, { accountId: staff.account.id, kind: "CLIENT", name: "c" });
  return { ...staff, actor, serverKey: server.key, clientKey: client.key };
}

const monthly = (groupId: number, extra: Record<string, unknown> = {}) => ({
  groupId,
  title: "Monthly",
  durationLength: 1,
  durationUnit: "months" as const,
  priceCents: 999,
  priceCurrency: "eur",
  prices: { USD: { amount_cents: 1099 } },
  recurring: true,
  supportedPaymentProviders: ["manual"],
  ...extra,
});

/** A catalogue: a public standard group (live, disabled and deleted plans), a private group, a campaign, a group_access group. */
async function catalogue(db: Db) {
  const p = await publisher(db);
  const asset = await createAsset(db, {
    actor: p.actor,
    input: { title: "Premium stories", type: "story", metadata: { access_level: 1000 } },
  });
  const standard = await createGroup(db, { actor: p.actor, input: { name: "Digital", assetIds: [asset.id] } });
  const live = await createPlan(db, { actor: p.actor, input: monthly(standard.id) });
  const disabled = await createPlan(db, { actor: p.actor, input: monthly(standard.id, { title: "Old" }) });
  await setPlanEnabled(db, { actor: p.actor, input: { id: disabled.id, enabled: false } });
  const deleted = await createPlan(db, { actor: p.actor, input: monthly(standard.id, { title: "Gone" }) });
  await deletePlan(db, { actor: p.actor, input: { id: deleted.id } });
  const hidden = await createGroup(db, { actor: p.actor, input: { name: "Staff only", public: false } });
  await createPlan(db, { actor: p.actor, input: monthly(hidden.id, { title: "Secret" }) });
  const campaign = await createGroup(db, {
    actor: p.actor,
    input: { name: "Save the paper", subscriptionType: "campaign", currency: "INR", targetAmountCents: 100_000 },
  });
  await db.subscriptionGroup.update({ where: { id: campaign.id }, data: { collectedAmountCents: 37_550 } });
  await createPlan(db, {
    actor: p.actor,
    input: monthly(campaign.id, { title: "Give", recurring: false, priceCurrency: "INR", prices: {} }),
  });
  const team = await createGroup(db, { actor: p.actor, input: { name: "Teams", subscriptionType: "group_access" } });
  await createPlan(db, { actor: p.actor, input: monthly(team.id, { title: "Five seats", userLimit: 5 }) });
  return { ...p, asset, standard, live, hidden, campaign, team };
}

const withKey = (path: string, key: string) => `${path}${path.includes("?") ? "&" : "?"}key=${encodeURIComponent(key)}`;

describe("catalogue listings", () => {
  it("server API: public groups with only live plans; a private group by id; another account's is 404", async () => {
    const db = await getDb();
    const c = await catalogue(db);
    const other = await catalogue(db);

    const res = await callGet(GROUPS_JSON, "/api/v1/subscription_groups.json", {}, { "x-subauth": c.serverKey });
    expect(res.status).toBe(200);
    const { subscription_groups: groups } = await readJson<{ subscription_groups: Group[] }>(res);
    expect(groups.map((g) => g.name)).toEqual(["Digital", "Save the paper", "Teams"]);
    const digital = groups[0]!;
    expect(digital.subscription_plans.map((p) => p.title)).toEqual(["Monthly"]);
    expect(digital.subscription_plans[0]).toMatchObject({
      price_cents: 999,
      price_currency: "EUR",
      prices: { EUR: { amount_cents: 999 }, USD: { amount_cents: 1099 } },
      duration_unit: "months",
      recurring: true,
      enabled: true,
      deleted_at: null,
      supported_payment_providers: ["manual"],
      subscription_group_id: c.standard.id,
    });
    expect(digital).toMatchObject({ subscription_type: "standard", public: true, account_id: c.account.id });
    expect(digital.assets).toEqual([
      {
        id: c.asset.id,
        asset_category_id: null,
        title: "Premium stories",
        type: "story",
        metadata: { access_level: 1000 },
      },
    ]);

    const one = await callGet(
      GROUP_BY_ID,
      `/api/v1/subscription_groups/${c.hidden.id}.json`,
      { group_id: `${c.hidden.id}.json` },
      { "x-subauth": c.serverKey },
    );
    expect(one.status).toBe(200);
    expect((await readJson<{ subscription_group: Group }>(one)).subscription_group).toMatchObject({
      name: "Staff only",
      public: false,
    });

    const foreign = await callGet(
      GROUP_BY_ID,
      `/api/v1/subscription_groups/${other.hidden.id}.json`,
      { group_id: `${other.hidden.id}.json` },
      { "x-subauth": c.serverKey },
    );
    expect(foreign.status).toBe(404);
    const bad = await callGet(
      GROUP_BY_ID,
      "/api/v1/subscription_groups/abc.json",
      { group_id: "abc.json" },
      { "x-subauth": c.serverKey },
    );
    expect(bad.status).toBe(400);
    const noKey = await callGet(GROUP_BY_ID, `/api/v1/subscription_groups/${c.hidden.id}.json`, {
      group_id: `${c.hidden.id}.json`,
    });
    expect(noKey.status).toBe(401);
    // The client key is not a server key.
    const clientAsServer = await callGet(
      GROUPS_JSON,
      "/api/v1/subscription_groups.json",
      {},
      { "x-subauth": c.clientKey },
    );
    expect(clientAsServer.status).toBe(401);

    await deleteGroup(db, { actor: c.actor, input: { id: c.hidden.id } });
    const gone = await callGet(
      GROUP_BY_ID,
      `/api/v1/subscription_groups/${c.hidden.id}`,
      { group_id: String(c.hidden.id) },
      { "x-subauth": c.serverKey },
    );
    expect(gone.status).toBe(404);
  });

  it("subscription_groups.json answers a browser's ?key= too (the AccessType component calls it so)", async () => {
    const db = await getDb();
    const c = await catalogue(db);
    const res = await callGet(
      GROUPS_JSON,
      withKey("/api/v1/subscription_groups.json", c.clientKey),
      {},
      { origin: "https://news.example" },
    );
    expect(res.status).toBe(200);
    expect((await readJson<{ subscription_groups: Group[] }>(res)).subscription_groups).toHaveLength(3);
    expect((await callGet(GROUPS_JSON, withKey("/api/v1/subscription_groups.json", "mh_ck_wrong"))).status).toBe(401);
    expect((await callGet(GROUPS_JSON, withKey("/api/v1/subscription_groups.json", c.serverKey))).status).toBe(401);
  });

  it("campaigns: target, collected amount as cents, decimal string and percentage", async () => {
    const db = await getDb();
    const c = await catalogue(db);
    const res = await callGet(CAMPAIGNS_JSON, "/api/v1/campaigns.json", {}, { "x-subauth": c.serverKey });
    const { subscription_groups: campaigns } = await readJson<{ subscription_groups: Group[] }>(res);
    expect(campaigns).toHaveLength(1);
    expect(campaigns[0]).toMatchObject({
      name: "Save the paper",
      subscription_type: "campaign",
      currency: "INR",
      target_amount: "1000.00",
      target_amount_cents: 100_000,
      target_reached: false,
      collected_amount_cents: 37_550,
      collected_amount: "375.50",
      collected_amount_percentage: "37.55",
      display_assets: [],
    });
    const byKey = await callGet(CAMPAIGNS_BY_KEY, withKey("/api/v1/campaigns", c.clientKey));
    expect((await readJson<Group[]>(byKey)).map((g) => g.name)).toEqual(["Save the paper"]);
  });

  it("client API by key: standard groups, group_access groups on both paths; a user JWT is ignored; bad key 401", async () => {
    const db = await getDb();
    const c = await catalogue(db);
    const res = await callGet(
      GROUPS_BY_KEY,
      withKey("/api/v1/subscription_groups?accesstype_jwt=whatever", c.clientKey),
      {},
      { origin: "https://news.example" },
    );
    expect(res.status).toBe(200);
    const groups = await readJson<Group[]>(res);
    expect(groups.map((g) => g.name)).toEqual(["Digital"]);
    expect(groups[0]!.subscription_plans.map((p) => p.title)).toEqual(["Monthly"]);
    expect(res.headers.get("access-control-allow-origin")).toBeTruthy();

    for (const [route, path] of [
      [GROUP_SUBSCRIPTIONS, "/api/v1/group_subscriptions"],
      [GROUP_ACCESS, "/api/v1/group-access"],
    ] as const) {
      const teams = await readJson<(Group & { subscription_plans: { user_limit: number }[] })[]>(
        await callGet(route, withKey(path, c.clientKey)),
      );
      expect(teams.map((g) => g.name)).toEqual(["Teams"]);
      expect(teams[0]!.subscription_plans[0]!.user_limit).toBe(5);
    }
    expect((await callGet(GROUPS_BY_KEY, withKey("/api/v1/subscription_groups", "nope"))).status).toBe(401);
    expect((await callGet(GROUPS_BY_KEY, "/api/v1/subscription_groups")).status).toBe(401);
  });

  it("pay-per-asset pricing plans for a story, its collections, and collections", async () => {
    const db = await getDb();
    const c = await catalogue(db);
    const story = await createPricingPlan(db, {
      actor: c.actor,
      input: {
        title: "This story",
        assetType: "story",
        assetIds: ["s-1"],
        priceCents: 200,
        priceCurrency: "USD",
        durationUnit: "lifetime",
      },
    });
    const anyStory = await createPricingPlan(db, {
      actor: c.actor,
      input: { assetType: "story", priceCents: 300, priceCurrency: "USD", durationUnit: "months" },
    });
    const coll = await createPricingPlan(db, {
      actor: c.actor,
      input: {
        assetType: "collection",
        assetIds: ["c-9"],
        priceCents: 900,
        priceCurrency: "USD",
        durationUnit: "months",
      },
    });
    const off = await createPricingPlan(db, {
      actor: c.actor,
      input: { assetType: "story", priceCents: 1, priceCurrency: "USD", durationUnit: "lifetime", enabled: false },
    });
    const ids = async (
      path: string,
      params: Record<string, string>,
      headers: Record<string, string> = { "x-subauth": c.serverKey },
    ) =>
      (
        await readJson<{ pricing_plans: { id: number }[] }>(await callGet(PRICING_PLANS, path, params, headers))
      ).pricing_plans.map((p) => p.id);

    expect(
      await ids("/api/v1/asset/story/pricing_plans.json?id=s-1&collection_id[]=c-9", { asset_type: "story" }),
    ).toEqual([story.id, anyStory.id, coll.id]);
    expect(await ids("/api/v1/asset/story/pricing_plans.json?id=s-2", { asset_type: "story" })).toEqual([anyStory.id]);
    expect(await ids("/api/v1/asset/collection/pricing_plans.json?id=c-9", { asset_type: "collection" })).toEqual([
      coll.id,
    ]);
    expect(
      await ids(withKey("/api/v1/asset/story/pricing_plans.json?id=s-1", c.clientKey), { asset_type: "story" }, {}),
    ).toEqual([story.id, anyStory.id]);
    expect((await ids("/api/v1/asset/story/pricing_plans.json", { asset_type: "story" })).includes(off.id)).toBe(false);
    const wire = await readJson<{ pricing_plans: unknown[] }>(
      await callGet(
        PRICING_PLANS,
        "/api/v1/asset/story/pricing_plans.json?id=s-1",
        { asset_type: "story" },
        { "x-subauth": c.serverKey },
      ),
    );
    expect(wire.pricing_plans[0]).toEqual({
      id: story.id,
      title: "This story",
      asset_type: "story",
      price_cents: 200,
      price_currency: "USD",
      duration_length: 1,
      duration_unit: "lifetime",
    });
    expect(
      (
        await callGet(
          PRICING_PLANS,
          "/api/v1/asset/video/pricing_plans.json",
          { asset_type: "video" },
          { "x-subauth": c.serverKey },
        )
      ).status,
    ).toBe(400);
  });
});

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

describe("the demo catalogue", () => {
  it("is served by the listings, and a second seed creates nothing", async () => {
    const db = await getDb();
    const p = await publisher(db);
    const report = { created: [] as string[] };
    await seedDemoCatalogue(db, { accountId: p.account.id }, report);
    await seedDemoCatalogue(db, { accountId: p.account.id }, report);
    expect(report.created).toHaveLength(1);
    const groups = await readJson<Group[]>(
      await callGet(GROUPS_BY_KEY, withKey("/api/v1/subscription_groups", p.clientKey)),
    );
    expect(groups.map((g) => [g.name, g.subscription_plans.map((x) => [x.title, x.price_cents])])).toEqual([
      [
        "Digital access",
        [
          ["Monthly", 900],
          ["Yearly", 9000],
        ],
      ],
    ]);
    expect(await db.coupon.count({ where: { accountId: p.account.id, code: "WELCOME20" } })).toBe(1);
    expect(await db.taxRule.count({ where: { accountId: p.account.id } })).toBe(1);
    // The seeded rows keep the services' rules: updating each through its service passes them.
    for (const plan of await db.subscriptionPlan.findMany({ where: { accountId: p.account.id } }))
      expect(await appErrorCodeOf(updatePlan(db, { actor: p.actor, input: { id: plan.id, title: plan.title } }))).toBe(
        "OK",
      );
    for (const group of await db.subscriptionGroup.findMany({ where: { accountId: p.account.id } }))
      expect(await appErrorCodeOf(updateGroup(db, { actor: p.actor, input: { id: group.id, name: group.name } }))).toBe(
        "OK",
      );
  });
});
