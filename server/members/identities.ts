/**
 * Readers known by an outside identity (docs/engagement.md, "Who comments"): a publisher-signed
 * JWT names a reader by its `id` claim; Masthead keeps ONE member per person and account, linked
 * to that identity through a MemberIdentity row (account, provider, external id) → member.
 *
 * - A known reader whose claims did not change is one read, without a transaction. Otherwise it is
 *   found or created in one transaction. Two first requests of the same reader at once both try
 *   to create; the unique index (account, provider, external id) lets one commit, the other's
 *   whole transaction (its member too) rolls back and is rerun, and finds the winner's row. So
 *   there is never a second member for the same (account, provider, id).
 * - Name and avatar follow the latest claims (updated only when they changed); the claimed e-mail
 *   is kept on the identity and as the member's communication e-mail. It is not the member's
 *   sign-in e-mail: a JWT claim is not proof of owning an address, and taking it as one would
 *   let a claim take over (or block) a password member with that address. The member's sign-in
 *   e-mail is a reserved, undeliverable placeholder (RFC 2606 `.invalid`) with a random part,
 *   and its password hash is unusable, so such a member cannot sign in with a password.
 * - The same `id` is the same reader in engagement (comments) and in the subscriptions client API
 *   (`accesstype_jwt`): both are signed with the account's one shared key, so they name one
 *   user-id space, the identity (publisher, id). A `provider` claim (the WordPress plugin sends
 *   "wordpress") is taken, where a caller asks for it (`linkProviderClaim`), as a second name of
 *   that reader: the identity (<provider>, id) is linked to the same member, so the publisher's
 *   back end finds it as /api/v1/subscribers/wordpress/<id>/…, and a subscriber the back end
 *   created first at (wordpress, id) IS the reader when the JWT arrives. Such a name held by
 *   another member is left to it (never moved, never an error).
 */
import "server-only";

import { randomUUID } from "node:crypto";

import type { ApiUser } from "../auth/api-auth";
import type { Db, TransactionClient } from "../db/client";
import { withTransaction } from "../db/transaction";
import { Prisma, type Member } from "../generated/prisma/client";
import { graphemePrefix } from "../text/graphemes";
import type { MemberRecord } from "./members";

/** The provider of identities that come from a publisher-signed JWT. */
export const PUBLISHER_JWT_PROVIDER = "publisher";

/** The identity provider of the account's guest member (server/engagement/guests.ts). */
export const GUEST_PROVIDER = "guest";

/** Stored in place of a password hash: verifyPassword answers false for it. */
export const NO_PASSWORD = "!no-password";

/** The domain of the placeholder sign-in e-mails of members who have none (RFC 2606 `.invalid`). */
const PLACEHOLDER_EMAIL_DOMAIN = "@identities.invalid";

/** A reserved, undeliverable sign-in e-mail for a member known only by outside identities. */
export function placeholderEmail(prefix: string): string {
  return `${prefix}-${randomUUID()}${PLACEHOLDER_EMAIL_DOMAIN}`;
}

/** Whether a member's sign-in e-mail is such a placeholder (so it names no address). */
export function isPlaceholderEmail(email: string): boolean {
  return email.endsWith(PLACEHOLDER_EMAIL_DOMAIN);
}

/** Providers whose names a `provider` claim may not take (they mean something else here). */
const RESERVED_CLAIM_PROVIDERS = new Set([PUBLISHER_JWT_PROVIDER, "email", "phone"]);

/** The second name a `provider` claim gives a JWT reader, or null (absent, reserved or malformed). */
function claimAliasProvider(user: Pick<ApiUser, "provider">): string | null {
  const provider = user.provider?.trim().toLowerCase();
  if (!provider || !/^[a-z][a-z0-9_-]{1,31}$/.test(provider) || RESERVED_CLAIM_PROVIDERS.has(provider)) return null;
  return provider;
}

/** Longest name, avatar URL and e-mail kept from claims (longer ones are cut). */
const MAX_CLAIM_LENGTH = { name: 200, avatar: 2048, email: 254 };

/** A claim trimmed and cut to `max` characters; null when empty. */
export const cut = (value: string | null | undefined, max: number) =>
  value ? graphemePrefix(value.trim(), max) || null : null;

// ─── find or create a member by identity ─────────────────────────────────────────────────────

/** An outside identity of a member of the account: a member_identities row's key. */
type IdentityKey = { accountId: number; provider: string; externalId: string };

/**
 * Where a member is looked for: an outside identity, or the sign-in e-mail (members.email,
 * lower-cased, unique per account), which no member_identities row repeats.
 */
export type MemberKey = IdentityKey | { accountId: number; email: string };

/** A member made for an identity: it has no usable password (NO_PASSWORD). */
export type NewIdentityMember = {
  name: string;
  source: string;
  /** The sign-in e-mail: the key's own, a proven address, or placeholderEmail(…). */
  email: string;
  emailVerified?: boolean;
  avatarUrl?: string | null;
  communicationEmail?: string | null;
  /** When the member joined (an imported reader's date in the old system); default `now`. */
  createdAt?: Date;
  /** The locale they signed up in, when it is not the account's default (server/i18n/locale-settings.ts signUpLocale). */
  locale?: string | null;
};

