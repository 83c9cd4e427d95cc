/**
 * Who writes a comment being created, and the rules of guest and confidential commenting
 * (docs/engagement.md, "Guest commenting and the captcha", "Confidential comments"). Called by
 * createComment (comments.ts); kept here so the comment service stays about comments.
 *
 * - A signed-in reader (publisher JWT) is their one member (server/members/identities.ts).
 * - A guest (no jwt) may comment only where the account's `guest_comments_allowed` is on, and only
 *   with a solved captcha (`captcha_response`, server/engagement/captcha.ts), used up in the
 *   comment's transaction. Without jwt and captcha: 401 (sign in); with a captcha where guests are
 *   not allowed: 403.
 * - Guests are not members: every guest comment of an account is written by ONE guest member
 *   (identity provider "guest"; no e-mail, no password, no JWT id), so signed-in readers keep
 *   "one person, one record" and guests create no records. The comment itself says it is a
 *   guest's (`comments.guest`) and carries the name the guest gave (`guest_name`, optional:
 *   "Guest" without). The author object shows that name with `guest: true`, slug "guest",
 *   no avatar.
 * - Confidential comments (`confidential: true`): signed-in readers only (guests 403), and only
 *   where `confidential_comments_allowed` is on (403 otherwise).
 */
import "server-only";

import { getEnv } from "../../env.js";
import type { ApiUser } from "../auth/api-auth";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { Comment, Member } from "../generated/prisma/client";
import {
  findOrCreateJwtMember,
  findOrCreateMemberByIdentity,
  GUEST_PROVIDER,
  placeholderEmail,
} from "../members/identities";
import type { MemberRecord } from "../members/members";
import { captchaSecrets, verifyCaptcha, type VerifiedCaptcha } from "./captcha";
import type { TCommentAuthor, TCreateCommentBody } from "./comments.schema";
import { moderationSettingsOf } from "./moderation/settings";

/** The name shown for a guest who gave none. */
export const GUEST_DEFAULT_NAME = "Guest";

/** The account's guest member (one per account), created on first use; race-safe like JWT members. */
export async function guestMember(db: Db, args: { accountId: number; now: Date }): Promise<MemberRecord> {
  const { member } = await findOrCreateMemberByIdentity(db, {
    key: { accountId: args.accountId, provider: GUEST_PROVIDER, externalId: GUEST_PROVIDER },
    now: args.now,
    create: { name: GUEST_DEFAULT_NAME, email: placeholderEmail(GUEST_PROVIDER), source: GUEST_PROVIDER },
  });
  return member;
}

/** Who writes: a signed-in reader, or a guest with a verified (not yet used) captcha. */
type Commenter =
  | { member: MemberRecord; guest: null }
  | { member: MemberRecord; guest: { name: string | null; captcha: VerifiedCaptcha } };

const CAPTCHA_FIELD = "body.comment.body.captcha_response";

/**
 * The commenter of a create, after the account's rules: confidential (signed-in readers, where
 * allowed), guests (where allowed, with a solved captcha). Throws 401/403/400 as documented above.
 */
export async function commenterFor(
  db: Db,
  args: {
    accountId: number;
    user: ApiUser | null;
    input: TCreateCommentBody;
    now: Date;
  },
): Promise<Commenter> {
  const { accountId, user, input, now } = args;
  const settings = await moderationSettingsOf(db, accountId);
  if (input.confidential) {
    if (!user) {
      throw new AppError("FORBIDDEN", "Only signed-in readers may post confidential comments: sign in first.", {
        details: [{ field: "body.confidential", issue: "needs a signed-in reader" }],
      });
    }
    if (!settings.confidentialCommentsAllowed) {
      throw new AppError("FORBIDDEN", "This publication does not take confidential comments.", {
        details: [{ field: "body.confidential", issue: "is not allowed on this publication" }],
      });
    }
  }
  if (user) {
    return { member: await findOrCreateJwtMember(db, { accountId, user, now }), guest: null };
  }

  const response = input.comment.body.captcha_response;
  if (!response) {
    throw new AppError(
      "UNAUTHORIZED",
      settings.guestCommentsAllowed
        ? "Sign in, or solve the captcha to comment as a guest: commenting needs a jwt or a captcha_response."
        : "Sign in first: commenting needs a jwt (this publication does not take guest comments).",
    );
  }
  if (!settings.guestCommentsAllowed) {
    throw new AppError("FORBIDDEN", "This publication does not take guest comments: sign in to comment.", {
      details: [{ field: CAPTCHA_FIELD, issue: "guest comments are not allowed here" }],
    });
  }
  const captcha = await verifyCaptcha({ accountId, response, now, secrets: captchaSecrets(getEnv()) });
  return {
    member: await guestMember(db, { accountId, now }),
    guest: { name: input.comment.body.guest_name ?? null, captcha },
  };
}

/** The columns a new comment gets from its commenter and the create's flags. */
export function commenterColumns(
  commenter: Commenter,
  input: TCreateCommentBody,
): Pick<Comment, "guest" | "guestName" | "mobile"> {
  return { guest: commenter.guest !== null, guestName: commenter.guest?.name ?? null, mobile: input.mobile ?? false };
}

/** The author object of a guest's comment: the name the guest gave, `guest: true`. */
export function guestAuthorWire(comment: Pick<Comment, "guestName">, member: Pick<Member, "id">): TCommentAuthor {
  return {
    id: member.id,
    name: comment.guestName ?? GUEST_DEFAULT_NAME,
    avatar: null,
    slug: "guest",
    guest: true,
    bio: "",
    accounts: [],
  };
}
