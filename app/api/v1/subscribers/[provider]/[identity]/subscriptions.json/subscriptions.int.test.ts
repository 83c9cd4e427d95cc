/**
 * The server API of a subscriber's subscriptions (X-SUBAUTH): GET|PATCH …/subscriptions.json,
 * PATCH|DELETE …/subscriptions/<id>.json, PUT …/subscriptions/<id>/cancel.json.
 */
import { describe, expect, it } from "vitest";

import { GET as IDENTITIES } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriber_identities.json/route";
import { createApiKey } from "@/server/accounts/api-keys";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { resolveSubscriber } from "@/server/subscriptions/subscribers/subscribers";
import type { TSubscriptionWire } from "@/server/subscriptions/subscribers/subscription-view";
import { call } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { insertTestGroup, insertTestPlan, insertTestSubscription } from "@/server/testing/subscription-fixtures";

import { PUT as CANCEL } from "../subscriptions/[subscription_id]/cancel.json/route";
import { DELETE as DELETE_ONE, PATCH as PATCH_ONE } from "../subscriptions/[subscription_id]/route";
import { GET, PATCH } from "./route";

type List = { subscriptions: TSubscriptionWire[] };
type One = { subscription: TSubscriptionWire };
type Err = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

const DAY = 86_400_000;

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const { key } = await createApiKey(db, { accountId: account.id, kind: "SERVER", name: "back end" });
  const group = await insertTestGroup(db, account.id);
  const plan = await insertTestPlan(db, group);
  const ada = (await resolveSubscriber(db, {
    accountId: account.id,
    provider: "email",
    identity: "ada@example.com",
    create: true,
  }))!;
  const bo = (await resolveSubscriber(db, {
    accountId: account.id,
    provider: "email",
    identity: "bo@example.com",
    create: true,
  }))!;
  return { db, account, key, group, plan, ada, bo };
}

const base = "/api/v1/subscribers/email/ada%40example.com";
const ADA = { provider: "email", identity: "ada@example.com" };

function list(key: string, query = "", who = ADA) {
  return call(
    GET,
    "GET",
    `/api/v1/subscribers/${who.provider}/${encodeURIComponent(who.identity)}/subscriptions.json${query}`,
    who,
    undefined,
    { "x-subauth": key },
  );
}
const patchAll = (key: string, body: unknown, who = ADA) =>
  call(PATCH, "PATCH", `${base}/subscriptions.json`, who, body, { "x-subauth": key });
const patchOne = (key: string, id: number, body: unknown, who = ADA) =>
  call(PATCH_ONE, "PATCH", `${base}/subscriptions/${id}.json`, { ...who, subscription_id: `${id}.json` }, body, {
    "x-subauth": key,
  });
const cancel = (key: string, id: number, who = ADA) =>
  call(CANCEL, "PUT", `${base}/subscriptions/${id}/cancel.json`, { ...who, subscription_id: String(id) }, undefined, {
    "x-subauth": key,
  });
const deleteOne = (key: string, id: number, who = ADA) =>
  call(DELETE_ONE, "DELETE", `${base}/subscriptions/${id}.json`, { ...who, subscription_id: `${id}.json` }, undefined, {
    "x-subauth": key,
  });

const events = (db: Db, accountId: number, name: string) =>
  db.webhookEvent.findMany({ where: { accountId, name }, orderBy: { id: "asc" } });

