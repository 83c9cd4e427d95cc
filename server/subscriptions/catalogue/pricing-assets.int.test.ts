/**
 * subscriptions.pricingPlans.searchAssets: the pay-per-story form's picker of stories and
 * collections, for REVENUE staff (who cannot open the content area), scoped to their account.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { insertStory } from "@/server/testing/publishing-factories";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";

async function newsroom(db: Db) {
  const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
  const accountId = revenue.account.id;
  const budget = await insertStory(db, accountId, { headline: "The city budget, explained", slug: "city-budget" });
  const draft = await insertStory(db, accountId, { headline: "Budget leak draft", slug: "leak", status: "DRAFT" });
  const other = await insertStory(db, accountId, { headline: "Monsoon arrives early", slug: "monsoon" });
  const weekend = await db.collection.create({ data: { accountId, slug: "weekend-reads", name: "Weekend reads" } });
  const gone = await db.collection.create({
    data: { accountId, slug: "old-budget", name: "Old budget picks", deletedAt: new Date() },
  });
  return { revenue, budget, draft, other, weekend, gone };
}

describe("subscriptions.pricingPlans.searchAssets", () => {
  it("finds the account's stories by headline or slug words, drafts too, and collections by name", async () => {
    const db = await getDb();
    const n = await newsroom(db);
    const caller = n.revenue.caller.subscriptions.pricingPlans;

    const budget = await caller.searchAssets({ assetType: "story", q: "BUDGET" });
    expect(budget.assets.map((a) => a.id).sort()).toEqual([n.budget.id, n.draft.id].sort());
    expect(budget.assets.find((a) => a.id === n.draft.id)).toEqual({
      id: n.draft.id,
      title: "Budget leak draft",
      detail: "leak · draft",
    });
    expect((await caller.searchAssets({ assetType: "story", q: "city explained" })).assets.map((a) => a.id)).toEqual([
      n.budget.id,
    ]);
    expect((await caller.searchAssets({ assetType: "story", q: "monsoon" })).assets.map((a) => a.id)).toEqual([
      n.other.id,
    ]);
    expect((await caller.searchAssets({ assetType: "story" })).assets).toHaveLength(3);

    // Collections: live ones only, ids as strings (what pricing plans store).
    expect(await caller.searchAssets({ assetType: "collection" })).toEqual({
      assets: [{ id: String(n.weekend.id), title: "Weekend reads", detail: "weekend-reads · manual" }],
    });
    expect((await caller.searchAssets({ assetType: "collection", q: "budget" })).assets).toEqual([]);
  });

  it("labels chosen ids: only those that exist on the account; malformed ids match nothing", async () => {
    const db = await getDb();
    const n = await newsroom(db);
    const stranger = await newsroom(db);
    const caller = n.revenue.caller.subscriptions.pricingPlans;

    const chosen = await caller.searchAssets({
      assetType: "story",
      ids: [n.other.id, stranger.revenue.account.id.toString(), stranger.budget.id, "not-a-uuid"],
    });
    expect(chosen.assets.map((a) => [a.id, a.title])).toEqual([[n.other.id, "Monsoon arrives early"]]);
    expect((await caller.searchAssets({ assetType: "story", ids: ["nope"] })).assets).toEqual([]);

    const collections = await caller.searchAssets({
      assetType: "collection",
      ids: [String(n.weekend.id), String(n.gone.id), String(stranger.weekend.id), "99999999999", "1.5", n.other.id],
    });
    expect(collections.assets.map((a) => a.id)).toEqual([String(n.weekend.id)]);
  });

  it("is for REVENUE staff and owners; a bad shape is a 400", async () => {
    const db = await getDb();
    const n = await newsroom(db);
    const editor = await createTestStaff(db, { account: n.revenue.account.id, roles: ["EDITOR"] });
    const owner = await createTestStaff(db, { account: n.revenue.account.id, roles: ["OWNER"] });
    expect(await trpcCodeOf(editor.caller.subscriptions.pricingPlans.searchAssets({ assetType: "story" }))).toBe(
      "FORBIDDEN",
    );
    expect(await trpcCodeOf(owner.caller.subscriptions.pricingPlans.searchAssets({ assetType: "story" }))).toBe("OK");
    expect(
      await trpcCodeOf(
        n.revenue.caller.subscriptions.pricingPlans.searchAssets({ assetType: "author" as "story", q: "x" }),
      ),
    ).toBe("BAD_REQUEST");
    expect(
      await trpcCodeOf(
        n.revenue.caller.subscriptions.pricingPlans.searchAssets({ assetType: "story", q: "x".repeat(201) }),
      ),
    ).toBe("BAD_REQUEST");
  });
});
