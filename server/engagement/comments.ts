/**
 * Comments on pages (spec §2.1, §3, §4.1; docs/engagement.md).
 *
 * - A comment is written by a signed-in reader (a publisher-signed JWT → one member of the
 *   account: server/members/identities.ts), or by a guest with a solved captcha where the account
 *   allows guests; who may write, and confidential comments' rules, are guests.ts's (commenterFor).
 * - The first comment on a URL of the publication creates its page (server/engagement/pages.ts).
 * - Bodies are ops validated as data (comments.schema.ts), capped by COMMENT_LIMITS (413); the
 *   stored text ends with a newline; images must be served by Masthead (APP_URL/images/… or the
 *   account's image CDN).
 * - Idempotent create: the same reader posting the same body (and parent) on the same page as their
 *   last comment, within DUPLICATE_WINDOW_MS, gets that comment back. The reader's claim, the
 *   comment and its event are one statement (comment-write.ts), so two identical posts at once make
 *   one comment.
 * - Replies nest one level: the parent is a top-level comment of the same page and account; a
 *   reply to a reply goes under that reply's top-level comment, the reply it answers kept
 *   (reply_to_id).
 * - Moderation (moderation/, docs/engagement.md "Moderation"): every create and edit is scored
 *   (toxicity, is_spam) and checked against the account's settings: a banned "reject" word is 400,
 *   anything that must wait is stored with is_published false. The author gets it back in the
 *   create answer; nobody else sees or counts it.
 * - Visible comments are published, not spam, not deleted and not hidden, and replies of a
 *   published, not spam comment; the counts count them.
 *   Lists show a hidden or deleted top-level comment only when it has visible replies, as a
 *   placeholder (empty ops, no mentions, flags set).
 * - Edit and hide: the author only (403); a comment of another page or account is 404. An edit
 *   after the account's edit window (comment-edit-window.ts) is 403.
 * - Moderators (moderation/queue/queue.ts): a banned reader's create, edit and hide are 403
 *   (moderation/bans/bans.ts); an edit keeps a moderator's decision (moderation/queue/decisions.ts afterEdit);
 *   a create emits comment.created (events.ts) in its own statement (comment-write.ts).
 */
import "server-only";

import { randomUUID } from "node:crypto";

import { getEnv } from "../../env.js";
import type { ApiAccount, ApiUser } from "../auth/api-auth";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { Comment, Member, Prisma } from "../generated/prisma/client";
import { findJwtMember } from "../members/identities";
import { getPublisher, type Publisher } from "../publishing/publisher";
import { digestOf, prepareOps } from "./comment-bodies";
import { assertWithinEditWindow } from "./comment-edit-window";
import { pageAndRealmCounts, qaPageStats, visibleCommentsByUrl, type PageCommentStats } from "./comment-queries";
import { qaOf } from "./comment-threads";
import { AUTHOR_FIELDS, toWire } from "./comment-wire";
import { NEW_COMMENT, writeComment } from "./comment-write";
import { type TCommentOp, type TCommentWire, type TCreateCommentBody } from "./comments.schema";
import { commenterColumns, commenterFor } from "./guests";
import { assertNotBanned } from "./moderation/bans/bans";
import { afterEdit } from "./moderation/queue/decisions";
import { pageRulesOf } from "./moderation/rules/page-rules";
import { recordShadowScore, type ShadowRecord } from "./moderation/scorer/shadow";
import { moderationSettingsOf } from "./moderation/settings";
import { effectiveRules, openSurgesOf, surgesOn } from "./moderation/surges/surges";
import { moderateWriting, pageRefusalError } from "./moderation/writing";
import { enqueueCommentNotifications, talksToReaders } from "./notifications/notify";
import { assertPageMayOpen, decodePageId, findOrCreatePage, findPage } from "./pages";

/** A repeated post (same reader, page, parent and body) within this window returns the first comment. */
export const DUPLICATE_WINDOW_MS = 10_000;

const PAGE_FIELD = "params.encoded_url";

/** What the counts and lists count (a reply of a held or spam comment is not listed, so not counted). */
export const VISIBLE = {
  isPublished: true,
  isSpam: false,
  deletedAt: null,
  hiddenAt: null,
  OR: [{ parentCommentId: null }, { parent: { isPublished: true, isSpam: false } }],
} satisfies Prisma.CommentWhereInput;

function countsOf(stats: PageCommentStats | undefined) {
  return { total_count: stats?.total ?? 0, total_parent_comments_count: stats?.parents ?? 0 };
}

// ─── moderation ──────────────────────────────────────────────────────────────────────────────

