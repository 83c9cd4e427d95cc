/**
 * The client API of the reader's subscriptions (key + accesstype_jwt/svc_jwt):
 * members/me/subscriptions, …/<id>, …/<id>/cancel, …/<id>/extend, members/me/subscription-gifts.
 */
import { describe, expect, it } from "vitest";

import { createApiKey } from "@/server/accounts/api-keys";
import type { ApiUser } from "@/server/auth/api-auth";
import { getDb } from "@/server/db";
import { findOrCreateJwtMember } from "@/server/members/identities";
import type { TSubscriptionWire } from "@/server/subscriptions/subscribers/subscription-view";
import { call, readerJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { insertTestGroup, insertTestPlan, insertTestSubscription } from "@/server/testing/subscription-fixtures";

import { GET as GIFTS, POST as GIFTS_POST } from "../subscription-gifts/route";
import { PUT as CANCEL } from "./[subscription_id]/cancel/route";
import { PATCH as EXTEND } from "./[subscription_id]/extend/route";
import { GET as GET_ONE, PATCH as PATCH_ONE } from "./[subscription_id]/route";
import { GET } from "./route";

type Err = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };
type SwitchEntry = { id: number; title: string; prorated_amount_cents: null; proration_enabled: boolean };
type WithSwitches = {
  subscription: TSubscriptionWire;
  original_attempt_token: null;
  upgrade_plan_details: SwitchEntry[];
  downgrade_plan_details: SwitchEntry[];
  crossgrade_plan_details: SwitchEntry[];
};

const DAY = 86_400_000;
const user = (id: string, name = "Ada"): ApiUser => ({ id, name, email: null, avatarUrl: null, provider: null });

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const { key } = await createApiKey(db, { accountId: account.id, kind: "CLIENT", name: "web" });
  const group = await insertTestGroup(db, account.id);
  const plan = await insertTestPlan(db, group, { title: "Monthly", priceCents: 900 });
  const ada = await findOrCreateJwtMember(db, { accountId: account.id, user: user("r-ada"), now: new Date() });
  const bo = await findOrCreateJwtMember(db, { accountId: account.id, user: user("r-bo", "Bo"), now: new Date() });
  const adaJwt = await readerJwt({ id: "r-ada", name: "Ada" });
  const boJwt = await readerJwt({ id: "r-bo", name: "Bo" });
  return { db, account, key, group, plan, ada, bo, adaJwt, boJwt };
}

const q = (key: string, jwt?: string, extra = "", param = "accesstype_jwt") =>
  `?key=${key}${jwt ? `&${param}=${jwt}` : ""}${extra}`;
const P = "/api/access/v1/members/me/subscriptions";
const idParams = (id: number) => ({ subscription_id: String(id) });

describe("GET members/me/subscriptions", () => {
  it("lists the reader's subscriptions only; [] without a JWT or for a reader never seen", async () => {
    const { db, account, key, plan, ada, bo, adaJwt } = await setup();
    const mine = await insertTestSubscription(db, { accountId: account.id, memberId: ada.id, planId: plan.id });
    await insertTestSubscription(db, { accountId: account.id, memberId: bo.id, planId: plan.id });
    let res = await call(GET, "GET", `${P}${q(key, adaJwt)}`, {});
    expect(res.status).toBe(200);
    const list = (await res.json()) as TSubscriptionWire[];
    expect(list.map((s) => s.id)).toEqual([mine.id]);
    expect(list[0]).toMatchObject({ subscriber_id: ada.id, status: "active", plan_name: "Monthly" });
    res = await call(GET, "GET", `${P}${q(key, adaJwt, "", "svc_jwt")}`, {});
    expect(((await res.json()) as unknown[]).length).toBe(1);

    res = await call(GET, "GET", `${P}${q(key)}`, {});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    const stranger = await readerJwt({ id: "never-seen" });
    res = await call(GET, "GET", `${P}${q(key, stranger)}`, {});
    expect(await res.json()).toEqual([]);
    expect(await db.member.count({ where: { accountId: account.id } })).toBe(2);
    expect((await call(GET, "GET", `${P}?key=mh_pk_wrong`, {})).status).toBe(401);
    res = await call(GET, "GET", `${P}${q(key, "not-a-jwt")}`, {});
    expect(res.status).toBe(401);
  });

  it("answers CORS preflights like the other client routes", async () => {
    const { OPTIONS } = await import("./route");
    const res = await call(OPTIONS, "OPTIONS", P, {}, undefined, {
      origin: "https://news.example.com",
      "access-control-request-method": "GET",
    });
    expect(res.status).toBeLessThan(300);
  });
});

