/**
 * Everything Masthead holds about one member, as the data export's `data.json` (format
 * "masthead.member-export", version EXPORT_FORMAT_VERSION; every field is described in
 * docs/privacy.md "Data export (subject access)"). Read with the caller's client (the build job's
 * transaction), scoped to the member's account and id: nothing of another reader comes along.
 * ./format.ts lists the sections and which relation of `Member` each covers (its test fails when
 * the schema gains one that no section covers).
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { collectMail, collectMoney, collectSignIns } from "./collect-account";
import { collectCommunity, collectContributions } from "./collect-engagement";
import { collectPrivacy } from "./collect-privacy";
import { collectReaderIds } from "./collect-reader-ids";
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, iso, type TMemberExportData } from "./format";

/** The member's profile, its subscriber metadata, and the publication (the account) it belongs to. */
async function collectProfile(db: Db, accountId: number, memberId: number) {
  const member = await db.member.findFirst({
    where: { id: memberId, accountId },
    include: { subscriberProfile: true, account: { select: { name: true, domain: true } } },
  });
  if (!member) throw new AppError("NOT_FOUND", "There is no such reader in this account.");
  return {
    publication: { name: member.account.name, domain: member.account.domain },
    member: {
      id: member.id,
      name: member.name,
      first_name: member.firstName,
      last_name: member.lastName,
      username: member.username,
      email: member.email,
      email_verified: member.emailVerified,
      communication_email: member.communicationEmail,
      phone_number: member.phoneNumber,
      bio: member.bio,
      avatar_url: member.avatarUrl,
      avatar_key: member.avatarS3Key,
      twitter_handle: member.twitterHandle,
      locale: member.locale,
      signed_up_via: member.source,
      metadata: member.metadata,
      subscriber_metadata: member.subscriberProfile?.metadata ?? null,
      created_at: iso(member.createdAt),
      updated_at: iso(member.updatedAt),
    },
    addresses: [member.email, member.communicationEmail].filter((a): a is string => Boolean(a)),
  };
}

/** The member's earlier exports (when, by whom, status): a record of their own requests. */
async function collectExports(db: Db, memberId: number) {
  const rows = await db.memberDataExport.findMany({
    where: { memberId },
    orderBy: { createdAt: "asc" },
    select: { id: true, requestedBy: true, status: true, createdAt: true, readyAt: true, expiresAt: true },
  });
  return rows.map((r) => ({
    id: r.id,
    requested_by: r.requestedBy,
    status: r.status.toLowerCase(),
    created_at: iso(r.createdAt),
    ready_at: iso(r.readyAt),
    expires_at: iso(r.expiresAt),
  }));
}

/** data.json for `memberId` of `accountId` (NOT_FOUND when the member is not the account's). */
export async function collectMemberData(
  db: Db,
  args: { accountId: number; memberId: number; now: Date },
): Promise<TMemberExportData> {
  const { accountId, memberId } = args;
  const profile = await collectProfile(db, accountId, memberId);
  const [signIns, contributions, community, money, mail, exports, privacy, readerIds] = await Promise.all([
    collectSignIns(db, memberId),
    collectContributions(db, memberId),
    collectCommunity(db, memberId),
    collectMoney(db, memberId),
    collectMail(db, { id: memberId, accountId, addresses: profile.addresses }),
    collectExports(db, memberId),
    collectPrivacy(db, accountId, memberId),
    collectReaderIds(db, accountId, memberId),
  ]);
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_FORMAT_VERSION,
    generated_at: args.now.toISOString(),
    publication: profile.publication,
    member: profile.member,
    ...signIns,
    ...contributions,
    ...community,
    ...money,
    ...mail,
    data_exports: exports,
    ...privacy,
    reader_ids: readerIds,
  } satisfies TMemberExportData;
}
