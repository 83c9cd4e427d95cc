/**
 * Erasure's account steps: every way to act as the reader goes first (sessions, tokens, codes),
 * their identities near the end (so a resumed run still knows the e-mails they claimed), and the
 * member row last, stripped to the tombstone (./rules.ts tombstoneFields) with its avatar file.
 */
import "server-only";

import type { TransactionClient } from "../../db/client";
import { log } from "../../log";
import { tombstoneFields } from "./rules";
import type { ErasureSubject } from "./subject";

/** Sessions, reset and verification tokens, one-time codes, OAuth codes and tokens, the deletion links. */
export async function removeAccess(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  const of = { memberId: s.memberId };
  await tx.memberSession.deleteMany({ where: of });
  await tx.passwordResetToken.deleteMany({ where: of });
  await tx.emailVerificationToken.deleteMany({ where: of });
  await tx.oAuthAccessToken.deleteMany({ where: of });
  await tx.oAuthAuthorizationCode.deleteMany({ where: of });
  await tx.erasureConfirmation.deleteMany({ where: of });
  if (s.needles.emails.length) {
    await tx.memberOtp.deleteMany({ where: { accountId: s.accountId, email: { in: [...s.needles.emails] } } });
    // Rate-limit counters keyed by the address ("<account>:<e-mail>").
    for (const email of s.needles.emails)
      await tx.rateLimitBucket.deleteMany({ where: { key: { contains: email, mode: "insensitive" } } });
  }
}

/** Identities (e-mail, social, publisher JWT): the same ones can sign up again as a new person. */
export async function removeIdentities(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  await tx.memberIdentity.deleteMany({ where: { accountId: s.accountId, memberId: s.memberId } });
}

/** The member row becomes the tombstone; the request is done (audited with the member's id only). */
export async function stripMember(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  const member = await tx.member.findUniqueOrThrow({ where: { id: s.memberId }, select: { avatarS3Key: true } });
  if (member.avatarS3Key && s.storage) {
    // Deleting a missing object is no error: a resumed run deletes again and goes on.
    await s.storage.delete(member.avatarS3Key).catch((error: unknown) => {
      log.warn("erasure: the avatar file could not be deleted", { member: s.memberId, error: String(error) });
      throw error;
    });
  }
  await tx.imageAsset.updateMany({ where: { uploadedByMemberId: s.memberId }, data: { uploadedByMemberId: null } });
  await tx.member.update({ where: { id: s.memberId }, data: tombstoneFields(s.requestId) });
}
