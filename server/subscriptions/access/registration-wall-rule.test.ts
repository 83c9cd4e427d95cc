/** The registration wall in the paywall rule (./access-rule.ts; docs/subscriptions.md "Registration wall"). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { meterReader, meterRules } from "../../testing/meter-rules";
import {
  afterCount,
  applyAccessRule,
  registrationWallApplies,
  type AccessFacts,
  type MeterState,
  type ReaderSubscription,
} from "./access-rule";
import type { MeterRules } from "./meter";

const NOW = new Date("2026-12-03T12:00:00Z");
const STORY_ID = "7f8e0d62-0000-4000-8000-000000000000";
const storyId = (n: number) => `7f8e0d62-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** The meter with its registration wall on. */
const rules = (over: Partial<MeterRules> = {}) => meterRules({ registrationWall: true, ...over });

/** An anonymous reader on the registration meter ("w:<readerId>"), `views` of its stories read. */
const anonymous = (views: number, over: Partial<MeterState> = {}) =>
  meterReader({ rules: rules(), readerKey: "w:reader-1", loggedIn: false }, views, over);
/** A logged-in reader on the paid meter ("m:<member>"). */
const registered = (views: number, over: Partial<MeterState> = {}) =>
  meterReader({ rules: rules(), readerKey: "m:7", loggedIn: true }, views, over);

const subscription: ReaderSubscription = {
  id: 9,
  type: "standard",
  dynamicAssets: null,
  assets: [{ type: "site", metadata: {} }],
  start: NOW.getTime() - 86_400_000,
  end: null,
  graceEnds: null,
};

const decide = (over: Partial<AccessFacts> = {}) =>
  applyAccessRule({
    storyId: STORY_ID,
    story: { access: "subscription", accessLevelValue: null, collectionIds: [] },
    subscriptions: [],
    meter: anonymous(0),
    disableMeter: false,
    now: NOW,
    ...over,
  });
const brief = (over: Partial<AccessFacts> = {}) => {
  const d = decide(over);
  return {
    granted: d.granted,
    why: d.why,
    remaining: d.data.numberRemaining,
    isLast: d.data.isLast,
    wall: d.data.wall,
  };
};