/**
 * The moderation columns of a comment being written, or 400 for a banned "reject" word (writing.ts),
 * and what the account's shadow configuration would have done with a new one (moderation/scorer/shadow.ts).
 */
async function moderate(
  db: Db,
  args: Omit<Parameters<typeof moderateWriting>[1], "refusal">,
): Promise<{
  columns: Pick<Comment, "isPublished" | "isSpam" | "toxicity" | "moderationReasons">;
  shadow: ShadowRecord | null;
}> {
  const decision = await moderateWriting(db, { ...args, refusal: "This comment cannot be posted" });
  return {
    columns: {
      isPublished: decision.isPublished,
      isSpam: decision.isSpam,
      toxicity: decision.toxicity,
      moderationReasons: decision.reasons,
    },
    shadow: decision.shadow,
  };
}

// ─── services ────────────────────────────────────────────────────────────────────────────────

function requireUser(user: ApiUser | null): ApiUser {
  // Only a signed-in reader changes a comment (guests cannot edit or hide: guests.ts).
  if (!user) throw new AppError("UNAUTHORIZED", "Sign in first: changing a comment needs a jwt.");
  return user;
}

function publisherOf(db: Db, accountId: number): Promise<Publisher> {
  return getPublisher(db, accountId, { appUrl: getEnv().APP_URL });
}

/** The comment a post repeats, with its author, unless it was deleted. */
function repeatedComment(db: Db, id: number) {
  return db.comment.findFirst({ where: { id, deletedAt: null }, include: { author: { select: AUTHOR_FIELDS } } });
}

/** Listed: a held, spam or deleted comment takes no replies. */
const LISTED = { deletedAt: null, isPublished: true, isSpam: false } as const;

/**
 * Where a reply goes (404 when the comment answered is not listed on this page). Replies nest one
 * level: a reply to a top-level comment is under it; a reply to a reply is under that reply's
 * top-level comment, the reply it answers kept as `replyToId` (reply_to_id in the API).
 */
async function replyPlace(
  db: Db,
  args: { accountId: number; pageId: number | null; answered: number },
): Promise<{ parentId: number; replyToId: number | null }> {
  // A page not made yet has no comments.
  const answered =
    args.pageId === null
      ? null
      : await db.comment.findFirst({
          where: { id: args.answered, accountId: args.accountId, pageId: args.pageId, ...LISTED },
          select: { parentCommentId: true, parent: { select: { deletedAt: true, isPublished: true, isSpam: true } } },
        });
  const parent = answered?.parent;
  if (!answered || (parent && (parent.deletedAt !== null || !parent.isPublished || parent.isSpam))) {
    throw new AppError("NOT_FOUND", "The comment replied to is not on this page.", {
      details: [{ field: "body.comment.parent_comment_id", issue: "is not a comment of this page" }],
    });
  }
  return answered.parentCommentId === null
    ? { parentId: args.answered, replyToId: null }
    : { parentId: answered.parentCommentId, replyToId: args.answered };
}

/**
 * Post a comment (or a reply) as the JWT's reader, or as a guest (guests.ts); the page is created
 * on first use.
 * `created` is false when a duplicate within DUPLICATE_WINDOW_MS was answered instead.
 */
