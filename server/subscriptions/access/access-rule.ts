/**
 * The paywall rule (docs/subscriptions.md, "Access and metering"): from what is known about a
 * story, a reader and the reader's meter at `now`, may the reader read the story, and why. Pure:
 * no IO and no clock; ./access-load.ts reads the facts, ./access.ts asks and counts.
 *
 * Grant reasons (`grantReason`, what AMP templates read):
 * - FREE: a public story (access "public", or none set).
 * - LOGGED_IN: a "login" story and a logged-in reader.
 * - SUBSCRIBER: a "subscription" story and an access-granting subscription of the reader (its
 *   own, or a group_access subscription it is a member of) whose assets cover the story (see
 *   `assetsCoverStory`).
 * - ASSET: pay per asset: a dynamic_asset subscription whose dynamic_assets name the story, or a
 *   collection holding it.
 * - METERING: a free read within the account's meter, or, for an anonymous reader behind the
 *   registration wall, within the registration meter.
 * Denials (`granted: false`, `grantReason: null`; the reason in `why`, never on the wire):
 * login_required, hard_paywall (disable-meter: only subscribers), meter_off (no meter, or
 * disabled), anonymous_not_metered, no_reader (nobody to count a read for), meter_exhausted,
 * registration_required (the registration wall: sign up, free, to read on).
 *
 * The registration wall (docs/subscriptions.md "Registration wall"), when the account has it on,
 * decides for an anonymous reader (not logged in) on a "subscription" story that no subscription
 * grants and no disable-meter closes: the reader reads `registrationFreeStories` stories per meter
 * period free, counted on its own registration meter (reader key "w:<readerId>", apart from the
 * paid meter's "r:<readerId>"); a story already counted is read again free; the next one is
 * registration_required, as is every one for a reader without a reader id (nothing to count on).
 * The paid meter's settings (enabled, meterAnonymous, freeStories) play no part for that reader.
 * Once logged in, the reader is on the paid meter exactly as without the wall. Public and login
 * stories, subscribers and pay-per-asset readers are decided as without it.
 *
 * `data.wall` tells the SDK and AMP which wall to show: "registration" for registration_required
 * and login_required (sign up or sign in), "paid" for every other denial, null when granted.
 */
import type { MeterRules } from "./meter";

type GrantReason = "FREE" | "LOGGED_IN" | "SUBSCRIBER" | "ASSET" | "METERING";
type DenialReason =
  | "login_required"
  | "hard_paywall"
  | "meter_off"
  | "anonymous_not_metered"
  | "no_reader"
  | "meter_exhausted"
  | "registration_required";

/** Which wall a denied reader meets (null: granted). */
type Wall = "registration" | "paid" | null;

/** The answer AMP and the browser SDK read (the spec's access grant object, meter object). */
export type AccessGrant = {
  granted: boolean;
  grantReason: GrantReason | null;
  data: {
    /** Free stories left in the period after this read; null when the reader is not metered. */
    numberRemaining: number | null;
    isLoggedIn: boolean;
    /** This read uses the reader's last free story of the period. */
    isLast: boolean;
    /** Which wall to show: "registration" (sign up or sign in), "paid" (subscribe), null when granted. */
    wall: Wall;
  };
};

export type AccessDecision = AccessGrant & {
  /** Why, for logs and tests: a grant's detail ("subscription:12", "meter:counted") or a DenialReason. */
  why: string;
};

export type StoryAccess = { access: string; accessLevelValue: number | null; collectionIds: number[] };

/**
 * One of the reader's subscriptions that is active or cancelled and not deleted (the status part
 * of ../subscribers/subscription-state.ts's accessGrantingWhere, applied by the loader), with what it grants and
 * its time window (epoch ms): it grants during [start, end), or until its grace ends.
 */
export type ReaderSubscription = {
  id: number;
  type: string;
  /** [{id, type}] for pay per asset. */
  dynamicAssets: unknown;
  /** What the plan (assets, additional assets) and the group (assets) grant. */
  assets: { type: string; metadata: unknown }[];
  start: number | null;
  end: number | null;
  graceEnds: number | null;
};

