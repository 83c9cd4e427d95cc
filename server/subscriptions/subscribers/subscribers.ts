/**
 * Subscribers (spec §2.2, §4.2 subscriber_identities, §4.3 members/me/metadata): a subscriber IS
 * the account's member, one person one record (docs/subscriptions.md, "Subscribers and
 * identities"). No person table of its own:
 *
 * - the first `email` identity of a subscriber is its member's sign-in e-mail (members.email,
 *   lower-cased, unique per account). So an e-mail the server API names and a password member with
 *   that e-mail are the same record. A member known only by outside identities has a placeholder
 *   sign-in e-mail (server/members/identities.ts) and so no e-mail identity until one is added;
 * - a subscriber may hold more e-mails (spec: several identities): each further one is a
 *   member_identities row of provider "email", found by the server API's lookups as the sign-in
 *   e-mail is (memberAt), but not a way to sign in. One e-mail is one subscriber's, whichever way
 *   it is held: adding one takes a lock on the address (EMAIL_LOCK), so two adds of one address
 *   to two subscribers, one as a sign-in e-mail and one as a row, cannot both pass the check;
 * - every other identity (phone, platform, social, blog_cms, auth_provider, "publisher" for the
 *   publisher-JWT id, "wordpress"…) is a member_identities row (account, provider, value);
 * - what only a subscriber has (metadata) is in subscriber_profiles, keyed by the member.
 *
 * A subscriber created here (POST identities at an unknown identity) is a member without a
 * usable password. When it was created at an e-mail, that e-mail is its sign-in e-mail: the
 * person claims the record by a password reset (which proves owning the address); signing up again
 * with it is refused as taken. A JWT claim never sets a sign-in e-mail (identities.ts).
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import { isUniqueClash, withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import {
  createIdentityMember,
  findOrCreateMemberByIdentity,
  isPlaceholderEmail,
  placeholderEmail,
  type MemberKey,
  type NewIdentityMember,
} from "../../members/identities";
import type { MemberRecord } from "../../members/members";
import {
  ADDRESS_KEYS,
  normaliseIdentityValue,
  type TAddress,
  type TSubscriberIdentity,
  type TSubscriberMetadata,
  type TSubscriberMetadataInput,
  type TSubscriberWire,
} from "./subscribers.schema";
import { ACCESS_GRANTING_STATUSES, cumulativeEnd, cumulativeKind, TIMING_FIELDS } from "./subscription-state";

export const EMAIL_PROVIDER = "email";
const TAKEN_IDENTITY_MESSAGE = "This identity belongs to another subscriber of the account.";

export type IdentityRef = { provider: string; identity: string };

/** The member holding `email` as a further e-mail identity (a member_identities row), or null. */
async function memberWithSecondEmail(db: Db, accountId: number, email: string): Promise<MemberRecord | null> {
  const row = await db.memberIdentity.findUnique({
    where: { accountId_provider_externalId: { accountId, provider: EMAIL_PROVIDER, externalId: email } },
    include: { member: true },
  });
  return row?.member ?? null;
}

/** The member at one identity of the account, or null: an e-mail is a sign-in e-mail, or a further one. */
async function memberAt(db: Db, accountId: number, ref: IdentityRef): Promise<MemberRecord | null> {
  const value = normaliseIdentityValue(ref.provider, ref.identity);
  if (ref.provider === EMAIL_PROVIDER) {
    return (
      (await db.member.findUnique({ where: { accountId_email: { accountId, email: value } } })) ??
      (await memberWithSecondEmail(db, accountId, value))
    );
  }
  const row = await db.memberIdentity.findUnique({
    where: { accountId_provider_externalId: { accountId, provider: ref.provider, externalId: value } },
    include: { member: true },
  });
  return row?.member ?? null;
}

/** The member key of `ref`, and the subscriber a call creates there (see the module comment). */
function subscriberAt(accountId: number, ref: IdentityRef): { key: MemberKey; create: NewIdentityMember } {
  const value = normaliseIdentityValue(ref.provider, ref.identity);
  if (ref.provider === EMAIL_PROVIDER) {
    const create = { name: value.split("@")[0]!, email: value, communicationEmail: value, source: "subscriptions" };
    return { key: { accountId, email: value }, create };
  }
  return {
    key: { accountId, provider: ref.provider, externalId: value },
    create: { name: "Subscriber", email: placeholderEmail("sub"), source: "subscriptions" },
  };
}

/** A new member known only by `ref`, in the caller's transaction. */
function createSubscriberAt(tx: TransactionClient, accountId: number, ref: IdentityRef, now: Date) {
  return createIdentityMember(tx, { ...subscriberAt(accountId, ref), now });
}

