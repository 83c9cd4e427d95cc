/**
 * Days at the edge of the calendar in every filter and range the dashboard takes (lists, reports,
 * the audit log, newsletter stats and their CSV exports), in zones on both sides of the date line:
 * a day outside FIRST_DAY..LAST_DAY is a 400 naming the field, a day at either end is answered, and
 * nothing is ever a 500 or a dropped download.
 */
import { describe, expect, it, vi } from "vitest";

import { GET as auditCsv } from "@/app/api/admin/audit-log.csv/route";
import { GET as sendsCsv } from "@/app/api/admin/newsletters/[id]/sends.csv/route";
import type { AdminSession } from "@/server/auth/admin-session";
import { FIRST_DAY, LAST_DAY } from "@/server/dates.schema";
import { getDb } from "@/server/db";
import { insertNewsletter } from "@/server/testing/newsletter-fixtures";
import { createTestStaff, trpcCodeOf, type TestStaff } from "@/server/testing/staff";

const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

/** Days the edge refuses: before 1900, after 2999, year 0, and forms that are no day. */
const OUTSIDE = ["0000-01-01", "0001-01-01", "1899-12-31", "3000-01-01", "9999-12-31", "+275760-09-13", "2026-02-30"];
/** The first and last days the edge takes, and a leap day. */
const INSIDE = [FIRST_DAY, LAST_DAY, "2000-02-29"];
/** Zones furthest from UTC on each side. */
const ZONES = ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kolkata"];

/** Every dashboard call that takes a day, as `(from, to) → a promise`. */
function dayCalls(owner: TestStaff, newsletterId: number) {
  const c = owner.caller;
  return {
    "auditLog.list": (from: string, to: string) => c.auditLog.list({ from, to }),
    "stories.list": (from: string, to: string) => c.stories.list({ from, to }),
    "moderation.queue": (from: string, to: string) => c.moderation.queue({ filters: { from, to } }),
    "revenue.subscriptionsReport": (from: string, to: string) => c.revenue.subscriptionsReport({ from, to }),
    "revenue.revenueReport": (from: string, to: string) => c.revenue.revenueReport({ from, to }),
    "revenue.conversionReport": (from: string, to: string) => c.revenue.conversionReport({ from, to }),
    "revenue.dunningReport": (from: string, to: string) => c.revenue.dunningReport({ from, to }),
    "newsletterStats.newsletter": (from: string, to: string) =>
      c.newsletterStats.newsletter({ newsletterId, range: { from, to } }),
  };
}

async function setup(zone: string) {
  const db = await getDb();
  const owner = await createTestStaff(db, { roles: ["OWNER"] });
  await db.account.update({ where: { id: owner.account.id }, data: { timeZone: zone } });
  const newsletter = await insertNewsletter(db, owner.account.id);
  session.current = owner.session;
  return { owner, newsletterId: newsletter.id };
}

const csvs = (newsletterId: number, query: string) => [
  auditCsv(new Request(`http://localhost/api/admin/audit-log.csv${query}`), { params: Promise.resolve({}) }),
  sendsCsv(new Request(`http://localhost/api/admin/newsletters/${newsletterId}/sends.csv${query}`), {
    params: Promise.resolve({ id: String(newsletterId) }),
  }),
];

describe("days at the edge of the calendar", () => {
  it.each(ZONES)("are refused with a reason outside the calendar the edge takes (%s)", async (zone) => {
    const { owner, newsletterId } = await setup(zone);
    for (const [name, call] of Object.entries(dayCalls(owner, newsletterId))) {
      for (const day of OUTSIDE) {
        expect([name, day, await trpcCodeOf(call(day, day))]).toEqual([name, day, "BAD_REQUEST"]);
      }
    }
    for (const day of OUTSIDE) {
      for (const answer of csvs(newsletterId, `?from=${encodeURIComponent(day)}&to=${encodeURIComponent(day)}`)) {
        const res = await answer;
        expect([day, res.status]).toEqual([day, 400]);
        expect(JSON.stringify(await res.json())).toMatch(/query\.(from|to)/);
      }
    }
  });

  it.each(ZONES)("are answered at the first and last day it takes (%s)", async (zone) => {
    const { owner, newsletterId } = await setup(zone);
    for (const [name, call] of Object.entries(dayCalls(owner, newsletterId))) {
      for (const day of INSIDE) {
        expect([name, day, await trpcCodeOf(call(day, day))]).toEqual([name, day, "OK"]);
      }
    }
    for (const day of INSIDE) {
      for (const answer of csvs(newsletterId, `?from=${day}&to=${day}`)) {
        const res = await answer;
        expect([day, res.status]).toEqual([day, 200]);
        expect((await res.text()).length).toBeGreaterThan(0);
      }
    }
  });

  it("refuses a schedule or a coupon's validity outside the calendar, and takes one inside", async () => {
    const { owner } = await setup("UTC");
    const coupon = (validFrom: string) =>
      owner.caller.subscriptions.coupons.create({
        code: `EDGE${validFrom.slice(0, 4)}`,
        discountType: "percent",
        percentOff: 10,
        validFrom,
      });
    expect(await trpcCodeOf(coupon("9999-12-31T00:00:00Z"))).toBe("BAD_REQUEST");
    expect(await trpcCodeOf(coupon("0001-01-01T00:00:00Z"))).toBe("BAD_REQUEST");
    expect(await trpcCodeOf(coupon("2999-12-31T00:00:00Z"))).toBe("OK");
  });
});
