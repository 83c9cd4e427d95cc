/**
 * A comment export as an import source (docs/migration.md), whatever system wrote it: the
 * reader (disqus.ts, wxr.ts) turns the file into threads and posts, this turns those into pages
 * and comments of the account.
 *
 * Order of the items, so that a reply always finds the comment it goes under:
 * 1. the first read indexes the file (index-pass.ts);
 * 2. one "page" item per thread: its imported story's comments page, else the account's page at
 *    its link, found or created (thread-page.ts); a thread without posts is skipped;
 * 3. a second read yields the top-level posts (and those refused whatever their place);
 * 4. a third read yields the replies, each under its thread's top-level post (Masthead nests one
 *    level), the post it answered kept in import_records.source_parent_id and, once both are
 *    written, as the comment's reply_to_id (writer.ts).
 *
 * A post becomes a comment on its thread's page, by its author (authors.ts), at its date, in its
 * state: published → published; approved → published, decided "approved"; held (WordPress 0) →
 * unpublished, waiting in the moderators' queue; rejected → unpublished, decided "rejected"; spam
 * → spam, unpublished, decided "spam"; deleted (WordPress trash) → deleted (still published, as a
 * moderator's delete leaves it, so its replies show under a placeholder). Its HTML becomes ops
 * (html-to-ops.ts). Comments already in Masthead are never touched.
 */
import "server-only";

import { getEnv } from "../../../env.js";
import { formatInstant } from "../../dates.schema";
import type { Db, TransactionClient } from "../../db/client";
import { digestOf, prepareOps } from "../../engagement/comment-bodies";
import type { TCommentOp } from "../../engagement/comments.schema";
import { AppError } from "../../errors";
import { htmlToOps } from "../html-to-ops";
import type { ImportContext, ImportFile, ImportItem, ImportSource, ItemPlan, PreparedSource } from "../types";
import { MEMBER_KIND, planAuthor, type AuthorFile } from "./authors";
import { IN_LOOP, indexCommentFile, MISSING_PARENT, type CommentIndex } from "./index-pass";
import { authorKey, type CommentPost, type CommentReader, type CommentThread } from "./records";
import { PAGE_KIND, planThreadPage } from "./thread-page";
import { CommentWriter } from "./writer";

const COMMENT_KIND = "comment";

type CommentSourceItem = ImportItem &
  (
    | { kind: typeof PAGE_KIND; thread: CommentThread & { posts: number } }
    | { kind: typeof COMMENT_KIND; post: CommentPost; duplicate: boolean }
  );

/** An import source reading `reader`'s files. */
export function commentSource(
  name: string,
  description: string,
  reader: CommentReader,
): ImportSource<CommentSourceItem> {
  return {
    name,
    description,
    kinds: [PAGE_KIND, COMMENT_KIND, MEMBER_KIND],
    prepare: async (file) => prepareCommentFile(reader, file),
  };
}

async function prepareCommentFile(reader: CommentReader, file: ImportFile): Promise<PreparedSource<CommentSourceItem>> {
  const index = await indexCommentFile(reader, file);
  const authors: AuthorFile = { noted: new Set<string>(), spamOnly: index.spamOnly.authors };
  const writer = new CommentWriter(COMMENT_KIND);
  return {
    digest: index.digest,
    site: index.site,
    itemCount: index.threads.size + index.postCount,
    problems: index.problems,
    items: () => commentItems(reader, file, index),
    prefetch: (db, items, ctx) => prefetch(db, items, ctx, index, reader.provider),
    plan: (db, item, ctx) =>
      item.kind === PAGE_KIND
        ? planThreadPage(db, item.thread, ctx, reader.provider)
        : planComment(db, item, ctx, { index, reader, authors, writer }),
    flush: (tx, ctx) => writer.flush(tx, ctx),
    discard: () => writer.discard(),
  };
}

/** Whether a post (first occurrence, id known) is a reply placed under another post. */
function isReply(index: CommentIndex, position: number): boolean {
  const root = index.roots[position]!;
  return root >= 0 && root !== position;
}