/**
 * The subscriber (member) at `provider`/`identity` of the account; when none is there, the one at
 * `alternate_provider`/`alternate_identity` (§4); when none is there either: created at the
 * primary identity with `create`, else null. Inputs must be validated (subscribers.schema.ts).
 * Safe under concurrency: two first calls with `create` make one member (the unique indexes
 * decide, the loser's transaction reruns and finds the winner's).
 */
export async function resolveSubscriber(db: Db, args: ResolveSubscriberArgs): Promise<MemberRecord | null> {
  return (await resolveSubscriberCreated(db, args))?.member ?? null;
}

type ResolveSubscriberArgs = {
  accountId: number;
  provider: string;
  identity: string;
  alternate_provider?: string | null;
  alternate_identity?: string | null;
  create?: boolean;
  now?: Date;
};

/**
 * resolveSubscriber, also telling whether the subscriber was created by this call (checkout
 * emits subscriber.created then). Null only without `create`.
 */
export async function resolveSubscriberCreated(
  db: Db,
  args: ResolveSubscriberArgs,
): Promise<{ member: MemberRecord; created: boolean } | null> {
  const primary = { provider: args.provider, identity: args.identity };
  const alternate =
    args.alternate_provider && args.alternate_identity
      ? { provider: args.alternate_provider, identity: args.alternate_identity }
      : null;
  const find = async (tx: Db) =>
    (await memberAt(tx, args.accountId, primary)) ?? (alternate ? await memberAt(tx, args.accountId, alternate) : null);
  if (!args.create) {
    const member = await find(db);
    return member ? { member, created: false } : null;
  }
  return findOrCreateMemberByIdentity(db, {
    ...subscriberAt(args.accountId, primary),
    now: args.now ?? new Date(),
    otherwise: async (tx) => {
      // An e-mail a subscriber holds as a further identity is that subscriber's (not a new one's).
      const second =
        primary.provider === EMAIL_PROVIDER
          ? await memberWithSecondEmail(tx, args.accountId, normaliseIdentityValue(EMAIL_PROVIDER, primary.identity))
          : null;
      const member = second ?? (alternate ? await memberAt(tx, args.accountId, alternate) : null);
      return member && { member, link: false };
    },
  });
}

/**
 * Guest checkout (spec §4.3): the one subscriber of an e-mail and/or an E.164 phone number, both
 * attached to it. The member holding either is taken and given the other; none: a new one at the
 * e-mail (or the phone). When the two belong to two different members, or the phone's member has
 * another e-mail, it is a CONFLICT (409): merging two readers is not something a guest may cause.
 * Runs in the caller's transaction when given one.
 */
export async function resolveGuestSubscriber(
  db: Db,
  args: { accountId: number; email: string | null; phone: string | null; now: Date },
): Promise<{ member: MemberRecord; created: boolean }> {
  const email = args.email ? normaliseIdentityValue(EMAIL_PROVIDER, args.email) : null;
  const phone = args.phone ? normaliseIdentityValue("phone", args.phone) : null;
  if (!email && !phone) throw new AppError("BAD_REQUEST", "emailAddress or phoneNumber is required.");
  return withTransaction(
    db,
    async (tx) => {
      const byEmail = email ? await memberAt(tx, args.accountId, { provider: EMAIL_PROVIDER, identity: email }) : null;
      const byPhone = phone ? await memberAt(tx, args.accountId, { provider: "phone", identity: phone }) : null;
      if (byEmail && byPhone && byEmail.id !== byPhone.id)
        throw new AppError("CONFLICT", "The e-mail address and the phone number belong to two different subscribers.", {
          details: [{ field: "body.phoneNumber", issue: "belongs to another subscriber than emailAddress" }],
        });
      const found = byEmail ?? byPhone;
      if (found) {
        if (email && !byEmail) await addIdentityIn(tx, found, { provider: EMAIL_PROVIDER, identity: email }, args.now);
        if (phone && !byPhone) await addIdentityIn(tx, found, { provider: "phone", identity: phone }, args.now);
        return { member: await tx.member.findUniqueOrThrow({ where: { id: found.id } }), created: false };
      }
      const first = email ? { provider: EMAIL_PROVIDER, identity: email } : { provider: "phone", identity: phone! };
      const member = await createSubscriberAt(tx, args.accountId, first, args.now);
      if (email && phone) await addIdentityIn(tx, member, { provider: "phone", identity: phone }, args.now);
      return { member, created: true };
    },
    { retryUniqueClashes: true },
  );
}

/** The subscriber's identities: its e-mail (when it has a real one), then its other identities in order. */
export async function listSubscriberIdentities(
  db: Db,
  member: Pick<MemberRecord, "id" | "email">,
): Promise<TSubscriberIdentity[]> {
  const rows = await db.memberIdentity.findMany({
    where: { memberId: member.id },
    orderBy: { id: "asc" },
    select: { provider: true, externalId: true },
  });
  return [
    ...(isPlaceholderEmail(member.email) ? [] : [{ provider: EMAIL_PROVIDER, value: member.email }]),
    ...rows.map((r) => ({ provider: r.provider, value: r.externalId })),
  ];
}