describe("GET members/me/subscriptions/<id>", () => {
  it("answers the subscription with the group's other plans sorted by price per day", async () => {
    const { db, account, key, group, plan, ada, adaJwt } = await setup();
    const yearly = await insertTestPlan(db, group, { title: "Yearly", durationUnit: "YEARS", priceCents: 9000 });
    const premium = await insertTestPlan(db, group, { title: "Premium monthly", priceCents: 1500 });
    const weekly = await insertTestPlan(db, group, {
      title: "Weekly",
      durationUnit: "WEEKS",
      priceCents: 300,
      priceCurrency: "USD",
    });
    const lifetime = await insertTestPlan(db, group, {
      title: "For ever",
      durationUnit: "LIFETIME",
      priceCents: 20000,
    });
    await insertTestPlan(db, group, { title: "Disabled", enabled: false });
    const otherGroup = await insertTestGroup(db, account.id, { name: "Print" });
    await insertTestPlan(db, otherGroup, { title: "Print monthly" });
    const s = await insertTestSubscription(db, { accountId: account.id, memberId: ada.id, planId: plan.id });

    const res = await call(GET_ONE, "GET", `${P}/${s.id}${q(key, adaJwt)}`, idParams(s.id));
    expect(res.status).toBe(200);
    const body = (await res.json()) as WithSwitches;
    expect(body.subscription).toMatchObject({ id: s.id, subscription_plan_id: plan.id });
    expect(body.original_attempt_token).toBeNull();
    expect(body.upgrade_plan_details.map((p) => p.id).sort()).toEqual([premium.id, weekly.id].sort());
    expect(body.downgrade_plan_details.map((p) => p.id)).toEqual([yearly.id]);
    expect(body.crossgrade_plan_details.map((p) => p.id)).toEqual([lifetime.id]);
    // A one-time subscription of a group that prorates (the default) says so; a switch preview computes the charge.
    expect(body.upgrade_plan_details[0]).toMatchObject({ prorated_amount_cents: null, proration_enabled: true });
    await db.subscriptionGroup.update({ where: { id: group.id }, data: { prorationEnabled: false } });
    const off = (await (
      await call(GET_ONE, "GET", `${P}/${s.id}${q(key, adaJwt)}`, idParams(s.id))
    ).json()) as WithSwitches;
    expect(off.upgrade_plan_details[0]).toMatchObject({ proration_enabled: false });
  });

  it("requires the JWT and is 404 for another reader's or account's subscription", async () => {
    const { db, account, key, plan, bo, adaJwt } = await setup();
    const bos = await insertTestSubscription(db, { accountId: account.id, memberId: bo.id, planId: plan.id });
    expect((await call(GET_ONE, "GET", `${P}/${bos.id}${q(key)}`, idParams(bos.id))).status).toBe(401);
    let res = await call(GET_ONE, "GET", `${P}/${bos.id}${q(key, adaJwt)}`, idParams(bos.id));
    expect(res.status).toBe(404);
    expect(((await res.json()) as Err).error.code).toBe("NOT_FOUND");
    const other = await setup();
    res = await call(GET_ONE, "GET", `${P}/${bos.id}${q(other.key, other.boJwt)}`, idParams(bos.id));
    expect(res.status).toBe(404);
    res = await call(GET_ONE, "GET", `${P}/abc${q(key, adaJwt)}`, { subscription_id: "abc" });
    expect(res.status).toBe(400);
  });
});