async function* commentItems(
  reader: CommentReader,
  file: ImportFile,
  index: CommentIndex,
): AsyncGenerator<CommentSourceItem> {
  for (const thread of index.threads.values()) {
    yield {
      kind: PAGE_KIND,
      sourceId: thread.sourceId,
      label: `thread ${thread.sourceId} (${thread.url ?? "no link"})`,
      thread,
    };
  }
  for (const replies of [false, true]) {
    let nextFirst = 0;
    for await (const record of reader.read(file.path, () => undefined)) {
      if (record.type !== "post") continue;
      const { post } = record;
      const position = post.sourceId ? index.positionOf.get(post.sourceId) : undefined;
      const duplicate = position === undefined || position < nextFirst;
      if (position !== undefined && !duplicate) nextFirst = position + 1;
      const reply = !duplicate && position !== undefined && isReply(index, position);
      if (reply !== replies) continue;
      yield {
        kind: COMMENT_KIND,
        sourceId: post.sourceId,
        label: `post ${post.sourceId || "?"} (line ${post.line})`,
        post,
        duplicate: duplicate && Boolean(post.sourceId),
      };
    }
  }
}

/** One statement per kind for what a batch looks up: its pages, comments, roots and members. */
async function prefetch(
  db: Db,
  items: readonly CommentSourceItem[],
  ctx: ImportContext,
  index: CommentIndex,
  provider: string,
) {
  const pages: string[] = [];
  const comments: string[] = [];
  const members: string[] = [];
  for (const item of items) {
    if (item.kind === PAGE_KIND) {
      pages.push(item.sourceId);
      continue;
    }
    const { post } = item;
    comments.push(post.sourceId);
    if (post.threadId) pages.push(post.threadId);
    const position = index.positionOf.get(post.sourceId);
    if (position !== undefined && isReply(index, position)) comments.push(index.ids[index.roots[position]!]!);
    const key = authorKey(provider, post.author);
    if (key) members.push(key);
    if (post.author.accountId) members.push(`${provider}:${post.author.accountId}`);
  }
  await ctx.preload(db, PAGE_KIND, pages);
  await ctx.preload(db, COMMENT_KIND, comments);
  await ctx.preload(db, MEMBER_KIND, members);
}

const refuse = (reason: string): ItemPlan => ({ action: "refuse", reason });

/** The stored body of a post: ops ending with a newline, within the comment limits; or why not. */
function commentBody(
  post: Pick<CommentPost, "html" | "newlines" | "state">,
  publisher: ImportContext["publisher"],
  appUrl: string,
): { ops: TCommentOp[] } | { refuse: string } {
  const ops = htmlToOps(post.html, post.newlines);
  if (ops.length === 0) {
    return post.state === "deleted"
      ? { ops: [{ insert: "\n" }] }
      : { refuse: "its message is empty once read as text" };
  }
  try {
    return { ops: prepareOps(ops, publisher, appUrl) };
  } catch (error) {
    if (error instanceof AppError) return { refuse: `its message cannot be a comment: ${error.message}` };
    throw error;
  }
}

/** Once per file: how many authors wrote nothing but spam, and what became of them (authors.ts). */
function noteSpamOnly(ctx: ImportContext, index: CommentIndex, noted: Set<string>) {
  const { authors, posts } = index.spamOnly;
  if (authors.size === 0 || noted.has(SPAM_ONLY_NOTE)) return;
  noted.add(SPAM_ONLY_NOTE);
  ctx.note(
    `${authors.size} author(s) wrote nothing but spam (${posts} comment(s)): they are not made members; their comments are kept as spam, by a guest under the name given, their addresses not kept`,
  );
}

const SPAM_ONLY_NOTE = "\0spam-only";

type CommentFile = { index: CommentIndex; reader: CommentReader; authors: AuthorFile; writer: CommentWriter };