/** Namespace of the per-address e-mail identity lock (first key of pg_advisory_xact_lock(int, int)). */
const EMAIL_LOCK = 0x6d61696c; // "mail"

/** Add one identity to a subscriber, in the caller's transaction (see addSubscriberIdentity). */
async function addIdentityIn(tx: TransactionClient, member: MemberRecord, ref: IdentityRef, now: Date) {
  const value = normaliseIdentityValue(ref.provider, ref.identity);
  if (ref.provider === EMAIL_PROVIDER) {
    // Held until the transaction ends: a concurrent add of this address waits, then sees it held.
    const lockKey = `${member.accountId}:${value}`;
    await tx.$executeRaw`SELECT 1 FROM (SELECT pg_advisory_xact_lock(${EMAIL_LOCK}::int, hashtext(${lockKey}))) AS locked`;
  }
  const holder = await memberAt(tx, member.accountId, ref);
  if (holder) {
    if (holder.id === member.id) return;
    throw new AppError("CONFLICT", TAKEN_IDENTITY_MESSAGE, {
      details: [{ field: "body.subscriber_identity", issue: "is held by another subscriber" }],
    });
  }
  if (ref.provider === EMAIL_PROVIDER && isPlaceholderEmail(member.email)) {
    // A subscriber's first e-mail becomes its sign-in e-mail; a further one is an identity row (below).
    await tx.member.update({
      where: { id: member.id },
      data: { email: value, communicationEmail: member.communicationEmail ?? value },
    });
    return;
  }
  await tx.memberIdentity.create({
    data: {
      accountId: member.accountId,
      provider: ref.provider,
      externalId: value,
      memberId: member.id,
      createdAt: now,
    },
  });
}

/**
 * POST subscriber_identities: the subscriber at the path's identity (or the alternate one),
 * created there when there is none, gets the identity `add` (a further e-mail too). Idempotent
 * (adding one it has changes nothing); CONFLICT when another subscriber of the account holds it,
 * also when two requests race for it (an e-mail's lock, else the unique index decides; the
 * loser's transaction reruns and sees the holder).
 * Answers the subscriber's identities.
 */
export async function addSubscriberIdentity(
  db: Db,
  args: {
    accountId: number;
    at: IdentityRef;
    alternate?: IdentityRef | null;
    add: { provider: string; value: string };
    now: Date;
  },
): Promise<TSubscriberIdentity[]> {
  try {
    const member = await withTransaction(
      db,
      async (tx) => {
        const subscriber = (await resolveSubscriber(tx, {
          accountId: args.accountId,
          ...args.at,
          alternate_provider: args.alternate?.provider,
          alternate_identity: args.alternate?.identity,
          create: true,
          now: args.now,
        }))!;
        await addIdentityIn(tx, subscriber, { provider: args.add.provider, identity: args.add.value }, args.now);
        return subscriber;
      },
      { retryUniqueClashes: true },
    );
    const fresh = await db.member.findUniqueOrThrow({ where: { id: member.id } });
    return listSubscriberIdentities(db, fresh);
  } catch (error) {
    // Still clashing after the reruns: someone holds it.
    if (isUniqueClash(error)) throw new AppError("CONFLICT", TAKEN_IDENTITY_MESSAGE);
    throw error;
  }
}

// ─── Metadata ────────────────────────────────────────────────────────────────────────────────

const EMPTY_METADATA: TSubscriberMetadata = { address: null, phone_number: null, other: null };

