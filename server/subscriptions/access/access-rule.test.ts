import { describe, expect, it } from "vitest";

import { meterReader, meterRules } from "../../testing/meter-rules";
import {
  afterCount,
  applyAccessRule,
  assetsCoverStory,
  dynamicAssetsCoverStory,
  grantsAt,
  storyAccessKind,
  toAccessGrant,
  type AccessFacts,
  type MeterState,
  type ReaderSubscription,
  type StoryAccess,
} from "./access-rule";

const NOW = new Date("2026-11-23T12:00:00Z");
const HOUR = 3_600_000;
const at = (offsetMs: number) => NOW.getTime() + offsetMs;
const STORY_ID = "7f8e0d62-0000-4000-8000-000000000000";

const story = (over: Partial<StoryAccess> = {}): StoryAccess => ({
  access: "subscription",
  accessLevelValue: null,
  collectionIds: [],
  ...over,
});

/** A subscription that started a day ago and never ends, granting the whole site unless told. */
const sub = (over: Partial<ReaderSubscription> = {}): ReaderSubscription => ({
  id: 1,
  type: "standard",
  dynamicAssets: null,
  assets: [{ type: "site", metadata: {} }],
  start: at(-24 * HOUR),
  end: null,
  graceEnds: null,
  ...over,
});

const rules = meterRules;

/** No meter settings, an anonymous reader with no id. */
const noMeter: MeterState = { rules: null, readerKey: null, loggedIn: false, views: 0, counted: false };
/** An AMP reader (READER_ID) on a meter of 3 free stories, `views` of them read. */
const ampReader = (views: number, over: Partial<MeterState> = {}) =>
  meterReader({ rules: rules(), readerKey: "r:amp-reader-1", loggedIn: false }, views, over);
/** A logged-in reader whose member is known, on a meter of 3. */
const member = (views: number, over: Partial<MeterState> = {}) =>
  meterReader({ rules: rules(), readerKey: "m:7", loggedIn: true }, views, over);

const decide = (over: Partial<AccessFacts> = {}) =>
  applyAccessRule({
    storyId: STORY_ID,
    story: story(),
    subscriptions: [],
    meter: noMeter,
    disableMeter: false,
    now: NOW,
    ...over,
  });
/** The decision flat, without `data.wall` (which follows `why`: see "which wall"). */
const brief = (facts: Partial<AccessFacts> = {}) => {
  const { granted, grantReason, why, data } = decide(facts);
  const { wall: _wall, ...rest } = data;
  return { granted, grantReason, why, ...rest };
};

describe("story access kinds", () => {
  it("reads access values closed: unknown ones are subscription", () => {
    expect(storyAccessKind(null)).toBe("public");
    expect(storyAccessKind(undefined)).toBe("public");
    expect(storyAccessKind(" Public ")).toBe("public");
    expect(storyAccessKind("Login")).toBe("login");
    expect(storyAccessKind("subscription")).toBe("subscription");
    expect(storyAccessKind("premium")).toBe("subscription");
  });
});