describe("PATCH members/me/subscriptions/<id>", () => {
  it("merges metadata and notes and answers Subscription Updated; another reader's is 404", async () => {
    const { db, account, key, plan, ada, bo, adaJwt } = await setup();
    const s = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      metadata: { a: 1 },
    });
    let res = await call(PATCH_ONE, "PATCH", `${P}/${s.id}${q(key, adaJwt)}`, idParams(s.id), {
      subscription: { metadata: { b: 2 }, notes: "gift for mum" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Subscription Updated" });
    const row = await db.subscription.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.metadata).toEqual({ a: 1, b: 2 });
    expect(row.notes).toBe("gift for mum");

    res = await call(PATCH_ONE, "PATCH", `${P}/${s.id}${q(key, adaJwt)}`, idParams(s.id), { subscription: {} });
    expect(res.status).toBe(400);
    res = await call(PATCH_ONE, "PATCH", `${P}/${s.id}${q(key)}`, idParams(s.id), {
      subscription: { metadata: { c: 3 } },
    });
    expect(res.status).toBe(401);
    const bos = await insertTestSubscription(db, { accountId: account.id, memberId: bo.id, planId: plan.id });
    res = await call(PATCH_ONE, "PATCH", `${P}/${bos.id}${q(key, adaJwt)}`, idParams(bos.id), {
      subscription: { metadata: { c: 3 } },
    });
    expect(res.status).toBe(404);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: bos.id } })).metadata).toEqual({});
  });
});

describe("PUT members/me/subscriptions/<id>/cancel", () => {
  it("cancels at period end with an empty body; again changes nothing; another reader's is 404", async () => {
    const { db, account, key, plan, ada, bo, adaJwt } = await setup();
    const s = await insertTestSubscription(db, { accountId: account.id, memberId: ada.id, planId: plan.id });
    let res = await call(CANCEL, "PUT", `${P}/${s.id}/cancel${q(key, adaJwt)}`, idParams(s.id));
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    const row = await db.subscription.findUniqueOrThrow({ where: { id: s.id } });
    expect(row).toMatchObject({ status: "CANCELLED", endTimestamp: s.endTimestamp });
    expect(row.cancelledAt).not.toBeNull();
    res = await call(CANCEL, "PUT", `${P}/${s.id}/cancel${q(key, adaJwt)}`, idParams(s.id));
    expect(res.status).toBe(204);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: s.id } })).cancelledAt).toEqual(row.cancelledAt);
    expect(await db.webhookEvent.count({ where: { accountId: account.id, name: "subscription.cancelled" } })).toBe(1);
    const audit = await db.auditLog.findFirstOrThrow({
      where: { accountId: account.id, action: "subscription.cancel" },
    });
    expect(audit.metadata).toMatchObject({ via: "client_api" });

    // Still access until the end: the list shows it active and cancelled.
    const list = (await (await call(GET, "GET", `${P}${q(key, adaJwt)}`, {})).json()) as TSubscriptionWire[];
    expect(list[0]).toMatchObject({ id: s.id, active: true, cancelled: true, status: "cancelled" });

    const bos = await insertTestSubscription(db, { accountId: account.id, memberId: bo.id, planId: plan.id });
    res = await call(CANCEL, "PUT", `${P}/${bos.id}/cancel${q(key, adaJwt)}`, idParams(bos.id));
    expect(res.status).toBe(404);
    expect((await call(CANCEL, "PUT", `${P}/${bos.id}/cancel${q(key)}`, idParams(bos.id))).status).toBe(401);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: bos.id } })).status).toBe("ACTIVE");
  });
});