describe("the registration wall", () => {
  it("applies to readers who are not logged in, when the account has it on", () => {
    expect(registrationWallApplies(rules(), false)).toBe(true);
    expect(registrationWallApplies(rules(), true)).toBe(false);
    expect(registrationWallApplies(rules({ registrationWall: false }), false)).toBe(false);
    expect(registrationWallApplies(null, false)).toBe(false);
  });

  it.each([
    [
      "first free story",
      { meter: anonymous(0) },
      { granted: true, why: "meter:new", remaining: 1, isLast: false, wall: null },
    ],
    [
      "last free story",
      { meter: anonymous(1) },
      { granted: true, why: "meter:new", remaining: 0, isLast: true, wall: null },
    ],
    [
      "N read: sign up",
      { meter: anonymous(2) },
      { granted: false, why: "registration_required", remaining: 0, isLast: false, wall: "registration" },
    ],
    [
      "a story counted already is read again",
      { meter: anonymous(2, { counted: true }) },
      { granted: true, why: "meter:already_counted", remaining: 0, isLast: false, wall: null },
    ],
    [
      "no reader id: nothing to count on",
      { meter: anonymous(0, { readerKey: null }) },
      { granted: false, why: "registration_required", remaining: null, isLast: false, wall: "registration" },
    ],
    [
      "N = 0: the wall at once",
      { meter: anonymous(0, { rules: rules({ registrationFreeStories: 0 }) }) },
      { granted: false, why: "registration_required", remaining: 0, isLast: false, wall: "registration" },
    ],
    [
      "the paid meter off plays no part",
      { meter: anonymous(0, { rules: rules({ enabled: false, meterAnonymous: false }) }) },
      { granted: true, why: "meter:new", remaining: 1, isLast: false, wall: null },
    ],
    [
      "registered: the paid meter",
      { meter: registered(0) },
      { granted: true, why: "meter:new", remaining: 2, isLast: false, wall: null },
    ],
    [
      "registered, paid meter used up: the paid wall",
      { meter: registered(3) },
      { granted: false, why: "meter_exhausted", remaining: 0, isLast: false, wall: "paid" },
    ],
    [
      "registered, paid meter off: the paid wall",
      { meter: registered(0, { rules: rules({ enabled: false }) }) },
      { granted: false, why: "meter_off", remaining: null, isLast: false, wall: "paid" },
    ],
    [
      "a subscriber is not asked",
      { meter: anonymous(5), subscriptions: [subscription] },
      { granted: true, why: "subscription:9", remaining: 0, isLast: false, wall: null },
    ],
    [
      "disable-meter: subscribers only",
      { meter: anonymous(0), disableMeter: true },
      { granted: false, why: "hard_paywall", remaining: 2, isLast: false, wall: "paid" },
    ],
    [
      "public stories stay free",
      { meter: anonymous(5), story: { access: "public", accessLevelValue: null, collectionIds: [] } },
      { granted: true, why: "free_story", remaining: 0, isLast: false, wall: null },
    ],
    [
      "login stories still ask to log in",
      { meter: anonymous(0), story: { access: "login", accessLevelValue: null, collectionIds: [] } },
      { granted: false, why: "login_required", remaining: 2, isLast: false, wall: "registration" },
    ],
    [
      "the wall off: as before",
      { meter: anonymous(0, { readerKey: "r:reader-1", rules: rules({ registrationWall: false }) }) },
      { granted: true, why: "meter:new", remaining: 2, isLast: false, wall: null },
    ],
  ] as const)("%s", (_name, facts, expected) => {
    expect(brief(facts as Partial<AccessFacts>)).toEqual(expected);
  });

  it("a read whose count found the registration meter full is registration_required", () => {
    const fresh = decide({ meter: anonymous(1) });
    expect(afterCount(fresh, "exhausted", true)).toMatchObject({
      granted: false,
      why: "registration_required",
      data: { numberRemaining: 0, wall: "registration" },
    });
    expect(afterCount(fresh, "exhausted")).toMatchObject({ why: "meter_exhausted", data: { wall: "paid" } });
  });
});

const arbRules = fc.record({
  enabled: fc.boolean(),
  freeStories: fc.integer({ min: 0, max: 6 }),
  periodLength: fc.constant(1),
  periodUnit: fc.constant("MONTHS" as const),
  meterAnonymous: fc.boolean(),
  registrationWall: fc.boolean(),
  registrationFreeStories: fc.integer({ min: 0, max: 6 }),
});

describe("properties", () => {
  it("a logged-in reader or a subscriber is never asked to register for a subscription story", () => {
    fc.assert(
      fc.property(
        arbRules,
        fc.boolean(),
        fc.integer({ min: 0, max: 10 }),
        fc.boolean(),
        fc.boolean(),
        (meterRules, loggedIn, views, subscribed, disableMeter) => {
          fc.pre(loggedIn || subscribed);
          const d = decide({
            meter: { rules: meterRules, readerKey: loggedIn ? "m:1" : "w:r", loggedIn, views, counted: false },
            subscriptions: subscribed ? [subscription] : [],
            disableMeter,
          });
          expect(d.why).not.toBe("registration_required");
          expect(d.data.wall).not.toBe("registration");
        },
      ),
    );
  });

  it("an anonymous reader is granted at most N stories on the registration meter, then meets the registration wall", () => {
    fc.assert(
      fc.property(
        arbRules.map((r) => ({ ...r, registrationWall: true })),
        fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 30 }),
        (meterRules, reads) => {
          const counted = new Set<string>();
          for (const n of reads) {
            const id = storyId(n);
            const d = decide({
              storyId: id,
              meter: {
                rules: meterRules,
                readerKey: "w:r",
                loggedIn: false,
                views: counted.size,
                counted: counted.has(id),
              },
            });
            if (d.why === "meter:new") counted.add(id);
            if (d.granted) expect(counted.has(id)).toBe(true);
            else expect(d).toMatchObject({ why: "registration_required", data: { wall: "registration" } });
          }
          expect(counted.size).toBeLessThanOrEqual(meterRules.registrationFreeStories);
        },
      ),
    );
  });
});