describe("what a subscription covers", () => {
  it("covers stories by asset type and level", () => {
    const level = (n: number | null) => story({ accessLevelValue: n, collectionIds: [4] });
    const granting = (assets: { type: string; metadata?: unknown }[], type = "standard") => ({
      type,
      assets: assets.map((a) => ({ metadata: {}, ...a })),
    });
    expect(assetsCoverStory(granting([{ type: "site" }]), level(99))).toBe(true);
    expect(assetsCoverStory(granting([{ type: "story", metadata: { access_level: "5" } }]), level(5))).toBe(true);
    expect(assetsCoverStory(granting([{ type: "story", metadata: { access_level: 5 } }]), level(6))).toBe(false);
    expect(assetsCoverStory(granting([{ type: "story", metadata: { access_level: 5 } }]), level(null))).toBe(true);
    expect(assetsCoverStory(granting([{ type: "story", metadata: { access_level: "" } }]), level(6))).toBe(true);
    expect(assetsCoverStory(granting([{ type: "story", metadata: null }]), level(6))).toBe(true);
    expect(assetsCoverStory(granting([{ type: "static" }]), level(null))).toBe(false);
    expect(assetsCoverStory(granting([{ type: "static" }, { type: "site" }]), level(null))).toBe(true);
    // No asset at all: the site, except for contributions and pay per asset.
    expect(assetsCoverStory(granting([]), level(99))).toBe(true);
    expect(assetsCoverStory(granting([], "campaign"), level(null))).toBe(false);
    expect(assetsCoverStory(granting([], "dynamic_asset"), level(null))).toBe(false);
  });

  it("covers pay-per-asset stories named by id (any case) or by a collection holding them", () => {
    const inCollection = story({ collectionIds: [4] });
    expect(dynamicAssetsCoverStory([{ id: STORY_ID.toUpperCase(), type: "story" }], STORY_ID, inCollection)).toBe(true);
    expect(dynamicAssetsCoverStory([{ id: STORY_ID }], STORY_ID, inCollection)).toBe(true);
    expect(dynamicAssetsCoverStory([{ id: 4, type: "collection" }], STORY_ID, inCollection)).toBe(true);
    expect(dynamicAssetsCoverStory([{ id: "4", type: "Collection" }], STORY_ID, inCollection)).toBe(true);
    expect(dynamicAssetsCoverStory([{ id: 5, type: "collection" }], STORY_ID, inCollection)).toBe(false);
    expect(dynamicAssetsCoverStory([{ id: "another-story", type: "story" }], STORY_ID, inCollection)).toBe(false);
    expect(dynamicAssetsCoverStory([null, "x"], STORY_ID, inCollection)).toBe(false);
    expect(dynamicAssetsCoverStory("nonsense", STORY_ID, inCollection)).toBe(false);
  });

  it("grants from its start until its end, or until its grace ends", () => {
    expect(grantsAt(sub(), NOW)).toBe(true);
    expect(grantsAt(sub({ start: null }), NOW)).toBe(false);
    expect(grantsAt(sub({ start: at(HOUR) }), NOW)).toBe(false);
    expect(grantsAt(sub({ start: at(0) }), NOW)).toBe(true);
    expect(grantsAt(sub({ end: at(HOUR) }), NOW)).toBe(true);
    expect(grantsAt(sub({ end: at(0) }), NOW)).toBe(false);
    expect(grantsAt(sub({ end: at(-HOUR) }), NOW)).toBe(false);
    expect(grantsAt(sub({ end: at(-HOUR), graceEnds: at(HOUR) }), NOW)).toBe(true);
    expect(grantsAt(sub({ end: at(-HOUR), graceEnds: at(-1) }), NOW)).toBe(false);
  });
});

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("the decision", () => {
  it("FREE for a public story (or none set), showing the meter of a metered reader", () => {
    for (const access of ["public", "", "PUBLIC"])
      expect(brief({ story: story({ access }) })).toEqual({
        granted: true,
        grantReason: "FREE",
        why: "free_story",
        numberRemaining: null,
        isLoggedIn: false,
        isLast: false,
      });
    expect(brief({ story: story({ access: "public" }), meter: ampReader(1) })).toMatchObject({
      grantReason: "FREE",
      numberRemaining: 2,
    });
  });

  it("LOGGED_IN for a login story and a logged-in reader; login_required otherwise", () => {
    const login = story({ access: "login" });
    expect(brief({ story: login, meter: member(0) })).toMatchObject({
      granted: true,
      grantReason: "LOGGED_IN",
      why: "logged_in",
      isLoggedIn: true,
    });
    expect(brief({ story: login, meter: ampReader(0) })).toMatchObject({
      granted: false,
      grantReason: null,
      why: "login_required",
      numberRemaining: 3,
    });
  });

  it("SUBSCRIBER while a subscription grants: active, cancelled but in its period, in grace; never before or after", () => {
    const subscriber = (s: ReaderSubscription) => brief({ subscriptions: [s], disableMeter: true });
    expect(subscriber(sub({ id: 12 }))).toEqual({
      granted: true,
      grantReason: "SUBSCRIBER",
      why: "subscription:12",
      numberRemaining: null,
      isLoggedIn: false,
      isLast: false,
    });
    // A cancelled subscription is loaded with its end: it grants until then.
    expect(subscriber(sub({ end: at(24 * HOUR) })).grantReason).toBe("SUBSCRIBER");
    expect(subscriber(sub({ end: at(-HOUR), graceEnds: at(HOUR) })).grantReason).toBe("SUBSCRIBER");
    expect(subscriber(sub({ end: at(-HOUR) }))).toMatchObject({ granted: false, why: "hard_paywall" });
    expect(subscriber(sub({ end: at(-2 * HOUR), graceEnds: at(-HOUR) }))).toMatchObject({ granted: false });
    expect(subscriber(sub({ start: at(HOUR) }))).toMatchObject({ granted: false });
  });

  it("decides at the `now` it is given", () => {
    const facts = { subscriptions: [sub({ end: at(HOUR) })], disableMeter: true };
    expect(decide({ ...facts, now: NOW }).granted).toBe(true);
    expect(decide({ ...facts, now: new Date(at(2 * HOUR)) }).granted).toBe(false);
  });

  it("SUBSCRIBER by a group_access subscription the reader is a member of, and by a gift the reader received", () => {
    const group = sub({ id: 3, type: "group_access", assets: [{ type: "site", metadata: null }] });
    expect(brief({ subscriptions: [group], meter: member(0) })).toMatchObject({
      grantReason: "SUBSCRIBER",
      why: "subscription:3",
      isLoggedIn: true,
      numberRemaining: 3,
    });
    const gift = sub({ id: 4, type: "standard", assets: [] });
    expect(brief({ subscriptions: [gift] })).toMatchObject({ grantReason: "SUBSCRIBER", why: "subscription:4" });
  });

  it("SUBSCRIBER only when the assets cover the story; the first subscription that covers it says why", () => {
    const levelled = story({ accessLevelValue: 6 });
    const upTo5 = sub({ id: 1, assets: [{ type: "story", metadata: { access_level: 5 } }] });
    const upTo9 = sub({ id: 2, assets: [{ type: "story", metadata: { access_level: 9 } }] });
    const epaper = sub({ id: 5, assets: [{ type: "static", metadata: {} }] });
    const campaign = sub({ id: 6, type: "campaign", assets: [] });
    expect(brief({ story: levelled, subscriptions: [upTo5], disableMeter: true }).why).toBe("hard_paywall");
    expect(brief({ story: levelled, subscriptions: [upTo5, upTo9, sub({ id: 3 })] }).why).toBe("subscription:2");
    expect(brief({ subscriptions: [epaper, campaign], disableMeter: true }).why).toBe("hard_paywall");
  });

  it("ASSET for pay per asset: the story named, or a collection holding it; nothing for other stories", () => {
    const perAsset = (dynamicAssets: unknown) =>
      sub({ id: 8, type: "dynamic_asset", assets: [], dynamicAssets: dynamicAssets });
    expect(brief({ subscriptions: [perAsset([{ id: STORY_ID, type: "story" }])] })).toMatchObject({
      granted: true,
      grantReason: "ASSET",
      why: "asset:8",
    });
    const inCollection = story({ collectionIds: [40] });
    expect(brief({ story: inCollection, subscriptions: [perAsset([{ id: 40, type: "collection" }])] }).why).toBe(
      "asset:8",
    );
    // Its plan's assets do not make it a subscriber.
    const withSite = sub({ id: 9, type: "dynamic_asset", dynamicAssets: [], assets: [{ type: "site", metadata: {} }] });
    expect(brief({ subscriptions: [withSite], disableMeter: true }).why).toBe("hard_paywall");
    // An expired purchase grants nothing.
    const ended = { ...perAsset([{ id: STORY_ID }]), end: at(-HOUR) };
    expect(brief({ subscriptions: [ended], disableMeter: true }).granted).toBe(false);
  });

  it("hard_paywall (disable-meter) for readers without a subscription, with free stories left", () => {
    expect(brief({ meter: ampReader(0), disableMeter: true })).toMatchObject({
      granted: false,
      grantReason: null,
      why: "hard_paywall",
      numberRemaining: 3,
    });
    expect(brief({ meter: ampReader(0), disableMeter: true, subscriptions: [sub()] }).grantReason).toBe("SUBSCRIBER");
  });

  it("meter_off without settings or when disabled; anonymous_not_metered when only members are metered", () => {
    expect(brief()).toMatchObject({ granted: false, why: "meter_off", numberRemaining: null });
    expect(brief({ meter: ampReader(0, { rules: rules({ enabled: false }) }) })).toMatchObject({
      why: "meter_off",
      numberRemaining: null,
    });
    const membersOnly = rules({ meterAnonymous: false });
    expect(brief({ meter: ampReader(0, { rules: membersOnly }) })).toMatchObject({
      why: "anonymous_not_metered",
      numberRemaining: null,
    });
    expect(brief({ meter: member(0, { rules: membersOnly }) })).toMatchObject({
      grantReason: "METERING",
      numberRemaining: 2,
    });
  });

  it("no_reader: an anonymous reader without a reader id has no meter to count on", () => {
    expect(brief({ meter: { ...noMeter, rules: rules() } })).toMatchObject({
      granted: false,
      why: "no_reader",
      numberRemaining: null,
      isLoggedIn: false,
    });
  });

  it("METERING for an AMP reader id with free stories left: what is left after this read, isLast on the last", () => {
    expect(brief({ meter: ampReader(0) })).toEqual({
      granted: true,
      grantReason: "METERING",
      why: "meter:new",
      numberRemaining: 2,
      isLoggedIn: false,
      isLast: false,
    });
    expect(brief({ meter: ampReader(2) })).toMatchObject({ why: "meter:new", numberRemaining: 0, isLast: true });
    expect(brief({ meter: ampReader(3) })).toMatchObject({
      granted: false,
      grantReason: null,
      why: "meter_exhausted",
      numberRemaining: 0,
      isLast: false,
    });
    // Fewer free stories than already read (the limit lowered): nothing left, never below 0.
    expect(brief({ meter: ampReader(5) })).toMatchObject({ why: "meter_exhausted", numberRemaining: 0 });
  });

  it("METERING for a story already counted in the period: read again for free, even on an exhausted meter", () => {
    expect(brief({ meter: ampReader(3, { counted: true }) })).toEqual({
      granted: true,
      grantReason: "METERING",
      why: "meter:already_counted",
      numberRemaining: 0,
      isLoggedIn: false,
      isLast: false,
    });
    expect(brief({ meter: member(1, { counted: true }) })).toMatchObject({ numberRemaining: 2, isLoggedIn: true });
  });

  it("METERING for a logged-in reader never seen (no member yet): a fresh meter", () => {
    const unseen = (freeStories: number) => member(0, { readerKey: null, rules: rules({ freeStories }) });
    expect(brief({ meter: unseen(3) })).toEqual({
      granted: true,
      grantReason: "METERING",
      why: "meter:new",
      numberRemaining: 2,
      isLoggedIn: true,
      isLast: false,
    });
    expect(brief({ meter: unseen(1) })).toMatchObject({ numberRemaining: 0, isLast: true });
    expect(brief({ meter: unseen(0) })).toMatchObject({ granted: false, why: "meter_exhausted", numberRemaining: 0 });
  });
});

describe("after counting a read", () => {
  const fresh = decide({ meter: ampReader(2) });

  it("says whether this count counted it, or a parallel one did first", () => {
    expect(afterCount(fresh, "counted")).toEqual({ ...fresh, why: "meter:counted" });
    expect(afterCount(fresh, "already")).toEqual({ ...fresh, why: "meter:already_counted" });
  });

  it("denies when the meter filled meanwhile", () => {
    expect(afterCount(decide({ meter: member(1) }), "exhausted")).toEqual({
      granted: false,
      grantReason: null,
      data: { numberRemaining: 0, isLoggedIn: true, isLast: false, wall: "paid" },
      why: "meter_exhausted",
    });
  });
});

describe("the wire answer", () => {
  it("is the access grant object, without `why`", () => {
    const decision = decide({ meter: ampReader(2) });
    const grant = toAccessGrant(decision);
    expect(grant).toEqual({
      granted: true,
      grantReason: "METERING",
      data: { numberRemaining: 0, isLoggedIn: false, isLast: true, wall: null },
    });
    expect(grant.data).not.toBe(decision.data);
  });
});
