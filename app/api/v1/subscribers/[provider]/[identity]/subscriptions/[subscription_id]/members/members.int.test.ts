/**
 * Members of a group_access subscription through their route (spec §4.2 …/members, rule 5), on
 * PGlite and PostgreSQL: the plan's user_limit holds under ten parallel adds.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { createCheckoutFixture, type CheckoutFixture } from "@/server/testing/checkout";
import { ada, ok, previewPaid, serverCreate } from "@/server/testing/checkout-calls";
import { call } from "@/server/testing/engagement";

import { DELETE, GET, POST } from "./route";

type Err = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };
type Subscriber = { id: number; name: string | null; subscriber_identities: { provider: string; value: string }[] };

async function subscribe(f: CheckoutFixture, planId: number) {
  const { body } = await previewPaid(f, planId);
  return (await ok<{ subscription: { id: number } }>(await serverCreate(f, body), 201)).subscription.id;
}

async function groupFixture(userLimit = 3) {
  const f = await createCheckoutFixture(await getDb());
  const group = await f.db.subscriptionGroup.create({
    data: { accountId: f.account.id, name: "Teams", subscriptionType: "GROUP_ACCESS" },
  });
  const plan = await f.db.subscriptionPlan.create({
    data: {
      accountId: f.account.id,
      groupId: group.id,
      title: "Team of three",
      durationLength: 1,
      durationUnit: "YEARS",
      priceCents: 3000,
      priceCurrency: "USD",
      userLimit,
    },
  });
  return { f, subscriptionId: await subscribe(f, plan.id) };
}

const path = (id: number) => ({ ...ada, subscription_id: String(id) });
const members = (f: CheckoutFixture, id: number, method: string, body?: unknown, query = "", who = path(id)) =>
  call(method === "GET" ? GET : method === "POST" ? POST : DELETE, method, `/x${query}`, who, body, {
    "x-subauth": f.serverKey,
  });

describe("…/subscriptions/<id>/members", () => {
  it("adds, lists and removes members; an add again changes nothing", async () => {
    const { f, subscriptionId } = await groupFixture();
    const added = await members(f, subscriptionId, "POST", {
      member: { provider: "email", identity: "Bob@Example.com", name: "Bob" },
    });
    const bob = ((await added.json()) as { members: Subscriber }).members;
    expect(added.status).toBe(201);
    expect(bob).toMatchObject({
      name: "Bob",
      subscriber_identities: [{ provider: "email", value: "bob@example.com" }],
    });

    const again = await members(f, subscriptionId, "POST", {
      member: { provider: "email", identity: "bob@example.com" },
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { members: Subscriber }).members.id).toBe(bob.id);

    const listed = (await (await members(f, subscriptionId, "GET")).json()) as { members: Subscriber[] };
    expect(listed.members.map((m) => m.id)).toEqual([bob.id]);

    const removed = await members(f, subscriptionId, "DELETE", undefined, `?ids[]=${bob.id}&ids[]=999999`);
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({});
    expect(await f.db.subscriptionMember.count({ where: { subscriptionId } })).toBe(0);
    expect(
      await f.db.auditLog.count({
        where: { accountId: f.account.id, action: { in: ["subscription.member_add", "subscription.member_remove"] } },
      }),
    ).toBe(2);
  });

  it("lets exactly user_limit of ten parallel adds in", async () => {
    const { f, subscriptionId } = await groupFixture(3);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        members(f, subscriptionId, "POST", { member: { provider: "email", identity: `reader${i}@example.com` } }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 422)).toHaveLength(7);
    const refusal = (await answers[statuses.indexOf(422)]!.json()) as Err;
    expect(refusal.error.details?.[0]).toEqual({ field: "member", issue: "exceeds user_limit" });
    expect(await f.db.subscriptionMember.count({ where: { subscriptionId } })).toBe(3);
  });

  it("refuses other types, the subscriber themself, bad input and another subscriber's id", async () => {
    const { f, subscriptionId } = await groupFixture();
    const self = await members(f, subscriptionId, "POST", { member: ada });
    expect(self.status).toBe(422);

    const standard = await subscribe(f, f.monthly.id);
    const wrongType = await members(f, standard, "POST", { member: { provider: "email", identity: "c@example.com" } });
    expect(wrongType.status).toBe(422);
    expect(((await wrongType.json()) as Err).error.message).toMatch(/Only group_access/);
    expect((await members(f, standard, "GET")).status).toBe(422);

    const bad = await members(f, subscriptionId, "POST", { member: { provider: "email", identity: "not-an-email" } });
    expect(bad.status).toBe(400);
    expect((await members(f, subscriptionId, "DELETE")).status).toBe(400);
    expect((await members(f, subscriptionId, "DELETE", undefined, "?ids[]=abc")).status).toBe(400);

    const other = await members(
      f,
      subscriptionId,
      "POST",
      { member: { provider: "email", identity: "d@example.com" } },
      "",
      { provider: "email", identity: "eve@example.com", subscription_id: String(subscriptionId) },
    );
    expect(other.status).toBe(404);
    expect(await f.db.subscriptionMember.count({ where: { subscriptionId } })).toBe(0);
  });
});
