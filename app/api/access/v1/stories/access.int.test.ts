/**
 * The access decision's grant reasons (decideAccess, and amp-access answering it): FREE, LOGGED_IN,
 * SUBSCRIBER by a plan's assets and only while the subscription grants access, a group_access
 * subscription's members, ASSET for pay per asset; and 404 for a story that is not the key's
 * account's or not published, 401 without a key.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { decideAccess } from "@/server/subscriptions/access/access";
import { ampAccess, createAccessFixture, forward, send } from "@/server/testing/access-calls";
import {
  insertMember,
  insertPlanWithAssets,
  insertSubscriber,
  insertSubscription,
} from "@/server/testing/access-fixtures";
import { readerJwt } from "@/server/testing/engagement";
import { insertStory } from "@/server/testing/publishing-factories";

import { GET as AMP_ACCESS } from "./[storyId]/amp-access/route";
import { POST as AMP_PINGBACK } from "./[storyId]/amp-pingback/route";

const setup = async () => createAccessFixture(await getDb());

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("access decision: grant reasons", () => {
  it("FREE for public stories, LOGGED_IN for login stories with a JWT, login_required without", async () => {
    const { key, story } = await setup();
    const pub = await story("public");
    const login = await story("login");
    expect(await ampAccess(pub.id, { key, readerId: "amp-1" })).toEqual({
      granted: true,
      grantReason: "FREE",
      data: { numberRemaining: null, isLoggedIn: false, isLast: false, wall: null },
    });
    const jwt = await readerJwt({ id: "u-1", name: "Ada" });
    expect(await ampAccess(login.id, { key, readerId: "amp-1", accesstype_jwt: jwt })).toMatchObject({
      granted: true,
      grantReason: "LOGGED_IN",
      data: { isLoggedIn: true },
    });
    expect(await ampAccess(login.id, { key, readerId: "amp-1" })).toMatchObject({ granted: false, grantReason: null });
  });

  it("SUBSCRIBER by a site asset, by story assets up to their access level, never by a static asset", async () => {
    const { db, account, story } = await setup();
    const [open, level3, level7] = [
      await story("subscription"),
      await story("subscription", 3),
      await story("subscription", 7),
    ];
    const site = await insertPlanWithAssets(db, account.id, { groupAssets: [{ type: "SITE" }] });
    const story5 = await insertPlanWithAssets(db, account.id, {
      planAssets: [{ type: "STORY", metadata: { access_level: 5 } }],
    });
    const staticOnly = await insertPlanWithAssets(db, account.id, { planAssets: [{ type: "STATIC" }] });
    const displayOnly = await insertPlanWithAssets(db, account.id, {
      planAssets: [{ type: "SITE", role: "DISPLAY_ASSETS" }],
    });
    const noAssets = await insertPlanWithAssets(db, account.id);
    const campaign = await insertPlanWithAssets(db, account.id, { type: "CAMPAIGN" });

    const decide = async (memberId: number, storyId: string, disableMeter = true) =>
      decideAccess(db, {
        accountId: account.id,
        storyId,
        reader: { memberId, readerId: null },
        disableMeter,
        now: new Date(),
        meter: "check",
      });
    const reader = async (plan: { plan: { id: number }; group: { id: number } }, type?: "CAMPAIGN") =>
      (await insertSubscriber(db, account.id, plan, type)).id;
    const siteReader = await reader(site);
    for (const s of [open, level3, level7])
      expect(await decide(siteReader, s.id)).toMatchObject({ granted: true, grantReason: "SUBSCRIBER" });
    const levelReader = await reader(story5);
    expect((await decide(levelReader, open.id)).grantReason).toBe("SUBSCRIBER");
    expect((await decide(levelReader, level3.id)).grantReason).toBe("SUBSCRIBER");
    expect(await decide(levelReader, level7.id)).toMatchObject({ granted: false, why: "hard_paywall" });
    expect((await decide(await reader(staticOnly), open.id)).granted).toBe(false);
    // Display assets grant nothing: a plan naming only a display asset (its group none) grants no
    // asset at all, which is the documented "no assets: every story" rule.
    expect((await decide(await reader(displayOnly), level7.id)).grantReason).toBe("SUBSCRIBER");
    expect((await decide(await reader(noAssets), level7.id)).grantReason).toBe("SUBSCRIBER");
    expect((await decide(await reader(campaign, "CAMPAIGN"), open.id)).granted).toBe(false);
  });

  it("grants only while the subscription grants access: not pending, expired, deleted or future; cancelled until its end; grace", async () => {
    const { db, account, key, story } = await setup();
    const s = await story("subscription");
    const plan = await insertPlanWithAssets(db, account.id, { groupAssets: [{ type: "SITE" }] });
    const now = Date.now();
    const cases: [Parameters<typeof insertSubscription>[1] extends infer A ? Partial<A> : never, boolean][] = [
      [{ status: "PENDING" }, false],
      [{ status: "FAILED" }, false],
      [{ end: new Date(now - 1000) }, false],
      [{ start: new Date(now + 3600_000) }, false],
      [{ deletedAt: new Date(now - 1000) }, false],
      [{ status: "CANCELLED" }, true],
      [{ end: null }, true],
      [{ end: new Date(now - 1000), graceEndsAt: new Date(now + 3600_000) }, true],
    ];
    for (const [i, [overrides, granted]] of cases.entries()) {
      const id = `sub-${i}`;
      const m = await db.member.create({
        data: {
          accountId: account.id,
          name: id,
          email: `${id}@example.com`,
          passwordHash: "!x",
          identities: { create: { accountId: account.id, provider: "publisher", externalId: id } },
        },
      });
      await insertSubscription(db, {
        accountId: account.id,
        memberId: m.id,
        planId: plan.plan.id,
        groupId: plan.group.id,
        ...overrides,
      });
      const answer = await ampAccess(s.id, {
        key,
        readerId: "amp-sub",
        accesstype_jwt: await readerJwt({ id, name: id }),
        "disable-meter": "true",
      });
      expect(answer.granted, JSON.stringify(overrides)).toBe(granted);
      if (granted) expect(answer.grantReason).toBe("SUBSCRIBER");
    }
  });

  it("grants members of a group_access subscription, and ASSET for pay per asset (the story, or a collection holding it)", async () => {
    const { db, account, story } = await setup();
    const [a, b, c] = [await story("subscription"), await story("subscription"), await story("subscription")];
    const plan = await insertPlanWithAssets(db, account.id, { type: "GROUP_ACCESS", groupAssets: [{ type: "SITE" }] });
    const owner = await insertMember(db, account.id);
    const member = await insertMember(db, account.id);
    const sub = await insertSubscription(db, {
      accountId: account.id,
      memberId: owner.id,
      planId: plan.plan.id,
      groupId: plan.group.id,
      type: "GROUP_ACCESS",
    });
    await db.subscriptionMember.create({ data: { subscriptionId: sub.id, memberId: member.id } });
    const decide = (memberId: number, storyId: string) =>
      decideAccess(db, {
        accountId: account.id,
        storyId,
        reader: { memberId, readerId: null },
        disableMeter: true,
        now: new Date(),
        meter: "check",
      });
    expect((await decide(member.id, a.id)).grantReason).toBe("SUBSCRIBER");

    const collection = await db.collection.create({
      data: { accountId: account.id, name: "Series", slug: `series-${Date.now()}` },
    });
    await db.collectionItem.create({ data: { collectionId: collection.id, position: 0, storyId: b.id } });
    const buyer = await insertMember(db, account.id);
    await insertSubscription(db, {
      accountId: account.id,
      memberId: buyer.id,
      type: "DYNAMIC_ASSET",
      dynamicAssets: [
        { id: a.id, type: "story" },
        { id: collection.id, type: "collection" },
      ],
    });
    expect(await decide(buyer.id, a.id)).toMatchObject({ granted: true, grantReason: "ASSET" });
    expect(await decide(buyer.id, b.id)).toMatchObject({ granted: true, grantReason: "ASSET" });
    expect(await decide(buyer.id, c.id)).toMatchObject({ granted: false, why: "hard_paywall" });
  });

  it("answers 404 for another account's story, an unknown id, a draft and a malformed id; 401 without a key", async () => {
    const { db, key, story } = await setup();
    const other = await setup();
    const theirs = await other.story("subscription");
    const draft = await insertStory(
      db,
      (await db.story.findFirstOrThrow({ where: { id: (await story("public")).id } })).accountId,
      { status: "DRAFT" },
    );
    for (const id of [theirs.id, "7f8e0d62-0000-4000-8000-000000000000", draft.id, "not-a-uuid"]) {
      const res = await forward(AMP_ACCESS, id, { key, readerId: "r" });
      expect(res.status, id).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
      expect(
        (
          await forward(
            AMP_PINGBACK,
            id,
            { key, readerId: "r" },
            { method: "POST", body: "{}", headers: { "content-type": "text/plain" } },
          )
        ).status,
      ).toBe(404);
    }
    expect((await send(AMP_ACCESS, theirs.id, { readerId: "r" })).status).toBe(401);
    // X-SUBAUTH (spec §5: AMP endpoints take it) is accepted too.
    expect(
      (await send(AMP_ACCESS, theirs.id, { readerId: "r" }, { headers: { "x-subauth": other.serverKey } })).status,
    ).toBe(200);
  });
});
