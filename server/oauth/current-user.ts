/**
 * GET /api/v1/current_user.json (spec §4.1): the reader an OAuth access token speaks for, in the
 * author shape's five fields. `id` is the member id: the author_id of the reader's comments.
 */
import { authorWire } from "../engagement/comment-wire";
import type { MemberRecord } from "../members/members";

type TOAuthCurrentUser = {
  current_user: { id: number; name: string; avatar: string | null; bio: string; slug: string };
};

export function currentUserOfToken(member: MemberRecord): TOAuthCurrentUser {
  const { id, name, avatar, bio, slug } = authorWire(member);
  return { current_user: { id, name, avatar, bio, slug } };
}
