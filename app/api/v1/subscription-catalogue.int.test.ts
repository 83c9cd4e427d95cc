/**
 * The subscription catalogue as the APIs list it, on PGlite and PostgreSQL: the server API's
 * groups (public ones with their live plans, a private one by id, never another account's), the
 * same list for a browser's client key, campaigns with their collected amount, the client API's
 * standard and group_access groups, pay-per-asset pricing plans; and the demo catalogue served by
 * the listings, seeded once.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { seedDemoCatalogue } from "@/server/seed/demo-catalogue";
import { deleteGroup, updateGroup } from "@/server/subscriptions/catalogue/groups";
import { updatePlan } from "@/server/subscriptions/catalogue/plans";
import { createPricingPlan } from "@/server/subscriptions/catalogue/pricing-plans";
import { appErrorCodeOf } from "@/server/testing/app-errors";
import { callGet, readJson } from "@/server/testing/route-calls";
import { catalogue, publisher } from "@/server/testing/subscription-catalogue";

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