export async function createComment(
  db: Db,
  args: {
    account: ApiAccount;
    user: ApiUser | null;
    encodedUrl: string;
    input: TCreateCommentBody;
    now: Date;
  },
): Promise<{
  created: boolean;
  response: { total_count: number; comment: TCommentWire; total_parent_comments_count: number };
}> {
  const { account, input, now } = args;
  const url = decodePageId(args.encodedUrl, PAGE_FIELD);
  const publisher = await publisherOf(db, account.id);
  const ops = prepareOps(input.comment.body.ops, publisher, getEnv().APP_URL);
  const answered = input.comment.parent_comment_id ?? null;
  // The page and the moderation settings beside it (from memory: the rules before publishing need
  // them to know what to read).
  const [read, settings, surges] = await Promise.all([
    findPage(db, account.id, url),
    moderationSettingsOf(db, account.id),
    // The account's open surges, from memory (moderation/surges/surges.ts): the stricter of a surge and
    // the page's own rules applies.
    openSurgesOf(db, account.id),
  ]);
  // A comment the page refuses (another site's page, a reply to what is not on it) writes nothing,
  // not even the reader's member record: checked before the writer is found or made.
  assertPageMayOpen(publisher, url, read);
  const place =
    answered === null ? null : await replyPlace(db, { accountId: account.id, pageId: read?.id ?? null, answered });
  const parentId = place?.parentId ?? null;
  const digest = digestOf(ops, parentId);
  // Who writes (guest and confidential rules, the captcha checked: guests.ts).
  const commenter = await commenterFor(db, { accountId: account.id, user: args.user, input, now });
  const { member, guest } = commenter;
  const rules = effectiveRules(pageRulesOf(read), surgesOn(surges, read?.id ?? null));
  const { columns: moderation, shadow } = await moderate(db, {
    accountId: account.id,
    memberId: member.id,
    // A guest's name is moderated with the text.
    ops: guest?.name ? [{ insert: `${guest.name}\n` }, ...ops] : ops,
    now,
    field: "body.comment.body.ops",
    guest: guest !== null,
    // moderation: bans (a signed-in reader's; the guest member stands for every guest, so is never banned)
    refuseBanned: !guest,
    // moderation: the rules before publishing (a page the comment creates has the default rules)
    page: {
      id: read?.id ?? null,
      rules,
      creating: true,
      repeat: { digest, since: new Date(now.getTime() - DUPLICATE_WINDOW_MS) },
    },
    email: guest ? null : member.email,
    settings,
  });

  const page = await findOrCreatePage(db, publisher, url, now, read);
  const draft: Comment = {
    id: 0,
    accountId: account.id,
    pageId: page.id,
    parentCommentId: parentId,
    replyToId: place?.replyToId ?? null,
    authorId: member.id,
    body: { ops },
    bodyDigest: digest,
    confidential: input.confidential ?? false,
    ...commenterColumns(commenter, input),
    ...moderation,
    ...NEW_COMMENT,
    createdAt: now,
  };
  // One statement: the reader's claim, the comment, its comment.created event, its notification
  // job when it tells anyone, and the answer's counts (comment-write.ts).
  const talks = talksToReaders(draft);
  const write = async (replacing?: number) => {
    const written = await writeComment(db, {
      comment: draft,
      page,
      captcha: guest?.captcha ?? null,
      repeatsSince: new Date(now.getTime() - DUPLICATE_WINDOW_MS),
      replacing,
      // notifications: a published reply or mention tells its readers (notifications/notify.ts)
      ...(talks ? { notifyJobId: randomUUID() } : {}),
      // Checked again under the reader's claim, so posts sent at once are slowed too (comment-write.ts).
      ...(guest ? {} : { slowModeSeconds: rules.slowModeSeconds }),
    });
    if ("slowModeWaitSeconds" in written) {
      throw pageRefusalError({ kind: "slow", retryAfterSeconds: written.slowModeWaitSeconds });
    }
    return written;
  };
  let written = await write();
  let repeated = "repeatOf" in written ? await repeatedComment(db, written.repeatOf) : null;
  if ("repeatOf" in written && !repeated) {
    // The repeated comment was deleted since: this post is a new comment after all (once; a
    // parallel post that won meanwhile is the repeat then).
    written = await write(written.repeatOf);
    repeated = "repeatOf" in written ? await repeatedComment(db, written.repeatOf) : null;
  }
  let comment: Comment & { author: Pick<Member, keyof typeof AUTHOR_FIELDS> };
  const created = "id" in written;
  if ("id" in written) {
    comment = { ...draft, id: written.id, author: member };
    // moderation: the shadow configuration's decision, beside the comment (moderation/scorer/shadow.ts)
    if (shadow) {
      await recordShadowScore(db, { accountId: account.id, commentId: written.id, createdAt: now, record: shadow });
    }
  } else {
    if (!repeated) throw new AppError("CONFLICT", "The comment this repeats was deleted meanwhile: send it again.");
    comment = repeated;
  }
  // The counts came with the write (comment-write.ts); a repeat reads them now.
  const { stats, realm } = "counts" in written ? written.counts : await pageAndRealmCounts(db, page.accountId, page.id);
  const [wire] = await toWire(db, page, [comment], {
    realmCount: realm,
    ...(created ? { justCreatedBy: { jwtId: guest ? null : (args.user?.id ?? null) } } : {}),
  });
  return { created, response: { ...countsOf(stats), comment: wire! } };
}

/** A page's comments (comment-list.ts). */
export { listComments } from "./comment-list";

/** The comment `commentId` of the page `encodedUrl` names in the account, for its author to change. */
async function authorsComment(
  db: Db,
  args: { accountId: number; user: ApiUser | null; encodedUrl: string; commentId: number; now: Date },
) {
  const user = requireUser(args.user);
  const url = decodePageId(args.encodedUrl, PAGE_FIELD);
  const page = await findPage(db, args.accountId, url);
  const comment = page
    ? await db.comment.findFirst({
        where: { id: args.commentId, accountId: args.accountId, pageId: page.id, deletedAt: null },
        include: { author: true },
      })
    : null;
  if (!page || !comment) throw new AppError("NOT_FOUND", "Comment not found on this page.");
  const member = await findJwtMember(db, { accountId: args.accountId, userId: user.id });
  if (!member || member.id !== comment.authorId) {
    throw new AppError("FORBIDDEN", "Only the comment's author may change it.");
  }
  await assertNotBanned(db, { accountId: args.accountId, memberId: member.id, now: args.now }); // moderation: bans
  return { page, comment };
}

