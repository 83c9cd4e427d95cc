/**
 * Telling readers by e-mail (docs/engagement.md "Notifications to readers"): the jobs and their
 * writes. A comment's write (create, a moderator's decision, an author's edit that publishes it or
 * mentions a reader anew) enqueues "notifications.comment"; that job, in its own transaction,
 * works out who is told (rules.ts), writes one reader_notifications row per recipient and event,
 * and for a reader who chose "at once" queues the e-mail in the outbox in that same transaction;
 * for "digest" it leaves the row pending and keeps one "notifications.digest" job per reader, due
 * at the next digest hour on the reader's clocks (their stored zone, else UTC), which collects
 * what is still pending into one mail.
 * A new comment's job is written by the comment's own write statement (comment-write.ts), so it
 * exists exactly when the comment does.
 *
 * Never two mails for one event: the row is unique on (member, event key) and is written
 * `ON CONFLICT DO NOTHING` in the transaction that queues its e-mail, so a second worker (another
 * instance) running the same event waits for the first's commit and then writes nothing, and a
 * worker killed mid-way rolls back everything, the mail included, for the rerun to do once.
 */
import "server-only";

import { z } from "zod";

import { getEnv } from "../../../env.js";
import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import type { Comment, Prisma, ReaderNotificationKind } from "../../generated/prisma/client";
import { defineJob } from "../../jobs/define";
import { enqueueJob } from "../../jobs/queue";
import { queueEmail } from "../../mail/outbox";
import { readerMail } from "../../mail/reader-mail";
import { mentionsOf } from "../comment-bodies";
import { COMMENT_LIMITS, type TCommentOp } from "../comments.schema";
import { activeBanWhere } from "../moderation/bans/bans";
import { excerptOf, renderDigestMail, renderImmediateMail, type TMailContext, type TMailItem } from "./mail";
import { prefsOf } from "./preferences";
import {
  deliveryFor,
  eventsOf,
  heldDecision,
  nextDigestAt,
  recipientAddress,
  stillTrue,
  type HeldState,
  type TCommentFacts,
  type TDecision,
  type TNotificationKind,
  type TRecipientFacts,
} from "./rules";
import { signUnsubscribeToken, unsubscribeKey, type TUnsubscribeKind } from "./token";

/** The kinds as the database's enum spells them (raw SQL). */
const KIND_SQL: Record<TNotificationKind, string> = { replies: "reply", mentions: "mention", decisions: "decision" };
const KIND_FROM_DB: Record<ReaderNotificationKind, TNotificationKind> = {
  REPLY: "replies",
  MENTION: "mentions",
  DECISION: "decisions",
};

/** A comment body's ops (stored as validated data: comments.schema.ts). */
const opsOf = (body: unknown): TCommentOp[] => (body as { ops?: TCommentOp[] } | null)?.ops ?? [];

// ─── enqueueing ──────────────────────────────────────────────────────────────────────────────

/**
 * `newlyMentioned`: an author's edit of a published comment; only these readers are told, each of
 * their mention (without it, every reader the comment's events concern).
 */
type NotifyPayload = { commentId: number; decision?: TDecision; newlyMentioned?: number[] };

/** A mention's id that can be a member's id (a positive int4); the others mention nobody. */
const isMemberId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

/** The member ids a body mentions, each once (only those that can be members' ids). */
const mentionedIdsOf = (body: unknown): number[] =>
  mentionsOf(opsOf(body))
    .map((m) => Number(m.id))
    .filter(isMemberId);

type WrittenComment = {
  id: number;
  accountId: number;
  parentCommentId: number | null;
  isPublished: boolean;
  body: unknown;
};

/** Whether a comment, published as it is, tells anyone: a reply, or one that mentions someone. */
export function talksToReaders(comment: Pick<WrittenComment, "parentCommentId" | "isPublished" | "body">): boolean {
  return comment.isPublished && (comment.parentCommentId !== null || mentionsOf(opsOf(comment.body)).length > 0);
}

/**
 * Queue the notifications a comment's change may cause, in the caller's transaction where it has
 * one (`before`, the comment as it was): the decision on a held comment (rules.ts heldDecision),
 * and the reply and mentions of a comment the change published (a moderator's approval, or the
 * author's clean edit of a held comment). An author's edit (`edit`) of a comment published before
 * and after tells only the readers it mentions anew: members of the account other than the author
 * whom the replaced body did not mention (the job's event keys keep a reader mentioned, unmentioned
 * and mentioned again from being told twice). A new comment's job is written by the comment's own
 * statement (comment-write.ts, `talksToReaders`); an import, which writes in a transaction, comes
 * here without `before`.
 */
