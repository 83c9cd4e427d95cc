/**
 * A reader deletes their account (the member pages' /member/delete-account): signed in, they ask;
 * a mail carries a link with a single-use token (only its SHA-256 kept, 24 hours) to
 * /member/delete-account/confirm, whose button (a POST, never the GET) confirms. The confirmation
 * starts the erasure (./requests.ts) and signs the reader out everywhere, in one transaction.
 *
 * The mail goes to the sign-in address, or, for a reader the publisher's JWT signs in (whose
 * sign-in address is a placeholder), to the address the JWT claimed; with neither, 422.
 *
 * A token confirms only its own member's erasure: a reader signed in as someone else is refused
 * (403), and a token of another account's reader is unknown here (422), as is an expired or used one.
 */
import "server-only";

import { getEnv } from "../../../env.js";
import { systemActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { readerMail, renderSimpleMail } from "../../i18n/reader-mail";
import { queueEmail } from "../../mail/outbox";
import { isPlaceholderEmail } from "../../members/identities";
import { ERASED_SOURCE } from "../../members/members.schema";
import { hostedMemberOrigin } from "../../members/reset-link";
import type { Publisher } from "../../publishing/publisher";
import { assertWithinRateLimits } from "../../rate-limit/assert";
import { hashToken, newToken } from "../../security/secret-tokens";
import { startErasure, type ErasureView } from "./requests";

const ERASURE_LINK_TTL_MS = 24 * 3600_000;
export const ERASURE_MAIL_KIND = "member.erasure_confirm";
const CONFIRM_PATH = "/member/delete-account/confirm";
const ASK_LIMIT = { name: "member.erasure.ask", limit: 5, windowSeconds: 3600 };

/** The signed-in reader asks: a confirmation mail to their address. */
export async function askErasure(
  db: Db,
  args: { publisher: Publisher; memberId: number; now: Date },
): Promise<{ sent: true; expires_at: string }> {
  const { publisher, now } = args;
  const accountId = publisher.accountId;
  await assertWithinRateLimits(
    [[ASK_LIMIT, `${accountId}:${args.memberId}`]],
    "Too many deletion requests. Try again later.",
    now,
  );
  const member = await db.member.findFirst({
    where: { id: args.memberId, accountId },
    select: { id: true, name: true, email: true, communicationEmail: true, source: true },
  });
  if (!member || member.source === ERASED_SOURCE) throw new AppError("UNAUTHORIZED", "Sign in first.");
  // A reader the publisher's JWT signs in has a placeholder sign-in address: the claimed one then.
  const to = isPlaceholderEmail(member.email) ? member.communicationEmail : member.email;
  if (!to)
    throw new AppError(
      "UNPROCESSABLE",
      "No e-mail address is known to confirm with: ask the publication to erase you.",
      {
        details: [{ field: "email", issue: "none known" }],
      },
    );
  const token = newToken();
  const env = getEnv();
  const origin =
    (await hostedMemberOrigin(db, { publisher, appUrl: env.APP_URL, fallbackSlug: env.PUBLISHING_ACCOUNT })) ??
    new URL(env.APP_URL).origin;
  const link = `${origin}${CONFIRM_PATH}?token=${encodeURIComponent(token)}`;
  const expiresAt = new Date(now.getTime() + ERASURE_LINK_TTL_MS);
  await withTransaction(db, async (tx) => {
    await tx.erasureConfirmation.create({
      data: { accountId, memberId: member.id, tokenHash: hashToken(token), expiresAt, createdAt: now },
    });
    const mail = await readerMail(tx, accountId, member.id);
    await queueEmail(tx, {
      accountId,
      to,
      ...renderSimpleMail(mail, {
        subject: mail.t("eraseSubject", { publisher: publisher.name }),
        name: member.name,
        blocks: [
          { p: mail.t("eraseIntro", { publisher: publisher.name }) },
          { link, label: mail.t("eraseButton") },
          { p: mail.t("eraseOnce") },
        ],
      }),
      kind: ERASURE_MAIL_KIND,
      now,
    });
  });
  return { sent: true, expires_at: expiresAt.toISOString() };
}

/**
 * The reader confirms with the mailed token (the button's POST). `sessionMemberId`: who is signed
 * in on this browser, if anyone; someone else is refused. The token is consumed by one conditional
 * update (once, even by parallel posts); the erasure starts and every session ends, in one transaction.
 */
export async function confirmErasure(
  db: Db,
  args: { publisher: Publisher; token: string; sessionMemberId: number | null; now: Date },
): Promise<ErasureView> {
  const accountId = args.publisher.accountId;
  const tokenHash = hashToken(args.token);
  return withTransaction(db, async (tx) => {
    const row = await tx.erasureConfirmation.findUnique({ where: { tokenHash } });
    if (!row || row.accountId !== accountId || row.usedAt !== null || row.expiresAt <= args.now)
      throw new AppError("UNPROCESSABLE", "This link is invalid, expired or already used.", {
        details: [{ field: "token", issue: "invalid, expired or used" }],
      });
    if (args.sessionMemberId !== null && args.sessionMemberId !== row.memberId)
      throw new AppError("FORBIDDEN", "This link is for another reader's account. Sign out first.");
    const { count } = await tx.erasureConfirmation.updateMany({
      where: { id: row.id, usedAt: null },
      data: { usedAt: args.now },
    });
    if (count !== 1) throw new AppError("UNPROCESSABLE", "This link is invalid, expired or already used.");
    await tx.memberSession.deleteMany({ where: { memberId: row.memberId } });
    return startErasure(tx, {
      accountId,
      memberId: row.memberId,
      actor: systemActor(accountId, "reader"),
      now: args.now,
    });
  });
}