/** How a member was answered: held the identity, known otherwise and linked to it, or created. */
type FoundBy = "found" | "linked" | "created";

/** The member at `key`, or null. */
async function memberAtKey(
  db: Db,
  key: MemberKey,
): Promise<{ member: MemberRecord; identity: { id: number; email: string | null } | null } | null> {
  if ("email" in key) {
    const member = await db.member.findUnique({
      where: { accountId_email: { accountId: key.accountId, email: key.email } },
    });
    return member ? { member, identity: null } : null;
  }
  const row = await db.memberIdentity.findUnique({
    where: { accountId_provider_externalId: key },
    select: { id: true, email: true, member: true },
  });
  return row ? { member: row.member, identity: { id: row.id, email: row.email } } : null;
}

/** Give the member the identity `key` (a sign-in e-mail key names the member already). */
async function linkIdentity(
  tx: TransactionClient,
  key: MemberKey,
  memberId: number,
  email: string | null | undefined,
  now: Date,
): Promise<void> {
  if ("email" in key) return;
  await tx.memberIdentity.create({ data: { ...key, memberId, email: email ?? null, createdAt: now } });
}

/**
 * A new member made for `key`, with its identity, in the caller's transaction. The sign-in e-mail
 * of an e-mail key is that e-mail; `identityEmail` is kept on the identity row.
 */
export async function createIdentityMember(
  tx: TransactionClient,
  args: { key: MemberKey; create: NewIdentityMember; identityEmail?: string | null; now: Date },
): Promise<MemberRecord> {
  const { key, create, now } = args;
  const member = await tx.member.create({
    data: {
      accountId: key.accountId,
      name: create.name,
      email: "email" in key ? key.email : create.email,
      emailVerified: create.emailVerified ?? false,
      avatarUrl: create.avatarUrl ?? null,
      communicationEmail: create.communicationEmail ?? null,
      passwordHash: NO_PASSWORD,
      source: create.source,
      locale: create.locale ?? null,
      createdAt: create.createdAt ?? now,
    },
  });
  await linkIdentity(tx, key, member.id, args.identityEmail, now);
  return member;
}

/**
 * **The one find-or-create of a member by identity** (publisher JWTs, social logins, the guest
 * member, subscribers). In one transaction (the caller's when `db` is one):
 * 1. the member at `key` is found; an identity row's e-mail follows `identityEmail` when given;
 * 2. else `otherwise` may name a member known by another name (a verified e-mail, a second
 *    identity): answered as found, and given the identity `key` too when it says `link`;
 * 3. else a member `create` describes is made, with the identity `key`.
 * `then` runs last in the same transaction on the member answered and how it was (brings it up
 * to date, links a second name, announces a sign-up); a member it answers is the answer.
 * Two first calls at once both create; the unique indexes (account, provider, external id) and
 * (account, e-mail) let one commit, the other's whole transaction rolls back and is rerun, and
 * finds the winner's member: never a second member for one identity.
 */
export async function findOrCreateMemberByIdentity(
  db: Db,
  args: {
    key: MemberKey;
    now: Date;
    create: NewIdentityMember;
    /** The e-mail an identity row keeps (a claim, a provider's); left out: none, never changed. */
    identityEmail?: string | null;
    otherwise?: (tx: TransactionClient) => Promise<{ member: MemberRecord; link: boolean } | null>;
    then?: (tx: TransactionClient, member: MemberRecord, how: FoundBy) => Promise<MemberRecord | void>;
  },
): Promise<{ member: MemberRecord; created: boolean }> {
  const { key, now, identityEmail } = args;
  return withTransaction(
    db,
    async (tx) => {
      const settle = async (member: MemberRecord, how: FoundBy) => ({
        member: (await args.then?.(tx, member, how)) ?? member,
        created: how === "created",
      });
      const found = await memberAtKey(tx, key);
      if (found) {
        if (found.identity && identityEmail !== undefined && found.identity.email !== identityEmail) {
          await tx.memberIdentity.update({ where: { id: found.identity.id }, data: { email: identityEmail } });
        }
        return settle(found.member, "found");
      }
      const known = args.otherwise ? await args.otherwise(tx) : null;
      if (known) {
        if (!known.link) return settle(known.member, "found");
        await linkIdentity(tx, key, known.member.id, identityEmail, now);
        return settle(known.member, "linked");
      }
      return settle(await createIdentityMember(tx, { key, create: args.create, identityEmail, now }), "created");
    },
    { retryUniqueClashes: true },
  );
}

// ─── publisher-JWT readers ───────────────────────────────────────────────────────────────────

/** A known identity's e-mail and its member, in one statement. */
async function readIdentity(db: Db, key: IdentityKey) {
  return db.memberIdentity.findUnique({
    where: { accountId_provider_externalId: key },
    select: { email: true, member: true },
  });
}

