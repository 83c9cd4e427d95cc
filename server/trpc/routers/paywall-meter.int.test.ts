/** paywallMeter.* (REVENUE) and the caches the access decision keeps: meter settings and keys, dropped by the changes. */
import { describe, expect, it } from "vitest";

import { rotateApiKey } from "@/server/accounts/api-key-admin";
import { staffActor } from "@/server/auth/actor";
import { authenticateClient } from "@/server/auth/api-auth";
import { createApiKey } from "@/server/auth/api-keys";
import { getDb } from "@/server/db";
import { decideAccess } from "@/server/subscriptions/access/access";
import { insertStory } from "@/server/testing/publishing-factories";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";

describe("paywallMeter", () => {
  it("lets revenue staff read and save the meter, audited; editors may not", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    expect(await revenue.caller.paywallMeter.get()).toMatchObject({
      configured: false,
      freeStories: 3,
      updatedAt: null,
    });
    const settings = {
      enabled: true,
      freeStories: 5,
      periodLength: 2,
      periodUnit: "weeks",
      meterAnonymous: false,
      registrationWall: false,
      registrationFreeStories: 3,
    } as const;
    const saved = await revenue.caller.paywallMeter.update(settings);
    expect(saved).toMatchObject({ configured: true, ...settings });
    expect(await revenue.caller.paywallMeter.get()).toEqual(saved);
    const audit = await db.auditLog.findFirstOrThrow({
      where: { accountId: revenue.account.id, action: "meter_settings.update" },
    });
    expect(audit.metadata).toMatchObject({ freeStories: 5, previous: null });
    expect(
      await trpcCodeOf(
        revenue.caller.paywallMeter.update({
          enabled: true,
          freeStories: -1,
          periodLength: 1,
          periodUnit: "months",
          meterAnonymous: true,
          registrationWall: false,
          registrationFreeStories: 3,
        }),
      ),
    ).toBe("BAD_REQUEST");

    const editor = await createTestStaff(db, { roles: ["EDITOR"], account: revenue.account.id });
    expect(await trpcCodeOf(editor.caller.paywallMeter.get())).toBe("FORBIDDEN");
    expect(await trpcCodeOf(editor.caller.paywallMeter.update({ ...saved }))).toBe("FORBIDDEN");
  });

  it("a save is seen by the next access decision although the settings were cached", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const accountId = revenue.account.id;
    const story = await insertStory(db, accountId, { access: "subscription" });
    const decide = () =>
      decideAccess(db, {
        accountId,
        storyId: story.id,
        reader: { memberId: null, readerId: "r-1" },
        disableMeter: false,
        now: new Date(),
        meter: "check",
      });
    expect((await decide()).why).toBe("meter_off"); // "no meter" is cached now
    const meter = {
      freeStories: 2,
      periodLength: 1,
      periodUnit: "months",
      meterAnonymous: true,
      registrationWall: false,
      registrationFreeStories: 3,
    } as const;
    await revenue.caller.paywallMeter.update({ enabled: true, ...meter });
    expect(await decide()).toMatchObject({ granted: true, grantReason: "METERING", data: { numberRemaining: 1 } });
    await revenue.caller.paywallMeter.update({ enabled: false, ...meter });
    expect((await decide()).why).toBe("meter_off");
  });

  it("a key rotation drops the cached key: a rotated key past its grace is refused at once", async () => {
    const db = await getDb();
    const owner = await createTestStaff(db, { roles: ["OWNER"] });
    const { id, key } = await createApiKey(db, { accountId: owner.account.id, kind: "CLIENT", name: "web" });
    const query = new URLSearchParams({ key });
    const now = new Date();
    expect((await authenticateClient(db, query, { user: "none", now, cached: true })).account.id).toBe(
      owner.account.id,
    );
    // Rotated "two days ago": its grace is over, and the cached entry (no expiry) must not answer.
    await rotateApiKey(db, {
      keyId: id,
      actor: staffActor(owner.session.user),
      now: new Date(now.getTime() - 48 * 3600_000),
    });
    await expect(authenticateClient(db, query, { user: "none", now, cached: true })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });
});