function asRecord(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Stored metadata as the wire shape: the three parts, absent ones null. */
function metadataToWire(stored: unknown): TSubscriberMetadata {
  const o = asRecord(stored);
  if (!o) return { ...EMPTY_METADATA };
  return {
    address: asRecord(o.address) ?? null,
    phone_number: typeof o.phone_number === "string" ? o.phone_number : null,
    other: asRecord(o.other),
  };
}

/** An address with only the six kept keys, empty values dropped; null when nothing is left. */
function cleanAddress(address: TSubscriberMetadataInput["address"]): TAddress | null {
  if (!address) return null;
  const kept: TAddress = {};
  for (const key of ADDRESS_KEYS) {
    const v = address[key]?.trim();
    if (v) kept[key] = v;
  }
  return Object.keys(kept).length ? kept : null;
}

/** The subscriber's metadata (the three parts null when never set). */
export async function getSubscriberMetadata(db: Db, memberId: number): Promise<TSubscriberMetadata> {
  const profile = await db.subscriberProfile.findUnique({ where: { memberId }, select: { metadata: true } });
  return metadataToWire(profile?.metadata);
}

/**
 * Set the subscriber's metadata. "merge" (POST): each part sent replaces that part, parts not
 * sent are kept, a part sent as null is cleared. "replace" (PUT): the parts sent are the whole
 * metadata, the others are cleared. Concurrent first writes make one profile row.
 */
export async function setSubscriberMetadata(
  db: Db,
  args: { memberId: number; input: TSubscriberMetadataInput; mode: "merge" | "replace" },
): Promise<TSubscriberMetadata> {
  const { input } = args;
  return withTransaction(
    db,
    async (tx) => {
      const current =
        args.mode === "merge"
          ? metadataToWire(
              (
                await tx.subscriberProfile.findUnique({
                  where: { memberId: args.memberId },
                  select: { metadata: true },
                })
              )?.metadata,
            )
          : { ...EMPTY_METADATA };
      const next: TSubscriberMetadata = {
        address: input.address === undefined ? current.address : cleanAddress(input.address),
        phone_number: input.phone_number === undefined ? current.phone_number : input.phone_number,
        other: input.other === undefined ? current.other : input.other,
      };
      const metadata = next as unknown as Prisma.InputJsonObject;
      await tx.subscriberProfile.upsert({
        where: { memberId: args.memberId },
        create: { memberId: args.memberId, metadata },
        update: { metadata },
      });
      return next;
    },
    { retryUniqueClashes: true },
  );
}

// ─── The Subscriber shape ────────────────────────────────────────────────────────────────────

type CumulativeEnds = { standard: Date | null; campaign: Date | null };
const NO_CUMULATIVE: CumulativeEnds = { standard: null, campaign: null };

/**
 * The cumulative end timestamps of each member (spec §2.2; subscription-state.ts `cumulativeEnd`),
 * in one query over their subscriptions that may still grant access. Members without any: both null.
 */
export async function loadCumulativeEnds(
  db: Db,
  args: { accountId: number; memberIds: readonly number[]; now: Date },
): Promise<Map<number, CumulativeEnds>> {
  const result = new Map<number, CumulativeEnds>();
  const ids = [...new Set(args.memberIds)];
  if (!ids.length) return result;
  const rows = await db.subscription.findMany({
    where: {
      accountId: args.accountId,
      memberId: { in: ids },
      deletedAt: null,
      status: { in: [...ACCESS_GRANTING_STATUSES] },
      OR: [{ endTimestamp: null }, { endTimestamp: { gt: args.now } }, { graceEndsAt: { gt: args.now } }],
    },
    select: { memberId: true, subscriptionType: true, ...TIMING_FIELDS, deletedAt: true },
  });
  for (const id of ids) {
    const mine = rows.filter((r) => r.memberId === id);
    result.set(id, {
      standard: cumulativeEnd(
        mine.filter((r) => cumulativeKind(r.subscriptionType) === "standard"),
        args.now,
      ),
      campaign: cumulativeEnd(
        mine.filter((r) => cumulativeKind(r.subscriptionType) === "campaign"),
        args.now,
      ),
    });
  }
  return result;
}

/**
 * A member as the spec's Subscriber (§2.2). `cumulative` comes from loadCumulativeEnds (null
 * ends without it); metadata is null when never set.
 */
export function subscriberToWire(
  member: Pick<MemberRecord, "id" | "name" | "createdAt" | "updatedAt">,
  identities: TSubscriberIdentity[],
  profile: { metadata: unknown } | null,
  cumulative: CumulativeEnds = NO_CUMULATIVE,
): TSubscriberWire {
  return {
    id: member.id,
    name: member.name || null,
    created_at: member.createdAt.toISOString(),
    updated_at: member.updatedAt.toISOString(),
    metadata: profile ? metadataToWire(profile.metadata) : null,
    cumulative_end_timestamps: {
      standard_subscriptions_cumulative_end_timestamp: cumulative.standard?.toISOString() ?? null,
      campaign_subscriptions_cumulative_end_timestamp: cumulative.campaign?.toISOString() ?? null,
    },
    subscriber_identities: identities,
  };
}

/** One subscriber of the account in the Subscriber shape, or null (another account's: null). */
export async function loadSubscriber(
  db: Db,
  accountId: number,
  memberId: number,
  now: Date = new Date(),
): Promise<TSubscriberWire | null> {
  const member = await db.member.findFirst({
    where: { id: memberId, accountId },
    include: { subscriberProfile: true },
  });
  if (!member) return null;
  const cumulative = await loadCumulativeEnds(db, { accountId, memberIds: [member.id], now });
  return subscriberToWire(
    member,
    await listSubscriberIdentities(db, member),
    member.subscriberProfile,
    cumulative.get(member.id),
  );
}