type JwtMemberArgs = { accountId: number; user: ApiUser; now: Date; linkProviderClaim?: boolean };

/**
 * The member behind a publisher-JWT user of the account, created on first sight (with its
 * identity), with name, avatar and e-mail brought up to date from the claims.
 */
export async function findOrCreateJwtMember(db: Db, args: JwtMemberArgs): Promise<MemberRecord> {
  const { accountId, user, now } = args;
  const alias = args.linkProviderClaim ? claimAliasProvider(user) : null;
  const name = cut(user.name, MAX_CLAIM_LENGTH.name) ?? "Reader";
  const avatarUrl = cut(user.avatarUrl, MAX_CLAIM_LENGTH.avatar);
  const email = cut(user.email, MAX_CLAIM_LENGTH.email)?.toLowerCase() ?? null;
  const key = { accountId, provider: PUBLISHER_JWT_PROVIDER, externalId: user.id };
  // A returning reader whose claims did not change (the usual case) is one read, without a
  // transaction; a provider claim to link (the client API's) takes the transaction below, which links it.
  const known = alias ? null : await readIdentity(db, key);
  if (
    known &&
    known.email === email &&
    known.member.name === name &&
    known.member.avatarUrl === avatarUrl &&
    known.member.communicationEmail === email
  ) {
    return known.member;
  }
  const aliasKey = alias ? { accountId, provider: alias, externalId: user.id } : null;
  const { member } = await findOrCreateMemberByIdentity(db, {
    key,
    now,
    identityEmail: email,
    create: {
      name,
      avatarUrl,
      communicationEmail: email,
      email: placeholderEmail("jwt"),
      source: PUBLISHER_JWT_PROVIDER,
    },
    // Known first by its other name (the back end created the subscriber): the same reader.
    otherwise: async (tx) => {
      const aliasIdentity = aliasKey
        ? await tx.memberIdentity.findUnique({
            where: { accountId_provider_externalId: aliasKey },
            select: { member: true },
          })
        : null;
      if (!aliasIdentity) return null;
      return { member: aliasIdentity.member, link: true };
    },
    then: async (tx, member, how) => {
      // The second name: a new reader's (a clash reruns the transaction, which then links the
      // holder); a returning reader's unless another member holds it (left to it).
      const second = aliasKey && { ...aliasKey, memberId: member.id, email, createdAt: now };
      if (second && how === "created") await tx.memberIdentity.create({ data: second });
      if (second && how === "found") await tx.memberIdentity.createMany({ data: [second], skipDuplicates: true });
      if (member.name === name && member.avatarUrl === avatarUrl && member.communicationEmail === email) return;
      return tx.member.update({ where: { id: member.id }, data: { name, avatarUrl, communicationEmail: email } });
    },
  });
  return member;
}

/** What a comment shows of its author: the member's public fields, and their publisher-JWT ids. */
export type CommentAuthor = {
  /** `source` "erased": an erased reader's tombstone (docs/privacy.md "Erasure"). */
  author: Pick<Member, "id" | "name" | "avatarUrl" | "username" | "bio" | "source">;
  /** The ids the publisher's JWTs name this member by (is_page_author), oldest first; often one. */
  jwtIds: string[];
};

/** The authors of comments, by member id (ids that are no member are absent), in one statement. */
export async function commentAuthorsOf(db: Db, memberIds: readonly number[]): Promise<Map<number, CommentAuthor>> {
  if (memberIds.length === 0) return new Map();
  // The ids as one array parameter: one statement text whatever their number, so it is prepared
  // once per connection (docs/database.md), where Prisma's `in` writes one text per count.
  const rows = await db.$queryRaw<(CommentAuthor["author"] & { jwtId: string | null })[]>(Prisma.sql`
    SELECT m.id, m.name, m.avatar_url AS "avatarUrl", m.username, m.bio, m.source, mi.external_id AS "jwtId"
    FROM members m
    LEFT JOIN member_identities mi ON mi.member_id = m.id AND mi.provider = ${PUBLISHER_JWT_PROVIDER}
    WHERE m.id = ANY(${[...new Set(memberIds)]}::int[])
    ORDER BY mi.id`);
  const authors = new Map<number, CommentAuthor>();
  for (const { jwtId, ...author } of rows) {
    const known = authors.get(author.id) ?? { author, jwtIds: [] };
    if (jwtId !== null) known.jwtIds.push(jwtId);
    authors.set(author.id, known);
  }
  return authors;
}

/** The member behind a publisher-JWT user, or null when that user was never seen (nothing is created). */
export async function findJwtMember(db: Db, args: { accountId: number; userId: string }): Promise<MemberRecord | null> {
  const known = await readIdentity(db, {
    accountId: args.accountId,
    provider: PUBLISHER_JWT_PROVIDER,
    externalId: args.userId,
  });
  return known?.member ?? null;
}
