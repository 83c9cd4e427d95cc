/**
 * The comments page of an imported story, so that the comments of the same export land on it.
 *
 * A WordPress export holds a post's comments in its <item>; `--from wxr-comments` places them on
 * the page it records for that item (import_records: source "wxr-comments", kind "page", the
 * post's id), and otherwise on a page at the item's <link>, the old URL. Once a post is a story,
 * its comments belong on the story's public URL (the site's URL and its slug, as the content API
 * gives it), so the content import records that page for the comments source: the comments
 * imported after it go there. A post whose comments were imported before keeps them where they
 * are (a note says so). A post whose comments were closed (`closed`) gets its page closed.
 *
 * Other comment sources (Disqus…) find the story by what their threads name (story-match.ts) and
 * place its comments on the same page (storyCommentsUrl).
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import { findPage, normalizePageUrl } from "../../engagement/pages";
import { isPublicationUrl } from "../../publishing/publisher";
import { storyUrl } from "../../publishing/story-view";
import type { ImportContext, PlanEffect } from "../types";

type PlannedCommentPage = {
  effects: PlanEffect[];
  apply: (tx: TransactionClient) => Promise<void>;
} | null;

const PAGE_KIND = "page";

/** The normalised URL of the comments page of the story `slug`; null when it is not a page URL. */
export function storyCommentsUrl(ctx: Pick<ImportContext, "publisher">, slug: string): string | null {
  try {
    return normalizePageUrl(storyUrl(ctx.publisher.siteUrl, slug), "url");
  } catch {
    return null;
  }
}

/** The comments page of the story `slug` made of post `postId`, for `commentsSource`; null when there is nothing to do. */
export async function planCommentPage(
  db: Db,
  ctx: ImportContext,
  args: {
    commentsSource: string;
    postId: string;
    slug: string;
    headline: string;
    createdAt: Date;
    label: string;
    closed?: boolean;
  },
): Promise<PlannedCommentPage> {
  const key = { accountId: ctx.accountId, source: args.commentsSource, kind: PAGE_KIND, sourceId: args.postId };
  // The comments source reads its site's records, then the empty site's (mappings.ts): the same here.
  const before = await db.importRecord.findFirst({
    where: { ...key, site: { in: ctx.site ? [ctx.site, ""] : [""] } },
    orderBy: { site: "desc" },
    select: { targetId: true },
  });
  if (before) {
    ctx.note(`${args.label}: its comments were imported before, on page #${before.targetId}: they stay there`);
    return null;
  }
  const url = storyCommentsUrl(ctx, args.slug);
  if (url === null) return null;
  if (!isPublicationUrl(ctx.publisher, url)) {
    ctx.note(`${args.label}: ${url} is not on the publication's hosts: its comments will go to its old URL`);
    return null;
  }
  const page = await findPage(db, ctx.accountId, url);
  return {
    effects: page ? [] : [{ kind: PAGE_KIND, action: "create", label: `page ${url}` }],
    apply: async (tx) => {
      const id =
        page?.id ??
        (
          await tx.page.create({
            data: { accountId: ctx.accountId, url, headline: args.headline, createdAt: args.createdAt },
            select: { id: true },
          })
        ).id;
      if (args.closed) await tx.page.update({ where: { id }, data: { commentMode: "CLOSED" } });
      await tx.importRecord.create({
        data: { ...key, site: ctx.site, targetId: String(id), created: !page, runId: ctx.runId },
      });
    },
  };
}
