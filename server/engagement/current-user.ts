/**
 * GET /api/v1/accounts/<account_id>/current_user (spec §2.1 "Current-user response", §4.1):
 * who the widget's reader is under third-party login (docs/engagement.md, "The current user").
 *
 * - With a valid publisher-signed jwt: the reader's member (found or created on first sight, the
 *   same one that comments: its `id` is the `author_id` of the reader's comments), in the author
 *   shape; `signed_in` true, `is_guest` false.
 * - Without one: `signed_in` false, `current_user` null, `is_guest` true (no user state, §5 A.3).
 * - `provider` names a social login; third-party (shared-key) login is none, so it is null.
 * A forged, expired or unsigned jwt never gets here: the publisherJwt scheme answers 401.
 */
import "server-only";

import type { ApiUser } from "../auth/api-auth";
import type { Db } from "../db/client";
import { findOrCreateJwtMember } from "../members/identities";
import { authorWire } from "./comment-wire";
import type { TCommentAuthor } from "./comments.schema";

type TCurrentUserResponse = {
  signed_in: boolean;
  current_user: TCommentAuthor | null;
  is_guest: boolean;
  provider: string | null;
};

export async function currentUser(
  db: Db,
  args: { accountId: number; user: ApiUser | null; now: Date },
): Promise<TCurrentUserResponse> {
  if (!args.user) return { signed_in: false, current_user: null, is_guest: true, provider: null };
  const member = await findOrCreateJwtMember(db, { accountId: args.accountId, user: args.user, now: args.now });
  return { signed_in: true, current_user: authorWire(member), is_guest: false, provider: null };
}
