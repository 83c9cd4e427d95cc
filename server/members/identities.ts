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
import type { Db } from "../db/client";
import { columnsAs, readSql } from "../db/raw-read";
import { withTransaction } from "../db/transaction";
import { purgeComments } from "../engagement/comments-cache";
import { Prisma } from "../generated/prisma/client";
import { MEMBER_COLUMNS, type MemberRecord } from "./members";

/** The provider of identities that come from a publisher-signed JWT. */
export const PUBLISHER_JWT_PROVIDER = "publisher";

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
export function claimAliasProvider(user: Pick<ApiUser, "provider">): string | null {
  const provider = user.provider?.trim().toLowerCase();
  if (!provider || !/^[a-z][a-z0-9_-]{1,31}$/.test(provider) || RESERVED_CLAIM_PROVIDERS.has(provider)) return null;
  return provider;
}

/** Longest name, avatar URL and e-mail kept from claims (longer ones are cut). */
const MAX_CLAIM_LENGTH = { name: 200, avatar: 2048, email: 254 };

/** A claim trimmed and cut to `max` characters; null when empty. */
export const cut = (value: string | null | undefined, max: number) =>
  value ? value.trim().slice(0, max) || null : null;

const IDENTITY_COLUMNS = `i.email AS "identityEmail", ${columnsAs<MemberRecord>("m", MEMBER_COLUMNS)}`;

/**
 * Columns read beside a returning reader's member, in the same statement: `join` follows the
 * member `m` (a LATERAL subquery may use `m.id`; a LEFT JOIN may read a row of its own), `columns`
 * is its select list, whose column names are `names` (none of them a member's field, nor another
 * beside's). A comment create reads the reader's history (server/engagement/moderation/writing.ts)
 * and the page (server/engagement/pages.ts) this way: two statements fewer.
 */
export type BesideMember = { join: Prisma.Sql; columns: Prisma.Sql; names: readonly string[] };

/**
 * A known identity's e-mail and its member (and what `beside` reads), in one statement past
 * Prisma Client (raw-read.ts: the returning reader of every comment create and signed-in read).
 */
async function readIdentity(
  db: Db,
  key: { accountId: number; provider: string; externalId: string },
  beside: readonly BesideMember[] = [],
): Promise<{ identityEmail: string | null; member: MemberRecord; beside: Record<string, unknown> } | null> {
  const columns = beside.length
    ? Prisma.sql`, ${Prisma.join(
        beside.map((b) => b.columns),
        ", ",
      )}`
    : Prisma.empty;
  const joins = beside.length
    ? Prisma.join(
        beside.map((b) => b.join),
        " ",
      )
    : Prisma.empty;
  const [row] = await readSql<MemberRecord & { identityEmail: string | null }>(
    db,
    Prisma.sql`
    SELECT ${Prisma.raw(IDENTITY_COLUMNS)}${columns}
    FROM member_identities i JOIN members m ON m.id = i.member_id ${joins}
    WHERE i.account_id = ${key.accountId} AND i.provider = ${key.provider} AND i.external_id = ${key.externalId}`,
  );
  if (!row) return null;
  const { identityEmail, ...member } = row;
  const read: Record<string, unknown> = {};
  for (const name of beside.flatMap((b) => b.names)) {
    read[name] = (member as Record<string, unknown>)[name];
    delete (member as Record<string, unknown>)[name];
  }
  return { identityEmail, member, beside: read };
}

type JwtMemberArgs = { accountId: number; user: ApiUser; now: Date; linkProviderClaim?: boolean };

/**
 * The member behind a publisher-JWT user of the account, created on first sight (with its
 * identity), with name, avatar and e-mail brought up to date from the claims.
 */
export async function findOrCreateJwtMember(db: Db, args: JwtMemberArgs): Promise<MemberRecord> {
  return (await findOrCreateJwtMemberBeside(db, args)).member;
}

/**
 * findOrCreateJwtMember, and what `beside` reads with a returning reader whose claims did not
 * change (the usual case) or did, in the same statement; `beside` is null otherwise (a new reader,
 * a provider claim to link): the caller reads it then.
 */
