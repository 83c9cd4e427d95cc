/**
 * The access decision: may this reader read this story, and why (docs/subscriptions.md, "Access
 * and metering"). `decideAccess` answers the web check (`…/access`, the browser SDK's
 * isAssetAccessible), AMP's authorization (`…/amp-access`), both pingbacks and the 402 of the
 * content API: it loads the facts (./access-load.ts; the account's meter settings from
 * ./meter.ts), applies the rule (./access-rule.ts) and, when asked to, counts a metered read.
 */
import "server-only";

import type { ApiUser } from "../../auth/api-auth";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { findOrCreateJwtMember } from "../../members/identities";
import { keepCountedMeter, loadReaderState, loadStoryAndMeter } from "./access-load";
import { afterCount, applyAccessRule, registrationWallApplies, type AccessDecision } from "./access-rule";
import { countMeteredRead, getMeterRules, meterPeriodStart, meterReaderKey, registrationMeterKey } from "./meter";

export { toAccessGrant, type AccessDecision, type AccessGrant } from "./access-rule";

type AccessReader = {
  /** The reader's member, when the caller knows it (a member session, or the pingback that created it). */
  memberId: number | null;
  /** The publisher-JWT user id (`id` claim), when the reader sent a JWT: its member is looked up. */
  jwtUserId?: string | null;
  /** The anonymous reader id (AMP's READER_ID, the web's reader cookie). */
  readerId: string | null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * May this reader read this story, and why. `meter: "check"` never writes (the page view's
 * question, AMP's authorization); `meter: "count"` counts the read on the reader's meter when the
 * answer is METERING (pingbacks, and the web check when the front end asks it to count). Unknown
 * stories, another account's and unpublished ones are NOT_FOUND.
 */
export async function decideAccess(
  db: Db,
  args: {
    accountId: number;
    storyId: string;
    reader: AccessReader & { loggedIn?: boolean };
    disableMeter: boolean;
    now: Date;
    meter: "check" | "count";
  },
): Promise<AccessDecision> {
  if (!UUID.test(args.storyId)) throw new AppError("NOT_FOUND", "No published story with this id.");
  const storyId = args.storyId.toLowerCase();
  const loggedIn = args.reader.loggedIn ?? (args.reader.memberId !== null || Boolean(args.reader.jwtUserId));
  const rules = await getMeterRules(db, args.accountId, args.now.getTime());
  // An anonymous reader behind the registration wall is on the registration meter (same periods).
  const registration = registrationWallApplies(rules, loggedIn);
  const periodStart =
    rules && (rules.enabled || registration) ? meterPeriodStart(args.now, rules.periodLength, rules.periodUnit) : null;
  const anonymousKey = registration
    ? registrationMeterKey(args.reader.readerId)
    : meterReaderKey({ memberId: null, loggedIn: false, readerId: args.reader.readerId });
  const jwtUserId = args.reader.memberId === null ? (args.reader.jwtUserId ?? null) : null;

  const anonymousMeter =
    periodStart && !loggedIn && anonymousKey !== null ? { readerKey: anonymousKey, periodStart } : null;
  const [{ story, views: anonymousViews }, reader] = await Promise.all([
    loadStoryAndMeter(db, args.accountId, storyId, anonymousMeter),
    loadReaderState(db, args.accountId, args.reader.memberId, jwtUserId),
  ]);
  if (!story) throw new AppError("NOT_FOUND", "No published story with this id.");
  const readerKey = loggedIn
    ? meterReaderKey({ memberId: reader.memberId, loggedIn, readerId: args.reader.readerId })
    : anonymousKey;
  // A logged-in reader's meter is keyed by the member, known once the reader state is.
  const views =
    loggedIn && periodStart && readerKey !== null
      ? (await loadStoryAndMeter(db, args.accountId, null, { readerKey, periodStart })).views
      : anonymousViews;
  const decision = applyAccessRule({
    storyId,
    story,
    subscriptions: reader.subscriptions,
    meter: { rules, readerKey, loggedIn, views: views.length, counted: views.includes(storyId) },
    disableMeter: args.disableMeter,
    now: args.now,
  });
  if (args.meter === "check" || decision.why !== "meter:new") return decision;

  // Counting: the reader needs a key now (the route creates a JWT reader's member first).
  if (readerKey === null || !rules || !periodStart) return decision;
  const counted = await countMeteredRead(db, {
    accountId: args.accountId,
    readerKey,
    periodStart,
    storyId,
    freeStories: registration ? rules.registrationFreeStories : rules.freeStories,
    now: args.now,
  });
  if (counted.outcome === "counted") keepCountedMeter(args.accountId, { readerKey, periodStart }, counted.views);
  return afterCount(decision, counted.outcome, registration);
}

/**
 * A pingback (AMP's amp-pingback, the web's sendBeacon): the read is decided again here, never
 * taken from the body, and counted on the reader's meter when it is a METERING read. A logged-in
 * reader never seen gets its member now (the one meter it keeps across devices). Repeated and
 * parallel pingbacks count a story once.
 */
export async function recordPingback(
  db: Db,
  args: {
    accountId: number;
    storyId: string;
    user: ApiUser | null;
    /** The member of a Masthead session (sign-up or sign-in on the member pages), when no JWT names the reader. */
    sessionMemberId?: number | null;
    readerId: string | null;
    disableMeter: boolean;
    now: Date;
  },
): Promise<AccessDecision> {
  const sessionMemberId = args.user ? null : (args.sessionMemberId ?? null);
  const reader = {
    memberId: sessionMemberId,
    jwtUserId: args.user?.id ?? null,
    readerId: args.readerId,
    loggedIn: Boolean(args.user) || sessionMemberId !== null,
  };
  const first = await decideAccess(db, { ...args, reader, meter: "check" });
  if (first.why !== "meter:new") return first;
  let memberId: number | null = sessionMemberId;
  if (args.user) {
    const member = await findOrCreateJwtMember(db, {
      accountId: args.accountId,
      user: args.user,
      now: args.now,
      linkProviderClaim: true,
    });
    memberId = member.id;
  }
  return decideAccess(db, {
    ...args,
    reader: { memberId, jwtUserId: null, readerId: args.readerId, loggedIn: reader.loggedIn },
    meter: "count",
  });
}
