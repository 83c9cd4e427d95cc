/**
 * A comment list made one reader's (docs/engagement.md "Response cache", "Conversation tools"):
 * the anonymous list, as the response cache keeps it, with what only this reader sees:
 * - `my_reactions` on every comment and reply (their reaction ids);
 * - `editable_until` on their own comments (the account's edit window; null: no limit);
 * - on a Q&A page, `awaiting_answer`: their questions readers do not see until answered.
 * listComments with a viewer and the route's kept answer both go through forViewer, so a reader
 * gets the same answer from the cache as without it.
 */
import "server-only";

import type { ApiUser } from "../auth/api-auth";
import type { Db } from "../db/client";
import type { Page } from "../generated/prisma/client";
import { findJwtMember } from "../members/identities";
import { editableUntil } from "./comment-edit-window";
import { awaitingQuestionIds } from "./comment-queries";
import { qaOf, threadsOf } from "./comment-threads";
import { reactionsOfMember } from "./comment-wire";
import type { TCommentList, TCommentWire } from "./comments.schema";
import { moderationSettingsOf } from "./moderation/settings";
import { decodePageId, findPage } from "./pages";

/** `list` (listComments's anonymous answer for `page`) as `viewer` gets it. */
export async function forViewer(
  db: Db,
  args: { accountId: number; viewer: ApiUser; page: Page | null; list: TCommentList },
): Promise<TCommentList> {
  const { list, page } = args;
  // A reader with a jwt who never did anything here is no member yet: nothing is theirs.
  const member = await findJwtMember(db, { accountId: args.accountId, userId: args.viewer.id });
  const qa = page ? qaOf(page) : null;
  const [settings, awaiting] = await Promise.all([
    member ? moderationSettingsOf(db, args.accountId) : null,
    member && page && qa
      ? awaitingQuestionIds(db, { accountId: page.accountId, pageId: page.id, memberId: member.id, qa }).then((ids) =>
          threadsOf(db, page, ids, { childOrder: "oldest" }),
        )
      : Promise.resolve([] as TCommentWire[]),
  ]);
  const tops = [...list.comments, ...(list.featured_comments ?? []), ...awaiting];
  const ids = [...new Set(tops.flatMap((c) => [c.id, ...(c.replies ?? []).map((r) => r.id)]))];
  const mine = member && ids.length ? await reactionsOfMember(db, ids, member.id) : new Map<number, string[]>();
  const windowMinutes = settings?.editWindowMinutes ?? 0;
  const own = (c: TCommentWire) =>
    member && c.author_id === member.id && !c.hidden && !c.deleted
      ? { editable_until: editableUntil(new Date(c.created_at), windowMinutes)?.toISOString() ?? null }
      : {};
  const one = ({ replies: _replies, ...c }: TCommentWire) => ({ ...c, my_reactions: mine.get(c.id) ?? [], ...own(c) });
  const thread = (c: TCommentWire) => ({ ...one(c), replies: (c.replies ?? []).map(one) });
  return {
    ...list,
    comments: list.comments.map(thread),
    ...(list.featured_comments ? { featured_comments: list.featured_comments.map(thread) } : {}),
    ...(qa ? { awaiting_answer: awaiting.map(thread) } : {}),
  };
}

/** A kept anonymous list (JSON) as `viewer` gets it: the route's personalisation of a cached answer. */
export async function personalizeList(
  db: Db,
  args: { accountId: number; viewer: ApiUser; encodedUrl: string; body: string },
): Promise<string> {
  const list = JSON.parse(args.body) as TCommentList;
  const page = await findPage(db, args.accountId, decodePageId(args.encodedUrl, "params.encoded_url"));
  return JSON.stringify(await forViewer(db, { accountId: args.accountId, viewer: args.viewer, page, list }));
}