describe("GET subscriptions.json", () => {
  it("lists the subscriber's subscriptions newest first in the wire shape; active_only keeps those granting access", async () => {
    const { db, account, key, plan, ada, bo } = await setup();
    const now = Date.now();
    const ended = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      start: new Date(now - 60 * DAY),
      createdAt: new Date(now - 60 * DAY),
    });
    const pending = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      status: "PENDING",
      createdAt: new Date(now - 2000),
    });
    const active = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      createdAt: new Date(now - 1000),
    });
    await insertTestSubscription(db, { accountId: account.id, memberId: bo.id, planId: plan.id });
    await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      deletedAt: new Date(),
    });

    let res = await list(key);
    expect(res.status).toBe(200);
    let body = (await res.json()) as List;
    expect(body.subscriptions.map((s) => s.id)).toEqual([active.id, pending.id, ended.id]);
    const [first] = body.subscriptions;
    expect(first).toMatchObject({
      id: active.id,
      subscriber_id: ada.id,
      subscription_plan_id: plan.id,
      plan_name: "Monthly",
      duration_unit: "months",
      plan_amount_cents: 900,
      status: "active",
      active: true,
      cancelled: false,
      payment_amount: "9.00",
      subscriber: { id: ada.id, subscriber_identities: [{ provider: "email", value: "ada@example.com" }] },
    });
    expect(body.subscriptions.find((s) => s.id === ended.id)).toMatchObject({ active: false, expired: true });

    for (const q of ["?active_only=true", "?active_only=1"]) {
      res = await list(key, q);
      body = (await res.json()) as List;
      expect(body.subscriptions.map((s) => s.id)).toEqual([active.id]);
    }
    res = await list(key, "?active_only=false");
    expect(((await res.json()) as List).subscriptions).toHaveLength(3);
    res = await list(key, "?active_only=maybe");
    expect(res.status).toBe(400);
  });

  it("answers [] for an identity no subscriber has, reads the alternate identity, and hides other accounts", async () => {
    const { db, account, key, plan, ada } = await setup();
    await insertTestSubscription(db, { accountId: account.id, memberId: ada.id, planId: plan.id });
    let res = await list(key, "", { provider: "email", identity: "nobody@example.com" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ subscriptions: [] });
    res = await list(key, "?alternate_provider=email&alternate_identity=ada%40example.com", {
      provider: "phone",
      identity: "+14155550100",
    });
    expect(((await res.json()) as List).subscriptions).toHaveLength(1);

    const other = await setup();
    res = await list(other.key);
    expect(((await res.json()) as List).subscriptions).toEqual([]);
    expect((await list("mh_sk_wrong")).status).toBe(401);
  });

  it("gives the subscriber its cumulative end timestamps (standard and campaign apart)", async () => {
    const { db, account, key, plan, ada } = await setup();
    const end = new Date(Date.now() + 20 * DAY);
    const renewalEnd = new Date(Date.now() + 50 * DAY);
    await insertTestSubscription(db, { accountId: account.id, memberId: ada.id, planId: plan.id, end });
    await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      start: end,
      end: renewalEnd,
    });
    const campaign = await insertTestGroup(db, account.id, { name: "Save the park", subscriptionType: "CAMPAIGN" });
    const campaignPlan = await insertTestPlan(db, campaign, { durationUnit: "LIFETIME" });
    await insertTestSubscription(db, { accountId: account.id, memberId: ada.id, planId: campaignPlan.id });
    const body = (await (await list(key)).json()) as List;
    expect(body.subscriptions[0]!.subscriber.cumulative_end_timestamps).toEqual({
      standard_subscriptions_cumulative_end_timestamp: renewalEnd.toISOString(),
      campaign_subscriptions_cumulative_end_timestamp: "9999-12-31T23:59:59.999Z",
    });
    const identities = await call(IDENTITIES, "GET", `${base}/subscriber_identities.json`, ADA, undefined, {
      "x-subauth": key,
    });
    expect(identities.status).toBe(200);
  });
});

describe("PATCH metadata", () => {
  it("merges one subscription's metadata (null removes a key), sets notes, answers the subscription", async () => {
    const { db, account, key, plan, ada } = await setup();
    const s = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      metadata: { source: "web", campaign: "spring" },
    });
    let res = await patchOne(key, s.id, { subscription: { metadata: { campaign: null, seat: 2 }, notes: "VIP" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as One;
    expect(body.subscription).toMatchObject({ id: s.id, metadata: { source: "web", seat: 2 }, notes: "VIP" });
    expect(body.subscription.metadata).not.toHaveProperty("campaign");

    res = await patchOne(key, s.id, { subscription: {} });
    expect(res.status).toBe(400);
    res = await patchOne(key, s.id, { subscription: { metadata: "x" } });
    expect(res.status).toBe(400);
    const big = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    res = await patchOne(key, s.id, { subscription: { metadata: big } });
    expect(res.status).toBe(400);
  });

  it("is 404 for another subscriber's or account's subscription, changing nothing", async () => {
    const { db, account, key, plan, bo } = await setup();
    const bos = await insertTestSubscription(db, { accountId: account.id, memberId: bo.id, planId: plan.id });
    let res = await patchOne(key, bos.id, { subscription: { metadata: { x: 1 } } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as Err).error.code).toBe("NOT_FOUND");
    const other = await setup();
    res = await patchOne(other.key, bos.id, { subscription: { metadata: { x: 1 } } });
    expect(res.status).toBe(404);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: bos.id } })).metadata).toEqual({});
  });

  it("PATCH subscriptions.json merges into every active subscription only", async () => {
    const { db, account, key, plan, ada } = await setup();
    const a = await insertTestSubscription(db, { accountId: account.id, memberId: ada.id, planId: plan.id });
    const b = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      metadata: { keep: true },
    });
    const ended = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      start: new Date(Date.now() - 90 * DAY),
    });
    const res = await patchAll(key, { metadata: { plan_note: "x" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as List;
    expect(body.subscriptions.map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
    expect(body.subscriptions.find((s) => s.id === b.id)!.metadata).toEqual({ keep: true, plan_note: "x" });
    expect((await db.subscription.findUniqueOrThrow({ where: { id: ended.id } })).metadata).toEqual({});
    const unknown = await patchAll(key, { metadata: { x: 1 } }, { provider: "email", identity: "no@example.com" });
    expect(unknown.status).toBe(404);
    expect((await patchAll(key, { meta: {} })).status).toBe(400);
  });
});