export async function findOrCreateJwtMemberBeside(
  db: Db,
  args: JwtMemberArgs & { beside?: readonly BesideMember[] },
): Promise<{ member: MemberRecord; beside: Record<string, unknown> | null }> {
  const { accountId, user, now } = args;
  const alias = args.linkProviderClaim ? claimAliasProvider(user) : null;
  const name = cut(user.name, MAX_CLAIM_LENGTH.name) ?? "Reader";
  const avatarUrl = cut(user.avatarUrl, MAX_CLAIM_LENGTH.avatar);
  const email = cut(user.email, MAX_CLAIM_LENGTH.email)?.toLowerCase() ?? null;
  const key = { accountId, provider: PUBLISHER_JWT_PROVIDER, externalId: user.id };
  // A returning reader whose claims did not change (the usual case) is read without a transaction;
  // a provider claim to link (the client API's) takes the transaction below, which links it.
  const known = alias ? null : await readIdentity(db, key, args.beside);
  if (
    known &&
    known.identityEmail === email &&
    known.member.name === name &&
    known.member.avatarUrl === avatarUrl &&
    known.member.communicationEmail === email
  ) {
    return { member: known.member, beside: known.beside };
  }
  const member = await withTransaction(
    db,
    async (tx) => {
      let identity = await tx.memberIdentity.findUnique({
        where: { accountId_provider_externalId: key },
        include: { member: true },
      });
      const aliasKey = alias ? { accountId, provider: alias, externalId: user.id } : null;
      const aliasIdentity = aliasKey
        ? await tx.memberIdentity.findUnique({ where: { accountId_provider_externalId: aliasKey } })
        : null;
      if (!identity && aliasIdentity) {
        // Known first by its other name (the back end created the subscriber): the same reader.
        identity = await tx.memberIdentity.create({
          data: { ...key, memberId: aliasIdentity.memberId, email, createdAt: now },
          include: { member: true },
        });
        // Its comments now have a publisher-JWT id (is_page_author).
        await purgeComments(tx, accountId);
      }
      if (identity && aliasKey && !aliasIdentity) {
        await tx.memberIdentity.create({ data: { ...aliasKey, memberId: identity.memberId, email, createdAt: now } });
      }
      if (identity) {
        const member = identity.member;
        if (identity.email !== email) {
          await tx.memberIdentity.update({ where: { id: identity.id }, data: { email } });
        }
        if (member.name !== name || member.avatarUrl !== avatarUrl || member.communicationEmail !== email) {
          // Comments show the author's name and avatar.
          if (member.name !== name || member.avatarUrl !== avatarUrl) await purgeComments(tx, accountId);
          return tx.member.update({
            where: { id: member.id },
            data: { name, avatarUrl, communicationEmail: email },
          });
        }
        return member;
      }
      const member = await tx.member.create({
        data: {
          accountId,
          name,
          avatarUrl,
          communicationEmail: email,
          email: placeholderEmail("jwt"),
          passwordHash: NO_PASSWORD,
          source: PUBLISHER_JWT_PROVIDER,
          createdAt: now,
        },
      });
      await tx.memberIdentity.create({ data: { ...key, memberId: member.id, email, createdAt: now } });
      if (aliasKey)
        await tx.memberIdentity.create({ data: { ...aliasKey, memberId: member.id, email, createdAt: now } });
      return member;
    },
    { retryUniqueClashes: true },
  );
  // What `beside` read belongs to the member it was read with (the same one, unless the identity
  // went meanwhile and a new member was made).
  return { member, beside: known && known.member.id === member.id ? known.beside : null };
}

/** The publisher-JWT ids of members (members without one are absent). */
export async function jwtIdsOfMembers(db: Db, memberIds: readonly number[]): Promise<Map<number, string>> {
  if (memberIds.length === 0) return new Map();
  const rows = await db.memberIdentity.findMany({
    where: { memberId: { in: [...new Set(memberIds)] }, provider: PUBLISHER_JWT_PROVIDER },
    select: { memberId: true, externalId: true },
  });
  return new Map(rows.map((r) => [r.memberId, r.externalId]));
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