export async function enqueueCommentNotifications(
  db: Db,
  args: {
    comment: WrittenComment & Pick<Comment, "moderationState" | "deletedAt">;
    before?: HeldState;
    /** An author's edit: the author, and the body the edit replaced. */
    edit?: { authorId: number; bodyBefore: unknown };
    now: Date;
  },
): Promise<void> {
  const { comment, before, edit, now } = args;
  const decision = before ? heldDecision(before, comment) : undefined;
  const published = !before || !before.isPublished;
  if (decision || (talksToReaders(comment) && published)) {
    await enqueueJob(
      db,
      notifyCommentJob,
      { commentId: comment.id, ...(decision ? { decision } : {}) },
      { accountId: comment.accountId, now },
    );
    return;
  }
  if (!edit || !before?.isPublished || !comment.isPublished) return;
  const newlyMentioned = await newlyMentionedIn(db, { accountId: comment.accountId, edit, body: comment.body });
  if (newlyMentioned.length === 0) return;
  await enqueueJob(
    db,
    notifyCommentJob,
    { commentId: comment.id, newlyMentioned },
    { accountId: comment.accountId, now },
  );
}

/** The members of the account, other than the author, an edited body mentions and the replaced one did not. */
async function newlyMentionedIn(
  db: Db,
  args: { accountId: number; edit: { authorId: number; bodyBefore: unknown }; body: unknown },
): Promise<number[]> {
  const before = new Set(mentionedIdsOf(args.edit.bodyBefore));
  const added = mentionedIdsOf(args.body).filter((id) => !before.has(id) && id !== args.edit.authorId);
  if (added.length === 0) return [];
  const members = await db.member.findMany({
    where: { accountId: args.accountId, id: { in: added } },
    select: { id: true },
  });
  const found = new Set(members.map((m) => m.id));
  return added.filter((id) => found.has(id));
}

// ─── facts ───────────────────────────────────────────────────────────────────────────────────

const COMMENT_INCLUDE = {
  page: { select: { url: true, headline: true } },
  author: { select: { id: true, name: true } },
  parent: { select: { authorId: true, isPublished: true, isSpam: true } },
  replyTo: { select: { authorId: true } },
} as const;

type LoadedComment = Prisma.CommentGetPayload<{ include: typeof COMMENT_INCLUDE }>;

/** A loaded comment as the rules see it (`mentionable`: the mentioned ids that are members of its account). */
function factsOf(comment: LoadedComment, mentionable: ReadonlySet<number>): TCommentFacts {
  const parentListed = !comment.parent || (comment.parent.isPublished && !comment.parent.isSpam);
  const ops = opsOf(comment.body);
  return {
    id: comment.id,
    authorId: comment.authorId,
    visible: comment.isPublished && !comment.isSpam && !comment.deletedAt && !comment.hiddenAt && parentListed,
    moderationState: comment.moderationState,
    deleted: comment.deletedAt !== null,
    guest: comment.guest,
    // A reply tells the author of the comment it answers (a reply under the same parent, or the parent).
    parentAuthorId: comment.replyTo?.authorId ?? comment.parent?.authorId ?? null,
    mentionedIds: mentionsOf(ops)
      .map((m) => Number(m.id))
      .filter((id) => mentionable.has(id)),
  };
}