/**
 * Replace a comment's body (the author only); edited_at is set. The new body is moderated as a new
 * comment would be: a clean edit of a held comment publishes it, an edit that must wait unpublishes it.
 * A published edit tells readers as notifications/notify.ts enqueueCommentNotifications says.
 */
export async function editComment(
  db: Db,
  args: {
    accountId: number;
    user: ApiUser | null;
    encodedUrl: string;
    commentId: number;
    ops: TCommentOp[];
    now: Date;
  },
): Promise<{ comment: TCommentWire }> {
  const { page, comment } = await authorsComment(db, args);
  // The account's edit window (moderation settings; 0: none): a later edit is refused, unchanged.
  const { editWindowMinutes } = await moderationSettingsOf(db, args.accountId);
  assertWithinEditWindow({ createdAt: comment.createdAt, windowMinutes: editWindowMinutes, now: args.now });
  const ops = prepareOps(args.ops, await publisherOf(db, args.accountId), getEnv().APP_URL);
  const { columns: moderation } = await moderate(db, {
    accountId: args.accountId,
    memberId: comment.authorId,
    ops,
    now: args.now,
    field: "body.comment.ops",
    editing: comment.id,
    page: { id: page.id, rules: pageRulesOf(page), creating: false },
    email: comment.author.email,
  });
  // moderation: a moderator's decision survives the edit (decisions.ts afterEdit); the row is
  // locked so a moderator acting at the same moment is applied before or after, never lost.
  const updated = await withTransaction(db, async (tx) => {
    await tx.$queryRaw`SELECT id FROM comments WHERE id = ${comment.id} FOR UPDATE`;
    const current = await tx.comment.findUniqueOrThrow({ where: { id: comment.id } });
    if (current.deletedAt) throw new AppError("NOT_FOUND", "Comment not found on this page.");
    const after = await tx.comment.update({
      where: { id: comment.id },
      data: {
        body: { ops },
        bodyDigest: digestOf(ops, comment.parentCommentId),
        ...moderation,
        ...afterEdit(current.moderationState, {
          isPublished: moderation.isPublished ?? true,
          isSpam: moderation.isSpam ?? false,
        }),
        editedAt: args.now,
      },
      include: { author: true },
    });
    // notifications: a clean edit that publishes a held reply or mention tells its readers, as a
    // new comment would; an edit of a published comment that stays published tells the readers it
    // mentions anew (once: the event keys are unique per reader).
    await enqueueCommentNotifications(tx, {
      comment: after,
      before: current,
      edit: { authorId: current.authorId, bodyBefore: current.body },
      now: args.now,
    });
    return after;
  });
  const [wire] = await toWire(db, page, [updated]);
  return { comment: wire! };
}

/** Hide a comment (the author only); hiding again changes nothing. */
export async function hideComment(
  db: Db,
  args: { accountId: number; user: ApiUser | null; encodedUrl: string; commentId: number; now: Date },
): Promise<{ comment: TCommentWire }> {
  const { page, comment } = await authorsComment(db, args);
  const hidden = comment.hiddenAt
    ? comment
    : await withTransaction(db, async (tx) => {
        const row = await tx.comment.update({
          where: { id: comment.id },
          data: { hiddenAt: args.now, hiddenById: comment.authorId },
          include: { author: true },
        });
        return row;
      });
  const [wire] = await toWire(db, page, [hidden]);
  return { comment: wire! };
}

/**
 * Visible comments per page id, in the order asked (unknown pages: 0). `+` may arrive as a space
 * (btoa ids put unencoded in a query string), so spaces are read as `+`.
 */
export async function pageCommentCounts(
  db: Db,
  args: { accountId: number; pageIds: string[] },
): Promise<{ url: string; comments_count: number }[]> {
  const urls = args.pageIds.map((id, index) => decodePageId(id.replace(/ /g, "+"), `query.page_ids.${index}`));
  const { totals: counts, qaPages } = await visibleCommentsByUrl(db, args.accountId, urls);
  // Q&A pages count what their list shows: answered questions and their replies (comment-list.ts).
  for (const page of qaPages) {
    const { total } = await qaPageStats(db, { accountId: args.accountId, pageId: page.id, qa: qaOf(page)! });
    counts.set(page.url, total);
  }
  return urls.map((url) => ({ url, comments_count: counts.get(url) ?? 0 }));
}