describe("cancel", () => {
  it("cancels at period end: cancelled, cancelled_at, access until the end; again changes nothing; one event", async () => {
    const { db, account, key, plan, ada } = await setup();
    const s = await insertTestSubscription(db, { accountId: account.id, memberId: ada.id, planId: plan.id });
    let res = await cancel(key, s.id);
    expect(res.status).toBe(200);
    const first = ((await res.json()) as One).subscription;
    expect(first).toMatchObject({ status: "cancelled", cancelled: true, active: true });
    expect(first.cancelled_at).not.toBeNull();
    expect(first.end_timestamp).toBe(s.endTimestamp!.toISOString());

    res = await cancel(key, s.id);
    expect(res.status).toBe(200);
    const again = ((await res.json()) as One).subscription;
    expect(again.cancelled_at).toBe(first.cancelled_at);
    expect(again.updated_at).toBe(first.updated_at);

    const cancelled = await events(db, account.id, "subscription.cancelled");
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.payload).toMatchObject({
      subscription: { id: s.id, status: "cancelled", subscriber: { id: ada.id } },
    });
    const audit = await db.auditLog.findMany({ where: { accountId: account.id, action: "subscription.cancel" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ targetType: "subscription", targetId: String(s.id), actorId: null });
    expect(audit[0]!.metadata).toMatchObject({ via: "server_api", from_status: "active", system: "server_api" });
  });

  it("a pending subscription cancelled never grants access", async () => {
    const { db, account, key, plan, ada } = await setup();
    const s = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      status: "PENDING",
    });
    const res = await cancel(key, s.id);
    const body = ((await res.json()) as One).subscription;
    expect(body).toMatchObject({ status: "cancelled", active: false });
    expect(new Date(body.end_timestamp!).getTime()).toBeLessThanOrEqual(Date.now());
    const active = (await (await list(key, "?active_only=true")).json()) as List;
    expect(active.subscriptions).toEqual([]);
  });

  it("the deprecated DELETE cancels the same way and says it is deprecated", async () => {
    const { db, account, key, plan, ada } = await setup();
    const s = await insertTestSubscription(db, { accountId: account.id, memberId: ada.id, planId: plan.id });
    const res = await deleteOne(key, s.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBe("true");
    expect(res.headers.get("link")).toBe(`<${base}/subscriptions/${s.id}/cancel.json>; rel="successor-version"`);
    expect(((await res.json()) as One).subscription).toMatchObject({ id: s.id, status: "cancelled" });
  });

  it("is 404 for another subscriber's or account's id, and 422 for a failed one", async () => {
    const { db, account, key, plan, bo, ada } = await setup();
    const bos = await insertTestSubscription(db, { accountId: account.id, memberId: bo.id, planId: plan.id });
    expect((await cancel(key, bos.id)).status).toBe(404);
    const other = await setup();
    expect((await cancel(other.key, bos.id)).status).toBe(404);
    expect((await cancel(key, 999_999)).status).toBe(404);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: bos.id } })).status).toBe("ACTIVE");
    const failed = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      status: "FAILED",
    });
    const res = await cancel(key, failed.id);
    expect(res.status).toBe(422);
    expect(((await res.json()) as Err).error.details?.[0]?.field).toBe("subscription");
  });

  it("parallel cancels cancel once: one event, one audit row, the same cancelled_at", async () => {
    const { db, account, key, plan, ada } = await setup();
    const s = await insertTestSubscription(db, { accountId: account.id, memberId: ada.id, planId: plan.id });
    const responses = await Promise.all(Array.from({ length: 5 }, () => cancel(key, s.id)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as One[];
    expect(new Set(bodies.map((b) => b.subscription.cancelled_at)).size).toBe(1);
    expect(await events(db, account.id, "subscription.cancelled")).toHaveLength(1);
    expect(await db.auditLog.count({ where: { accountId: account.id, action: "subscription.cancel" } })).toBe(1);
  });
});
