/** The dashboard's "Extend to" day is a day of the account's zone: access through the end of it there. */
import { describe, expect, it } from "vitest";

import { getDb } from "../../db";
import { createTestTeam } from "../../testing/staff";
import { insertTestGroup, insertTestPlan } from "../../testing/subscription-fixtures";

describe("subscriberSubscriptions.extend on the account's clocks", () => {
  it.each([
    ["Asia/Tokyo", "T14:59:59.999Z", 0],
    ["Asia/Kolkata", "T18:29:59.999Z", 0],
    ["Pacific/Honolulu", "T09:59:59.999Z", 1],
  ])("ends the subscription at the last millisecond of the day in %s", async (zone, endUtc, dayAfter) => {
    const db = await getDb();
    const { revenue } = await createTestTeam(db, `subz-${zone.replace(/\W/g, "")}`, { revenue: ["REVENUE"] });
    await db.account.update({ where: { id: revenue.account.id }, data: { timeZone: zone } });
    const plan = await insertTestPlan(db, await insertTestGroup(db, revenue.account.id));
    const given = await revenue.caller.subscriberSubscriptions.grant({ email: "zed@example.com", planId: plan.id });

    const to = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);
    const extended = await revenue.caller.subscriberSubscriptions.extend({ id: given.id, extendTo: to });
    // West of UTC the zone's day ends on the next UTC day.
    const endDay = new Date(Date.parse(`${to}T00:00:00Z`) + dayAfter * 86_400_000).toISOString().slice(0, 10);
    expect(extended.end_timestamp).toBe(`${endDay}${endUtc}`);
  });
});