/**
 * The reader's meter for the period: the registration meter for an anonymous reader behind the
 * registration wall (see `registrationWallApplies`), the paid meter otherwise.
 */
export type MeterState = {
  /** The account's meter settings; null: none (metering is off). */
  rules: MeterRules | null;
  /**
   * Whose meter ("m:<member>", "r:<readerId>", "w:<readerId>" for the registration meter); null: a
   * reader never seen, or nobody to count for.
   */
  readerKey: string | null;
  loggedIn: boolean;
  /** Stories counted in the period, and whether this one is among them. */
  views: number;
  counted: boolean;
};

export type AccessFacts = {
  /** Lower-cased. */
  storyId: string;
  story: StoryAccess;
  subscriptions: readonly ReaderSubscription[];
  meter: MeterState;
  /** The front end's disable-meter: a hard paywall, subscribers only. */
  disableMeter: boolean;
  now: Date;
};

/** "public", "login" or "subscription"; anything else is treated as "subscription" (closed, not open). */
export function storyAccessKind(access: string | null | undefined): "public" | "login" | "subscription" {
  const value = (access ?? "").trim().toLowerCase();
  if (value === "" || value === "public") return "public";
  if (value === "login") return "login";
  return "subscription";
}

function accessLevelOf(metadata: unknown): number | null {
  if (!metadata || typeof metadata !== "object") return null;
  const raw = (metadata as Record<string, unknown>).access_level;
  const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}

/**
 * Whether a subscription's assets cover a story:
 * - a `site` asset covers every story;
 * - a `story` asset with `metadata.access_level` L covers stories whose access-level-value is
 *   unset or at most L; a `story` asset without a level covers every story;
 * - a `static` asset (an e-paper, a PDF, a page that is not a story) covers no story;
 * - a subscription granting no asset at all (neither its plan nor its group names one) covers
 *   every story: a publisher selling "digital access" without modelling assets means the site.
 *   Campaign subscriptions (contributions) are the exception: without assets they grant nothing.
 */
export function assetsCoverStory(sub: Pick<ReaderSubscription, "type" | "assets">, story: StoryAccess): boolean {
  if (sub.assets.length === 0) return sub.type !== "campaign" && sub.type !== "dynamic_asset";
  return sub.assets.some((asset) => {
    if (asset.type === "site") return true;
    if (asset.type !== "story") return false;
    const level = accessLevelOf(asset.metadata);
    return level === null || story.accessLevelValue === null || story.accessLevelValue <= level;
  });
}

/** Whether a pay-per-asset subscription's dynamic_assets name the story or a collection holding it. */
export function dynamicAssetsCoverStory(dynamicAssets: unknown, storyId: string, story: StoryAccess): boolean {
  if (!Array.isArray(dynamicAssets)) return false;
  return dynamicAssets.some((item) => {
    if (!item || typeof item !== "object") return false;
    const { id, type } = item as { id?: unknown; type?: unknown };
    const kind = typeof type === "string" ? type.toLowerCase() : "story";
    if (kind === "collection") return story.collectionIds.includes(Number(id));
    return String(id).toLowerCase() === storyId.toLowerCase();
  });
}

/** Whether a subscription grants at `now`: started, and not ended or still in grace (accessGrantingWhere's time part). */
export function grantsAt(sub: Pick<ReaderSubscription, "start" | "end" | "graceEnds">, now: Date): boolean {
  const at = now.getTime();
  if (sub.start === null || sub.start > at) return false;
  return sub.end === null || sub.end > at || (sub.graceEnds !== null && sub.graceEnds > at);
}

/**
 * Whether the registration wall decides for this reader: the account has it on and the reader is
 * not logged in. The loader reads the registration meter for such a reader, the paid one otherwise.
 */
export function registrationWallApplies(rules: MeterRules | null, loggedIn: boolean): boolean {
  return rules !== null && rules.registrationWall && !loggedIn;
}

function meterApplies(meter: MeterState): boolean {
  if (registrationWallApplies(meter.rules, meter.loggedIn)) return meter.readerKey !== null;
  if (!meter.rules || !meter.rules.enabled) return false;
  if (!meter.loggedIn && !meter.rules.meterAnonymous) return false;
  return meter.loggedIn || meter.readerKey !== null;
}

