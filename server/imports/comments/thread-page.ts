/**
 * The page a thread's comments go on (docs/migration.md, "Threads → pages"):
 *
 * - the comments page of the imported story the thread belongs to (story-match.ts: by thread
 *   id, dsq_thread_id, imported URL, redirect, old slug, canonical URL), which the content import
 *   may have made already; its headline the story's;
 * - else the page at the thread's link (thread-url.ts: one page however the link is written),
 *   created only on the publication's hosts; its headline the thread's title.
 * Found or created; a closed thread closes the page (comment mode "closed": no new comments),
 * and nothing reopens one. The report counts the threads per way they went (ItemPlan.tally) and
 * lists the first of those that matched no story, with their links.
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { isPublicationUrl } from "../../publishing/publisher";
import { graphemePrefix } from "../../text/graphemes";
import { storyCommentsUrl } from "../content/comment-pages";
import type { ImportContext, ItemPlan } from "../types";
import type { CommentThread } from "./records";
import { matchThreadStory } from "./story-match";
import { findThreadPage, threadPageUrl, threadUrlKey } from "./thread-url";

export const PAGE_KIND = "page";
/** The report's tally of the threads that matched no story (listed with their links). */
export const UNMATCHED_TALLY =
  "Threads that matched no story (on the page at their link when it is on the publication's hosts)";
/** The report's tally of the threads whose page an earlier run recorded (the content import: its story's). */
const KNOWN_TALLY = "Threads on the page an earlier run gave them (the story's, when the content import made it)";
/** The report's tally of the threads that went to a story, per way they were matched. */
export const matchedTally = (how: string) => `Threads matched to a story by ${how}`;

type Thread = CommentThread & { posts: number };
type Target = { url: string; headline: string | null; what: string; tally: NonNullable<ItemPlan["tally"]> };

const unmatched = (thread: Thread) => ({
  name: UNMATCHED_TALLY,
  line: `thread ${thread.sourceId}: ${thread.url ?? "(no link)"}${thread.title ? ` "${graphemePrefix(thread.title, 100)}"` : ""}`,
});

/** Plan the page of `thread` (see the file's comment). */
export async function planThreadPage(db: Db, thread: Thread, ctx: ImportContext, provider: string): Promise<ItemPlan> {
  const key = { kind: PAGE_KIND, sourceId: thread.sourceId };
  const known = await ctx.lookup(db, key);
  if (known !== null)
    return { action: "skip", reason: `imported before (page #${known})`, tally: { name: KNOWN_TALLY } };
  if (thread.posts === 0) return { action: "skip", reason: "no comments in the file" };
  const story = await matchThreadStory(db, ctx, thread, provider);
  const storyUrl = story ? storyCommentsUrl(ctx, story.slug) : null;
  if (story && storyUrl && isPublicationUrl(ctx.publisher, storyUrl)) {
    return placeThread(db, ctx, thread, {
      url: storyUrl,
      headline: story.headline,
      what: `story /${story.slug} (matched by ${story.how})`,
      tally: { name: matchedTally(story.how) },
    });
  }
  if (story) ctx.note(`thread ${thread.sourceId}: its story /${story.slug} has no page URL on the publication's hosts`);
  const refuse = (reason: string): ItemPlan => ({ action: "refuse", reason, tally: unmatched(thread) });
  if (!thread.url) return refuse(`it has no link: its ${thread.posts} comment(s) cannot be placed`);
  let url: string;
  try {
    url = threadPageUrl(thread.url, ctx.publisher);
  } catch (error) {
    const issue = error instanceof AppError ? (error.details?.[0]?.issue ?? error.message) : String(error);
    return refuse(`its link is not a page URL (${issue}): its ${thread.posts} comment(s) are not imported`);
  }
  return placeThread(db, ctx, thread, {
    url,
    headline: thread.title ? graphemePrefix(thread.title, 500) || null : null,
    what: `page ${url}`,
    tally: unmatched(thread),
  });
}

/** Find or create the page at `target.url` for `thread`, closing it when the thread is. */
async function placeThread(db: Db, ctx: ImportContext, thread: Thread, target: Target): Promise<ItemPlan> {
  const key = { kind: PAGE_KIND, sourceId: thread.sourceId };
  const { url, headline, tally } = target;
  const closed = thread.closed === true;
  // Two threads of one page: in a dry run nothing is written, so the page an earlier thread would
  // create is remembered by its URL's key.
  const urlKey = { kind: "page-url", sourceId: threadUrlKey(url) };
  const closedKey = { kind: "page-closed", sourceId: urlKey.sourceId };
  if (ctx.dryRun && (await ctx.lookup(db, urlKey)) !== null) {
    const close = closed && (await ctx.lookup(db, closedKey)) === null;
    return {
      action: close ? "update" : "skip",
      reason: `${target.what} comes with an earlier thread: its comments are added to it${close ? "; closed" : ""}`,
      remember: close ? [key, closedKey] : [key],
      tally,
    };
  }
  const page = await findThreadPage(db, ctx.accountId, url);
  if (!page) {
    if (!isPublicationUrl(ctx.publisher, url)) {
      return {
        action: "refuse",
        reason: `${url} is not on the publication's hosts (${ctx.publisher.publicationHosts.join(", ") || "none set"}): add its host in Settings, or fix the links`,
        tally,
      };
    }
    return {
      action: "create",
      reason: `${target.what}${headline ? ` "${headline}"` : ""}${closed ? ", closed" : ""}`,
      remember: closed ? [key, urlKey, closedKey] : [key, urlKey],
      tally,
      apply: async (tx) => {
        const created = await tx.page.create({
          data: {
            accountId: ctx.accountId,
            url,
            headline,
            createdAt: thread.createdAt ?? ctx.now,
            ...(closed ? { commentMode: "CLOSED" as const } : {}),
          },
          select: { id: true },
        });
        await ctx.record(tx, { ...key, targetId: created.id, created: true });
      },
    };
  }
  const setHeadline = page.headline === null && headline !== null;
  const close = closed && page.commentMode !== "CLOSED";
  const changes = [setHeadline ? `headline "${headline}"` : "", close ? "closed" : ""].filter(Boolean);
  return {
    action: changes.length > 0 ? "update" : "skip",
    reason:
      changes.length > 0
        ? `page #${page.id} ${page.url} (${target.what}): ${changes.join(", ")}`
        : `page #${page.id} ${page.url} (${target.what}) is there already: its comments are added to it`,
    remember: closed || page.commentMode === "CLOSED" ? [key, urlKey, closedKey] : [key, urlKey],
    tally,
    apply: async (tx) => {
      if (changes.length > 0) {
        await tx.page.update({
          where: { id: page.id },
          data: { ...(setHeadline ? { headline } : {}), ...(close ? { commentMode: "CLOSED" as const } : {}) },
        });
      }
      await ctx.record(tx, { ...key, targetId: page.id, created: false });
    },
  };
}
