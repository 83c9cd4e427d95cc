/**
 * A page's comment list (spec §4.1 GET …/comments.json; docs/engagement.md "Conversation tools"):
 * top-level comments paged and sorted (comment-queries.ts listedParentIds), each with its visible
 * replies, and the page's counts.
 *
 * - Sorts: newest, oldest, most reacted (on the reaction count the database keeps); each order
 *   ends with the id, so offset pages neither repeat nor skip a comment while nothing changes.
 * - Featured comments (opt-in, `featured=first`): `featured_comments` beside the list, and a
 *   `featured` flag on each top-level comment; a client that does not ask gets the old answer.
 * - Q&A pages (pages.qa_mode): only answered questions are listed and counted; the asker's own
 *   unanswered ones come with their jwt (comment-viewer.ts), never in the shared answer.
 * - With a jwt: the reader's reactions, edit window and awaiting questions (comment-viewer.ts).
 */
import "server-only";

import type { ApiUser } from "../auth/api-auth";
import type { Db } from "../db/client";
import { featuredParentIds, listedParentIds, pageAndRealmCounts, qaPageStats } from "./comment-queries";
import { qaOf, threadsOf } from "./comment-threads";
import { forViewer } from "./comment-viewer";
import { type TCommentList, type TListCommentsQuery } from "./comments.schema";
import { decodePageId, findPage } from "./pages";

/** A page's comments: top-level ones paged and sorted, each with its visible replies under `replies`. */
export async function listComments(
  db: Db,
  args: { accountId: number; encodedUrl: string; query: TListCommentsQuery; viewer?: ApiUser | null },
): Promise<TCommentList> {
  const url = decodePageId(args.encodedUrl, "params.encoded_url");
  const { query } = args;
  const page = await findPage(db, args.accountId, url);
  const featuredAsked = query.featured === "first";
  if (!page) {
    return {
      total_count: 0,
      comments: [],
      total_parent_comments_count: 0,
      ...(featuredAsked ? { featured_comments: [] } : {}),
    };
  }
  const qa = qaOf(page);
  // The counts (with the realm's), the ids of the listed top-level comments and of the featured
  // ones at once (comment-queries.ts), then those comments with their authors, visible replies and
  // reactions in one statement.
  const [counts, ids, featuredIds] = await Promise.all([
    qa
      ? qaPageStats(db, { accountId: page.accountId, pageId: page.id, qa }).then((c) => ({ ...c, realm: undefined }))
      : pageAndRealmCounts(db, page.accountId, page.id).then(({ stats, realm }) => ({
          total: stats?.total ?? 0,
          parents: (stats?.parents ?? 0) + (stats?.placeholders ?? 0),
          realm,
        })),
    query.parent_comments_limit === 0
      ? Promise.resolve([])
      : listedParentIds(db, {
          accountId: page.accountId,
          pageId: page.id,
          sort: query.sort_order,
          offset: query.parent_comments_offset,
          limit: query.parent_comments_limit,
          qa,
        }),
    featuredAsked ? featuredParentIds(db, { accountId: page.accountId, pageId: page.id, qa }) : Promise.resolve([]),
  ]);
  const featuredSet = new Set(featuredIds);
  const threads = await threadsOf(db, page, [...new Set([...ids, ...featuredIds])], {
    childOrder: query.child_comments_sort_order,
    realmCount: counts.realm,
  });
  const byId = new Map(
    threads.map((t) => [t.id, featuredAsked ? { ...t, featured: featuredSet.has(t.id) } : t] as const),
  );
  const list: TCommentList = {
    total_count: counts.total,
    comments: ids.flatMap((id) => byId.get(id) ?? []),
    total_parent_comments_count: counts.parents,
    ...(featuredAsked ? { featured_comments: featuredIds.flatMap((id) => byId.get(id) ?? []) } : {}),
  };
  // The anonymous answer (the one the response cache keeps), made the reader's as the route
  // makes a kept one theirs (comment-viewer.ts): the same function, so the same bytes.
  return args.viewer ? forViewer(db, { accountId: args.accountId, viewer: args.viewer, page, list }) : list;
}