/**
 * The decision. With the meter, `numberRemaining` is what is left after this read; a story
 * already counted in the period is read again for free. A METERING grant that would use a free
 * story says `why: "meter:new"`: the caller counts it when it counts reads (see `afterCount`).
 */
export function applyAccessRule(facts: AccessFacts): AccessDecision {
  const { story, meter } = facts;
  const rules = meterApplies(meter) ? meter.rules : null;
  const registration = registrationWallApplies(meter.rules, meter.loggedIn);
  const allowance = rules ? (registration ? rules.registrationFreeStories : rules.freeStories) : 0;
  const remainingNow = rules ? Math.max(0, allowance - meter.views) : null;
  const grant = (grantReason: GrantReason, why: string, numberRemaining = remainingNow, isLast = false) => ({
    granted: true,
    grantReason,
    data: { numberRemaining, isLoggedIn: meter.loggedIn, isLast, wall: null },
    why,
  });
  const deny = (why: DenialReason): AccessDecision => ({
    granted: false,
    grantReason: null,
    data: { numberRemaining: remainingNow, isLoggedIn: meter.loggedIn, isLast: false, wall: wallOf(why) },
    why,
  });

  const kind = storyAccessKind(story.access);
  if (kind === "public") return grant("FREE", "free_story");
  if (kind === "login") return meter.loggedIn ? grant("LOGGED_IN", "logged_in") : deny("login_required");

  for (const sub of facts.subscriptions) {
    if (!grantsAt(sub, facts.now)) continue;
    if (sub.type === "dynamic_asset") {
      if (dynamicAssetsCoverStory(sub.dynamicAssets, facts.storyId, story)) return grant("ASSET", `asset:${sub.id}`);
    } else if (assetsCoverStory(sub, story)) {
      return grant("SUBSCRIBER", `subscription:${sub.id}`);
    }
  }
  if (facts.disableMeter) return deny("hard_paywall");
  if (registration) {
    if (meter.readerKey === null) return deny("registration_required");
    if (meter.counted) return grant("METERING", "meter:already_counted");
    if (remainingNow! > 0) return grant("METERING", "meter:new", remainingNow! - 1, remainingNow === 1);
    return deny("registration_required");
  }
  if (!meter.rules || !meter.rules.enabled) return deny("meter_off");
  if (!meter.loggedIn && !meter.rules.meterAnonymous) return deny("anonymous_not_metered");
  if (meter.loggedIn && meter.readerKey === null) {
    // A logged-in reader never seen: nothing counted yet (the pingback creates the member).
    const free = meter.rules.freeStories;
    return free > 0 ? grant("METERING", "meter:new", free - 1, free === 1) : deny("meter_exhausted");
  }
  if (meter.readerKey === null) return deny("no_reader");
  if (meter.counted) return grant("METERING", "meter:already_counted", remainingNow, false);
  if (remainingNow! > 0) return grant("METERING", "meter:new", remainingNow! - 1, remainingNow === 1);
  return deny("meter_exhausted");
}

function wallOf(why: DenialReason): Wall {
  return why === "registration_required" || why === "login_required" ? "registration" : "paid";
}

/**
 * A "meter:new" decision once its read was counted on the meter: "counted" (this count), "already"
 * (a parallel pingback counted it first) or "exhausted" (the meter filled meanwhile: denied, by
 * the registration wall when `registration` says the read was on the registration meter).
 */
export function afterCount(
  decision: AccessDecision,
  outcome: "counted" | "already" | "exhausted",
  registration = false,
): AccessDecision {
  if (outcome === "exhausted") {
    const why: DenialReason = registration ? "registration_required" : "meter_exhausted";
    return {
      granted: false,
      grantReason: null,
      data: { ...decision.data, numberRemaining: 0, isLast: false, wall: wallOf(why) },
      why,
    };
  }
  return { ...decision, why: outcome === "counted" ? "meter:counted" : "meter:already_counted" };
}

/** The wire answer (the access grant object): `why` stays inside. */
export function toAccessGrant(decision: AccessDecision): AccessGrant {
  return { granted: decision.granted, grantReason: decision.grantReason, data: { ...decision.data } };
}