/** The mentioned ids of comments that are members of `accountId`. */
async function mentionableIn(db: Db, accountId: number, comments: LoadedComment[]): Promise<Set<number>> {
  const ids = comments.flatMap((c) => mentionedIdsOf(c.body));
  if (ids.length === 0) return new Set();
  const rows = await db.member.findMany({ where: { accountId, id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

/** What the rules need of each member: address, ban, choices. */
async function recipientsOf(db: Db, accountId: number, memberIds: number[], now: Date) {
  if (memberIds.length === 0) return new Map<number, TRecipientFacts & { name: string }>();
  const members = await db.member.findMany({
    where: { accountId, id: { in: [...new Set(memberIds)] } },
    select: {
      id: true,
      name: true,
      email: true,
      emailVerified: true,
      communicationEmail: true,
      source: true,
      notificationPrefs: true,
      commentBans: { where: { accountId, ...activeBanWhere(now) }, select: { id: true }, take: 1 },
    },
  });
  return new Map(
    members.map((m) => [
      m.id,
      {
        memberId: m.id,
        name: m.name,
        address: recipientAddress(m),
        banned: m.commentBans.length > 0,
        prefs: prefsOf(m.notificationPrefs),
        timeZone: m.notificationPrefs?.timeZone ?? "UTC",
      },
    ]),
  );
}

// ─── the mail's surroundings ─────────────────────────────────────────────────────────────────

/**
 * The one-click URL and mailbox of a reader's kind, the publication's name, and the reader's
 * language (their saved locale, else the account's default), read in the caller's transaction.
 */
async function mailContext(
  db: Db,
  args: { accountId: number; memberId: number; readerName: string; kind: TUnsubscribeKind; appUrl: string },
): Promise<TMailContext> {
  const env = getEnv();
  const [account, language] = await Promise.all([
    db.account.findUniqueOrThrow({ where: { id: args.accountId }, select: { name: true } }),
    readerMail(db, args.accountId, args.memberId),
  ]);
  const token = signUnsubscribeToken(unsubscribeKey(env), args);
  const base = args.appUrl.replace(/\/$/, "");
  const sender = /<([^>]+)>/.exec(env.MAIL_FROM ?? "")?.[1] ?? env.MAIL_FROM ?? `unsubscribe@${new URL(base).hostname}`;
  return {
    language,
    publication: account.name,
    readerName: args.readerName,
    unsubscribeUrl: `${base}/api/v1/accounts/${args.accountId}/notifications/unsubscribe?token=${token}`,
    unsubscribeMailto: `mailto:${sender}?subject=${encodeURIComponent(`unsubscribe ${token}`)}`,
  };
}

function mailItem(
  row: { id: bigint | number; kind: TNotificationKind; decision?: TDecision | null; createdAt: Date },
  comment: LoadedComment,
): TMailItem {
  return {
    id: row.id,
    kind: row.kind,
    decision: row.decision ?? null,
    createdAt: row.createdAt,
    commentId: comment.id,
    // Without a name, the mail says "Someone", "A guest" or "A reader" in the reader's words.
    authorName: comment.confidential ? null : comment.guest ? comment.guestName || null : comment.author.name || null,
    authorKind: comment.confidential ? "confidential" : comment.guest ? "guest" : "member",
    excerpt: excerptOf(comment.body),
    pageUrl: comment.page.url,
    headline: comment.page.headline,
  };
}

const decisionOf = (eventKey: string): TDecision | null =>
  eventKey.endsWith(":rejected") ? "rejected" : eventKey.endsWith(":approved") ? "approved" : null;

// ─── telling about one comment ───────────────────────────────────────────────────────────────

/**
 * Tell the readers a comment's change concerns, once each (see the file's comment). Returns the
 * notifications written now (a rerun writes none).
 */
export async function deliverCommentNotifications(
  db: Db,
  args: NotifyPayload & { now: Date; appUrl: string },
): Promise<{ memberId: number; kind: TNotificationKind; delivery: "immediate" | "digest" }[]> {
  return withTransaction(db, async (tx) => {
    const comment = await tx.comment.findUnique({ where: { id: args.commentId }, include: COMMENT_INCLUDE });
    if (!comment) return [];
    const facts = factsOf(comment, await mentionableIn(tx, comment.accountId, [comment]));
    // An edit's job: only the readers it mentioned anew, each of their mention.
    const only = args.newlyMentioned ? new Set(args.newlyMentioned) : null;
    const events = eventsOf(facts, { decision: args.decision }).filter(
      (e) => !only || (e.kind === "mentions" && only.has(e.memberId)),
    );
    const recipients = await recipientsOf(
      tx,
      comment.accountId,
      events.map((e) => e.memberId),
      args.now,
    );
    const written: { memberId: number; kind: TNotificationKind; delivery: "immediate" | "digest" }[] = [];
    for (const event of events) {
      const recipient = recipients.get(event.memberId);
      const delivery = deliveryFor(event, facts, recipient);
      if (!delivery || !recipient) continue;
      const [row] = await tx.$queryRaw<{ id: bigint }[]>`
        INSERT INTO reader_notifications (account_id, member_id, kind, comment_id, event_key, delivery, status, created_at)
        VALUES (${comment.accountId}, ${recipient.memberId}, ${KIND_SQL[event.kind]}::text::reader_notification_kind,
          ${comment.id}, ${event.eventKey}, ${delivery}::text::reader_notification_choice, 'pending', ${args.now})
        ON CONFLICT (member_id, event_key) DO NOTHING
        RETURNING id`;
      if (!row) continue;
      written.push({ memberId: recipient.memberId, kind: event.kind, delivery });
      if (delivery === "digest") {
        // One job per reader and digest, due at the digest hour on the reader's clocks: keyed by
        // the instant it is due, so a notification written while a digest runs gets the next
        // day's job, never a job that already read.
        const runAt = nextDigestAt(args.now, recipient.timeZone);
        await enqueueJob(
          tx,
          digestJob,
          { memberId: recipient.memberId },
          {
            accountId: comment.accountId,
            key: `notifications.digest:${recipient.memberId}:${runAt.toISOString()}`,
            runAt,
            now: args.now,
          },
        );
        continue;
      }
      const ctx = await mailContext(tx, {
        accountId: comment.accountId,
        memberId: recipient.memberId,
        readerName: recipient.name,
        kind: event.kind,
        appUrl: args.appUrl,
      });
      const mail = renderImmediateMail(
        ctx,
        mailItem({ id: row.id, kind: event.kind, decision: event.decision, createdAt: args.now }, comment),
      );
      const email = await queueEmail(tx, {
        accountId: comment.accountId,
        to: recipient.address!,
        ...mail,
        kind: `engagement.notification.${event.kind}`,
        now: args.now,
      });
      await tx.readerNotification.update({
        where: { id: row.id },
        data: { status: "SENT", emailId: email.id, doneAt: args.now },
      });
    }
    return written;
  });
}

/**
 * "notifications.comment": tell the readers a comment's create, a moderator's decision or an
 * author's edit concerns.
 */
export const notifyCommentJob = defineJob<NotifyPayload>({
  name: "notifications.comment",
  kind: "transactional",
  payload: z.object({
    commentId: z.number().int().positive(),
    decision: z.enum(["approved", "rejected"]).optional(),
    newlyMentioned: z.array(z.number().int().positive()).min(1).max(COMMENT_LIMITS.maxOps).optional(),
  }),
  async run(tx, job, ctx) {
    await deliverCommentNotifications(tx, { ...job.payload, now: ctx.clock(), appUrl: ctx.appUrl });
  },
});

// ─── the daily digest ────────────────────────────────────────────────────────────────────────

/**
 * Collect a reader's pending digest notifications into one e-mail: those still true (rules.ts
 * stillTrue) while the reader is not banned, has an address and still wants the kind; the
 * others are SKIPPED. Nothing pending, or nothing left: no e-mail. The rows are locked, so two
 * workers never put one notification in two mails.
 */
export async function sendDigest(
  db: Db,
  args: { memberId: number; now: Date; appUrl: string },
): Promise<{ emailId: string | null; told: number; skipped: number }> {
  return withTransaction(db, async (tx: TransactionClient) => {
    const locked = await tx.$queryRaw<{ id: bigint }[]>`
      SELECT id FROM reader_notifications WHERE member_id = ${args.memberId} AND status = 'pending' FOR UPDATE`;
    if (locked.length === 0) return { emailId: null, told: 0, skipped: 0 };
    const rows = await tx.readerNotification.findMany({
      where: { id: { in: locked.map((r) => r.id) } },
      include: { comment: { include: COMMENT_INCLUDE } },
      orderBy: { id: "asc" },
    });
    const accountId = rows[0]!.accountId;
    const recipient = (await recipientsOf(tx, accountId, [args.memberId], args.now)).get(args.memberId);
    const mentionable = await mentionableIn(
      tx,
      accountId,
      rows.map((r) => r.comment),
    );
    const items: TMailItem[] = [];
    const skipped: bigint[] = [];
    for (const row of rows) {
      const kind = KIND_FROM_DB[row.kind];
      const decision = decisionOf(row.eventKey);
      const facts = factsOf(row.comment, mentionable);
      const told =
        recipient &&
        !recipient.banned &&
        recipient.address !== null &&
        recipient.prefs[kind] !== "off" &&
        stillTrue({ kind, decision: decision ?? undefined, memberId: args.memberId }, facts);
      if (told) items.push(mailItem({ id: row.id, kind, decision, createdAt: row.createdAt }, row.comment));
      else skipped.push(row.id);
    }
    if (skipped.length) {
      await tx.readerNotification.updateMany({
        where: { id: { in: skipped } },
        data: { status: "SKIPPED", doneAt: args.now },
      });
    }
    if (items.length === 0 || !recipient) return { emailId: null, told: 0, skipped: skipped.length };
    const ctx = await mailContext(tx, {
      accountId,
      memberId: args.memberId,
      readerName: recipient.name,
      kind: "all",
      appUrl: args.appUrl,
    });
    const mail = renderDigestMail(ctx, items);
    const email = await queueEmail(tx, {
      accountId,
      to: recipient.address!,
      ...mail,
      kind: "engagement.notification.digest",
      now: args.now,
    });
    await tx.readerNotification.updateMany({
      where: { id: { in: items.map((i) => BigInt(i.id)) } },
      data: { status: "SENT", emailId: email.id, doneAt: args.now },
    });
    return { emailId: email.id, told: items.length, skipped: skipped.length };
  });
}

/** "notifications.digest": one reader's daily digest (one pending job per reader, keyed). */
export const digestJob = defineJob<{ memberId: number }>({
  name: "notifications.digest",
  kind: "transactional",
  payload: z.object({ memberId: z.number().int().positive() }),
  concurrency: 5,
  async run(tx, job, ctx) {
    await sendDigest(tx, { memberId: job.payload.memberId, now: ctx.clock(), appUrl: ctx.appUrl });
  },
});
