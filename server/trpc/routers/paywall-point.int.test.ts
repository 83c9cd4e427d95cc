/** paywallPoint.* (revenue staff read, owners change): the paywall point settings, audited, and the kept answers purged. */
import { describe, expect, it } from "vitest";

import { GET as STORY_BY_ID } from "@/app/api/v1/stories/[storyId]/route";
import { staffActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import { AppError } from "@/server/errors";
import { updatePaywallPointSettings } from "@/server/publishing/paywall-settings";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { createTestPublisher, insertStory, textCards } from "@/server/testing/publishing-factories";
import { enableResponseCache } from "@/server/testing/response-cache";
import { callGet } from "@/server/testing/route-calls";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";

enableResponseCache();

describe("paywallPoint", () => {
  it("lets owners save it, audited; revenue staff read it; a bad value is 400 naming the field and saves nothing", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const owner = await createTestStaff(db, { roles: ["OWNER"], account: account.id });
    expect(await owner.caller.paywallPoint.get()).toEqual({
      paywallDefaultElements: 1,
      contentApiAccess: "free_part",
      canEdit: true,
    });
    const saved = await owner.caller.paywallPoint.update({ paywallDefaultElements: 3, contentApiAccess: "full" });
    expect(saved).toEqual({ paywallDefaultElements: 3, contentApiAccess: "full", canEdit: true });
    const audit = await db.auditLog.findFirstOrThrow({
      where: { accountId: account.id, action: "paywall_point.update" },
    });
    expect(audit.metadata).toMatchObject({
      changed: ["paywallDefaultElements", "contentApiAccess"],
      previous: { paywallDefaultElements: 1, contentApiAccess: "free_part" },
    });

    for (const [input, field] of [
      [{ paywallDefaultElements: -1, contentApiAccess: "full" }, "paywallDefaultElements"],
      [{ paywallDefaultElements: 1.5, contentApiAccess: "full" }, "paywallDefaultElements"],
      [{ paywallDefaultElements: 2, contentApiAccess: "everything" }, "contentApiAccess"],
    ] as const) {
      expect(await trpcCodeOf(owner.caller.paywallPoint.update(input as never))).toBe("BAD_REQUEST");
      const error = await updatePaywallPointSettings(db, {
        actor: staffActor(owner.user),
        input: input as never,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("BAD_REQUEST");
      expect(JSON.stringify((error as AppError).details)).toContain(field);
    }
    expect(await owner.caller.paywallPoint.get()).toEqual(saved);
    expect(await db.auditLog.count({ where: { accountId: account.id, action: "paywall_point.update" } })).toBe(1);

    const revenue = await createTestStaff(db, { roles: ["REVENUE"], account: account.id });
    expect(await revenue.caller.paywallPoint.get()).toEqual({ ...saved, canEdit: false });
    expect(await trpcCodeOf(revenue.caller.paywallPoint.update({ ...saved }))).toBe("FORBIDDEN");
    const editor = await createTestStaff(db, { roles: ["EDITOR"], account: account.id });
    expect(await trpcCodeOf(editor.caller.paywallPoint.get())).toBe("FORBIDDEN");
  });

  it("purges the kept answers: the next read is cut at the new point", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const owner = await createTestStaff(db, { roles: ["OWNER"], account: account.id });
    const story = await insertStory(db, account.id, {
      access: "subscription",
      cards: textCards("one", "two", "three"),
    });
    const read = async () => {
      const res = await callGet(STORY_BY_ID, `/api/v1/stories/${story.id}`, { storyId: story.id });
      const body = (await res.json()) as { story: { paywall: { "free-elements": number } } };
      return { cache: res.headers.get("x-cache"), free: body.story.paywall["free-elements"] };
    };
    expect(await read()).toEqual({ cache: "MISS", free: 1 });
    expect(await read()).toEqual({ cache: "HIT", free: 1 });
    await owner.caller.paywallPoint.update({ paywallDefaultElements: 2, contentApiAccess: "free_part" });
    forgetPublisherCache();
    expect(await read()).toEqual({ cache: "MISS", free: 2 });
  });
});