describe("PATCH members/me/subscriptions/<id>/extend", () => {
  const extend = (key: string, jwt: string, id: number, body: unknown, extra = "") =>
    call(EXTEND, "PATCH", `${P}/${id}/extend${q(key, jwt, extra)}`, idParams(id), body);

  it("moves the end to the end of the given day, or removes it with indefinitely", async () => {
    const { db, account, key, plan, ada, adaJwt } = await setup();
    const s = await insertTestSubscription(db, { accountId: account.id, memberId: ada.id, planId: plan.id });
    const date = new Date(Date.now() + 100 * DAY).toISOString().slice(0, 10);
    let res = await extend(key, adaJwt, s.id, { extend_to: date });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Subscription Extended" });
    expect((await db.subscription.findUniqueOrThrow({ where: { id: s.id } })).endTimestamp?.toISOString()).toBe(
      `${date}T23:59:59.999Z`,
    );
    const audit = await db.auditLog.findFirstOrThrow({
      where: { accountId: account.id, action: "subscription.extend" },
    });
    expect(audit.metadata).toMatchObject({ via: "client_api", to: `${date}T23:59:59.999Z` });

    res = await extend(key, adaJwt, s.id, {}, "&extend_to=indefinitely");
    expect(res.status).toBe(200);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: s.id } })).endTimestamp).toBeNull();
    res = await extend(key, adaJwt, s.id, { extend_to: "indefinitely" });
    expect(res.status).toBe(200);
    res = await extend(key, adaJwt, s.id, { extend_to: date });
    expect(res.status).toBe(422);
  });

  it("refuses a date in the past, not after the current end, or malformed; recurring and cancelled ones", async () => {
    const { db, account, key, plan, ada, adaJwt } = await setup();
    const s = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      end: new Date(Date.now() + 40 * DAY),
    });
    const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
    for (const [extendTo, status] of [
      [day(-2), 422],
      [day(10), 422],
      ["2027-02-30", 400],
      ["tomorrow", 400],
      ["", 400],
    ] as const) {
      const res = await extend(key, adaJwt, s.id, { extend_to: extendTo });
      expect(res.status, extendTo).toBe(status);
      if (status === 422) expect(((await res.json()) as Err).error.details?.[0]?.field).toBe("extend_to");
    }
    expect((await extend(key, adaJwt, s.id, {})).status).toBe(400);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: s.id } })).endTimestamp).toEqual(s.endTimestamp);

    const recurring = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      recurring: true,
    });
    let res = await extend(key, adaJwt, recurring.id, { extend_to: day(200) });
    expect(res.status).toBe(422);
    expect(((await res.json()) as Err).error.message).toMatch(/recurring/);
    const cancelled = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: ada.id,
      planId: plan.id,
      status: "CANCELLED",
      cancelledAt: new Date(),
    });
    res = await extend(key, adaJwt, cancelled.id, { extend_to: "indefinitely" });
    expect(res.status).toBe(422);
    expect(((await res.json()) as Err).error.message).toMatch(/cancelled/);
  });

  it("is 404 for another reader's subscription, and a cancel and an extend in parallel never both win", async () => {
    const { db, account, key, plan, ada, bo, adaJwt } = await setup();
    const bos = await insertTestSubscription(db, { accountId: account.id, memberId: bo.id, planId: plan.id });
    const later = new Date(Date.now() + 300 * DAY).toISOString().slice(0, 10);
    expect((await extend(key, adaJwt, bos.id, { extend_to: later })).status).toBe(404);

    const s = await insertTestSubscription(db, { accountId: account.id, memberId: ada.id, planId: plan.id });
    const [cancelRes, extendRes] = await Promise.all([
      call(CANCEL, "PUT", `${P}/${s.id}/cancel${q(key, adaJwt)}`, idParams(s.id)),
      extend(key, adaJwt, s.id, { extend_to: later }),
    ]);
    expect(cancelRes.status).toBe(204);
    const row = await db.subscription.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.status).toBe("CANCELLED");
    if (extendRes.status === 200) {
      // The extend ran first: the cancel kept its new end.
      expect(row.endTimestamp?.toISOString()).toBe(`${later}T23:59:59.999Z`);
    } else {
      expect(extendRes.status).toBe(422);
      expect(row.endTimestamp).toEqual(s.endTimestamp);
    }
  });
});

describe("members/me/subscription-gifts", () => {
  it("lists the subscriptions the reader gave; [] without a JWT; POST answers the same", async () => {
    const { db, account, key, plan, ada, bo, adaJwt, boJwt } = await setup();
    const gift = await insertTestSubscription(db, {
      accountId: account.id,
      memberId: bo.id,
      planId: plan.id,
      gifterMemberId: ada.id,
    });
    await insertTestSubscription(db, { accountId: account.id, memberId: ada.id, planId: plan.id });
    const path = "/api/access/v1/members/me/subscription-gifts";
    let res = await call(GIFTS, "GET", `${path}${q(key, adaJwt)}`, {});
    expect(res.status).toBe(200);
    const gifts = (await res.json()) as TSubscriptionWire[];
    expect(gifts.map((g) => g.id)).toEqual([gift.id]);
    expect(gifts[0]).toMatchObject({ subscriber_id: bo.id, gifter: { id: ada.id } });
    res = await call(GIFTS_POST, "POST", `${path}${q(key, adaJwt)}`, {});
    expect(((await res.json()) as unknown[]).length).toBe(1);
    expect(await (await call(GIFTS, "GET", `${path}${q(key, boJwt)}`, {})).json()).toEqual([]);
    expect(await (await call(GIFTS, "GET", `${path}${q(key)}`, {})).json()).toEqual([]);
  });
});
