/**
 * The subscription catalogue in tests: a publisher's REVENUE staff member with its actor, a server
 * key and a client key (`publisher`); a monthly plan's input (999 EUR, 1099 USD, recurring) for a
 * group (`monthly`); and a catalogue made through the services (`catalogue`).
 */
import { createApiKey } from "../accounts/api-keys";
import { staffActor } from "../auth/actor";
import type { Db } from "../db/client";
import { createAsset } from "../subscriptions/catalogue/assets";
import { createGroup } from "../subscriptions/catalogue/groups";
import { createPlan, deletePlan, setPlanEnabled } from "../subscriptions/catalogue/plans";
import { createTestStaff } from "./staff";

export async function publisher(db: Db) {
  const staff = await createTestStaff(db, { roles: ["REVENUE"] });
  const actor = staffActor({ id: staff.user.id, accountId: staff.account.id, roles: ["REVENUE"] });
  const server = await createApiKey(db, { accountId: staff.account.id, kind: "SERVER", name: "s" });
  const client = await createApiKey(db, { accountId: staff.account.id, kind: "CLIENT", name: "c" });
  return { ...staff, actor, serverKey: server.key, clientKey: client.key };
}

export const monthly = (groupId: number, extra: Record<string, unknown> = {}) => ({
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
export async function catalogue(db: Db) {
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