async function planComment(
  db: Db,
  item: CommentSourceItem & { kind: "comment" },
  ctx: ImportContext,
  { index, reader, authors, writer }: CommentFile,
): Promise<ItemPlan> {
  const { post } = item;
  if (!post.sourceId) return refuse(`it has no id: ${post.errors.join("; ") || "nothing can name it"}`);
  if (item.duplicate) return refuse(`its id ${post.sourceId} appears more than once: only the first is imported`);
  if (post.errors.length > 0) return refuse(post.errors.join("; "));
  if (post.skip) return { action: "skip", reason: post.skip };
  const key = { kind: COMMENT_KIND, sourceId: post.sourceId };
  const known = await ctx.lookup(db, key);
  if (known !== null) return { action: "skip", reason: `imported before (comment #${known})` };
  const position = index.positionOf.get(post.sourceId)!;
  const root = index.roots[position]!;
  if (root === IN_LOOP) return refuse("its parents form a loop (it replies, in the end, to itself)");
  if (!post.threadId) return refuse("it names no thread");
  if (!index.threads.has(post.threadId)) return refuse(`its thread ${post.threadId} is not in the file`);
  const pageId = await ctx.lookup(db, { kind: PAGE_KIND, sourceId: post.threadId });
  if (pageId === null) return refuse(`its thread ${post.threadId} was not imported (see that thread's line)`);
  if (!post.createdAt) return refuse("it has no date");

  let rootCommentId: string | null = null;
  let sourceParentId: string | null = null;
  if (root !== position) {
    const rootSourceId = index.ids[root]!;
    if (index.threadOf[root] !== post.threadId) {
      return refuse(`it replies to a post of another thread (${rootSourceId}, on ${index.threadOf[root] ?? "none"})`);
    }
    // Its top-level post waits in this batch's writer (a real run: `db` is the batch's transaction).
    if (writer.holds(rootSourceId)) await writer.flush(db, ctx);
    rootCommentId = await ctx.lookup(db, { kind: COMMENT_KIND, sourceId: rootSourceId });
    if (rootCommentId === null) return refuse(`the comment it replies under (${rootSourceId}) was not imported`);
    if (post.parentId !== rootSourceId) sourceParentId = post.parentId;
  } else if (index.parents[position] === MISSING_PARENT) {
    ctx.note(
      `post ${post.sourceId} replies to ${post.parentId}, which is not in the file: imported as a top-level comment`,
    );
  }
  const body = commentBody(post, ctx.publisher, getEnv().APP_URL);
  if ("refuse" in body) return refuse(body.refuse);
  const author = await planAuthor(db, ctx, reader.provider, post.author, authors);
  noteSpamOnly(ctx, index, authors.noted);
  const { noted } = authors;
  if (post.note && !noted.has(post.note)) {
    // Once per note (a blocked author's), remembered up to a bound: past it, notes may repeat.
    if (noted.size < 10_000) noted.add(post.note);
    ctx.note(post.note);
  }
  const spam = post.spam || post.state === "spam";
  const decision = spam ? "spam" : post.state === "approved" || post.state === "rejected" ? post.state : "undecided";
  const parentCommentId = rootCommentId === null ? null : Number(rootCommentId);
  const reply = rootCommentId === null ? "" : `, under comment #${rootCommentId}`;
  return {
    action: "create",
    reason: `comment by ${author.label}, ${formatInstant(post.createdAt, ctx.publisher.timeZone)}, ${post.state}${reply}`,
    effects: author.effects,
    remember: [...author.remember, ...(root === position ? [key] : [])],
    apply: async (tx: TransactionClient) => {
      const createdAt = post.createdAt!.toISOString();
      writer.add({
        sourceId: post.sourceId,
        sourceParentId,
        earlyReplies: (index.earlyReplies.get(position) ?? []).map((p) => index.ids[p]!),
        row: {
          account_id: ctx.accountId,
          page_id: Number(pageId),
          parent_comment_id: parentCommentId,
          author_id: await author.resolve(tx),
          body: { ops: body.ops },
          body_digest: digestOf(body.ops, parentCommentId),
          guest: author.guest,
          guest_name: author.guest ? author.guestName : null,
          // A deleted comment stays published, as a moderator's delete leaves it: its replies show under a placeholder.
          is_published: post.state === "published" || post.state === "approved" || post.state === "deleted",
          is_spam: spam,
          page_author: post.pageAuthor === true,
          moderation_state: decision,
          // The export says that, not when: the comment's own date is the earliest it can have been.
          decided_at: decision === "undecided" ? null : createdAt,
          deleted_at: post.state === "deleted" ? createdAt : null,
          created_at: createdAt,
        },
      });
    },
  };
}
